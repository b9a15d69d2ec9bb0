// Report, not a test: live interpreting (issue 33) as listeners get it, twice in one run: on the
// embedded defaults (pocketsphinx's streaming decoder, Apertium, espeak-ng), then through the
// OpenAI stand-in (apps/server/test/stand-ins), its realtime transcription taking the stream
// (STT_STREAMING=realtime; the stand-in "hears" each sentence's words as the audio reaches their
// ends, as pocketsphinx aligned them, and ends the utterance after 500 ms of quiet; its own work
// runs in this process and is not in the CPU figure). One English speaker in a Live room with 10 listeners
// in 5 languages (2 each of en, es, ca, gl, hr; one male and one female voice each). Embedded,
// English reaches es, ca and gl with text and voice (Galician in espeak-ng's Spanish voice),
// hr not at all (Apertium's eng>hbs is left out as unusable): they read the original, as the
// product does. The speaker says English sentences read by flite, sent at the pace of speech:
//
//   streaming  frames of 128 ms on the speech WebSocket (SPEECH_STREAM) while they speak, as the
//              call does; the server recognises while they speak and ends the utterance itself.
//   reference  the path before it (cut at pauses): the utterance uploaded whole once the browser's
//              voice activity detector heard it end (vad-web's redemption, 1,400 ms after the last
//              word), then transcribed, translated and spoken.
//
// Both run on the same server, utterance by utterance in turn, so the machine's other work falls on
// both. Figures, from the listeners' sockets (socket.io, as the web client):
//   - caption lag: a word spoken (its end, from pocketsphinx's own alignment of the recording) →
//     the listener sees it: same-language listeners when a partial holds that many words, the
//     others at the first translated partial after the server had the word; the reference shows
//     nothing before the whole utterance is rendered;
//   - end offset: the speaker's last word → the listener's final text, and → their voice starts
//     (the voice pushed, then fetched as the browser does before it plays); target: voice p95 ≤ 1.5 s;
//   - the whole path's CPU (server, recognisers, translation and voices) per second of speech, and
//     so how many people speaking at once one core keeps up with;
//   - translation calls per utterance for its partial captions (the server's own count);
//   - capacity, embedded: 2, 4 and 6 English speakers at once (each saying 3 sentences, starts
//     staggered), 2 Spanish listeners: how far recognition fell behind at worst, the last word →
//     stored, → Spanish text and voice, and whether every sentence was stored.
//
//   npm run bench:interpreting -w @parla/bench [-- --utterances 8 --providers embedded,stand-in --capacity 2,4,6 --keep]
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { COOKIES } from '@parla/contract/constants';
import { LIVE_PATH } from '@parla/contract/live';
import type { PartialSegmentEvent } from '@parla/contract/interpreting';
import type { Segment } from '@parla/contract/rooms';
import { startOpenAiStandIn, type StandIn } from '../apps/server/test/stand-ins/openai';
import {
  benchFolders,
  createDatabase,
  freePort,
  loadAverage,
  onCleanup,
  parlaEnv,
  parseBenchArgs,
  percentile,
  ROOT,
  runMain,
  sleep,
  startServer,
  StartError,
  stopServer,
} from './lib/harness';
import { seedLiveRoom, type SeededRoom } from './lib/room-seed';
import { openSeeder } from './lib/seed';

const VOICE_TARGET_MS = 1_500;
/** vad-web's default redemption: the browser's end of an utterance, after the last word. */
const VAD_END_MS = 1_400;
const FRAME_BYTES = 4_096;
const SENTENCES = [
  'Good morning everyone. Today we will talk about the budget for next year, and then we will look at the plans for the new office.',
  'Thank you for joining the meeting today. I would like to talk about the new computers for the school.',
  'The quarterly figures are in, and they look better than we expected for the second half of the year.',
  'We should ask the team in the other office what they think before we decide on the new plans.',
];

const { values: options } = parseBenchArgs({
  utterances: { type: 'string', default: '8' },
  providers: { type: 'string', default: 'embedded,stand-in' },
  /** People speaking at once in the capacity runs, embedded (empty: none). */
  capacity: { type: 'string', default: '2,4,6' },
});
const utteranceCount = Number(options.utterances);
type Providers = 'embedded' | 'stand-in';
const providerRuns = options.providers
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean) as Providers[];
for (const name of providerRuns) if (name !== 'embedded' && name !== 'stand-in') throw new Error(`--providers: embedded, stand-in (not ${name})`);
const LANGUAGES = ['en', 'es', 'ca', 'gl', 'hr'];

interface Said {
  pcm: Buffer;
  /** The words as pocketsphinx aligned them (what the stand-in's realtime transcription says). */
  words: string[];
  /** Where speech starts in `pcm` (ms): the first loud sample, as the stand-in's detector finds it. */
  speechStart: number;
  /** End of each word in the recording (ms), pocketsphinx's alignment. */
  wordEnds: number[];
  /** End of the last word (ms). */
  speechEnd: number;
  wav: Buffer;
}

/** flite's recording of `text` (16 kHz mono), with its words' end times. */
function record(tmp: string, text: string, index: number): Said {
  const file = path.join(tmp, `said-${index}.wav`);
  execFileSync('flite', ['-voice', 'rms', '-t', text, '-o', file]);
  const raw = readFileSync(file);
  const dataAt = raw.indexOf('data', 12, 'latin1') + 8;
  const aligned = execFileSync('pocketsphinx_continuous', ['-infile', file, '-time', 'yes', '-logfn', '/dev/null'], { encoding: 'utf8' });
  const alignedWords = aligned
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length === 4 && !/^<|^\[|^</.test(parts[0]!) && parts[0] !== '<sil>');
  const wordEnds = alignedWords.map((parts) => Number(parts[2]) * 1000);
  const words = alignedWords.map((parts) => parts[0]!.replace(/\(\d+\)$/, ''));
  if (wordEnds.length < 5) throw new StartError(`pocketsphinx aligned too few words of "${text}"`);
  // 300 ms of silence before, 1.5 s after (the pause that ends it).
  const pcm = Buffer.concat([Buffer.alloc(300 * 32), raw.subarray(dataAt), Buffer.alloc(1_500 * 32)]);
  const header = Buffer.from(raw.subarray(0, 44));
  header.writeUInt32LE(36 + pcm.length, 4);
  header.writeUInt32LE(pcm.length, 40);
  let loud = 0;
  while (loud < pcm.length / 2 && Math.abs(pcm.readInt16LE(loud * 2)) <= 600) loud++;
  return { pcm, words, speechStart: loud / 16, wordEnds: wordEnds.map((end) => end + 300), speechEnd: wordEnds.at(-1)! + 300, wav: Buffer.concat([header, pcm]) };
}

interface Arrival {
  at: number;
  listener: number;
}

/** What the listeners' sockets received, by listener. */
interface Heard {
  partials: (PartialSegmentEvent & Arrival)[];
  segments: (Segment & Arrival & { event: string })[];
}

function listen(url: string, room: SeededRoom, heard: Heard): Promise<Socket[]> {
  return Promise.all(
    room.listeners.map(async (listener, index) => {
      const socket: Socket = io(url, { path: LIVE_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: listener.user.token } });
      socket.on('segment:partial', (event: PartialSegmentEvent) => heard.partials.push({ ...event, at: performance.now(), listener: index }));
      for (const name of ['segment:created', 'segment:rendered'])
        socket.on(name, (event: { segment: Segment }) => heard.segments.push({ ...event.segment, event: name, at: performance.now(), listener: index }));
      await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('connect_error', reject));
      const ack = (await socket.timeout(10_000).emitWithAck('room:subscribe', { roomId: room.roomId })) as { ok: boolean };
      if (!ack.ok) throw new StartError('a listener could not subscribe');
      return socket;
    }),
  );
}

interface Outcome {
  /** Caption lag per (word, listener), ms. */
  captions: number[];
  text: number[];
  voice: number[];
  missing: number;
}

/** The figures of one utterance from what the listeners heard after `start` (the first sample sent). */
async function outcome(room: SeededRoom, heard: Heard, start: number, said: Said, segmentId: number, streamed: boolean): Promise<Outcome> {
  const result: Outcome = { captions: [], text: [], voice: [], missing: 0 };
  const speechEnd = start + said.speechEnd;
  const sameLanguage = room.listeners.map((listener) => listener.language === 'en');
  const fetched = new Map<string, number>();
  for (const [index, listener] of room.listeners.entries()) {
    const mine = heard.segments.filter((item) => item.listener === index && item.id === segmentId);
    // A listener of a pair the provider lacks reads the original (translation none): that is their final text.
    const textAt = mine.find((item) => item.transcription === 'done' && (sameLanguage[index] || item.translation === 'done' || item.translation === 'none'))?.at;
    const voiced = mine.find((item) => item.speech === 'done' && item.audioFile);
    const noVoice = mine.some((item) => item.speech === 'none');
    if (textAt === undefined) result.missing++;
    else result.text.push(textAt - speechEnd);
    if (!sameLanguage[index] && !noVoice) {
      if (!voiced?.audioFile) result.missing++;
      else {
        // The browser fetches the voice before it plays: the first byte of it, once per file.
        let took = fetched.get(voiced.audioFile);
        if (took === undefined) {
          const asked = performance.now();
          const answer = await fetch(voiced.audioFile, { headers: { cookie: `${COOKIES.access}=${listener.user.token}` } });
          if (!answer.ok) throw new StartError(`the voice ${voiced.audioFile} answered ${answer.status}`);
          await answer.arrayBuffer();
          took = performance.now() - asked;
          fetched.set(voiced.audioFile, took);
        }
        result.voice.push(voiced.at + took - speechEnd);
      }
    }
    // Captions: each word's end → the first time this listener could read it.
    const partials = heard.partials.filter((item) => item.listener === index && item.at >= start && item.state === 'speaking');
    const sourcePartials = heard.partials.filter((item) => sameLanguage[item.listener] && item.at >= start && item.state === 'speaking');
    said.wordEnds.forEach((end, word) => {
      const spokenAt = start + end;
      let seenAt: number | undefined;
      if (streamed) {
        const known = sourcePartials.find((item) => item.text.split(/\s+/).filter(Boolean).length > word)?.at;
        seenAt = sameLanguage[index] ? known : known === undefined ? undefined : partials.find((item) => item.translated && item.at >= known)?.at;
      }
      // Not shown while spoken (or the reference): the utterance's final text shows it.
      seenAt ??= textAt;
      // (A listener who gets no translation reads the words as said: the same-language figure.)
      if (!sameLanguage[index] && !mine.some((item) => item.translation === 'done')) return;
      if (seenAt !== undefined) result.captions.push(Math.max(0, seenAt - spokenAt));
    });
  }
  return result;
}

/** Sends `pcm` at the pace of speech in 128 ms frames; resolves when the last frame was sent. */
async function pace(send: (frame: Buffer) => void, pcm: Buffer, start: number) {
  for (let at = 0; at < pcm.length; at += FRAME_BYTES) {
    send(pcm.subarray(at, at + FRAME_BYTES));
    const wait = start + (at + FRAME_BYTES) / 32 - performance.now();
    if (wait > 0) await sleep(wait);
  }
}

/** CPU of a process and of its children that ended and were waited for (cutime, cstime), µs. */
function withEndedChildrenUs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // fields[0] is field 3 (state): utime, stime, cutime, cstime are fields 14-17.
    return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1e6) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU (µs) of a process and everything it started (those still running, and those that ended: the voices' encoders). */
function treeCpuUs(pid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const walk = (id: number) => {
    total += withEndedChildrenUs(id);
    for (const child of children.get(id) ?? []) walk(child);
  };
  walk(pid);
  return total;
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length };
};

/** The embedded providers, as `npm start` has them. */
const EMBEDDED = { STT_PROVIDER: 'pocketsphinx', TRANSLATION_PROVIDER: 'apertium', TTS_PROVIDER: 'espeak' };

/** A Parla server of its own (its own database and files) with these providers. */
async function startParla(name: string, tmp: string, providers: Record<string, string>, logLevel: string) {
  const secretKey = randomBytes(48).toString('base64url');
  const databaseUrl = await createDatabase();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer({
    name,
    main: path.resolve(ROOT, options['server-main']),
    url,
    readyUrl: `${url}/api/status/`,
    tmp,
    timeoutSeconds: 120,
    env: { ...parlaEnv({ port, publicUrl: url, dataDir: path.join(tmp, `data-${name}`), databaseUrl, secretKey, logLevel }), RATE_LIMIT_MESSAGES: '0', ...providers },
  });
  return { server, url, databaseUrl, secretKey };
}

interface ProviderRun {
  providers: Providers;
  streaming: Outcome[];
  reference: Outcome[];
  streamedMs: number;
  cpuUs: number;
  /** Partial translation calls per streamed utterance (the server's count). */
  calls: number[];
}

/** One server on `providers`, the utterances streamed and uploaded in turn. */
async function runOn(providers: Providers, said: Said[], tmp: string): Promise<ProviderRun> {
  let standIn: StandIn | undefined;
  if (providers === 'stand-in') {
    standIn = await startOpenAiStandIn();
    const opened = standIn;
    onCleanup(() => opened.close());
  }
  const { server, url, databaseUrl, secretKey } = await startParla(
    `interpreting-${providers}`,
    tmp,
    standIn
      ? { OPENAI_BASE_URL: standIn.baseUrl, TRANSLATION_MODEL: 'stand-in', STT_PROVIDER: 'openai', STT_STREAMING: 'realtime', TTS_PROVIDER: 'openai' }
      : EMBEDDED,
    'debug',
  );
  const seeder = openSeeder(databaseUrl);
  const room = await seedLiveRoom(seeder, secretKey, {
    title: 'Interpreting',
    languages: LANGUAGES,
    speaker: { language: 'en', male: true },
    listeners: LANGUAGES.flatMap((language) => [
      { language, male: true },
      { language, male: false },
    ]),
  }).finally(() => seeder.close());
  const heard: Heard = { partials: [], segments: [] };
  const sockets = await listen(url, room, heard);
  const cookie = `${COOKIES.access}=${room.speaker.user.token}`;
  const stream = new WebSocket(`${url.replace(/^http/, 'ws')}/api/rooms/${room.roomId}/speech/`, { headers: { cookie } });
  const stored: number[] = [];
  stream.on('message', (data, binary) => {
    if (binary) return;
    const message = JSON.parse(String(data)) as { type: string; segmentId?: number };
    if (message.type === 'stored' && message.segmentId) stored.push(message.segmentId);
  });
  await new Promise((resolve, reject) => stream.once('open', resolve).once('error', reject));
  await sleep(1_000);

  const run: ProviderRun = { providers, streaming: [], reference: [], streamedMs: 0, cpuUs: 0, calls: [] };
  const total = utteranceCount + 1;
  for (let index = 0; index < total; index++) {
    const utterance = said[index % said.length]!;
    // Through the stand-in, each take says something of its own (a last word marked with the take):
    // no translation is answered from the cache of an earlier take.
    const take = (way: string) => [...utterance.words.slice(0, -1), `${utterance.words.at(-1)}-${way}${index}`].join(' ');
    standIn?.realtime.script(() => ({ text: take('s'), wordEndsMs: utterance.wordEnds.map((end) => end - utterance.speechStart) }));
    // Streamed: while spoken.
    const cpuBefore = treeCpuUs(server.child.pid!);
    const before = stored.length;
    const start = performance.now();
    await pace((frame) => stream.send(frame), utterance.pcm, start);
    const deadline = performance.now() + 30_000;
    while (stored.length === before && performance.now() < deadline) await sleep(20);
    const segmentId = stored[before];
    if (segmentId === undefined) throw new StartError(`utterance ${index}: the stream stored nothing (see ${server.log})`);
    await sleep(3_000);
    const streamCpu = treeCpuUs(server.child.pid!) - cpuBefore;
    // Cut at pauses: the browser's detector ends the utterance 1.4 s after the last word, then uploads it.
    standIn?.transcriptFor(take('r'));
    const refStart = performance.now();
    await sleep(utterance.speechEnd + VAD_END_MS);
    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(utterance.wav)], { type: 'audio/wav' }), 'utterance.wav');
    const posted = await fetch(`${url}/api/rooms/${room.roomId}/segments/`, { method: 'POST', body: form, headers: { authorization: `Bearer ${room.speaker.user.token}` } });
    if (posted.status !== 201) throw new StartError(`upload ${index}: ${posted.status} ${await posted.text()}`);
    const refId = ((await posted.json()) as { id: number }).id;
    await sleep(8_000);
    if (index === 0) continue; // warm-up
    run.streaming.push(await outcome(room, heard, start, utterance, segmentId, true));
    run.reference.push(await outcome(room, heard, refStart, utterance, refId, false));
    run.streamedMs += utterance.pcm.length / 32;
    run.cpuUs += streamCpu;
  }
  stream.close();
  sockets.forEach((socket) => socket.close());
  await stopServer(server);
  await standIn?.close();
  const log = readFileSync(server.log, 'utf8');
  run.calls = [...log.matchAll(/"partialCalls":(\d+)[^\n]*"state":"stored"/g)].map((match) => Number(match[1]));
  return run;
}

function report(run: ProviderRun) {
  const { streaming, reference } = run;
  const show = (name: string, values: number[]) => {
    const { p50, p95, n } = stats(values);
    return `${name.padEnd(11)} p50 ${p50.toFixed(0).padStart(6)} ms  p95 ${p95.toFixed(0).padStart(6)} ms  (n ${n})`;
  };
  const flat = (items: Outcome[], key: 'captions' | 'text' | 'voice') => items.flatMap((item) => item[key]);
  const embedded = run.providers === 'embedded';
  const title = embedded ? 'embedded defaults (pocketsphinx streaming, Apertium, espeak-ng)' : 'OpenAI stand-in (realtime transcription, chat translation, speech)';
  console.log(`\n== live interpreting, ${title}; 1 speaker (en), 10 listeners (2 each of ${LANGUAGES.join(', ')}); ${streaming.length} utterances each way; load ${loadAverage()}`);
  console.log('caption lag: a word spoken → the listener sees it');
  console.log(`  ${show('streaming', flat(streaming, 'captions'))}`);
  console.log(`  ${show('reference', flat(reference, 'captions'))}`);
  console.log(`  ratio p50 ${(stats(flat(streaming, 'captions')).p50 / stats(flat(reference, 'captions')).p50).toFixed(2)}`);
  console.log('end offset: the last word → the listener’s final text');
  console.log(`  ${show('streaming', flat(streaming, 'text'))}`);
  console.log(`  ${show('reference', flat(reference, 'text'))}`);
  console.log('end offset: the last word → the listener’s voice starts (pushed + fetched)');
  const voice = stats(flat(streaming, 'voice'));
  console.log(`  ${show('streaming', flat(streaming, 'voice'))}`);
  console.log(`  ${show('reference', flat(reference, 'voice'))}`);
  console.log(`  target p95 ≤ ${VOICE_TARGET_MS} ms: ${voice.p95 <= VOICE_TARGET_MS ? 'met' : 'MISSED'} (${voice.p95.toFixed(0)} ms); ratio p95 ${(voice.p95 / stats(flat(reference, 'voice')).p95).toFixed(2)}`);
  const missing = streaming.reduce((sum, item) => sum + item.missing, 0);
  if (missing) console.log(`  (${missing} listener results missing in the streaming runs)`);
  const perSecond = run.cpuUs / 1000 / run.streamedMs;
  const what = embedded ? 'server, recogniser, translation, voices' : 'the server; the stand-in’s work is not counted';
  console.log(`whole path CPU per second of speech (${what}; streamed utterances): ${(perSecond * 1000).toFixed(0)} ms → one core keeps up with ${(1 / perSecond).toFixed(1)} people speaking at once`);
  const calls = run.calls;
  console.log(`translation calls per utterance for partial captions: mean ${(calls.reduce((a, b) => a + b, 0) / Math.max(1, calls.length)).toFixed(1)}, max ${Math.max(0, ...calls)} (${calls.length} utterances; one more for the final text)`);
}

interface CapacityRun {
  speakers: number;
  utterances: number;
  stored: number;
  behindMaxMs: number;
  toStored: number[];
  text: number[];
  voice: number[];
  cpuPerSecondMs: number;
}

/** `speakers` people speaking English at once (3 sentences each), heard by 2 Spanish listeners. */
async function capacityRun(url: string, serverPid: number, databaseUrl: string, secretKey: string, speakers: number, said: Said[]): Promise<CapacityRun> {
  const seeder = openSeeder(databaseUrl);
  const room = await seedLiveRoom(seeder, secretKey, {
    title: `Capacity ${speakers}`,
    languages: ['en', 'es'],
    speaker: { language: 'en', male: true },
    listeners: [
      ...Array.from({ length: speakers - 1 }, (_, index) => ({ language: 'en', male: index % 2 === 0 })),
      { language: 'es', male: true },
      { language: 'es', male: false },
    ],
  }).finally(() => seeder.close());
  const talkers = [room.speaker, ...room.listeners.slice(0, speakers - 1)];
  const spanish: SeededRoom = { ...room, listeners: room.listeners.slice(speakers - 1) };
  const heard: Heard = { partials: [], segments: [] };
  const sockets = await listen(url, spanish, heard);
  const SAYS = 3;
  const cpuBefore = treeCpuUs(serverPid);
  let behindMaxMs = 0;
  let spokenMs = 0;
  const perSpeaker = await Promise.all(
    talkers.map(async (talker, which) => {
      const stream = new WebSocket(`${url.replace(/^http/, 'ws')}/api/rooms/${room.roomId}/speech/`, { headers: { cookie: `${COOKIES.access}=${talker.user.token}` } });
      const stored: { id: number; at: number }[] = [];
      stream.on('message', (data, binary) => {
        if (binary) return;
        const message = JSON.parse(String(data)) as { type: string; segmentId?: number; ms?: number };
        if (message.type === 'stored' && message.segmentId) stored.push({ id: message.segmentId, at: performance.now() });
        if (message.type === 'behind' && typeof message.ms === 'number') behindMaxMs = Math.max(behindMaxMs, message.ms);
      });
      await new Promise((resolve, reject) => stream.once('open', resolve).once('error', reject));
      await sleep(500 + which * 700);
      const lastWords: number[] = [];
      for (let index = 0; index < SAYS; index++) {
        const utterance = said[(index + which) % said.length]!;
        const start = performance.now();
        await pace((frame) => stream.send(frame), utterance.pcm, start);
        lastWords.push(start + utterance.speechEnd);
        spokenMs += utterance.pcm.length / 32;
      }
      const deadline = performance.now() + 60_000;
      while (stored.filter((item) => item.at > lastWords.at(-1)!).length === 0 && performance.now() < deadline) await sleep(50);
      return { lastWords, stored, stream };
    }),
  );
  await sleep(3_000);
  // Before the streams close: their recognisers are still there to be counted.
  const cpuUs = treeCpuUs(serverPid) - cpuBefore;
  for (const { stream } of perSpeaker) stream.close();
  await sleep(5_000);
  for (const item of heard.partials) behindMaxMs = Math.max(behindMaxMs, item.behindMs);
  const run: CapacityRun = { speakers, utterances: speakers * SAYS, stored: 0, behindMaxMs, toStored: [], text: [], voice: [], cpuPerSecondMs: 0 };
  for (const { lastWords, stored } of perSpeaker) {
    run.stored += stored.length;
    lastWords.forEach((lastWord) => {
      // The utterance's segment: the first stored after its last word (the pause ends it there).
      const segment = stored.find((item) => item.at >= lastWord);
      if (!segment) return;
      run.toStored.push(segment.at - lastWord);
      for (const listener of [0, 1]) {
        const mine = heard.segments.filter((item) => item.listener === listener && item.id === segment.id);
        const text = mine.find((item) => item.translation === 'done')?.at;
        const voice = mine.find((item) => item.speech === 'done')?.at;
        if (text !== undefined) run.text.push(text - lastWord);
        if (voice !== undefined) run.voice.push(voice - lastWord);
      }
    });
  }
  run.cpuPerSecondMs = cpuUs / spokenMs;
  sockets.forEach((socket) => socket.close());
  return run;
}

async function capacity(levels: number[], said: Said[], tmp: string): Promise<CapacityRun[]> {
  if (!levels.length) return [];
  const { server, url, databaseUrl, secretKey } = await startParla('interpreting-capacity', tmp, EMBEDDED, 'info');
  const runs: CapacityRun[] = [];
  for (const speakers of levels) {
    runs.push(await capacityRun(url, server.child.pid!, databaseUrl, secretKey, speakers, said));
    await sleep(3_000);
  }
  await stopServer(server);
  return runs;
}

function reportCapacity(runs: CapacityRun[]) {
  if (!runs.length) return;
  console.log(`\n== capacity, embedded defaults: English speakers at once (3 sentences each, staggered), 2 Spanish listeners; ${os.cpus().length} cores; load ${loadAverage()}`);
  const cell = (values: number[]) => {
    const { p50, p95 } = stats(values);
    return `${p50.toFixed(0).padStart(6)} / ${p95.toFixed(0).padStart(6)}`;
  };
  console.log('speakers  stored   behind max   last word → stored p50/p95   → Spanish text p50/p95   → voice pushed p50/p95    server CPU per s of speech');
  for (const run of runs) {
    console.log(
      `${String(run.speakers).padStart(8)}  ${`${run.stored}/${run.utterances}`.padStart(6)}   ${`${run.behindMaxMs.toFixed(0)} ms`.padStart(10)}   ${cell(run.toStored).padStart(26)} ms   ${cell(run.text).padStart(20)} ms   ${cell(run.voice).padStart(21)} ms   ${run.cpuPerSecondMs.toFixed(0).padStart(6)} ms`,
    );
  }
  console.log('(stored: segments stored of sentences said; more than said means a sentence cut at a pause inside it)');
}

async function main(): Promise<number> {
  const { tmp } = await benchFolders('interpreting', options);
  const said = SENTENCES.map((text, index) => record(tmp, text, index));
  const runs: ProviderRun[] = [];
  for (const providers of providerRuns) runs.push(await runOn(providers, said, tmp));
  const levels = options.capacity
    .split(',')
    .map((value) => Number(value.trim()))
    .filter((value) => Number.isInteger(value) && value > 0);
  const capacityRuns = await capacity(levels, said, tmp);
  for (const run of runs) report(run);
  reportCapacity(capacityRuns);
  return 0;
}

runMain(main);
