// Notifications as a reader meets them (issue 18): Ben (Spanish) finds them in his profile, turns
// his account's notifications off and on again (kept by the server), mutes a chat from its
// settings (the chat list marks it), and a push message delivered to his service worker (as the
// browser's push service would, through the DevTools protocol) is shown as a system notification
// in Spanish that leads to the message. Screenshots at 375 and 1280 px go to
// test-results/notifications/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { chatWithReaders, signedIn, uiStrings } from '../chat';
import { bearer, createActivatedUser, screenshots } from '../fixtures';

const here = path.dirname(fileURLToPath(import.meta.url));
const shots = path.join(here, '..', 'test-results', 'notifications');
const es = uiStrings('es');

test('the profile switch, a muted chat, and a push shown by the service worker', async ({ browser, request, baseURL }) => {
  test.setTimeout(120_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const ben = await createActivatedUser(request, 'Ben Ortega');
  const { chat } = await chatWithReaders(request, ada, [{ user: ben, language: 'es' }]);
  const asBen = await bearer(request, ben);

  const page = await signedIn(browser, ben, 'es-ES', { serviceWorkers: 'allow' });
  await page.context().grantPermissions(['notifications'], { origin: baseURL! });
  await page.goto('/user');
  const card = page.locator('.notifications-card');
  await expect(card.getByRole('heading', { name: es.profile.notificationsTitle })).toBeVisible();
  // The service worker is in place and the browser allows notifications: this device is not subscribed yet.
  await expect(card.getByText(es.profile.notificationsDeviceOff)).toBeVisible({ timeout: 15_000 });
  await expect(card.getByRole('button', { name: es.profile.notificationsEnable })).toBeVisible();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, `profile-es-${width}.png`) });
  }

  // The account's switch: off (the server keeps it), then on again.
  const account = card.getByLabel(es.profile.notificationsAccount);
  await expect(account).toBeChecked();
  await account.uncheck();
  await expect(card.getByText(es.profile.notificationsAccountOff)).toBeVisible();
  await expect.poll(async () => (await (await request.get('/api/notifications/', { headers: asBen })).json()).enabled).toBe(false);
  await account.check();
  await expect.poll(async () => (await (await request.get('/api/notifications/', { headers: asBen })).json()).enabled).toBe(true);

  // A push message as the server sends one (already in Ben's language), handed to his service worker.
  const cdp = await page.context().newCDPSession(page);
  const registrations = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      const found = list.find((entry) => !entry.isDeleted && entry.scopeURL === `${baseURL}/`);
      if (found) resolve(found.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registrations;
  const payload = { kind: 'message', title: 'Ada en Lisbon trip', body: 'La reunión es a las diez.', lang: 'es', url: `/chat/${chat.id}?message=1`, tag: `chat-${chat.id}` };
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL!, registrationId, data: JSON.stringify(payload) });
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, lang: n.lang, tag: n.tag, url: (n.data as { url: string }).url })),
    );
  await expect.poll(shown).toEqual([{ title: payload.title, body: payload.body, lang: 'es', tag: payload.tag, url: payload.url }]);

  // Muting the chat from its settings: the chat list marks it.
  await page.goto(`/chat/${chat.id}`);
  await page.getByRole('button', { name: es.chats.settings.button }).click();
  const dialog = page.getByRole('dialog', { name: es.chats.settings.title });
  await dialog.getByLabel(es.chats.settings.mute).check();
  await screenshots(page, shots, 'chat-settings-es');
  await dialog.getByRole('button', { name: es.common.save }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await (await request.get(`/api/chat/${chat.id}/member/`, { headers: asBen })).json()).muted).toBe(true);
  await page.goto('/chat');
  const row = page.locator('.chat-row').filter({ hasText: 'Lisbon trip' });
  await expect(row.getByRole('img', { name: es.chats.muted })).toBeVisible();
  await screenshots(page, shots, 'list-muted-es');
});
