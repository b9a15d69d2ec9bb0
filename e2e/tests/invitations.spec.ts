// Invitations, as the people invited live them: an invitation to a chat shows up in the invitee's
// list at once, its page says what the chat is and shows nothing of its messages, and accepting
// makes it theirs; one declined leaves their list and the chat; an invitation to a room (on the
// home page and in the room list) is accepted and the invitee then sees the room and its call.
// Screenshots of the invitation card and panel at 375 and 1280 px go to test-results/invitations/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { bearer, createActivatedUser, screenshots, type TestUser } from '../fixtures';

const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results', 'invitations');

async function signedIn(browser: Browser, user: TestUser, locale = 'en-US', options: { clock?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  if (options.clock) await page.clock.install();
  await page.goto('/signin');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  return page;
}


const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });

test('an invitation to a chat shows up at once; its page shows only the invitation; accepted, the chat is the invitee’s', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const bo = await createActivatedUser(request, 'Bo Chen');
  const adaApi = await bearer(request, ada);
  const created = await request.post('/api/chat/', { headers: adaApi, data: { title: 'Book club', description: 'One novel a month, read in our own languages.', languages: ['en', 'es'] } });
  const { id } = (await created.json()) as { id: number };
  expect((await request.post(`/api/chat/${id}/messages/`, { headers: adaApi, data: { content: 'First up: Pedro Páramo.' } })).status()).toBe(201);

  // Bo waits on his empty chat list; Ada invites him from the members panel.
  const boPage = await signedIn(browser, bo);
  await boPage.getByRole('link', { name: 'Chats', exact: true }).click();
  await expect(boPage.getByText('You are not in any chat yet.', { exact: false })).toBeVisible();
  const adaPage = await signedIn(browser, ada);
  await adaPage.goto(`/chat/${id}`);
  await adaPage.getByRole('button', { name: 'Members' }).click();
  const members = adaPage.getByRole('dialog', { name: 'Members' });
  await members.getByLabel('Email').fill(bo.email);
  await members.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(adaPage.getByText(`Invitation sent to ${bo.email}.`)).toBeVisible();
  const boRow = members.locator('.member-row', { hasText: bo.email });
  await expect(boRow).toContainText('Invited');
  // Until he accepts he is shown by his address's local part, and cannot be made the owner.
  await expect(boRow.locator('.member-name')).toHaveText(bo.email.split('@')[0]!);
  await boRow.getByRole('combobox').selectOption({ label: 'Owner' });
  const handOver = adaPage.getByRole('dialog', { name: 'Hand over ownership?' });
  await handOver.getByRole('button', { name: 'Hand over' }).click();
  await expect(handOver.getByRole('alert')).toHaveText('This person has not accepted the invitation yet.');
  await handOver.getByRole('button', { name: 'Cancel' }).click();
  await screenshots(adaPage, shots, 'members-invited-en');
  await members.getByRole('button', { name: 'Close' }).click();

  // The invitation reaches Bo's list without a reload, first, with its two answers.
  const card = boPage.getByRole('article', { name: 'Book club' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Invitation');
  // Who invited Bo (issue 37: the card did not say).
  await expect(card).toContainText('Ada Lovelace invited you to join this chat.');
  await screenshots(boPage, shots, 'chat-list-card-en');
  // A second invitation while he looks at the first reaches the list too, without reopening it
  // (issue 37: a tester saw one missing until the list was opened again).
  const second = await request.post('/api/chat/', { headers: adaApi, data: { title: 'Film club', languages: ['en'] } });
  const secondId = ((await second.json()) as { id: number }).id;
  expect((await request.post(`/api/chat/${secondId}/members/`, { headers: adaApi, data: { user: bo.email, chatRole: 2003 } })).status()).toBe(201);
  const secondCard = boPage.getByRole('article', { name: 'Film club' });
  await expect(secondCard).toContainText('Ada Lovelace invited you to join this chat.');
  await expect(card).toBeVisible();

  // Its page: what the chat is, and nothing of its messages (the API agrees).
  await card.getByRole('link', { name: 'Book club' }).click();
  await expect(boPage).toHaveURL((url) => url.pathname === `/chat/${id}`);
  const panel = boPage.getByRole('region', { name: 'Book club' });
  // Title, languages and who invited; the description waits for the acceptance (issue 31).
  await expect(panel).toContainText('Ada Lovelace invited you.');
  await expect(panel).not.toContainText('One novel a month');
  await expect(panel).toContainText('Languages: English and Spanish');
  await expect(boPage.getByText('Chat not available')).toHaveCount(0);
  await expect(boPage.getByText('First up: Pedro Páramo.')).toHaveCount(0);
  await expect(boPage.getByLabel('Message', { exact: true })).toHaveCount(0);
  expect((await boPage.request.get(`/api/chat/${id}/messages/`)).status()).toBe(404);
  await screenshots(boPage, shots, 'chat-panel-en');

  // Accepted: the chat itself, its messages, and Bo writes; Ada reads him live.
  await panel.getByRole('button', { name: 'Accept' }).click();
  await expect(boPage.getByText('You joined “Book club”.')).toBeVisible();
  await expect(messages(boPage).getByText('First up: Pedro Páramo.')).toBeVisible();
  await expect(boPage.getByText('One novel a month, read in our own languages.')).toBeVisible();
  await expect(boPage.getByText('Reconnecting…')).toBeHidden();
  await boPage.getByLabel('Message', { exact: true }).fill('Count me in.');
  await boPage.getByLabel('Message', { exact: true }).press('Enter');
  await expect(messages(adaPage).getByText('Count me in.')).toBeVisible();
  await adaPage.getByRole('button', { name: 'Members' }).click();
  await expect(members.locator('.member-row', { hasText: bo.email })).not.toContainText('Invited');
  await expect(members.locator('.member-row', { hasText: bo.email })).toContainText('Bo Chen');
});

test('an invitation to a chat declined leaves the invitee’s list, and the chat', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const cy = await createActivatedUser(request, 'Cy Young');
  const adaApi = await bearer(request, ada);
  const created = await request.post('/api/chat/', { headers: adaApi, data: { title: 'Late night talks', languages: ['en'] } });
  const { id } = (await created.json()) as { id: number };
  expect((await request.post(`/api/chat/${id}/members/`, { headers: adaApi, data: { user: cy.email, chatRole: 2003 } })).status()).toBe(201);

  const cyPage = await signedIn(browser, cy);
  await cyPage.getByRole('link', { name: 'Chats', exact: true }).click();
  const card = cyPage.getByRole('article', { name: 'Late night talks' });
  await card.getByRole('button', { name: 'Decline' }).click();
  // It asks first: only a new invitation would bring the chat back.
  const confirm = cyPage.getByRole('dialog', { name: 'Decline this invitation?' });
  await expect(confirm).toContainText('“Late night talks” will leave your list.');
  await screenshots(cyPage, shots, 'decline-confirm-en');
  await confirm.getByRole('button', { name: 'Decline' }).click();
  await expect(cyPage.getByText('You declined the invitation to “Late night talks”.')).toBeVisible();
  await expect(card).toHaveCount(0);
  await cyPage.reload();
  await expect(cyPage.getByText('You are not in any chat yet.', { exact: false })).toBeVisible();
  expect((await cyPage.request.get(`/api/chat/${id}/`)).status()).toBe(404);
  const list = (await (await request.get(`/api/chat/${id}/members/`, { headers: adaApi })).json()) as { count: number };
  expect(list.count).toBe(1);
});

test('an invitation to a room, on the home page and in the room list; accepted, the invitee sees the room and joins its call', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const ana = await createActivatedUser(request, 'Ana García');
  const adaApi = await bearer(request, ada);
  const older = await request.post('/api/rooms/', { headers: (await bearer(request, ana)), data: { title: 'My own room', languages: ['en'] } });
  expect(older.status()).toBe(201);
  const created = await request.post('/api/rooms/', { headers: adaApi, data: { title: 'Lisbon planning', description: 'Where we meet and what we visit', languages: ['en', 'es'], domain: 'TRAVEL' } });
  const { id } = (await created.json()) as { id: number };
  expect((await request.patch(`/api/rooms/${id}/state/`, { headers: adaApi, data: { state: 3002 } })).status()).toBe(200);
  expect((await request.post(`/api/rooms/${id}/participants/`, { headers: adaApi, data: { user: ana.email, roomRole: 1002 } })).status()).toBe(201);

  // Home: the invitation comes first among the recent rooms (the page's clock under the test's hand).
  const anaPage = await signedIn(browser, ana, 'en-US', { clock: true });
  const recent = anaPage.getByRole('region', { name: 'Your recent rooms' });
  const homeCard = recent.getByRole('article', { name: 'Lisbon planning' });
  await expect(homeCard).toContainText('Ada Lovelace invited you to join this room.');
  await expect(recent.getByRole('listitem').first()).toContainText('Lisbon planning');
  await screenshots(anaPage, shots, 'home-card-en');
  // A second invitation while she stays on the home page shows up there within half a minute
  // (issue 37: it stayed missing until the page was opened again); the page's clock is run forward.
  const later = await request.post('/api/rooms/', { headers: adaApi, data: { title: 'Porto weekend', languages: ['en', 'es'] } });
  const laterId = ((await later.json()) as { id: number }).id;
  expect((await request.post(`/api/rooms/${laterId}/participants/`, { headers: adaApi, data: { user: ana.email, roomRole: 1002 } })).status()).toBe(201);
  await anaPage.clock.runFor(31_000);
  await expect(recent.getByRole('article', { name: 'Porto weekend' })).toContainText('Ada Lovelace invited you to join this room.');
  await expect(homeCard).toBeVisible();

  // The call of a room she is only invited to sends her to the room's page, which offers the invitation.
  await anaPage.goto(`/room/${id}/connect`);
  await expect(anaPage).toHaveURL((url) => url.pathname === `/room/${id}`);
  const panel = anaPage.getByRole('region', { name: 'Lisbon planning' });
  await expect(panel).toContainText('You are invited to this room.');
  await expect(panel).toContainText('Ada Lovelace invited you.');
  await expect(panel).not.toContainText('Where we meet and what we visit');
  await expect(anaPage.getByRole('link', { name: 'Join the call' })).toHaveCount(0);
  expect((await anaPage.request.get(`/api/rooms/${id}/segments/`)).status()).toBe(404);
  await screenshots(anaPage, shots, 'room-panel-en');

  // The room list too; she accepts there.
  await anaPage.getByRole('link', { name: 'Back to rooms' }).click();
  const card = anaPage.getByRole('article', { name: 'Lisbon planning' });
  await screenshots(anaPage, shots, 'room-list-card-en');
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(anaPage.getByText('You joined “Lisbon planning”.')).toBeVisible();
  await expect(card).toHaveCount(0);

  // Now the room is hers: its transcript, the participants, and the call, which she joins.
  await anaPage.getByRole('link', { name: /Lisbon planning/ }).click();
  await expect(anaPage.getByRole('heading', { level: 1, name: 'Lisbon planning' })).toBeVisible();
  await expect(anaPage.getByText('Where we meet and what we visit')).toBeVisible();
  await expect(anaPage.getByRole('heading', { name: 'Transcript' })).toBeVisible();
  await anaPage.getByRole('link', { name: 'Join the call' }).click();
  await expect(anaPage).toHaveURL((url) => url.pathname === `/room/${id}/connect`);
  await expect(anaPage.locator('.call-transcript-scroller')).toContainText('Nothing said yet.');
  expect((await anaPage.request.get(`/api/rooms/${id}/segments/`)).status()).toBe(200);
  const participants = (await (await request.get(`/api/rooms/${id}/participants/`, { headers: adaApi })).json()) as { results: { user: string; memberState: string; alias: string }[] };
  expect(participants.results.find((item) => item.user === ana.email)).toMatchObject({ memberState: 'joined', alias: 'Ana García' });
});
