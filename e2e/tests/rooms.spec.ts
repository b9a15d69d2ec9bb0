// A live room in two browsers: Ada speaks English into a fake microphone (espeak-ng speech from a
// WAV file), Ana listens in Spanish. The speech is cut out by the browser's voice activity
// detection, uploaded, transcribed (an OpenAI-compatible stand-in: pocketsphinx does not
// understand espeak-ng), translated by the real Apertium and spoken by the real espeak-ng; Ana
// reads it in Spanish and hears it; Ada corrects a word and Ana's transcript follows. Nothing
// serves LiveKit here: the call says so and everything else works. Screenshots of the new-room
// form, the room list, the room with its transcript and the call at 375 and 1280 px go to
// test-results/rooms/.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startOpenAiStandIn, type StandIn } from '../../apps/server/test/stand-ins/openai';
import type { TestUser } from '../fixtures';
import { activatedUserOn, launchWithMicrophone, silenceFile, speechFile } from '../speech';
import { startStack, type Stack } from '../stack';

const here = path.dirname(fileURLToPath(import.meta.url));
const shots = path.join(here, '..', 'test-results', 'rooms');
const SAID = 'Good morning. The cat is black.';
const CORRECTED = 'Good morning. The cat is white.';

let standIn: StandIn;
let stack: Stack;
let tmp: string;
let speaker: Browser;
let listener: Browser;
/** The server's CSP lacks 'wasm-unsafe-eval' (onnxruntime's WebAssembly needs it): the pages run with the CSP bypassed, and the report says so. */
let bypassCSP = false;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  standIn = await startOpenAiStandIn();
  stack = await startStack({
    env: {
      STT_PROVIDER: 'openai',
      OPENAI_BASE_URL: standIn.baseUrl,
      OPENAI_API_KEY: 'stand-in',
      TRANSLATION_PROVIDER: 'apertium',
      TTS_PROVIDER: 'espeak',
      RATE_LIMIT_MESSAGES: '0',
      // A LiveKit server configured but not running: the call says it cannot be reached.
      LIVEKIT_URL: 'ws://localhost:7880',
    },
  });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'parla-rooms-e2e-'));
  speaker = await launchWithMicrophone(await speechFile(path.join(tmp, 'said.wav'), SAID));
  listener = await launchWithMicrophone(await silenceFile(path.join(tmp, 'silence.wav')));
  const csp = (await fetch(`${stack.baseURL}/signin`)).headers.get('content-security-policy') ?? '';
  const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
  bypassCSP = !/'wasm-unsafe-eval'|'unsafe-eval'/.test(scriptSrc);
});

test.afterAll(async () => {
  await speaker?.close();
  await listener?.close();
  await stack?.stop({ saveLogTo: path.join(shots, 'server.log') });
  await standIn?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function signedIn(browser: Browser, user: TestUser, locale: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: stack.baseURL, locale, serviceWorkers: 'block', bypassCSP });
  const page = await context.newPage();
  await page.goto('/signin');
  await page.getByLabel(/^(Email|Correo electrónico)$/).fill(user.email);
  await page.getByLabel(/^(Password|Contraseña)$/).fill(user.password);
  await page.getByRole('button', { name: /^(Sign in|Iniciar sesión)$/ }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  return page;
}

/** Screenshots at phone and desktop widths, then back to the desktop size. */
async function screenshots(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: options.fullPage ?? false });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

const callTranscript = (page: Page) => page.getByRole('region', { name: /^(Live transcript|Transcripción en vivo)$/ });

test('an English speaker and a Spanish listener in a live room', async () => {
  test.setTimeout(300_000);
  if (bypassCSP) test.info().annotations.push({ type: 'csp', description: "script-src lacks 'wasm-unsafe-eval': onnxruntime-web cannot compile its WebAssembly under the served CSP; this run bypasses the CSP" });
  const ada = await activatedUserOn(stack, 'Ada Lovelace');
  const ana = await activatedUserOn(stack, 'Ana García');
  const adaPage = await signedIn(speaker, ada, 'en-US');
  const anaPage = await signedIn(listener, ana, 'es-ES');

  // Ada creates a room in English and Spanish about travel.
  await adaPage.getByRole('link', { name: 'Rooms', exact: true }).click();
  await expect(adaPage.getByText('You are not in any room yet.', { exact: false })).toBeVisible();
  await adaPage.getByRole('button', { name: 'New room' }).first().click();
  const create = adaPage.getByRole('dialog', { name: 'New room' });
  await create.getByLabel('Title').fill('Lisbon planning');
  await create.getByLabel('Description (optional)').fill('Where we meet and what we visit');
  await create.getByLabel('Find a language').fill('span');
  await create.getByRole('checkbox', { name: /Spanish/ }).check();
  await expect(create.getByRole('list', { name: 'Chosen languages' })).toContainText('English');
  await create.getByLabel('Subject').selectOption({ label: 'Travel' });
  await screenshots(adaPage, 'new-room-en');
  await create.getByRole('button', { name: 'Create room' }).click();
  await expect(adaPage).toHaveURL(/\/room\/\d+$/);
  await expect(adaPage.getByRole('heading', { name: 'Lisbon planning' })).toBeVisible();
  const roomPath = new URL(adaPage.url()).pathname;
  const roomId = Number(roomPath.split('/').pop());

  // Ada invites Ana by e-mail; Ana is marked invited until she accepts.
  await adaPage.getByRole('button', { name: 'Manage participants' }).click();
  const participants = adaPage.getByRole('dialog', { name: 'Participants' });
  await participants.getByLabel('Email').fill(ana.email);
  await participants.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(participants.locator('.member-row', { hasText: ana.email })).toContainText('Invited');
  await expect(participants.getByText('2 participants')).toBeVisible();
  await screenshots(adaPage, 'participants-en');
  await participants.getByRole('button', { name: 'Close' }).click();

  // Ana finds the invitation in her rooms, accepts it, opens the room and chooses Spanish; only
  // the owner's controls are hidden from her.
  await anaPage.getByRole('link', { name: 'Salas', exact: true }).click();
  await anaPage.getByRole('article', { name: 'Lisbon planning' }).getByRole('button', { name: 'Aceptar' }).click();
  await expect(anaPage.getByRole('article', { name: 'Lisbon planning' })).toHaveCount(0);
  await anaPage.getByRole('link', { name: /Lisbon planning/ }).click();
  await expect(anaPage).toHaveURL((url) => url.pathname === roomPath);
  await expect(anaPage.getByRole('button', { name: 'Salir en vivo' })).toHaveCount(0);
  await expect(anaPage.getByText('Habla y escucha en inglés', { exact: false })).toBeVisible();
  await anaPage.getByRole('button', { name: 'Cambiar mis ajustes' }).click();
  await anaPage.getByLabel('Hablo y escucho en').selectOption({ label: 'Español' });
  await anaPage.getByRole('button', { name: 'Guardar mis ajustes' }).click();
  await expect(anaPage.getByText('Sus ajustes se han guardado.')).toBeVisible();
  await expect(anaPage.getByText('Habla y escucha en español', { exact: false })).toBeVisible();
  await expect(anaPage.getByText('Todo lo dicho en la llamada, en español', { exact: false })).toBeVisible();

  // Ada goes live: Ana's page offers the call at once.
  await expect(adaPage.getByRole('link', { name: 'Join the call' })).toHaveCount(0);
  await adaPage.getByRole('button', { name: 'Go live' }).click();
  await expect(adaPage.getByRole('link', { name: 'Join the call' })).toBeVisible();
  await expect(adaPage.getByRole('button', { name: 'End the call' })).toBeVisible();
  await expect(anaPage.getByRole('link', { name: 'Entrar en la llamada' })).toBeVisible();

  // Ana joins first and listens; LiveKit cannot be reached and the call says so.
  await anaPage.getByRole('link', { name: 'Entrar en la llamada' }).click();
  await expect(anaPage).toHaveURL((url) => url.pathname === `${roomPath}/connect`);
  // The check screen first: the microphone's level, then "Join now".
  await anaPage.locator('.prejoin-join').click();
  await expect(anaPage.getByText('no se puede conectar con el servidor de llamadas (LiveKit) en ws://localhost:7880', { exact: false })).toBeVisible({ timeout: 20_000 });
  await expect(anaPage.getByText('La transcripción en vivo, las voces traducidas y su micrófono siguen funcionando.')).toBeVisible();
  await expect(anaPage.getByText(/^Escuchando/)).toBeVisible({ timeout: 30_000 });

  // Ada joins and speaks (her microphone plays the WAV once): the browser cuts the utterance out and sends it.
  standIn.transcriptFor(SAID);
  await adaPage.getByRole('link', { name: 'Join the call' }).click();
  await adaPage.getByRole('button', { name: 'Join now' }).click();
  await expect(adaPage.getByText('the call server (LiveKit) at ws://localhost:7880 cannot be reached', { exact: false })).toBeVisible({ timeout: 20_000 });
  await expect(callTranscript(adaPage).getByText(SAID)).toBeVisible({ timeout: 60_000 });
  expect(standIn.transcriptions().length).toBeGreaterThanOrEqual(1);
  const upload = standIn.transcriptions()[0]!.body as { language?: string; file?: { name: string } };
  expect(upload.language).toBe('en');

  // Ana reads it in Spanish and hears it in her voice.
  const heard = callTranscript(anaPage).locator('.segment', { hasText: 'Ada Lovelace' }).first();
  await expect(heard.locator('.segment-text')).toHaveText(/gato/i, { timeout: 60_000 });
  await heard.getByRole('button', { name: 'Ver original' }).click();
  await expect(heard.getByText(SAID)).toBeVisible();
  const player = anaPage.locator('audio.voice-player');
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => Number(audio.dataset.ended ?? 0) > 0 || audio.currentTime > 0), { timeout: 60_000 }).toBe(true);
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => Number(audio.dataset.ended ?? 0)), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

  await screenshots(anaPage, 'call-es');
  await screenshots(adaPage, 'call-en');

  // Ada corrects a word in place: Ana's transcript follows, re-translated.
  const own = callTranscript(adaPage).locator('.segment.mine').first();
  await own.getByRole('button', { name: /^Correct what you said/ }).click();
  await own.getByLabel('What you said').fill(CORRECTED);
  await own.getByLabel('What you said').press('Enter');
  await expect(own.locator('.segment-text')).toHaveText(CORRECTED);
  await expect(heard.locator('.segment-text')).toHaveText(/blanc/i, { timeout: 60_000 });
  await expect(heard.getByRole('button', { name: 'corregido · ver cambios' })).toBeVisible();

  // The room page: the transcript so far, with its downloads.
  await adaPage.getByRole('button', { name: 'Leave', exact: true }).click();
  await expect(adaPage).toHaveURL((url) => url.pathname === roomPath);
  const transcript = adaPage.getByRole('list', { name: 'Transcript' });
  await expect(transcript.getByText(CORRECTED)).toBeVisible();
  const download = adaPage.waitForEvent('download');
  await adaPage.getByRole('link', { name: 'Download text (.txt)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`lisbon-planning-${roomId}-en\\.txt$`));
  await screenshots(adaPage, 'room-detail-en', { fullPage: true });
  await anaPage.getByRole('button', { name: 'Salir', exact: true }).click();
  await expect(anaPage).toHaveURL((url) => url.pathname === roomPath);
  await expect(anaPage.getByRole('list', { name: 'Transcripción' }).getByText(/blanc/i)).toBeVisible();
  await screenshots(anaPage, 'room-detail-es', { fullPage: true });

  // The room list, with the room Live.
  await adaPage.getByRole('link', { name: 'Back to rooms' }).click();
  await expect(adaPage.getByRole('link', { name: /Lisbon planning/ })).toContainText('Live');
  await screenshots(adaPage, 'room-list-en');

  // Ada ends the call: Ana's page follows.
  await adaPage.getByRole('link', { name: /Lisbon planning/ }).click();
  await adaPage.getByRole('button', { name: 'End the call' }).click();
  await adaPage.getByRole('dialog', { name: 'End the call?' }).getByRole('button', { name: 'End the call' }).click();
  await expect(adaPage.getByRole('button', { name: 'Reopen the call' })).toBeVisible();
  await expect(anaPage.getByRole('link', { name: 'Entrar en la llamada' })).toHaveCount(0);
  await expect(anaPage.getByText('La sala ha terminado.', { exact: false })).toBeVisible();
});
