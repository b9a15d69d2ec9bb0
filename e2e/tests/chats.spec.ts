// Group chats in two browsers at once: an English and a Spanish member read each other in their
// own language, live (the server's embedded translator is Apertium, English↔Spanish); an edit
// reaches the other side; a removed member is cut off at once. Screenshots of the chat list, the
// chat and the members panel at 375 and 1280 px go to test-results/chats/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { bearer, createActivatedUser, screenshots, type TestUser } from '../fixtures';

const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results', 'chats');

async function signedIn(browser: Browser, user: TestUser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  await page.goto('/signin');
  await page.getByLabel(/^(Email|Correo electrónico)$/).fill(user.email);
  await page.getByLabel(/^(Password|Contraseña)$/).fill(user.password);
  await page.getByRole('button', { name: /^(Sign in|Iniciar sesión)$/ }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  return page;
}


const messages = (page: Page) => page.getByRole('region', { name: /^(Messages|Mensajes)$/ });

test('an English and a Spanish member chat live, each in their own language', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const ana = await createActivatedUser(request, 'Ana García');
  const adaPage = await signedIn(browser, ada, 'en-US');
  const anaPage = await signedIn(browser, ana, 'es-ES');
  // Ana waits on her (empty) chat list.
  await anaPage.getByRole('link', { name: 'Chats', exact: true }).click();
  await expect(anaPage.getByText('Todavía no está en ningún chat.', { exact: false })).toBeVisible();

  // Ada creates a chat in English and Spanish.
  await adaPage.getByRole('link', { name: 'Chats', exact: true }).click();
  await expect(adaPage.getByText('You are not in any chat yet.', { exact: false })).toBeVisible();
  await adaPage.getByRole('button', { name: 'New chat' }).first().click();
  const create = adaPage.getByRole('dialog', { name: 'New chat' });
  await create.getByLabel('Title').fill('Team Lisbon');
  await create.getByLabel('Description (optional)').fill('Planning the trip');
  // A language the embedded translator cannot reach from English is flagged before the chat exists.
  await create.getByLabel('Find a language').fill('japan');
  await create.getByRole('checkbox', { name: /Japanese/ }).check();
  await expect(create.getByText('Apertium cannot translate between English and Japanese', { exact: false })).toBeVisible();
  await create.getByRole('button', { name: 'Remove Japanese' }).click();
  await create.getByLabel('Find a language').fill('span');
  await create.getByRole('checkbox', { name: /Spanish/ }).check();
  await expect(create.getByRole('list', { name: 'Chosen languages' })).toContainText('English');
  await expect(create.getByRole('list', { name: 'Chosen languages' })).toContainText('Spanish');
  await screenshots(adaPage, shots, 'new-chat-en');
  await create.getByRole('button', { name: 'Create chat' }).click();
  await expect(adaPage).toHaveURL(/\/chat\/\d+$/);
  await expect(adaPage.getByRole('heading', { name: 'Team Lisbon' })).toBeVisible();
  // What to do next is said on the new chat's page (not in a toast over the Members button), with
  // the chat's description under its title.
  await expect(adaPage.locator('.created-notice')).toContainText('Chat created. Add members from the Members button.');
  await expect(adaPage.locator('.chat-description')).toHaveText('Planning the trip');
  await expect(adaPage.locator('.Toastify__toast')).toHaveCount(0);
  await screenshots(adaPage, shots, 'chat-created-en');
  // A paste past the 4,000 characters a message holds keeps the start, and says so.
  await adaPage.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await adaPage.evaluate((text) => navigator.clipboard.writeText(text), 'x'.repeat(4100));
  const composer = adaPage.getByRole('textbox', { name: 'Message', exact: true });
  await composer.focus();
  await adaPage.keyboard.press('ControlOrMeta+V');
  await expect(adaPage.getByRole('alert').filter({ hasText: 'Only the first 4,000 characters were kept' })).toBeVisible();
  expect(await composer.inputValue()).toHaveLength(4000);
  await composer.fill('');
  await expect(adaPage.getByText('Only the first 4,000 characters were kept')).toHaveCount(0);
  const chatPath = new URL(adaPage.url()).pathname;

  // Ada invites Ana by e-mail: Ana is listed, marked invited until she accepts.
  await adaPage.getByRole('button', { name: 'Members' }).click();
  const adaMembers = adaPage.getByRole('dialog', { name: 'Members' });
  await adaMembers.getByLabel('Email').fill(ana.email);
  await adaMembers.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(adaPage.getByText(`Invitation sent to ${ana.email}.`)).toBeVisible();
  await expect(adaMembers.locator('.member-row', { hasText: ana.email })).toContainText('Invited');
  await expect(adaMembers.getByText('2 members')).toBeVisible();
  await adaMembers.getByRole('button', { name: 'Close' }).click();
  // Followed, the "what next" notice is gone, and a reload does not bring it back (issue 37: it stayed for good).
  await expect(adaPage.locator('.created-notice')).toHaveCount(0);
  await adaPage.reload();
  await expect(adaPage.getByRole('heading', { name: 'Team Lisbon' })).toBeVisible();
  await expect(adaPage.locator('.created-notice')).toHaveCount(0);

  // The invitation reaches Ana's list at once; she accepts it there, and the chat is hers.
  const invitation = anaPage.getByRole('article', { name: 'Team Lisbon' });
  await expect(invitation).toContainText('Invitación');
  await invitation.getByRole('button', { name: 'Aceptar' }).click();
  await expect(anaPage.getByText('Se ha unido a «Team Lisbon».')).toBeVisible();
  await expect(invitation).toHaveCount(0);
  await anaPage.getByRole('link', { name: /Team Lisbon/ }).click();
  await expect(anaPage).toHaveURL((url) => url.pathname === chatPath);
  await anaPage.getByRole('button', { name: 'Ajustes' }).click();
  const settings = anaPage.getByRole('dialog', { name: 'Sus ajustes en este chat' });
  await settings.getByLabel('Leo en').selectOption({ label: 'Español' });
  await settings.getByRole('button', { name: 'Guardar' }).click();
  await expect(anaPage.getByText('Usted lee en español')).toBeVisible();

  // Ada writes; Ana reads it in Spanish without reloading, and can see the original.
  await expect(adaPage.getByText('Reconnecting…')).toBeHidden();
  await adaPage.getByLabel('Message', { exact: true }).fill('Good morning, how are you?');
  await adaPage.getByLabel('Message', { exact: true }).press('Enter');
  await expect(messages(adaPage).getByText('Good morning, how are you?')).toBeVisible();
  const inSpanish = messages(anaPage).locator('.message', { hasText: 'Ada Lovelace' }).last();
  await expect(inSpanish.locator('.bubble-text')).toHaveText(/buenos días/i, { timeout: 20_000 });
  await inSpanish.getByRole('button', { name: 'Ver original' }).click();
  await expect(inSpanish.getByText('Good morning, how are you?')).toBeVisible();

  // Ana is writing: Ada sees it; Ana's message reaches Ada in English.
  const anaComposer = anaPage.getByLabel('Mensaje', { exact: true });
  await anaComposer.pressSequentially('Muy bien, ¿y', { delay: 30 });
  await expect(adaPage.getByText('Ana García is writing…')).toBeVisible();
  await anaComposer.pressSequentially(' usted?');
  await anaComposer.press('Enter');
  const inEnglish = messages(adaPage).locator('.message', { hasText: 'Ana García' }).last();
  await expect(inEnglish.locator('.bubble-text')).toHaveText(/very well/i, { timeout: 20_000 });
  await expect(adaPage.getByText('Ana García is writing…')).toBeHidden();

  // Ada edits her message: Ana sees the new text, marked edited.
  const adaOwn = messages(adaPage).locator('.message.mine').first();
  await adaOwn.getByRole('button', { name: 'Message options' }).click();
  await adaOwn.getByRole('button', { name: 'Edit' }).click();
  await adaOwn.getByLabel('Edit your message').fill('Good morning, where is the station?');
  await adaOwn.getByLabel('Edit your message').press('Enter');
  await expect(adaOwn.getByText('edited')).toBeVisible();
  const edited = messages(anaPage).locator('.message', { hasText: 'Ada Lovelace' }).first();
  await expect(edited.locator('.bubble-text')).toHaveText(/dónde/i, { timeout: 20_000 });
  await expect(edited.getByText('editado')).toBeVisible();

  // Screenshots: the list (Ana's has an unread badge once Ada writes while she is away), the chat, the members.
  await screenshots(adaPage, shots, 'chat-detail-en');
  await screenshots(anaPage, shots, 'chat-detail-es');
  await anaPage.getByRole('link', { name: 'Volver a los chats' }).click();
  await adaPage.getByLabel('Message', { exact: true }).fill('The train leaves at nine.');
  await adaPage.getByLabel('Message', { exact: true }).press('Enter');
  const row = anaPage.getByRole('link', { name: /Team Lisbon/ });
  await expect(row).toContainText('1 mensaje sin leer');
  await expect(row).toContainText(/tren/i, { timeout: 20_000 });
  // Beyond the list: the navigation's Chats entry and the tab's title count it too.
  await expect(anaPage.getByRole('navigation').getByRole('link', { name: /Chats/ })).toContainText('1');
  await expect(anaPage).toHaveTitle(/^\(1\) /);
  await screenshots(anaPage, shots, 'chat-list-es');
  await adaPage.getByRole('button', { name: 'Members' }).click();
  await expect(adaMembers.getByText(ana.email)).toBeVisible();
  await screenshots(adaPage, shots, 'members-en');

  // Ada removes Ana: Ana's open chat closes at once with a notice, and the chat leaves her list.
  await anaPage.getByRole('link', { name: /Team Lisbon/ }).click();
  await expect(anaPage).toHaveURL((url) => url.pathname === chatPath);
  await expect(anaPage.getByText('Reconectando…')).toBeHidden();
  // Read: the counts go (the tab's title loses its number); the line "new messages" marks where
  // this visit's news starts, just above the message she had not read.
  await expect(anaPage).not.toHaveTitle(/^\(/);
  const news = anaPage.locator('.unread-separator');
  await expect(news).toHaveText('Mensajes nuevos');
  await expect(anaPage.locator('.unread-separator + li.message')).toContainText(/tren/i);
  await screenshots(anaPage, shots, 'chat-news-es');
  await adaMembers.getByRole('button', { name: 'Remove Ana García' }).click();
  const confirm = adaPage.getByRole('dialog', { name: 'Remove this member?' });
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(adaMembers.getByText('1 member')).toBeVisible();
  await expect(anaPage).toHaveURL((url) => url.pathname === '/chat');
  await expect(anaPage.getByText('Este chat ya no está disponible para usted.').first()).toBeVisible();
  await expect(anaPage.getByRole('link', { name: /Team Lisbon/ })).toHaveCount(0);
  // And the API agrees: she can no longer read it.
  const after = await anaPage.request.get(`/api${chatPath}/messages/`);
  expect(after.status()).toBe(404);
});

test('a message written offline waits in the outbox, even with the tab closed, and is sent once back online', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const headers = await bearer(request, ada);
  const created = await request.post('/api/chat/', { headers, data: { title: 'Offline test', languages: ['en'] } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  const page = await signedIn(browser, ada, 'en-US');
  const context = page.context();
  await page.goto(`/chat/${id}`);
  await expect(page.getByRole('heading', { name: 'Offline test' })).toBeVisible();
  await context.setOffline(true);
  await page.getByLabel('Message', { exact: true }).fill('Written on the train');
  await page.getByLabel('Message', { exact: true }).press('Enter');
  const pending = messages(page).locator('.message.outbox');
  await expect(pending).toContainText('Written on the train');
  await expect(pending).toContainText('Waiting for the network to send');

  // The tab closes while offline; the message waits in localStorage.
  await page.close();
  await context.setOffline(false);
  const again = await context.newPage();
  await again.goto(`/chat/${id}`);
  await expect(messages(again).locator('.message.mine:not(.outbox)')).toContainText('Written on the train');
  await expect(messages(again).locator('.message.outbox')).toHaveCount(0);

  const stored = await request.get(`/api/chat/${id}/messages/`, { headers });
  const body = (await stored.json()) as { results: { content: string }[] };
  expect(body.results.filter((message) => message.content === 'Written on the train')).toHaveLength(1);
});

// The cause of this file's offline test failing under load: the live connection came up after
// the chat had loaded, so its resync refetched the chat, its member and its messages; the network
// went away while those calls were on their way, they failed, and the page traded the loaded chat
// (composer and outbox included) for "Chat not available". Here the same race, made certain: the
// live connection is cut once the chat is on screen, and the refetches after it reconnects meet a
// network that goes away under them.
test('a refetch cut off by the network going away keeps the chat, its messages and the composer on screen', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const headers = await bearer(request, ada);
  const created = await request.post('/api/chat/', { headers, data: { title: 'Cut off', languages: ['en'] } });
  const { id } = (await created.json()) as { id: number };
  expect((await request.post(`/api/chat/${id}/messages/`, { headers, data: { content: 'Before the tunnel' } })).status()).toBe(201);

  const page = await signedIn(browser, ada, 'en-US');
  const context = page.context();
  // The live connection passes through the test, which sees the server acknowledge the chat's
  // subscription (a Socket.IO ack packet, "43…"): from then on the connection is settled.
  const sockets: { close: () => Promise<void> }[] = [];
  let subscribed = false;
  await page.routeWebSocket(/\/api\/live\//, (socket) => {
    sockets.push(socket);
    const server = socket.connectToServer();
    socket.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      if (typeof message === 'string' && message.startsWith('43')) subscribed = true;
      socket.send(message);
    });
  });
  await page.goto(`/chat/${id}`);
  await expect(page.getByRole('heading', { name: 'Cut off' })).toBeVisible();
  await expect(messages(page).getByText('Before the tunnel')).toBeVisible();
  await expect.poll(() => subscribed, { timeout: 30_000 }).toBe(true);

  // From now on a call about this chat finds the network gone while it is on its way.
  let cutOff = 0;
  await page.route(new RegExp(`/api/chat/${id}/`), async (route) => {
    cutOff++;
    await context.setOffline(true);
    await route.abort('internetdisconnected');
  });
  await sockets.at(-1)!.close();
  await expect.poll(() => cutOff, { timeout: 30_000 }).toBeGreaterThan(0);

  await expect(page.getByText('You are offline.', { exact: false })).toBeVisible();
  await page.waitForTimeout(500);
  await expect(page.getByRole('heading', { name: 'Cut off' })).toBeVisible();
  await expect(page.getByText('Chat not available')).toHaveCount(0);
  await expect(messages(page).getByText('Before the tunnel')).toBeVisible();
  await page.getByLabel('Message', { exact: true }).fill('Written in the tunnel');
  await page.getByLabel('Message', { exact: true }).press('Enter');
  await expect(messages(page).locator('.message.outbox')).toContainText('Waiting for the network to send');

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.setOffline(false);
  await expect(messages(page).locator('.message.mine:not(.outbox)', { hasText: 'Written in the tunnel' })).toBeVisible({ timeout: 20_000 });
});

test('roles decide the controls; the owner hands ownership over; members are removed together; a member leaves', async ({ browser, request }) => {
  test.setTimeout(150_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const bo = await createActivatedUser(request, 'Bo Chen');
  const cy = await createActivatedUser(request, 'Cy Young');
  const adaApi = await bearer(request, ada);
  const boApi = await bearer(request, bo);
  const chat = await request.post('/api/chat/', { headers: adaApi, data: { title: 'Roles', languages: ['en', 'ja'] } });
  const { id } = (await chat.json()) as { id: number };
  for (const [user, chatRole] of [
    [bo, 2002],
    [cy, 2003],
  ] as const) {
    expect((await request.post(`/api/chat/${id}/members/`, { headers: adaApi, data: { user: user.email, chatRole } })).status()).toBe(201);
  }
  // Invited, not members yet: they accept, Bo on the chat's page, Cy in his list.
  const boPage = await signedIn(browser, bo, 'en-US');
  await boPage.goto(`/chat/${id}`);
  await boPage.getByRole('region', { name: 'Roles' }).getByRole('button', { name: 'Accept' }).click();
  await expect(boPage.getByLabel('Message', { exact: true })).toBeVisible();
  const cyPage = await signedIn(browser, cy, 'en-US');
  await cyPage.getByRole('link', { name: 'Chats', exact: true }).click();
  await cyPage.getByRole('article', { name: 'Roles' }).getByRole('button', { name: 'Accept' }).click();
  await expect(cyPage.getByRole('link', { name: /Roles/ })).toBeVisible();
  expect((await request.patch(`/api/chat/${id}/member/`, { headers: boApi, data: { language: 'ja' } })).status()).toBe(200);
  expect((await request.post(`/api/chat/${id}/messages/`, { headers: adaApi, data: { content: 'Welcome, everyone.' } })).status()).toBe(201);

  // Bo reads in Japanese, which the embedded translator cannot reach from English: a short note says so.
  await boPage.goto(`/chat/${id}`);
  const welcome = messages(boPage).locator('.message', { hasText: 'Welcome, everyone.' });
  await expect(welcome).toContainText('Not translated: Apertium cannot translate English to Japanese');
  await screenshots(boPage, shots, 'not-translated-en');

  // An ADMIN adds members (as members only) and removes members, not the owner; changes no roles.
  await boPage.getByRole('button', { name: 'Members' }).click();
  const boMembers = boPage.getByRole('dialog', { name: 'Members' });
  await expect(boMembers.getByText('3 members')).toBeVisible();
  await expect(boMembers.getByLabel('Role', { exact: true }).locator('option')).toHaveText(['Member']);
  await expect(boMembers.getByRole('button', { name: 'Remove Cy Young' })).toBeVisible();
  await expect(boMembers.getByRole('button', { name: 'Remove Ada Lovelace' })).toHaveCount(0);
  await expect(boMembers.getByRole('combobox', { name: /^Role of/ })).toHaveCount(0);

  // The OWNER hands ownership over to Bo and becomes an admin; Bo's panel follows live.
  const adaPage = await signedIn(browser, ada, 'en-US');
  await adaPage.goto(`/chat/${id}`);

  // Only the OWNER edits the chat (from Settings); the others see the change live.
  await boMembers.getByRole('button', { name: 'Close' }).click();
  await boPage.getByRole('button', { name: 'Settings' }).click();
  await expect(boPage.getByRole('dialog', { name: 'Your settings for this chat' }).getByRole('button', { name: 'Edit chat' })).toHaveCount(0);
  await boPage.keyboard.press('Escape');
  await adaPage.getByRole('button', { name: 'Settings' }).click();
  await adaPage.getByRole('dialog', { name: 'Your settings for this chat' }).getByRole('button', { name: 'Edit chat' }).click();
  const edit = adaPage.getByRole('dialog', { name: 'Edit chat' });
  await edit.getByLabel('Title').fill('Roles and rules');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(adaPage.getByRole('heading', { name: 'Roles and rules' })).toBeVisible();
  await expect(boPage.getByRole('heading', { name: 'Roles and rules' })).toBeVisible();
  await boPage.getByRole('button', { name: 'Members' }).click();

  await adaPage.getByRole('button', { name: 'Members' }).click();
  const adaMembers = adaPage.getByRole('dialog', { name: 'Members' });
  await adaMembers.getByLabel('Search by name or e-mail').fill('bo chen');
  await expect(adaMembers.getByText('1 member found')).toBeVisible();
  await adaMembers.getByLabel('Role of Bo Chen').selectOption({ label: 'Owner' });
  const handOver = adaPage.getByRole('dialog', { name: 'Hand over ownership?' });
  await handOver.getByRole('button', { name: 'Hand over' }).click();
  await expect(handOver).toBeHidden();
  await adaMembers.getByLabel('Search by name or e-mail').fill('');
  await expect(adaMembers.getByRole('combobox', { name: /^Role of/ })).toHaveCount(0);
  await expect(adaMembers.locator('.member-row', { hasText: 'Ada Lovelace' })).toContainText('Admin');
  await expect(boMembers.getByLabel('Role of Ada Lovelace')).toHaveValue('2002');

  // The new owner removes two members at once (permanently); they are cut off.
  await boMembers.getByRole('checkbox', { name: 'Select Cy Young' }).check();
  await boMembers.getByRole('checkbox', { name: 'Select Ada Lovelace' }).check();
  await boMembers.getByRole('button', { name: 'Remove 2 selected members' }).click();
  const confirm = boPage.getByRole('dialog', { name: 'Remove these members?' });
  await confirm.getByLabel('Remove for good').check();
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(boMembers.getByText('1 member', { exact: true })).toBeVisible();
  await expect(adaPage).toHaveURL((url) => url.pathname === '/chat');
  await expect(adaPage.getByText('This chat is no longer available to you.').first()).toBeVisible();

  // The last member leaves: the chat is gone.
  await boMembers.getByRole('button', { name: 'Leave chat' }).click();
  await boPage.getByRole('dialog', { name: 'Leave this chat?' }).getByRole('button', { name: 'Leave chat' }).click();
  await expect(boPage).toHaveURL((url) => url.pathname === '/chat');
  await expect(boPage.getByText('You left “Roles and rules”.').first()).toBeVisible();
  // Leaving is not news to the one who left: no "no longer available" notice as well.
  await expect(boPage.getByText('This chat is no longer available to you.')).toHaveCount(0);
  expect((await request.get(`/api/chat/${id}/`, { headers: boApi })).status()).toBe(404);
});

test('older messages load above as the reader scrolls up, and the view stays where it was', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const headers = await bearer(request, ada);
  const created = await request.post('/api/chat/', { headers, data: { title: 'Long history', languages: ['en'] } });
  const { id } = (await created.json()) as { id: number };
  for (let n = 1; n <= 45; n++) {
    expect((await request.post(`/api/chat/${id}/messages/`, { headers, data: { content: `Note number ${n}` } })).status()).toBe(201);
  }
  const page = await signedIn(browser, ada, 'en-US');
  await page.goto(`/chat/${id}`);
  const region = messages(page);
  // Newest at the bottom, in view; the first page holds 30.
  await expect(region.getByText('Note number 45', { exact: true })).toBeInViewport();
  await expect(region.locator('.message')).toHaveCount(30);
  const anchor = region.getByText('Note number 16', { exact: true });
  await region.evaluate((element) => element.scrollTo({ top: 0 }));
  await expect(region.getByText('Note number 1', { exact: true })).toBeAttached();
  await expect(region.locator('.message')).toHaveCount(45);
  await expect(region.getByText('This is the beginning of the chat.')).toBeAttached();
  // The message that was at the top is still in view: the older ones came in above it.
  await expect(anchor).toBeInViewport();
});
