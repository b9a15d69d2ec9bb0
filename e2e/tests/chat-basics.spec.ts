// Chat basics (issue 17) with two people who share no language, on the embedded Apertium: Ada
// (English) mentions Ben by picking him from the composer's suggestions, with a link and code;
// Ben (Spanish) sees the unread count with the mention on the navigation and in the chat list,
// the mention highlighted, and the counts clear when he reads; he replies to Ada's first message
// (the quote in Spanish for him, in English for her), Ada reacts and Ben sees it live; Ben opens
// the link; Ada pins a message and Ben reads the pinned list in Spanish, then the earlier version of
// a message Ada edited; Ada sees that Ben saw her message, Ben sees Ada online, then offline with
// when she was last seen. A third member reads in Arabic (right to left). Screenshots in en, es and ar at 375
// and 1280 px go to test-results/chat-basics/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { chatWithReaders, signedIn, uiStrings } from '../chat';
import { createActivatedUser, screenshots } from '../fixtures';

const here = path.dirname(fileURLToPath(import.meta.url));
const shots = path.join(here, '..', 'test-results', 'chat-basics');
const en = uiStrings('en');
const es = uiStrings('es');

test('two people with different languages mention, reply, react and follow a link', async ({ browser, request, baseURL }) => {
  test.setTimeout(180_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const ben = await createActivatedUser(request, 'Ben Ortega');
  const cy = await createActivatedUser(request, 'Cy Haddad');
  // Ada's chat in English, Spanish and Arabic; Ben reads Spanish, Cy Arabic (which Apertium cannot reach: originals).
  const { chat, asOwner: asAda } = await chatWithReaders(
    request,
    ada,
    [
      { user: ben, language: 'es', nickName: 'Ben' },
      { user: cy, language: 'ar', nickName: 'Cy' },
    ],
    { description: 'Planning together', languages: ['en', 'es', 'ar'] },
  );
  const first = await (await request.post(`/api/chat/${chat.id}/messages/`, { headers: asAda, data: { content: 'Good morning, the meeting is today.' } })).json();

  const adaPage = await signedIn(browser, ada, 'en-US');
  const benPage = await signedIn(browser, ben, 'es-ES');
  const chatsLink = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name: new RegExp(`^${name}`) });

  // Ben is told on every page that something is new; he waits on his chat list (live).
  await expect(chatsLink(benPage, es.nav.chats)).toContainText('1');
  await chatsLink(benPage, es.nav.chats).click();
  const row = benPage.getByRole('link', { name: /Lisbon trip/ });
  await expect(row.locator('.unread-badge')).toContainText('1');

  // Ada writes: "@Be" opens the suggestions, Enter picks Ben; a link to this server and some code.
  await adaPage.goto(`/chat/${chat.id}`);
  const composer = adaPage.getByRole('textbox', { name: en.chats.messageLabel });
  await composer.fill('');
  await composer.pressSequentially('Thanks @Be');
  const suggestions = adaPage.getByRole('listbox', { name: en.chats.mentionSuggestions });
  await expect(suggestions.getByRole('option', { name: 'Ben' })).toBeVisible();
  await screenshots(adaPage, shots, 'mention-suggestions-en');
  await composer.press('Enter');
  await expect(composer).toHaveValue('Thanks @Ben ');
  await composer.pressSequentially(`please check ${baseURL}/ and run \`npm start\``);
  await composer.press('Enter');
  const adaMessages = adaPage.getByRole('region', { name: en.chats.messages });
  await expect(adaMessages.locator('.mention').filter({ hasText: '@Ben' })).toBeVisible();

  // The mention is stored as a reference to Ben's membership (read as the author wrote it: Ben's
  // Spanish rendering may already be there).
  const newest = (await (await request.get(`/api/chat/${chat.id}/messages/?limit=1`, { headers: asAda })).json()).results[0];
  expect(newest.content).toMatch(/^Thanks <@\d+> please check /);
  expect(newest.mentions).toEqual([{ id: expect.any(Number), nickName: 'Ben' }]);

  // Ben: two new, one mentions him, on the navigation and in the list, live.
  await expect(chatsLink(benPage, es.nav.chats)).toContainText('2');
  // Two new and, apart, one mentioning him (issue 37: "@2" read as two mentions).
  await expect(benPage.locator('.nav-badge-at')).toHaveText('@1');
  await expect(row.locator('.unread-badge')).toContainText('2');
  await expect(row.locator('.mention-badge')).toHaveText('@1');
  await screenshots(benPage, shots, 'list-es');
  await row.click();

  // The message mentions him: highlighted, in Spanish, link and code untouched.
  const benMessages = benPage.getByRole('region', { name: es.chats.messages });
  const mentioned = benMessages.locator('li.message.mentions-me');
  await expect(mentioned).toHaveCount(1);
  await expect(mentioned.locator('.mention-me')).toHaveText(/@Ben/);
  await expect(mentioned.locator('code')).toHaveText('npm start');
  const link = mentioned.getByRole('link', { name: `${baseURL}/` });
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(mentioned).toContainText('Gracias', { timeout: 20_000 });
  // Read: the counts clear.
  await expect(chatsLink(benPage, es.nav.chats)).not.toContainText(/\d/, { timeout: 10_000 });

  // Ben replies to Ada's first message (translated for him).
  const firstBubble = benMessages.locator(`#message-${first.id}`);
  await expect(firstBubble).toContainText('reunión', { timeout: 20_000 });
  await firstBubble.getByRole('button', { name: es.chats.messageActions }).click();
  await firstBubble.getByRole('button', { name: es.chats.reply }).click();
  await expect(benPage.locator('.reply-bar')).toContainText('Ada');
  const benComposer = benPage.getByRole('textbox', { name: es.chats.messageLabel });
  await benComposer.fill('Sí, a las diez');
  await benComposer.press('Enter');
  const benReply = benMessages.locator('li.message.mine').last();
  await expect(benReply.locator('.quote')).toContainText('reunión');

  // Ada sees the reply live, its quote in her English.
  const adaReply = adaMessages.locator('li.message').filter({ has: adaPage.locator('.quote') }).last();
  await expect(adaReply.locator('.quote')).toContainText('Good morning, the meeting is today.');
  // The quote leads to the original.
  await adaReply.locator('.quote').click();
  await expect(adaMessages.locator(`#message-${first.id}`)).toBeFocused();

  // Ada reacts; Ben sees it live.
  await adaReply.getByRole('button', { name: en.chats.messageActions }).click();
  await adaReply.getByRole('button', { name: en.chats.addReaction }).click();
  await screenshots(adaPage, shots, 'reaction-picker-en');
  await adaReply.getByRole('button', { name: en.chats.emoji.party }).click();
  await expect(adaReply.locator('.reaction-chip.pressed')).toContainText('🎉');
  const benChip = benReply.locator('.reaction-chip', { hasText: '🎉' });
  await expect(benChip).toContainText('1');
  await expect(benChip).toHaveAttribute('aria-label', /Ada/);
  await screenshots(benPage, shots, 'chat-es');
  await screenshots(adaPage, shots, 'chat-en');

  // Ada (the owner) pins her first message from its menu (issue 34); Ben sees it marked, live,
  // and reads the pinned list in Spanish; a member has no Pin in the menu; a pin leads to its message.
  const adaFirst = adaMessages.locator(`#message-${first.id}`);
  await adaFirst.getByRole('button', { name: en.chats.messageActions }).click();
  await adaFirst.getByRole('button', { name: en.chats.pin }).click();
  await expect(adaFirst.locator('.bubble-pinned')).toHaveText(en.chats.pinned);
  await expect(firstBubble.locator('.bubble-pinned')).toHaveText(es.chats.pinned);
  await expect(firstBubble.locator('.bubble-pinned')).toHaveAttribute('title', es.chats.pinnedBy.replace('{{name}}', 'Ada Lovelace'));
  await firstBubble.getByRole('button', { name: es.chats.messageActions }).click();
  await expect(firstBubble.getByRole('button', { name: es.chats.reply })).toBeVisible();
  await expect(firstBubble.getByRole('button', { name: es.chats.pin })).toHaveCount(0);
  await firstBubble.getByRole('button', { name: es.chats.messageActions }).click();
  await benPage.getByRole('button', { name: es.chats.pins }).click();
  const pins = benPage.getByRole('dialog', { name: es.chats.pins });
  await expect(pins.locator('.search-hit')).toHaveCount(1);
  await expect(pins.locator('.search-hit')).toContainText('reunión');
  await screenshots(benPage, shots, 'pins-es');
  await pins.locator('.search-hit').click();
  await expect(pins).toBeHidden();
  await expect(benMessages.locator(`#message-${first.id}`)).toBeFocused();

  // Ada edits that message: Ben's copy says "editado", and one click shows what it said before,
  // in his Spanish, with what was written (issue 34).
  expect((await request.patch(`/api/chat/${chat.id}/messages/${first.id}/`, { headers: asAda, data: { content: 'Good morning, the meeting is today at ten.' } })).status()).toBe(200);
  const editedMark = firstBubble.getByRole('button', { name: es.chats.editedShow });
  await expect(editedMark).toHaveText(es.chats.edited);
  await editedMark.click();
  const versions = benPage.getByRole('dialog', { name: es.chats.versions });
  await expect(versions.locator('.version')).toHaveCount(2);
  await expect(versions.locator('.version').nth(1).locator('.version-text')).toContainText('reunión');
  await expect(versions.locator('.version').nth(1).locator('.version-original')).toContainText('Good morning, the meeting is today.');
  await screenshots(benPage, shots, 'versions-es');
  await benPage.keyboard.press('Escape');
  await expect(versions).toBeHidden();

  // A new message from Ada is said to Ben's screen reader in his language, once translated.
  await adaPage.getByRole('textbox', { name: en.chats.messageLabel }).fill('The cat is black.');
  await adaPage.getByRole('textbox', { name: en.chats.messageLabel }).press('Enter');
  await expect(benPage.locator('[aria-live="polite"][aria-atomic="true"]')).toHaveText(/^Ada Lovelace: .*gato/i, { timeout: 20_000 });

  // Ben was reading further up: Ada's latest message is not seen yet. He goes down to it: her
  // message says he saw it, live, and opens who and when (issue 34).
  const adaLast = adaMessages.locator('li.message.mine').last();
  await expect(adaLast).toContainText('The cat is black.');
  await expect(adaLast.locator('.seen-line')).toHaveCount(0);
  await benMessages.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(adaLast.locator('.seen-line')).toHaveText(en.seen.by.replace('{{names}}', 'Ben'));
  await screenshots(adaPage, shots, 'seen-en');
  await adaLast.locator('.seen-line').click();
  const seenDialog = adaPage.getByRole('dialog', { name: en.seen.title });
  await expect(seenDialog.locator('.seen-list li')).toHaveCount(1);
  await expect(seenDialog.locator('.seen-list li')).toContainText('Ben');
  await adaPage.keyboard.press('Escape');
  await expect(seenDialog).toBeHidden();
  // Ben sees Ada online, on her messages and in the members list, in Spanish.
  const adaDot = benMessages.locator('.message-sender', { hasText: 'Ada Lovelace' }).last().locator('.presence-dot');
  await expect(adaDot).toHaveAttribute('aria-label', es.presence.online);
  await benPage.getByRole('button', { name: es.chats.members.button }).click();
  const benMembers = benPage.getByRole('dialog', { name: es.chats.members.title });
  const adaRow = benMembers.locator('.member-row', { hasText: 'Ada Lovelace' });
  await expect(adaRow.locator('.member-presence')).toHaveText(es.presence.online);
  await screenshots(benPage, shots, 'presence-es');
  await benPage.keyboard.press('Escape');
  await expect(benMembers).toBeHidden();

  // Ada deletes that message: Ben, who had it on screen, sees "Mensaje eliminado" in its place and
  // nothing of it; the API has nothing of it either (issue 34).
  const catId = Number((await adaLast.getAttribute('id'))!.replace('message-', ''));
  await adaLast.getByRole('button', { name: en.chats.messageActions }).click();
  await adaLast.getByRole('button', { name: en.chats.delete }).click();
  await adaPage.getByRole('dialog', { name: en.chats.deleteMessageTitle }).getByRole('button', { name: en.chats.delete }).click();
  await expect(adaMessages.locator(`#message-${catId}`)).toHaveText(en.chats.messageDeleted);
  await expect(benMessages.locator(`#message-${catId}`)).toHaveText(es.chats.messageDeleted);
  await expect(benMessages.locator(`#message-${catId}`)).not.toContainText('gato');
  expect((await request.get(`/api/chat/${chat.id}/messages/${catId}/`, { headers: asAda })).status()).toBe(404);
  await screenshots(benPage, shots, 'deleted-es');

  // Ben opens the link: a new tab at that address.
  const [popup] = await Promise.all([benPage.waitForEvent('popup'), mentioned.getByRole('link', { name: `${baseURL}/` }).click()]);
  await expect(popup).toHaveURL(`${baseURL}/`);
  await popup.close();

  // Cy reads right to left; Apertium cannot reach Arabic, so the originals show.
  const cyPage = await signedIn(browser, cy, 'ar');
  await cyPage.goto(`/chat/${chat.id}`);
  await expect(cyPage.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(cyPage.locator('li.message .quote').last()).toContainText('Good morning');
  await screenshots(cyPage, shots, 'chat-ar');
  // Ada closes her browser: Ben, his members list open, sees her offline with when (2 s of grace here).
  await benPage.getByRole('button', { name: es.chats.members.button }).click();
  await expect(adaRow.locator('.member-presence')).toHaveText(es.presence.online);
  await adaPage.context().close();
  await expect(adaRow.locator('.member-presence')).toContainText(es.presence.lastSeen.split('{{when}}')[0]!.trim(), { timeout: 15_000 });
  await expect(adaRow.locator('.presence-dot')).toHaveCount(0);
  for (const page of [benPage, cyPage]) await page.context().close();
});
