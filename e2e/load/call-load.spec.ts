// Issue 37 (1): a call on a busy machine. A CPU-burning process (one per two cores) runs beside
// three browsers; Ada and Ben are in a call, Cy joins, and then Ben's live
// connection (the signalling, not the media) is cut and comes back, as it does when a slow machine
// misses a heartbeat. All along, Ada's screen is watched: Ben's video must never stop (frames
// keep coming in every window of a few seconds), his tile must never be taken down, and nobody
// must be announced as having left. At the end the three see each other.
// Run with `npm run test:load -w @parla/e2e` (playwright.load.config.ts says why it is apart).
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page, type WebSocketRoute } from '@playwright/test';
import { api, expectVideoPlaying, launchWithFakeMedia, signedInOn } from '../call';
import type { TestUser } from '../fixtures';
import { activatedUserOn } from '../speech';
import { startStack, type Stack } from '../stack';

const here = path.dirname(fileURLToPath(import.meta.url));
const shots = path.join(here, '..', 'test-results', 'call-load');
const LIVE = 3002;
/** Frames must arrive in every window this long (the fake camera sends 30 a second). */
const WINDOW_MS = 3_000;

let stack: Stack;
const browsers: Browser[] = [];
const burners: ChildProcess[] = [];
/** The call's frames on the live connections, for the report. */
const frames: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  stack = await startStack({ env: { STT_PROVIDER: 'none', TTS_PROVIDER: 'none', TRANSLATION_PROVIDER: 'none' } });
});

test.afterAll(async () => {
  // The call's frames, to read when it fails.
  const first = Number(frames[0]?.split('@').at(-1) ?? 0);
  console.log(frames.map((line) => line.replace(/@(\d+)$/, (_, at: string) => `at ${((Number(at) - first) / 1000).toFixed(1)} s`)).join('\n'));
  for (const burner of burners) if (burner.exitCode === null) burner.kill('SIGKILL');
  for (const browser of browsers) await browser.close();
  await stack?.stop({ saveLogTo: path.join(shots, 'server.log') });
});

async function signedIn(user: TestUser, sockets?: WebSocketRoute[]): Promise<Page> {
  const browser = await launchWithFakeMedia();
  browsers.push(browser);
  const page = await signedInOn(browser, stack, user);
  // The live connection through a route the test can cut (the media does not go through it).
  // Its call frames are kept for the report (one line each, with the time).
  if (sockets) await page.routeWebSocket(/\/api\/live\//, (socket) => {
    const server = socket.connectToServer();
    const note = (way: string, message: string | Buffer) => {
      const text = String(message);
      if (text.includes('call') || !text.startsWith('42')) frames.push(`${user.fullName.split(' ')[0]} ${way} ${text.slice(0, 90)} @${Date.now()}`);
    };
    socket.onMessage((message) => {
      note('→', message);
      server.send(message);
    });
    server.onMessage((message) => {
      note('←', message);
      socket.send(message);
    });
    sockets?.push(socket);
  });
  return page;
}

/**
 * Processes that keep half the cores busy until stopped, as other work on a small server does
 * (bounded: they end by themselves after 4 minutes). Three browsers sending and receiving video
 * take the rest.
 */
function burnCpu() {
  for (let core = 0; core < Math.max(1, Math.floor(os.availableParallelism() / 2)); core++) {
    burners.push(spawn(process.execPath, ['-e', 'const end = Date.now() + 240000; while (Date.now() < end) Math.sqrt(Math.random());'], { stdio: 'ignore' }));
  }
}

/** From now on, records on `page` the frames of `participantId`'s video, whether their tile went away, and every presence notice. */
async function watch(page: Page, participantId: number) {
  await page.evaluate((id) => {
    const record = { frames: [] as [number, number][], tileGone: 0, notices: [] as string[], states: [] as string[] };
    (window as unknown as { callWatch: typeof record }).callWatch = record;
    const selector = `.stage-tile[data-participant="${id}"]`;
    let seen = document.querySelector(selector);
    setInterval(() => {
      const tile = document.querySelector(selector);
      if (seen && tile !== seen) record.tileGone++;
      seen = tile;
      const video = tile?.querySelector('video');
      record.frames.push([Date.now(), video ? video.getVideoPlaybackQuality().totalVideoFrames : -1]);
      const state = `${tile?.getAttribute('data-connection') ?? 'no tile'}${document.querySelector('.live-status') ? ' (Ada reconnecting)' : ''}`;
      if (record.states.at(-1)?.split(' @')[0] !== state) record.states.push(`${state} @${Date.now()}`);
    }, 250);
    new MutationObserver(() => {
      for (const notice of document.querySelectorAll('.stage-presence p')) if (!record.notices.includes(notice.textContent ?? '')) record.notices.push(notice.textContent ?? '');
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, participantId);
}

async function watched(page: Page) {
  return page.evaluate(() => (window as unknown as { callWatch: { frames: [number, number][]; tileGone: number; notices: string[]; states: string[] } }).callWatch);
}

test('on a loaded machine a third joiner and a dropped live connection leave the first pair’s media running', async () => {
  test.setTimeout(240_000);
  const [ada, ben, cy] = await Promise.all([activatedUserOn(stack, 'Ada Lovelace'), activatedUserOn(stack, 'Ben Okafor'), activatedUserOn(stack, 'Cy Rahman')]);
  const benSockets: WebSocketRoute[] = [];
  const adaPage = await signedIn(ada);
  const benPage = await signedIn(ben, benSockets);
  const cyPage = await signedIn(cy);

  const room = (await api(adaPage, 'POST', '/api/rooms/', { title: 'Busy machine', languages: ['en'] }))!;
  const invite = async (page: Page, user: TestUser) => {
    const participant = (await api(adaPage, 'POST', `/api/rooms/${room.id}/participants/`, { user: user.email, roomRole: 1002 }))!;
    await api(page, 'POST', `/api/rooms/${room.id}/participant/accept/`);
    return participant.id;
  };
  const benId = await invite(benPage, ben);
  const cyId = await invite(cyPage, cy);
  await api(adaPage, 'PATCH', `/api/rooms/${room.id}/state/`, { state: LIVE });
  const adaId = ((await (await adaPage.request.get(`/api/rooms/${room.id}/participant/`)).json()) as { id: number }).id;

  const enter = async (page: Page) => {
    await page.goto(`/room/${room.id}/connect`);
    await expect(page.locator('.prejoin-join')).toBeEnabled({ timeout: 90_000 });
    await expect(page.locator('.prejoin video')).toBeVisible({ timeout: 90_000 });
    await page.locator('.prejoin-join').click();
    await expect(page.locator('.stage-tile.self')).toBeVisible({ timeout: 30_000 });
  };

  burnCpu();
  await enter(adaPage);
  await enter(benPage);
  await expectVideoPlaying(adaPage, benId);
  await expectVideoPlaying(benPage, adaId);

  // From here on, Ben's video on Ada's screen must never stop.
  await watch(adaPage, benId);
  const startedAt = Date.now();
  const marks: string[] = [];
  const mark = (what: string) => marks.push(`${what} @${Date.now()}`);

  // A third joins while the machine is loaded.
  mark('Cy enters');
  await enter(cyPage);
  mark('Cy in');
  for (const [page, others] of [
    [adaPage, [benId, cyId]],
    [benPage, [adaId, cyId]],
    [cyPage, [adaId, benId]],
  ] as const) {
    for (const other of others) await expectVideoPlaying(page, other);
  }

  // Ben's live connection is cut (a missed heartbeat): it reconnects by itself and he returns.
  expect(benSockets.length).toBeGreaterThan(0);
  mark('Ben cut');
  for (const socket of benSockets.splice(0)) await socket.close({ code: 1006 }).catch(() => undefined);
  await expect(benPage.locator('.live-status')).toBeVisible({ timeout: 10_000 });
  await expect(benPage.locator('.live-status')).toHaveCount(0, { timeout: 60_000 });
  mark('Ben back');
  // Past the grace a departure would have been told (10 s): nothing was.
  await adaPage.waitForTimeout(12_000);
  await expectVideoPlaying(adaPage, benId);
  await expectVideoPlaying(benPage, adaId);
  await expectVideoPlaying(cyPage, benId);
  await expectVideoPlaying(benPage, cyId);

  const record = await watched(adaPage);
  const shown = record.frames.filter(([at]) => at >= startedAt);
  const since = (text: string) => text.replace(/@(\d+)$/, (_, at: string) => `at ${Math.round((Number(at) - startedAt) / 1000)} s`);
  console.log(`Ben's tile on Ada's screen: ${record.states.map(since).join(', ')}; marks: ${marks.map(since).join(', ')}`);
  expect(shown.length).toBeGreaterThan(20);
  // In every window, Ben's video advanced.
  const stalls: string[] = [];
  for (let index = 0; index < shown.length; index++) {
    const [at, count] = shown[index]!;
    const later = shown.find(([time]) => time >= at + WINDOW_MS);
    if (!later) break;
    if (count < 0 || later[1] <= count) stalls.push(`${Math.round((at - startedAt) / 1000)} s: ${count} → ${later[1]}`);
  }
  expect(stalls, 'windows in which Ben’s video stood still on Ada’s screen').toEqual([]);
  expect(record.tileGone, 'times Ben’s tile was taken down on Ada’s screen').toBe(0);
  expect(record.notices.filter((text) => text.includes('left')), 'departures announced on Ada’s screen').toEqual([]);
  await adaPage.setViewportSize({ width: 1280, height: 800 });
  await adaPage.screenshot({ path: path.join(shots, 'call-load-1280.png') });
  await adaPage.setViewportSize({ width: 375, height: 740 });
  await adaPage.screenshot({ path: path.join(shots, 'call-load-375.png') });
});
