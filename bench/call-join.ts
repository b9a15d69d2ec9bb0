// Report, not a test: how long a call without a media server takes to show the other person,
// measured as the user gets it. Two people in two Chromiums (fake camera and microphone) on
// loopback; Ada waits in the call with her camera on; Ben opens the call, and on its check screen
// (camera and microphone open) presses "Join now", over and over; each time, from the press to
// the first frame of Ada's video drawn on Ben's screen. Reference in the same run: the WebRTC floor, two connections inside Ben's page with the
// same fake camera and no server (getUserMedia to first frame). Also the server's CPU per
// signalling message, measured apart: two live connections of the same two people (Socket.IO
// clients in this process) enter the call and one sends the other SIGNALS network candidates; the
// server's CPU over them per signal, against the same number of signals read and refused (the
// live connection's own floor) in the same run.
// `npm run build -w @parla/web && npm run bench:call-join -w @parla/bench [-- --joins 20]`
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { api, launchWithFakeMedia, signedInOn } from '@parla/e2e/call';
import { activatedUserOn } from '@parla/e2e/speech';
import { startStack, type Stack } from '@parla/e2e/stack';
import { cpuTimeUs, percentile, runMain } from './lib/harness';


const LIVE = 3002;
const { values: options } = parseArgs({ options: { joins: { type: 'string', default: '15' }, signals: { type: 'string', default: '3000' } } });
const JOINS = Number(options.joins);
const SIGNALS = Number(options.signals);

/** Counts the call:signal messages a page sends on its live connection. */
function countSignals(page: Page, counter: { sent: number }) {
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      if (typeof payload === 'string' && payload.includes('"call:signal"')) counter.sent++;
    });
  });
}

/** The WebRTC floor in `page`: two connections in the page, the fake camera, getUserMedia to the first frame drawn. */
function loopbackFloor(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const started = performance.now();
    const stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
    const a = new RTCPeerConnection();
    const b = new RTCPeerConnection();
    a.onicecandidate = ({ candidate }) => candidate && void b.addIceCandidate(candidate);
    b.onicecandidate = ({ candidate }) => candidate && void a.addIceCandidate(candidate);
    for (const track of stream.getTracks()) a.addTrack(track, stream);
    const video = document.createElement('video');
    video.muted = true;
    video.autoplay = true;
    document.body.append(video);
    const frame = new Promise<number>((resolve) => {
      b.ontrack = ({ track }) => {
        if (track.kind !== 'video') return;
        video.srcObject = new MediaStream([track]);
        video.requestVideoFrameCallback(() => resolve(performance.now() - started));
      };
    });
    await a.setLocalDescription(await a.createOffer());
    await b.setRemoteDescription(a.localDescription!);
    await b.setLocalDescription(await b.createAnswer());
    await a.setRemoteDescription(b.localDescription!);
    const elapsed = await frame;
    for (const track of stream.getTracks()) track.stop();
    a.close();
    b.close();
    video.remove();
    return elapsed;
  });
}

async function main(): Promise<number> {
  const stack = await startStack({ env: { STT_PROVIDER: 'none', TTS_PROVIDER: 'none', TRANSLATION_PROVIDER: 'none', LOG_LEVEL: 'warn', RATE_LIMIT_LIVE_EVENTS: '0' } });
  const browsers: Browser[] = [await launchWithFakeMedia(), await launchWithFakeMedia()];
  try {
    const [ada, ben] = await Promise.all([activatedUserOn(stack, 'Ada Lovelace'), activatedUserOn(stack, 'Ben Okafor')]);
    const adaPage = await signedInOn(browsers[0]!, stack, ada);
    const benPage = await signedInOn(browsers[1]!, stack, ben);
    const room = (await api(adaPage, 'POST', '/api/rooms/', { title: 'Bench call', languages: ['en'] }))!;
    await api(adaPage, 'POST', `/api/rooms/${room.id}/participants/`, { user: ben.email, roomRole: 1002 });
    await api(benPage, 'POST', `/api/rooms/${room.id}/participant/accept/`);
    await api(adaPage, 'PATCH', `/api/rooms/${room.id}/state/`, { state: LIVE });
    const adaId = ((await (await adaPage.request.get(`/api/rooms/${room.id}/participant/`)).json()) as { id: number }).id;

    const signals = { sent: 0 };
    countSignals(adaPage, signals);
    countSignals(benPage, signals);
    await adaPage.goto(`/room/${room.id}/connect`);
    await adaPage.locator('.prejoin video').waitFor();
    await adaPage.locator('.prejoin-join').click();
    await adaPage.locator('.stage-tile.self').waitFor();

    const joins: number[] = [];
    const floors: number[] = [];
    const cpuBefore = cpuTimeUs(stack.pid)!;
    const signalsBefore = signals.sent;
    for (let round = 0; round < JOINS + 1; round++) {
      await benPage.goto(`/room/${room.id}/connect`);
      // The check screen: camera and microphone open, then "Join now".
      await benPage.locator('.prejoin video').waitFor();
      const join = benPage.locator('.prejoin-join');
      await join.waitFor();
      const pressed = Date.now();
      await join.click();
      const video = benPage.locator(`.stage-tile[data-participant="${adaId}"] video`);
      await video.waitFor({ timeout: 20_000 });
      await video.evaluate((element: HTMLVideoElement) => new Promise<void>((resolve) => element.requestVideoFrameCallback(() => resolve())));
      const elapsed = Date.now() - pressed;
      // The first round warms the page's chunks and the browser's media stack: not counted.
      if (round > 0) joins.push(elapsed);
      floors.push(await loopbackFloor(benPage));
    }
    const cpuUs = cpuTimeUs(stack.pid)! - cpuBefore;
    const sent = signals.sent - signalsBefore;
    const relay = await signalCost(stack, room.id, adaPage, benPage);
    joins.sort((a, b) => a - b);
    floors.sort((a, b) => a - b);
    const p = (list: number[], q: number) => Math.round(percentile(list, q));
    console.log(`Call without a media server, loopback, ${JOINS} joins (after one warm-up): press "Join now" → first frame of the other's video`);
    console.log(`  join → first remote frame: p50 ${p(joins, 50)} ms, p95 ${p(joins, 95)} ms (min ${p(joins, 0)}, max ${p(joins, 100)})`);
    console.log(`  reference, the WebRTC floor in the same page (two connections, no server, getUserMedia → first frame): p50 ${p(floors, 50)} ms, p95 ${p(floors, 95)} ms`);
    console.log(`  ratio p50 join/floor ${(percentile(joins, 50) / percentile(floors, 50)).toFixed(2)}, p95 ${(percentile(joins, 95) / percentile(floors, 95)).toFixed(2)}`);
    console.log(`  server CPU over the joins (page loads, API reads, live connections, signals): ${Math.round(cpuUs / 1000)} ms, ${Math.round(cpuUs / JOINS / 1000)} ms per join; the pages sent ${sent} call:signal messages (${Math.round(sent / (JOINS + 1))} per join)`);
    console.log(`  server CPU per relayed signal (${SIGNALS} candidates between two live connections): ${relay.signalUs.toFixed(0)} µs; reference, a signal read and refused unrelayed (same count, same run): ${relay.floorUs.toFixed(0)} µs; ratio ${(relay.signalUs / relay.floorUs).toFixed(2)}`);
    return 0;
  } finally {
    for (const browser of browsers) await browser.close();
    await stack.stop();
  }
}

/** A live connection with a page's session (its access cookie), as the web client has one. */
async function liveConnection(stack: Stack, page: Page): Promise<Socket> {
  const cookie = (await page.context().cookies()).map((item) => `${item.name}=${item.value}`).join('; ');
  const socket = io(stack.baseURL, { path: '/api/live/', transports: ['websocket'], extraHeaders: { cookie }, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/**
 * The server's CPU per relayed call signal (SIGNALS network candidates from Ben's connection to
 * Ada's, counted as Ada receives them), against the floor of the same number of signals the
 * server reads and refuses unrelayed (malformed ones, counted by their answers), in the same run.
 */
async function signalCost(stack: Stack, roomId: number, adaPage: Page, benPage: Page) {
  const [ada, ben] = [await liveConnection(stack, adaPage), await liveConnection(stack, benPage)];
  try {
    const adaIn = await ada.timeout(5000).emitWithAck('call:join', { roomId });
    const benIn = await ben.timeout(5000).emitWithAck('call:join', { roomId });
    if (!adaIn.ok || !benIn.ok) throw new Error('the bench connections could not enter the call');
    const to = adaIn.self.participantId;
    const measure = async (send: (done: () => void) => void) => {
      let seen = 0;
      let finish: () => void = () => undefined;
      const all = new Promise<void>((resolve) => (finish = resolve));
      const done = () => {
        if (++seen === SIGNALS) finish();
      };
      const before = cpuTimeUs(stack.pid)!;
      for (let index = 0; index < SIGNALS; index++) {
        send(done);
        // A hundred at a time, as a browser sends its candidates in bursts.
        if (index % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await all;
      return (cpuTimeUs(stack.pid)! - before) / SIGNALS;
    };
    let relayedOne: () => void = () => undefined;
    ada.on('call:signal', () => relayedOne());
    const candidate = { type: 'candidate', candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0', sdpMLineIndex: 0 } as const;
    const signalUs = await measure((done) => {
      relayedOne = done;
      ben.emit('call:signal', { roomId, to, signal: candidate }, () => undefined);
    });
    const floorUs = await measure((done) => ben.emit('call:signal', { roomId, to, signal: { type: 'candidate' } } as never, () => done()));
    return { signalUs, floorUs };
  } finally {
    ada.close();
    ben.close();
  }
}

runMain(main);
