// What `npm start` gives two people with nothing else installed: a Live room where they see and
// hear each other (the mesh), and where what the English speaker says reaches the Spanish listener
// transcribed (pocketsphinx), translated (Apertium) and spoken (espeak-ng). Ada's fake microphone
// plays English read by flite (human-like speech pocketsphinx understands) over and over, with
// silence between: a loaded machine may still be loading the speech detector when she starts, and
// cut her first words (CI once heard "every want to impute or join i'm reading today"), as it
// would a person's; the next time she says it is heard whole.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { api, expectVideoPlaying, launchWithFakeMedia, signedInOn } from '../call';
import type { TestUser } from '../fixtures';
import { activatedUserOn, fliteSpeechFile, silenceFile } from '../speech';
import { startStack, type Stack } from '../stack';

const here = path.dirname(fileURLToPath(import.meta.url));
const shots = path.join(here, '..', 'test-results', 'call-defaults');
const SAID = 'Good morning everyone. Thank you for joining the meeting today.';
const LIVE = 3002;

let stack: Stack;
let tmp: string;
const browsers: Browser[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // The embedded defaults, named: a missing program fails here instead of quietly turning a part off.
  stack = await startStack({ env: { STT_PROVIDER: 'pocketsphinx', TRANSLATION_PROVIDER: 'apertium', TTS_PROVIDER: 'espeak', RATE_LIMIT_MESSAGES: '0' } });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'parla-call-defaults-'));
});

test.afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await stack?.stop({ saveLogTo: path.join(shots, 'server.log') });
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Chromium with a fake camera and a microphone that plays `wavFile` over and over, `user` signed in. */
async function signedIn(user: TestUser, wavFile: string, locale: string): Promise<Page> {
  const browser = await launchWithFakeMedia(wavFile, { loop: true });
  browsers.push(browser);
  return signedInOn(browser, stack, user, locale);
}


test('on the embedded defaults two people see and hear each other and get each other translated and spoken', async () => {
  test.setTimeout(180_000);
  const [ada, ben] = await Promise.all([activatedUserOn(stack, 'Ada Lovelace'), activatedUserOn(stack, 'Ben Okafor')]);
  // Ben's browser hears nothing but is listened to; Ada's says SAID again and again.
  const benPage = await signedIn(ben, await silenceFile(path.join(tmp, 'silence.wav')), 'es-ES');
  const adaPage = await signedIn(ada, await fliteSpeechFile(path.join(tmp, 'said.wav'), SAID), 'en-US');

  const room = (await api(adaPage, 'POST', '/api/rooms/', { title: 'Morning meeting', languages: ['en', 'es'] }))!;
  const benId = (await api(adaPage, 'POST', `/api/rooms/${room.id}/participants/`, { user: ben.email, roomRole: 1002 }))!.id;
  await api(benPage, 'POST', `/api/rooms/${room.id}/participant/accept/`);
  await api(benPage, 'PATCH', `/api/rooms/${room.id}/participant/`, { language: 'es' });
  await api(adaPage, 'PATCH', `/api/rooms/${room.id}/state/`, { state: LIVE });
  const adaId = ((await (await adaPage.request.get(`/api/rooms/${room.id}/participant/`)).json()) as { id: number }).id;

  for (const page of [benPage, adaPage]) {
    await page.goto(`/room/${room.id}/connect`);
    await page.locator('.prejoin-join').click();
    await expect(page.locator('.stage-tile.self')).toBeVisible();
  }

  // They see each other.
  await expectVideoPlaying(adaPage, benId);
  await expectVideoPlaying(benPage, adaId);
  // Ben hears Ada's own voice: her sound arrives on his screen.
  const adaAudio = benPage.locator(`.stage-tile[data-participant="${adaId}"] audio`);
  await expect
    .poll(() => adaAudio.evaluate((element: HTMLAudioElement) => (element.srcObject as MediaStream | null)?.getAudioTracks().filter((track) => track.readyState === 'live').length ?? 0))
    .toBe(1);

  // Ben reads what Ada said in Spanish, and hears it in a Spanish voice.
  const heard = benPage.locator('.call-lines .segment', { hasText: 'Ada Lovelace' }).locator('.segment-text[lang="es"]', { hasText: /buenos días|gracias|reunión/i });
  await expect(heard.first()).toBeVisible({ timeout: 90_000 });
  const player = benPage.locator('audio.voice-player');
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => Number(audio.dataset.ended ?? 0)), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  // Ada reads her own words in English (as pocketsphinx heard them: "…joining the meeting today").
  await expect(adaPage.locator('.call-lines .segment.mine .segment-text[lang="en"]', { hasText: /meeting|joining|morning|everyone/i }).first()).toBeVisible();
  for (const [page, name] of [
    [benPage, 'call-es'],
    [adaPage, 'call-en'],
  ] as const) {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(shots, `${name}-${width}.png`) });
    }
  }
});
