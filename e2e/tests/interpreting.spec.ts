// Live interpreting in the browser (issue 33) on the embedded defaults: Ada and Cy speak English at
// the same time (Ada's fake microphone plays long sentences read by flite, over and over; Cy streams
// the same kind of speech on the speech WebSocket as a browser would, from this test, which spares
// the machine a third browser); Ben listens in Spanish. Ben reads Ada's words in Spanish while she is still speaking (a partial
// caption, marked provisional), then the stored utterance with its Spanish voice; the stored
// transcript holds the whole utterance. Cy, removed while speaking, stops being streamed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, request as playwrightRequest, test, type Browser, type Page } from '@playwright/test';
import WebSocket from 'ws';
import { api, launchWithFakeMedia, signedInOn } from '../call';
import type { TestUser } from '../fixtures';
import { activatedUserOn, fliteSpeechFile, silenceFile } from '../speech';
import { startStack, type Stack } from '../stack';

const here = path.dirname(fileURLToPath(import.meta.url));
const shots = path.join(here, '..', 'test-results', 'interpreting');
const ADA_SAYS = 'Good morning everyone. Today we will talk about the budget for next year, and then we will look at the plans for the new office.';
const CY_SAYS = 'Thank you for joining the meeting today. I would like to talk about the new computers for the school.';
const LIVE = 3002;

let stack: Stack;
let tmp: string;
const browsers: Browser[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  stack = await startStack({ env: { STT_PROVIDER: 'pocketsphinx', TRANSLATION_PROVIDER: 'apertium', TTS_PROVIDER: 'espeak', RATE_LIMIT_MESSAGES: '0' } });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'parla-interpreting-'));
});

test.afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await stack?.stop({ saveLogTo: path.join(shots, 'server.log') });
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/**
 * `user` speaking `wavFile`'s samples (16 kHz mono) over and over on the room's speech stream, in
 * 128 ms frames at the pace of speech, each utterance ended by the pause after it; `stop` ends it,
 * `closed` tells how the server closed it.
 */
async function streamingSpeaker(user: TestUser, roomId: number, wavFile: string) {
  const api = await playwrightRequest.newContext({ baseURL: stack.baseURL });
  expect((await api.post('/api/accounts/login/', { data: { email: user.email, password: user.password } })).status()).toBe(200);
  const cookie = (await api.storageState()).cookies.map((item) => `${item.name}=${item.value}`).join('; ');
  const wav = await readFile(wavFile);
  const pcm = wav.subarray(wav.indexOf('data', 12, 'latin1') + 8);
  const socket = new WebSocket(`${stack.baseURL.replace(/^http/, 'ws')}/api/rooms/${roomId}/speech/`, { headers: { cookie, origin: stack.baseURL } });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let stopped = false;
  const frame = 4_096;
  void (async () => {
    const started = Date.now();
    let sent = 0;
    while (!stopped && socket.readyState === WebSocket.OPEN) {
      for (let at = 0; at < pcm.length && !stopped && socket.readyState === WebSocket.OPEN; at += frame) {
        socket.send(pcm.subarray(at, at + frame));
        sent += Math.min(frame, pcm.length - at);
        const wait = started + (sent / 32) - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'end' }));
    }
  })();
  return {
    closed,
    stop: async () => {
      stopped = true;
      socket.close();
      await api.dispose();
    },
  };
}

async function signedIn(user: TestUser, wavFile: string, locale: string): Promise<Page> {
  const browser = await launchWithFakeMedia(wavFile, { loop: true });
  browsers.push(browser);
  return signedInOn(browser, stack, user, locale);
}

test('a Spanish listener reads two English speakers while they speak, then hears them; a removed speaker stops', async () => {
  test.setTimeout(240_000);
  const [ada, ben, cy] = await Promise.all([activatedUserOn(stack, 'Ada Lovelace'), activatedUserOn(stack, 'Ben Okafor'), activatedUserOn(stack, 'Cy Rahman')]);
  const benPage = await signedIn(ben, await silenceFile(path.join(tmp, 'silence.wav')), 'es-ES');
  const adaPage = await signedIn(ada, await fliteSpeechFile(path.join(tmp, 'ada.wav'), ADA_SAYS), 'en-US');

  const room = (await api(adaPage, 'POST', '/api/rooms/', { title: 'Budget meeting', languages: ['en', 'es'] }))!;
  const benId = (await api(adaPage, 'POST', `/api/rooms/${room.id}/participants/`, { user: ben.email, roomRole: 1002 }))!.id;
  const cyId = (await api(adaPage, 'POST', `/api/rooms/${room.id}/participants/`, { user: cy.email, roomRole: 1002 }))!.id;
  await api(benPage, 'POST', `/api/rooms/${room.id}/participant/accept/`);
  const cyApi = await playwrightRequest.newContext({ baseURL: stack.baseURL });
  expect((await cyApi.post('/api/accounts/login/', { data: { email: cy.email, password: cy.password } })).status()).toBe(200);
  const xsrf = (await cyApi.storageState()).cookies.find((item) => item.name === 'XSRF-TOKEN')?.value ?? '';
  expect((await cyApi.post(`/api/rooms/${room.id}/participant/accept/`, { headers: { 'x-xsrf-token': xsrf } })).ok()).toBe(true);
  await cyApi.dispose();
  await api(benPage, 'PATCH', `/api/rooms/${room.id}/participant/`, { language: 'es' });
  await api(adaPage, 'PATCH', `/api/rooms/${room.id}/state/`, { state: LIVE });
  expect(benId).toBeGreaterThan(0);

  for (const page of [benPage, adaPage]) {
    await page.goto(`/room/${room.id}/connect`);
    await page.locator('.prejoin-join').click();
    await expect(page.locator('.stage-tile.self')).toBeVisible({ timeout: 60_000 });
  }

  const cySpeaks = await streamingSpeaker(cy, room.id, await fliteSpeechFile(path.join(tmp, 'cy.wav'), CY_SAYS));

  // While Ada speaks: her words in Spanish, marked provisional, before her utterance is stored.
  const partial = benPage.locator('.call-lines .segment-partial', { hasText: 'Ada Lovelace' });
  const spanish = partial.locator('.segment-text[lang="es"]');
  await expect(spanish.first()).toHaveText(/\S+\s+\S+/, { timeout: 90_000 });
  await expect(partial.first().locator('.segment-provisional')).toBeVisible();
  for (const width of [375, 1280]) {
    await benPage.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await benPage.screenshot({ path: path.join(shots, `partial-${width}.png`) });
  }

  // Cy, speaking at the same time, is read too.
  await expect(benPage.locator('.call-lines .segment, .call-lines .segment-partial').filter({ hasText: 'Cy Rahman' }).first()).toBeVisible({ timeout: 90_000 });

  // The stored utterance takes the partial's place: Spanish text, then its Spanish voice.
  const stored = benPage.locator('.call-lines .segment:not(.segment-partial)', { hasText: 'Ada Lovelace' }).locator('.segment-text[lang="es"]', { hasText: /buenos días|presupuesto|oficina|año/i });
  await expect(stored.first()).toBeVisible({ timeout: 90_000 });
  const player = benPage.locator('audio.voice-player');
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => Number(audio.dataset.ended ?? 0)), { timeout: 90_000 }).toBeGreaterThanOrEqual(1);

  // The stored transcript holds a whole utterance, from its first words to its last (the first
  // one may have begun before Ada's detector was listening: the sentence comes again).
  const hers = async () => {
    const segments = (await api(adaPage, 'GET', `/api/rooms/${room.id}/segments/?limit=100`)) as unknown as { results: { isMe: boolean; transcript: string }[] };
    return segments.results.filter((segment) => segment.isMe).map((segment) => segment.transcript.toLowerCase());
  };
  await expect.poll(async () => (await hers()).some((text) => /morning|everyone/.test(text) && /office|plans|budget/.test(text)), { timeout: 90_000, message: 'a stored utterance of Ada holds the whole sentence' }).toBe(true);

  // Cy is removed while speaking: no more of his words reach Ben.
  await api(adaPage, 'POST', `/api/rooms/${room.id}/participants/multi_delete/`, { ids: [cyId] });
  // His stream is cut at once (4404: no longer a participant).
  expect(await cySpeaks.closed).toBe(4404);
  await cySpeaks.stop();
  // What he was saying is dropped from Ben's screen, and nothing more of his comes.
  await expect(benPage.locator('.call-lines .segment-partial', { hasText: 'Cy Rahman' })).toHaveCount(0, { timeout: 10_000 });
  const cyStoredNow = await benPage.locator('.call-lines .segment', { hasText: 'Cy Rahman' }).count();
  await benPage.waitForTimeout(5_000);
  await expect(benPage.locator('.call-lines .segment-partial', { hasText: 'Cy Rahman' })).toHaveCount(0);
  expect(await benPage.locator('.call-lines .segment', { hasText: 'Cy Rahman' }).count()).toBe(cyStoredNow);
  for (const width of [375, 1280]) {
    await benPage.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await benPage.waitForTimeout(300);
    await benPage.screenshot({ path: path.join(shots, `listener-${width}.png`) });
  }
});
