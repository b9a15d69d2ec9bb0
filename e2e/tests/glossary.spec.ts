// Terminology that sticks (issue 19) on the embedded Apertium: Ada writes English; Ben (an admin)
// and Carla read Spanish. Apertium leaves "standup" in English; Ben corrects his rendering and
// Carla sees the correction live, marked with his name, the machine's text a click away. Ben turns
// his correction into a glossary term in one step; Ada's next message comes to Carla with the
// term as the glossary requires. Screenshots at 375 and 1280 px go to test-results/glossary/.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { chatWithReaders, signedIn, uiStrings } from '../chat';
import { bearer, createActivatedUser, screenshots } from '../fixtures';

const here = path.dirname(fileURLToPath(import.meta.url));
const shots = path.join(here, '..', 'test-results', 'glossary');
const en = uiStrings('en');
const es = uiStrings('es');

test('a reader corrects a translation for everyone reading like them, and an admin makes it a glossary term', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const ben = await createActivatedUser(request, 'Ben Ortega');
  const carla = await createActivatedUser(request, 'Carla Ruiz');
  const { chat, asOwner: asAda } = await chatWithReaders(request, ada, [
    { user: ben, language: 'es', nickName: 'Ben' },
    { user: carla, language: 'es', nickName: 'Carla' },
  ]);
  // Ben is an admin: he may edit the glossary.
  const members = (await (await request.get(`/api/chat/${chat.id}/members/`, { headers: asAda })).json()) as { results: { id: number; nickName: string }[] };
  const benMember = members.results.find((member) => member.nickName === 'Ben')!;
  expect((await request.patch(`/api/chat/${chat.id}/members/${benMember.id}/`, { headers: asAda, data: { chatRole: 2002 } })).status()).toBe(200);
  await request.post(`/api/chat/${chat.id}/messages/`, { headers: asAda, data: { content: 'After the standup we eat.' } });

  const benPage = await signedIn(browser, ben, 'es-ES');
  const carlaPage = await signedIn(browser, carla, 'es-ES');
  await benPage.goto(`/chat/${chat.id}`);
  await carlaPage.goto(`/chat/${chat.id}`);
  const benMessages = benPage.getByRole('region', { name: es.chats.messages });
  const carlaMessages = carlaPage.getByRole('region', { name: es.chats.messages });
  // Apertium knows no "standup": it stays in English.
  await expect(carlaMessages.locator('.message').filter({ hasText: /Después del standup comemos/ })).toBeVisible({ timeout: 30_000 });

  // Ben corrects his rendering from the message's menu.
  const benMessage = benMessages.locator('.message').filter({ hasText: /Después del standup comemos/ });
  await benMessage.getByRole('button', { name: es.chats.messageActions }).click();
  await benMessage.getByRole('button', { name: es.corrections.correct }).click();
  const field = benPage.getByRole('textbox', { name: es.corrections.field });
  await field.fill('Después de la reunión diaria comemos.');
  await field.press('Enter');
  await expect(benMessages.getByText('Después de la reunión diaria comemos.')).toBeVisible();

  // Carla, reading Spanish too, sees it at once, marked with who corrected it.
  const carlaMessage = carlaMessages.locator('.message').filter({ hasText: 'Después de la reunión diaria comemos.' });
  await expect(carlaMessage).toBeVisible();
  await expect(carlaMessage.getByText('Corregido por Ben')).toBeVisible();
  await screenshots(carlaPage, shots, 'corrected-es');
  // The machine's text is one click away.
  await carlaMessage.getByRole('button', { name: es.corrections.showMachine }).click();
  await expect(carlaMessage.locator('.correction-machine')).toContainText('Después del standup comemos');
  await screenshots(carlaPage, shots, 'machine-shown-es');

  // Ben makes his correction a glossary term in one step: the form comes filled in.
  const benCorrected = benMessages.locator('.message').filter({ hasText: 'Después de la reunión diaria comemos.' });
  await benCorrected.getByRole('button', { name: es.corrections.showMachine }).click();
  await benCorrected.getByRole('button', { name: es.corrections.addToGlossary }).click();
  const dialog = benPage.getByRole('dialog', { name: es.glossary.title });
  await expect(dialog.getByRole('textbox', { name: es.glossary.term })).toHaveValue('standup');
  const rendering = dialog.getByRole('textbox', { name: /español/i });
  await expect(rendering).toHaveValue('de la reunión diaria');
  await screenshots(benPage, shots, 'glossary-draft-es');
  await rendering.fill('reunión diaria');
  await dialog.getByRole('button', { name: es.glossary.addButton, exact: true }).click();
  await expect(dialog.locator('.glossary-row')).toContainText('standup');
  await expect(dialog.locator('.glossary-row')).toContainText('reunión diaria');
  await screenshots(benPage, shots, 'glossary-es');
  await dialog.getByRole('button', { name: es.chats.close }).click();

  // Ada's next message reaches Carla with the term as the glossary requires.
  const adaPage = await signedIn(browser, ada, 'en-US');
  await adaPage.goto(`/chat/${chat.id}`);
  const composer = adaPage.getByRole('textbox', { name: en.chats.messageLabel });
  await composer.fill('The standup is at ten.');
  await composer.press('Enter');
  await expect(carlaMessages.locator('.message').filter({ hasText: /reunión diaria es/ })).toBeVisible({ timeout: 30_000 });

  // Ada (the owner) reads the glossary in English; Carla (a member) reads it and cannot change it.
  await adaPage.getByRole('button', { name: en.chats.settings.button }).click();
  await adaPage.getByRole('button', { name: en.glossary.edit }).click();
  const adaDialog = adaPage.getByRole('dialog', { name: en.glossary.title });
  await expect(adaDialog.locator('.glossary-row')).toContainText('reunión diaria');
  await expect(adaDialog.getByRole('button', { name: en.glossary.apply_chat })).toBeVisible();
  await screenshots(adaPage, shots, 'glossary-en');
  await carlaPage.getByRole('button', { name: es.chats.settings.button }).click();
  await carlaPage.getByRole('button', { name: es.glossary.see }).click();
  const carlaDialog = carlaPage.getByRole('dialog', { name: es.glossary.title });
  await expect(carlaDialog.locator('.glossary-row')).toContainText('standup');
  await expect(carlaDialog.getByRole('button', { name: es.glossary.add })).toHaveCount(0);
  await expect(carlaDialog.getByText(es.glossary.whoEdits_chat)).toBeVisible();
  await carlaDialog.getByRole('button', { name: es.chats.close }).click();

  // Ada, the owner, reads English and never sees Ben's correction: she withdraws every reader's
  // correction of her message from its menu (issue 31), and Carla reads the machine's text again.
  await adaDialog.getByRole('button', { name: en.chats.close }).click();
  await expect(adaPage.getByRole('dialog')).toHaveCount(0);
  const adaMessage = adaPage.getByRole('region', { name: en.chats.messages }).locator('.message').filter({ hasText: 'After the standup we eat.' });
  await adaMessage.getByRole('button', { name: en.chats.messageActions }).click();
  await expect(adaMessage.getByRole('button', { name: en.corrections.withdraw })).toBeVisible();
  await screenshots(adaPage, shots, 'withdraw-menu-en');
  await adaMessage.getByRole('button', { name: en.corrections.withdraw }).click();
  await expect(adaPage.getByText(en.corrections.withdrawn)).toBeVisible();
  await expect(carlaMessages.locator('.message').filter({ hasText: /Después del standup comemos/ })).toBeVisible({ timeout: 10_000 });
  await expect(carlaMessages.getByText('Corregido por Ben')).toHaveCount(0);
  // Carla, a plain member, is not offered it.
  const carlaOwn = carlaMessages.locator('.message').filter({ hasText: /Después del standup comemos/ });
  await carlaOwn.getByRole('button', { name: es.chats.messageActions }).click();
  await expect(carlaOwn.getByRole('button', { name: es.corrections.withdraw })).toHaveCount(0);
});

test('a room’s glossary: the owner edits it, a participant reads it', async ({ browser, request }) => {
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const ben = await createActivatedUser(request, 'Ben Ortega');
  const asAda = await bearer(request, ada);
  const asBen = await bearer(request, ben);
  const room = (await (await request.post('/api/rooms/', { headers: asAda, data: { title: 'Weekly sync', languages: ['en', 'es'] } })).json()) as { id: number };
  expect((await request.post(`/api/rooms/${room.id}/participants/`, { headers: asAda, data: { user: ben.email, roomRole: 1002 } })).status()).toBe(201);
  expect((await request.post(`/api/rooms/${room.id}/participant/accept/`, { headers: asBen })).status()).toBe(200);

  const adaPage = await signedIn(browser, ada, 'en-US');
  await adaPage.goto(`/room/${room.id}`);
  await adaPage.getByRole('button', { name: en.glossary.edit }).click();
  const dialog = adaPage.getByRole('dialog', { name: en.glossary.title });
  await dialog.getByRole('button', { name: en.glossary.add }).click();
  await dialog.getByRole('textbox', { name: en.glossary.term }).fill('Parla');
  await dialog.getByRole('checkbox', { name: en.glossary.keep }).check();
  await dialog.getByRole('button', { name: en.glossary.addButton, exact: true }).click();
  await expect(dialog.locator('.glossary-row')).toContainText(en.glossary.kept);
  await screenshots(adaPage, shots, 'room-glossary-en');

  // Ada speaks (an utterance made by espeak-ng, uploaded as her browser would); Ben hears it in Spanish.
  expect((await request.patch(`/api/rooms/${room.id}/participant/`, { headers: asBen, data: { language: 'es' } })).status()).toBe(200);
  expect((await request.patch(`/api/rooms/${room.id}/state/`, { headers: asAda, data: { state: 3002 } })).status()).toBe(200);
  const speech = execFileSync('espeak-ng', ['--stdout', '-v', 'en-us', '-s', '140', 'The cat is black.']);
  const uploaded = await request.post(`/api/rooms/${room.id}/segments/`, { headers: asAda, multipart: { audio: { name: 'utterance.wav', mimeType: 'audio/wav', buffer: speech } } });
  expect(uploaded.status()).toBe(201);

  const benPage = await signedIn(browser, ben, 'es-ES');
  await benPage.goto(`/room/${room.id}`);
  const line = benPage.locator('.segment').first();
  await expect(line.getByRole('button', { name: /^Corregir la traducción/ })).toBeVisible({ timeout: 60_000 });
  await line.getByRole('button', { name: /^Corregir la traducción/ }).click();
  const field = benPage.getByRole('textbox', { name: es.corrections.field });
  await field.fill('El gato es negro como el carbón.');
  await field.press('Enter');
  await expect(line.getByText('El gato es negro como el carbón.')).toBeVisible();
  await expect(line.getByText('Corregido por Ben Ortega')).toBeVisible();
  await screenshots(benPage, shots, 'room-corrected-es');
  await benPage.getByRole('button', { name: es.glossary.see }).click();
  const seen = benPage.getByRole('dialog', { name: es.glossary.title });
  await expect(seen.locator('.glossary-row')).toContainText('Parla');
  await expect(seen.getByText(es.glossary.whoEdits_room)).toBeVisible();
});
