// Search across languages (issue 18) in the browser: a Spanish reader searches "reuniones" on the
// chat list and finds the English "meeting" through its Spanish rendering, the matched word
// marked; opening the result lands on that message in its chat (older pages loaded), flashed and
// focused; the chat's own search finds the English original by its English word. Screenshots in
// es, en and ar at 375 and 1280 px go to test-results/chat-search/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { chatWithReaders, signedIn, uiStrings } from '../chat';
import { createActivatedUser, screenshots } from '../fixtures';

const here = path.dirname(fileURLToPath(import.meta.url));
const shots = path.join(here, '..', 'test-results', 'chat-search');
const es = uiStrings('es');
const en = uiStrings('en');

test('a Spanish reader finds an English message by a Spanish word, and goes to it', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const ben = await createActivatedUser(request, 'Ben Ortega');
  const { chat, asOwner: asAda, asReaders } = await chatWithReaders(request, ada, [{ user: ben, language: 'es' }]);
  const asBen = asReaders[0]!;
  // The message searched for, then 40 more: it is on an older page than the chat opens with.
  const meeting = await (await request.post(`/api/chat/${chat.id}/messages/`, { headers: asAda, data: { content: 'The meeting is at ten.' } })).json();
  for (let i = 0; i < 40; i++) await request.post(`/api/chat/${chat.id}/messages/`, { headers: asAda, data: { content: `The cat is black ${i}.` } });
  // Its Spanish rendering is made.
  await expect
    .poll(async () => (await (await request.get(`/api/chat/${chat.id}/messages/${meeting.id}/`, { headers: asBen })).json()).translation, { timeout: 30_000 })
    .toBe('done');

  const benPage = await signedIn(browser, ben, 'es-ES');
  await benPage.goto('/chat');
  const box = benPage.getByRole('search', { name: es.chats.searchLabel });
  await box.getByRole('searchbox').fill('reuniones');
  await box.getByRole('searchbox').press('Enter');
  const hit = benPage.locator('.search-hit').filter({ hasText: 'Lisbon trip' });
  await expect(hit).toHaveCount(1);
  await expect(hit.locator('mark')).toHaveText(/^reunión$/i);
  await screenshots(benPage, shots, 'results-es');
  await hit.click();
  await expect(benPage).toHaveURL(new RegExp(`/chat/${chat.id}`));
  const target = benPage.locator(`#message-${meeting.id}`);
  await expect(target).toBeFocused({ timeout: 15_000 });
  await expect(target).toContainText('reunión');
  // And it stays on screen (issue 37: shown at 200 ms, the view jumped to the bottom by 500 ms),
  // while the newer messages' translations and the page settle.
  await expect(target).toBeInViewport();
  for (const wait of [300, 700, 1500]) {
    await benPage.waitForTimeout(wait);
    await expect(target, `${wait} ms later`).toBeInViewport();
  }

  // Within the chat, the English word finds the original (Ada's view, in English).
  const adaPage = await signedIn(browser, ada, 'en-US');
  await adaPage.goto(`/chat/${chat.id}`);
  await adaPage.getByRole('button', { name: en.chats.searchInChat }).click();
  const dialog = adaPage.getByRole('dialog', { name: en.chats.searchInChat });
  await dialog.getByRole('searchbox').fill('meetings');
  await dialog.getByRole('searchbox').press('Enter');
  await expect(dialog.locator('.search-hit mark')).toHaveText(/^meeting$/i);
  await screenshots(adaPage, shots, 'in-chat-en');
  await dialog.locator('.search-hit').click();
  await expect(adaPage.locator(`#message-${meeting.id}`)).toBeFocused({ timeout: 15_000 });

  // Right to left.
  const arPage = await signedIn(browser, ben, 'ar');
  await arPage.goto('/chat?q=reuniones');
  await expect(arPage.locator('.search-hit mark')).toHaveCount(1);
  await screenshots(arPage, shots, 'results-ar');
  for (const page of [benPage, adaPage, arPage]) await page.context().close();
});
