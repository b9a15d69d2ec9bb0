// Report, not a test: the speech pipeline of a live room (issue 8). A speaker uploads an utterance
// (POST /api/rooms/{roomId}/segments/, multipart `audio`: 1 s of tone, 16 kHz mono 16-bit WAV as the web client sends it);
// the time runs until the segment reached every listener's socket in its final form. 10 listeners
// read 5 languages (2 each of en, es, fr, de, it, one male and one female voice each; the speaker
// speaks en). Providers are the OpenAI-compatible stand-in (apps/server/test/stand-ins/openai.ts),
// which answers at once, in this process; its own time per request is measured ("provider time").
//
//   full      STT, translation and speech by the stand-in: `segment-transcribe` job, then
//             `segment-render`: one translation call for the 4 other languages, then one voice per
//             (language, tone, voice): 8 voices. Final for a listener: `segment:rendered` with
//             transcription done, translation done and speech done (translation and speech `none`
//             for the listeners of the speaker's language).
//   reference the same upload path with STT by the stand-in, TRANSLATION_PROVIDER=none and
//             TTS_PROVIDER=none. Final: transcription done.
//
// Figures and targets, at a steady load (one upload every `--interval` ms) in the same run:
//   - p95 of upload → last listener, minus that upload's provider time (the union of its stand-in
//     requests' own times): at most 150 ms;
//   - p95 of upload → last listener, full / reference: at most 1.2.
// Also: a burst of `--burst` uploads at once; per-step times (POST answered, segment:created, the
// stand-in asked and answered for each step, on the sockets: transcribed, text, voices); the
// pg-boss jobs' wait between queued and started (notify vs polling) and run time, read from the
// job table afterwards; CPU per upload of the server and PostgreSQL; and, unless `--count 0`,
// the round trips to PostgreSQL per upload and per step, counted by a relay on the wire
// (bench/lib/pg-counter.ts) in a separate server, one upload at a time.
//
// Setup is not measured: each server gets its own throw-away database (pg-boss queues must not be
// shared between a full and a reference server), migrated by the server itself; users, sessions,
// the Live room and its participants go straight in (lib/room-seed.ts) with access tokens signed
// like the server's; sockets authenticate with `auth: { token }` and `room:subscribe`.
//
//   npm run bench:room-pipeline -w @parla/bench [-- options]
//   --uploads 25 --interval 500   steady load per server and round: uploads, ms between them
//   --rounds 4                    rounds alternate the servers (full, variants, reference): short
//                                 blocks, so that other work on a shared machine falls on each
//   --warmup 5                    uploads per server before the rounds, not counted
//   --burst 10                    uploads at once per server and round (0: none)
//   --drain 20                    s to wait for the last deliveries of a run
//   --languages en,es,fr,de,it --per-language 2
//                                 listeners (the speaker speaks the first language)
//   --count 5                     isolated uploads per server through the counting relay (0: skip)
//   --profile [dir]               CPU-profile the servers during the last round's steady run and
//                                 print profile-summary.ts's tables (per upload)
//   --server-env K=V              extra environment for every server (repeatable)
//   --variant 'label=<main.ts> [K=V...]'
//                                 one more server (a copy of apps/server, or other environment),
//                                 run as the full path, or as a reference when its environment
//                                 says TRANSLATION_PROVIDER=none and TTS_PROVIDER=none (repeatable);
//                                 a full variant's ratio is taken against the reference variant of
//                                 the same main.ts when there is one, else against `reference`
//   --trace                       print the statements of the last counted upload of each server,
//                                 in order, with the stand-in's requests and the socket arrivals
//   --slowest N                   print the steps of each server's N slowest steady uploads (what a tail is made of)
//   --keep                        keep the temporary folder (server logs)
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { LIVE_PATH, type ClientToServerEvents, type SegmentEvent, type ServerToClientEvents } from '@parla/contract/live';
import { pcmWav } from '../apps/server/src/domain/rendering/speech/audio';
import { startOpenAiStandIn } from '../apps/server/test/stand-ins/openai';
import {
  backgroundLoad,
  cpuTimeUs,
  createDatabase,
  freePort,
  loadAverage,
  machineCpuUs,
  median,
  onCleanup,
  parlaEnv,
  parseEnv,
  percentile,
  postgresCpuBetween,
  postgresCpuUs,
  printProfiles,
  ROOT,
  runMain,
  sleep,
  startServer,
  StartError,
  stopServer,
  toggleProfile,
  type Server,
  benchFolders,
  parseBenchArgs,
} from './lib/harness';
import { startPgCounter, type PgCounter } from './lib/pg-counter';
import { seedLiveRoom, type SeededRoom } from './lib/room-seed';
import { openSeeder } from './lib/seed';
import { clockStandIn, type ProviderCall, type StandInClock } from './lib/stand-in-clock';

const BEYOND_TARGET_MS = 150;
const RATIO_TARGET = 1.2;
const SENTENCE = 'Good morning everyone, the quarterly figures are in and they look better than we expected';

const { values: options } = parseBenchArgs({
    uploads: { type: 'string', default: '25' },
    interval: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '5' },
    burst: { type: 'string', default: '10' },
    drain: { type: 'string', default: '20' },
    languages: { type: 'string', default: 'en,es,fr,de,it' },
    'per-language': { type: 'string', default: '2' },
    count: { type: 'string', default: '5' },
    trace: { type: 'boolean', default: false },
    slowest: { type: 'string', default: '0' },
});
const uploadsPerRun = Number(options.uploads);
const intervalMs = Number(options.interval);
const rounds = Number(options.rounds);
const warmupUploads = Number(options.warmup);
const burstSize = Number(options.burst);
const drainMs = Number(options.drain) * 1000;
const languages = options.languages.split(',').map((language) => language.trim()).filter(Boolean);
const perLanguage = Number(options['per-language']);
const countUploads = Number(options.count);
const profiling = options.profile !== undefined;
const slowestShown = Number(options.slowest);
const speakerLanguage = languages[0] ?? 'en';

type Kind = 'full' | 'reference';
type Mode = 'warmup' | 'steady' | 'burst' | 'count';
type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

interface Spec {
  name: string;
  kind: Kind;
  main: string;
  env: Record<string, string>;
  describe: string;
}

interface Arrivals {
  /** performance.now() per listener (NaN: not yet). */
  created: number[];
  transcribed: number[];
  text: number[];
  final: number[];
  events: number;
  problems: Set<string>;
}

interface Target {
  spec: Spec;
  server: Server;
  databaseUrl: string;
  room: SeededRoom;
  sockets: LiveSocket[];
  arrivals: Map<number, Arrivals>;
  /** The server's CPU with nothing to do (pg-boss's workers polling, timers), µs per second. */
  idleUsPerSecond: number | undefined;
}

interface Upload {
  target: string;
  round: number;
  mode: Mode;
  key: string;
  start: number;
  answered: number;
  status: number;
  segmentId: number | undefined;
  error: string | undefined;
}

// ---- the utterance ----

const RUN = randomBytes(3).toString('hex');
const KEY = /utt-[0-9a-f]{6}-\d+/;
let keySequence = 0;
const nextKey = () => `utt-${RUN}-${++keySequence}`;
const transcriptOf = (key: string | undefined) => `${SENTENCE} (${key ?? 'no key'}).`;

/** 1 s of a 440 Hz tone at half scale, 16 kHz mono 16-bit PCM: made once. */
const SAMPLES = (() => {
  const rate = 16_000;
  const samples = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i++) samples.writeInt16LE(Math.round(16_000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  return samples;
})();

/**
 * The WAV of one upload as the web client makes it (apps/web/src/features/rooms/call/wav.ts: 16 kHz
 * mono 16-bit PCM behind a plain 44-byte header, which the server transcribes as it is): the tone,
 * its first samples replaced by the upload's key (a click of ~10 samples), which the stand-in
 * finds in the bytes it is sent.
 */
function utteranceWav(key: string): Buffer {
  const samples = Buffer.from(SAMPLES);
  samples.write(`${key}\0`, 0, 'latin1');
  return pcmWav(samples, 16_000);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** POSTs one utterance as the speaker; resolves when the answer is in. */
function upload(target: Target, round: number, mode: Mode): Promise<Upload> {
  const key = nextKey();
  const boundary = `----parla-bench-${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="utterance.wav"\r\nContent-Type: audio/wav\r\n\r\n`, 'latin1'),
    utteranceWav(key),
    Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1'),
  ]);
  const url = new URL(`/api/rooms/${target.room.roomId}/segments/`, target.server.url);
  const record: Upload = { target: target.spec.name, round, mode, key, start: performance.now(), answered: NaN, status: 0, segmentId: undefined, error: undefined };
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.length,
          authorization: `Bearer ${target.room.speaker.user.token}`,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => {
          record.answered = performance.now();
          record.status = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            const id = (JSON.parse(text) as { id?: unknown }).id;
            if (typeof id === 'number') record.segmentId = id;
          } catch {
            // not JSON
          }
          if (record.status !== 201) record.error = `${record.status} ${text.slice(0, 200)}`;
          resolve(record);
        });
      },
    );
    request.once('error', (error) => {
      record.answered = performance.now();
      record.error = error.message;
      resolve(record);
    });
    request.end(body);
  });
}

// ---- listeners ----

function arrivalsOf(target: Target, segmentId: number): Arrivals {
  let arrivals = target.arrivals.get(segmentId);
  if (!arrivals) {
    const none = () => target.room.listeners.map(() => NaN);
    arrivals = { created: none(), transcribed: none(), text: none(), final: none(), events: 0, problems: new Set() };
    target.arrivals.set(segmentId, arrivals);
  }
  return arrivals;
}

/** Where one listener's view of the segment stands: transcribed, its text ready, final; or a problem. */
function classify(kind: Kind, listenerLanguage: string, segment: SegmentEvent['segment']) {
  const transcribed = segment.transcription === 'done';
  const same = listenerLanguage === speakerLanguage;
  let problem: string | undefined;
  if (segment.transcription === 'failed' || segment.transcription === 'none') problem = `transcription ${segment.transcription}`;
  if (kind === 'reference') return { transcribed, text: transcribed, final: transcribed, problem };
  const text = transcribed && (same ? segment.translation === 'none' : segment.translation === 'done');
  const final = text && (same ? segment.speech === 'none' : segment.speech === 'done');
  if (transcribed && !same && (segment.translation === 'failed' || segment.translation === 'none')) problem = `translation ${segment.translation} (${listenerLanguage})`;
  if (text && !same && (segment.speech === 'failed' || segment.speech === 'none')) problem = `speech ${segment.speech} (${listenerLanguage})`;
  return { transcribed, text, final, problem };
}

async function connectListeners(target: Target): Promise<void> {
  for (const [index, listener] of target.room.listeners.entries()) {
    const socket: LiveSocket = io(target.server.url, { path: LIVE_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: listener.user.token } });
    target.sockets.push(socket);
    const onSegment = (created: boolean) => (event: SegmentEvent) => {
      const at = performance.now();
      const arrivals = arrivalsOf(target, event.segment.id);
      arrivals.events++;
      if (created && Number.isNaN(arrivals.created[index])) arrivals.created[index] = at;
      const state = classify(target.spec.kind, listener.language, event.segment);
      if (state.problem) arrivals.problems.add(state.problem);
      if (state.transcribed && Number.isNaN(arrivals.transcribed[index])) arrivals.transcribed[index] = at;
      if (state.text && Number.isNaN(arrivals.text[index])) arrivals.text[index] = at;
      if (state.final && Number.isNaN(arrivals.final[index])) arrivals.final[index] = at;
    };
    socket.on('segment:created', onSegment(true));
    socket.on('segment:rendered', onSegment(false));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', (error) => reject(new StartError(`listener ${index + 1} could not connect to ${target.spec.name}: ${error.message}`)));
    });
    const ack = await socket.timeout(10_000).emitWithAck('room:subscribe', { roomId: target.room.roomId });
    if (!ack.ok) throw new StartError(`listener ${index + 1} could not subscribe to room ${target.room.roomId} on ${target.spec.name}: ${ack.error}`);
  }
}

// ---- one upload's times ----

interface Timed {
  upload: Upload;
  complete: boolean;
  problems: string[];
  /** ms from the start of the POST. */
  total: number;
  post: number;
  created: number;
  transcribed: number;
  /** Last listener of another language with its text (full); NaN for the reference. */
  text: number;
  /** ms of provider time on the upload's path (the union of its stand-in requests). */
  provider: number;
  beyond: number;
  calls: ProviderCall[];
  events: number;
}

const lastOf = (values: number[]) => (values.some((value) => Number.isNaN(value)) ? NaN : Math.max(...values));

/** Length of the union of the calls' intervals (calls in parallel count once). */
function unionMs(calls: ProviderCall[]): number {
  let total = 0;
  let from = -Infinity;
  let to = -Infinity;
  for (const call of [...calls].sort((a, b) => a.start - b.start)) {
    if (call.start > to) {
      if (to > from) total += to - from;
      from = call.start;
      to = call.end;
    } else to = Math.max(to, call.end);
  }
  if (to > from) total += to - from;
  return total;
}

function timeOf(target: Target, upload: Upload, clock: StandInClock): Timed {
  const arrivals = upload.segmentId === undefined ? undefined : target.arrivals.get(upload.segmentId);
  const calls = clock.of(upload.key);
  const rel = (at: number) => at - upload.start;
  const others = target.room.listeners.map((listener, index) => (listener.language === speakerLanguage ? -1 : index)).filter((index) => index >= 0);
  const total = arrivals ? rel(lastOf(arrivals.final)) : NaN;
  const provider = unionMs(calls);
  const problems = [...(arrivals?.problems ?? [])];
  if (upload.error) problems.unshift(`upload: ${upload.error}`);
  return {
    upload,
    complete: !Number.isNaN(total),
    problems,
    total,
    post: rel(upload.answered),
    created: arrivals ? rel(lastOf(arrivals.created)) : NaN,
    transcribed: arrivals ? rel(lastOf(arrivals.transcribed)) : NaN,
    text: arrivals && target.spec.kind === 'full' ? rel(lastOf(others.map((index) => arrivals.text[index]!))) : NaN,
    provider,
    beyond: total - provider,
    calls,
    events: arrivals?.events ?? 0,
  };
}

/** Waits until every upload is final on every listener's socket (or `ms` passed). */
async function drain(target: Target, uploads: Upload[], ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  const done = (upload: Upload) => {
    if (upload.segmentId === undefined) return upload.error !== undefined;
    const arrivals = target.arrivals.get(upload.segmentId);
    return arrivals !== undefined && !arrivals.final.some((value) => Number.isNaN(value));
  };
  while (!uploads.every(done) && performance.now() < deadline) await sleep(10);
}

// ---- runs ----

interface CpuSnapshot {
  at: number;
  server: number | undefined;
  postgres: Map<number, number>;
  machine: ReturnType<typeof machineCpuUs>;
  elu: ReturnType<typeof performance.eventLoopUtilization>;
  /** This process's CPU (µs). */
  bench: number;
}

const snapshot = (server: Server): CpuSnapshot => ({
  at: performance.now(),
  server: cpuTimeUs(server.child.pid),
  postgres: postgresCpuUs(),
  machine: machineCpuUs(),
  elu: performance.eventLoopUtilization(),
  bench: (({ user, system }) => user + system)(process.cpuUsage()),
});

interface Run {
  round: number;
  target: string;
  kind: Kind;
  mode: 'steady' | 'burst';
  timed: Timed[];
  windowMs: number;
  /** µs per upload. */
  serverUs: number | undefined;
  /** The same, less the server's idle CPU over the window. */
  serverNetUs: number | undefined;
  postgresUs: number | undefined;
  /** % of the window. */
  serverBusy: number | undefined;
  machineBusy: number | undefined;
  /** % of the machine used by other work (all but this server, PostgreSQL and this process). */
  othersBusy: number | undefined;
  /** This process's event-loop utilisation over the run (the clients and the stand-in). */
  elu: number;
  profile: string | undefined;
}

async function measuredRun(target: Target, clock: StandInClock, round: number, mode: 'steady' | 'burst', profile: boolean): Promise<Run> {
  if (profile) await toggleProfile(target.server, false);
  const before = snapshot(target.server);
  const pending: Promise<Upload>[] = [];
  if (mode === 'steady') {
    const first = performance.now();
    for (let index = 0; index < uploadsPerRun; index++) {
      const due = first + index * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      pending.push(upload(target, round, mode));
    }
  } else {
    for (let index = 0; index < burstSize; index++) pending.push(upload(target, round, mode));
  }
  const uploads = await Promise.all(pending);
  await drain(target, uploads, drainMs);
  // Trailing work of the last upload (the reference's render job, the jobs' completion).
  await sleep(300);
  const after = snapshot(target.server);
  const profileFile = profile ? await toggleProfile(target.server, true) : undefined;
  const windowUs = (after.at - before.at) * 1000;
  const server = before.server !== undefined && after.server !== undefined ? after.server - before.server : undefined;
  const postgres = postgresCpuBetween(before.postgres, after.postgres);
  const machine = before.machine && after.machine && after.machine.total > before.machine.total ? (100 * (after.machine.busy - before.machine.busy)) / (after.machine.total - before.machine.total) : undefined;
  return {
    round,
    target: target.spec.name,
    kind: target.spec.kind,
    mode,
    timed: uploads.map((each) => timeOf(target, each, clock)),
    windowMs: after.at - before.at,
    serverUs: server === undefined ? undefined : server / uploads.length,
    serverNetUs:
      server === undefined || target.idleUsPerSecond === undefined ? undefined : (server - (target.idleUsPerSecond * (after.at - before.at)) / 1000) / uploads.length,
    postgresUs: postgres === undefined ? undefined : postgres / uploads.length,
    serverBusy: server === undefined ? undefined : (100 * server) / windowUs,
    machineBusy: machine,
    othersBusy:
      machine === undefined || server === undefined || postgres === undefined
        ? undefined
        : Math.max(0, machine - (100 * (server + postgres + after.bench - before.bench)) / (windowUs * os.cpus().length)),
    elu: performance.eventLoopUtilization(after.elu, before.elu).utilization,
    profile: profileFile,
  };
}

// ---- printing ----

const ms = (value: number) => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(1) : value.toFixed(0));
const sorted = (values: number[]) => values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
const p = (values: number[], q: number) => percentile(sorted(values), q);
const pcts = (values: number[], qs = [50, 95]) => qs.map((q) => `p${q} ${ms(p(values, q))}`).join(' ');
const med = (values: number[]) => median(values.filter((value) => !Number.isNaN(value)));
let nameWidth = 9;
let listenerCount = 10;

/** Per-step times of uploads (medians), from the upload's start. */
function steps(timed: Timed[], kind: Kind): string {
  const at = (pick: (item: Timed) => number) => ms(med(timed.map(pick)));
  const callOf = (item: Timed, kind_: ProviderCall['kind']) => item.calls.filter((call) => call.kind === kind_);
  const rel = (item: Timed, value: number | undefined) => (value === undefined ? NaN : value - item.upload.start);
  const parts = [
    `POST answered ${at((item) => item.post)}`,
    `created on sockets ${at((item) => item.created)}`,
    `STT asked ${at((item) => rel(item, callOf(item, 'transcription')[0]?.start))} answered ${at((item) => rel(item, callOf(item, 'transcription')[0]?.end))}`,
    `transcribed on sockets ${at((item) => item.transcribed)}`,
  ];
  if (kind === 'full') {
    parts.push(
      `translation asked ${at((item) => rel(item, callOf(item, 'translation')[0]?.start))} answered ${at((item) => rel(item, callOf(item, 'translation')[0]?.end))}`,
      `text on sockets ${at((item) => item.text)}`,
      `voices asked from ${at((item) => rel(item, callOf(item, 'speech')[0]?.start))}, last answered ${at((item) => rel(item, callOf(item, 'speech').at(-1)?.end))}`,
      `final ${at((item) => item.total)}`,
    );
  }
  return parts.join(' · ');
}

function printRun(run: Run) {
  const { timed } = run;
  const complete = timed.filter((item) => item.complete);
  const problems = [...new Set(timed.flatMap((item) => item.problems))];
  const incomplete = timed.length - complete.length;
  const calls = med(timed.map((item) => item.calls.length));
  const head = run.mode === 'steady' ? `steady ${timed.length} uploads, 1 every ${intervalMs} ms` : `burst of ${timed.length} at once`;
  console.log(
    `round ${run.round} ${run.target.padEnd(nameWidth)} ${head}: last listener ${pcts(timed.map((item) => item.total), [50, 95, 99])} ms ` +
      `(beyond provider time ${pcts(timed.map((item) => item.beyond))}; provider ${pcts(timed.map((item) => item.provider))}, ${calls} calls/upload); ` +
      `POST ${pcts(timed.map((item) => item.post))} ms` +
      (run.mode === 'burst' ? `; the whole burst final after ${ms(Math.max(...timed.map((item) => item.total)))} ms` : '') +
      `\n        CPU per upload: server ${run.serverUs === undefined ? '-' : (run.serverUs / 1000).toFixed(1)} ms (${run.serverNetUs === undefined ? '-' : (run.serverNetUs / 1000).toFixed(1)} beyond its idle), PostgreSQL ${run.postgresUs === undefined ? '-' : (run.postgresUs / 1000).toFixed(1)} ms; ` +
      `server ${run.serverBusy?.toFixed(0) ?? '-'}% of a core, machine ${run.machineBusy?.toFixed(0) ?? '-'}% of ${os.cpus().length} cores (other work ${run.othersBusy?.toFixed(0) ?? '-'}%), bench event loop ${(run.elu * 100).toFixed(0)}%; ` +
      `${med(timed.map((item) => item.events / listenerCount)).toFixed(1)} events per listener` +
      (incomplete ? `; ${incomplete} UPLOADS NEVER FINAL ON EVERY SOCKET` : '') +
      (problems.length ? `; PROBLEMS: ${problems.slice(0, 5).join('; ')}` : '') +
      `\n        steps (medians, ms from the upload): ${steps(timed, run.kind)}`,
  );
}

// ---- pg-boss: queued → started → completed ----

interface JobTimes {
  queue: string;
  segmentId: number;
  waitMs: number;
  runMs: number;
  retries: number;
}

async function jobTimes(databaseUrl: string): Promise<JobTimes[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows: JobTimes[] = [];
    for (const table of ['job', 'archive']) {
      const exists = await client.query<{ found: string | null }>(`select to_regclass('pgboss.${table}')::text as found`);
      if (!exists.rows[0]?.found) continue;
      const result = await client.query<{ queue: string; segment_id: number; wait_ms: number; run_ms: number; retries: number }>(
        `select name as queue, (data->>'segmentId')::int as segment_id,
                extract(epoch from (started_on - created_on)) * 1000 as wait_ms,
                extract(epoch from (completed_on - started_on)) * 1000 as run_ms,
                retry_count as retries
           from pgboss.${table}
          where name in ('segment-transcribe', 'segment-render') and started_on is not null and completed_on is not null`,
      );
      rows.push(...result.rows.map((row) => ({ queue: row.queue, segmentId: row.segment_id, waitMs: Number(row.wait_ms), runMs: Number(row.run_ms), retries: row.retries })));
    }
    return rows;
  } finally {
    await client.end();
  }
}

// ---- round trips, one upload at a time through the counting relay ----

interface CountResult {
  name: string;
  kind: Kind;
  uploads: number;
  total: number[];
  parses: number[];
  /** Round trips per second with nothing uploaded (pg-boss's workers polling). */
  idlePerSecond: number;
  windows: { label: string; roundTrips: number[] }[];
  /** The last counted upload, statement by statement (--trace). */
  trace: string[];
}

const TRAILING_MS = 200;

/** One server on a fresh database behind the counting relay; uploads one at a time, counted per step. */
async function countRoundTrips(spec: Spec, start: (spec: Spec, name: string, databaseUrl: string, serverDatabaseUrl: string) => Promise<Target>, clock: StandInClock): Promise<CountResult> {
  const databaseUrl = await createDatabase();
  const counter: PgCounter = await startPgCounter(databaseUrl);
  onCleanup(() => counter.close());
  const target = await start(spec, `count-${spec.name}`, databaseUrl, counter.url);
  try {
    const result: CountResult = { name: spec.name, kind: spec.kind, uploads: 0, total: [], parses: [], idlePerSecond: 0, windows: [], trace: [] };
    const add = (label: string, value: number) => {
      let window = result.windows.find((each) => each.label === label);
      if (!window) result.windows.push((window = { label, roundTrips: [] }));
      window.roundTrips.push(value);
    };
    await sleep(1000);
    const idleFrom = performance.now();
    await sleep(4000);
    result.idlePerSecond = counter.count(idleFrom, performance.now()).roundTrips / 4;
    for (let index = 0; index < countUploads + 2; index++) {
      await sleep(300);
      const item = await upload(target, 0, 'count');
      await drain(target, [item], drainMs);
      await sleep(TRAILING_MS + 100);
      if (index < 2) continue; // warm-up
      const timed = timeOf(target, item, clock);
      if (!timed.complete) throw new StartError(`count-${spec.name}: an upload did not reach every listener (${timed.problems.join('; ') || 'no problem seen'})`);
      const end = item.start + timed.total + TRAILING_MS;
      const all = counter.count(item.start, end);
      result.uploads++;
      result.total.push(all.roundTrips);
      result.parses.push(all.parses);
      // Steps end at the stand-in's answers (it answers at once); the POST and the transcribe job overlap in the first.
      const voices = timed.calls.filter((call) => call.kind === 'speech');
      const bounds: { at: number; label: string }[] = [];
      for (const call of timed.calls) {
        if (call.kind === 'transcription') bounds.push({ at: call.end, label: 'upload → STT answered (the POST; transcribe job queued, picked up, audio read)' });
        else if (call.kind === 'translation') bounds.push({ at: call.end, label: '→ translation answered (transcript saved; render job queued as a lease; snapshot and glossary read, pushed; cache read)' });
        else if (call === voices[0]) bounds.push({ at: call.end, label: '→ first voice answered (texts saved, cached, pushed)' });
        else if (call.kind === 'speech') bounds.push({ at: call.end, label: '→ next voice answered (a voice saved and pushed), each' });
      }
      bounds.push({
        at: end,
        label: spec.kind === 'reference' ? '→ done (transcript saved, pushed; the first render that finds nothing to do; its job released, run, completed)' : '→ done (last voice saved and pushed; the render job released, run, completed)',
      });
      const perLabel = new Map<string, number>();
      let from = item.start;
      for (const bound of bounds) {
        perLabel.set(bound.label, (perLabel.get(bound.label) ?? 0) + counter.count(from, bound.at).roundTrips);
        from = bound.at;
      }
      for (const [label, value] of perLabel) add(label, label.endsWith(', each') ? value / Math.max(1, voices.length - 1) : value);
      result.trace = traceOf(item, timed, counter, end);
    }
    return result;
  } finally {
    for (const socket of target.sockets) socket.close();
    await stopServer(target.server);
    await counter.close();
  }
}

/** One upload as it happened: statements (connection, text), provider calls, answers and arrivals, in order. */
function traceOf(item: Upload, timed: Timed, counter: PgCounter, end: number): string[] {
  const lines: { at: number; text: string }[] = [];
  for (const event of counter.events) {
    if (event.kind !== 'round-trip' || event.at < item.start || event.at >= end) continue;
    lines.push({ at: event.at, text: `db#${event.connection} ${event.sql.replace(/\s+/g, ' ').slice(0, 150)}` });
  }
  for (const call of timed.calls) {
    lines.push({ at: call.start, text: `>> stand-in ${call.kind} asked` }, { at: call.end, text: `<< stand-in ${call.kind} answered (${(call.end - call.start).toFixed(1)} ms)` });
  }
  const mark = (after: number, text: string) => {
    if (!Number.isNaN(after)) lines.push({ at: item.start + after, text: `== ${text}` });
  };
  mark(timed.post, 'POST answered');
  mark(timed.created, 'segment:created on every socket');
  mark(timed.transcribed, 'transcribed on every socket');
  mark(timed.text, 'text on every socket of another language');
  mark(timed.total, 'final on every socket');
  return lines.sort((a, b) => a.at - b.at).map((line) => `${(line.at - item.start).toFixed(1).padStart(7)} ms  ${line.text}`);
}

// ---- main ----

async function main(): Promise<number> {
  const started = performance.now();
  const { tmp, profileDir } = await benchFolders('room-pipeline', options);
  if (languages.length < 2 || perLanguage < 1) throw new StartError('want at least two languages and one listener per language');

  const standIn = await startOpenAiStandIn();
  onCleanup(() => standIn.close());
  const clock = clockStandIn(standIn, { key: KEY, transcriptOf });
  onCleanup(async () => clock.stop());
  const secretKey = randomBytes(48).toString('base64url');
  const extraEnv = parseEnv(options['server-env']);
  const providers = (kind: Kind): Record<string, string> => ({
    OPENAI_BASE_URL: standIn.baseUrl,
    STT_PROVIDER: 'openai',
    TRANSLATION_PROVIDER: kind === 'full' ? 'openai' : 'none',
    TRANSLATION_MODEL: 'stand-in',
    TTS_PROVIDER: kind === 'full' ? 'openai' : 'none',
  });
  const specs: Spec[] = [
    { name: 'full', kind: 'full', main: options['server-main'], env: providers('full'), describe: 'STT, translation and speech by the stand-in' },
    ...options.variant.map((text): Spec => {
      const at = text.indexOf('=');
      const label = text.slice(0, at).trim();
      const [main = '', ...pairs] = text.slice(at + 1).trim().split(/\s+/);
      if (at <= 0 || !main || ['full', 'reference'].includes(label)) throw new StartError(`--variant wants 'label=<main.ts> [K=V...]', got ${text}`);
      const env = parseEnv(pairs);
      const kind: Kind = env.TRANSLATION_PROVIDER === 'none' && env.TTS_PROVIDER === 'none' ? 'reference' : 'full';
      return { name: label, kind, main, env: { ...providers(kind), ...env }, describe: `${kind} path, ${text.slice(at + 1).trim()}` };
    }),
    { name: 'reference', kind: 'reference', main: options['server-main'], env: providers('reference'), describe: 'STT by the stand-in, TRANSLATION_PROVIDER=none, TTS_PROVIDER=none' },
  ];
  nameWidth = Math.max(...specs.map((spec) => spec.name.length));
  listenerCount = languages.length * perLanguage;

  const listenerSpecs = languages.flatMap((language) => Array.from({ length: perLanguage }, (_, index) => ({ language, male: index % 2 === 0 })));
  const start = async (spec: Spec, name: string, databaseUrl: string, serverDatabaseUrl = databaseUrl, profile = false): Promise<Target> => {
    const port = await freePort();
    const server = await startServer({
      name,
      main: path.resolve(ROOT, spec.main),
      url: `http://127.0.0.1:${port}`,
      readyUrl: `http://127.0.0.1:${port}/api/status/`,
      tmp,
      profileDir: profile ? profileDir : undefined,
      env: {
        ...parlaEnv({ port, publicUrl: `http://127.0.0.1:${port}`, dataDir: path.join(tmp, `data-${name}`), databaseUrl: serverDatabaseUrl, secretKey, logLevel: 'warn' }),
        RATE_LIMIT_MESSAGES: '0',
        ...spec.env,
        ...extraEnv,
      },
    });
    // The server has migrated its database: the room goes straight in.
    const seeder = openSeeder(databaseUrl);
    let room: SeededRoom;
    try {
      room = await seedLiveRoom(seeder, secretKey, {
        title: 'Quarterly review',
        languages,
        domain: 'BUSINESS',
        speaker: { language: speakerLanguage, male: true },
        listeners: listenerSpecs,
      });
    } finally {
      await seeder.close();
    }
    const target: Target = { spec, server, databaseUrl, room, sockets: [], arrivals: new Map(), idleUsPerSecond: undefined };
    await connectListeners(target);
    return target;
  };

  const targets: Target[] = [];
  for (const spec of specs) {
    const databaseUrl = await createDatabase();
    targets.push(await start(spec, spec.name, databaseUrl, databaseUrl, profiling));
  }

  // Warm-up (JIT, pools, the stand-in's parsers), and a check that each path ends where it should.
  for (const target of targets) {
    const warm: Upload[] = [];
    for (let index = 0; index < warmupUploads; index++) {
      warm.push(await upload(target, 0, 'warmup'));
      await sleep(intervalMs);
    }
    await drain(target, warm, drainMs);
    const timed = warm.map((item) => timeOf(target, item, clock));
    const bad = timed.find((item) => !item.complete);
    if (bad) {
      throw new StartError(
        `${target.spec.name}: a warm-up upload never reached its final form on every listener's socket (${bad.problems.join('; ') || 'no problem seen'}); ` +
          `provider calls ${bad.calls.map((call) => `${call.kind} ${call.status}`).join(', ') || 'none'}`,
      );
    }
  }
  // Each server's CPU with nothing to do, taken off its figures per upload.
  const idleBefore = targets.map((target) => cpuTimeUs(target.server.child.pid));
  const idleFrom = performance.now();
  await sleep(3000);
  const idleSeconds = (performance.now() - idleFrom) / 1000;
  targets.forEach((target, index) => {
    const before = idleBefore[index];
    const after = cpuTimeUs(target.server.child.pid);
    target.idleUsPerSecond = before === undefined || after === undefined ? undefined : (after - before) / idleSeconds;
  });
  const setupSeconds = (performance.now() - started) / 1000;
  const background = await backgroundLoad();
  const listenersText = languages.map((language) => `${perLanguage} ${language}`).join(', ');
  console.log(
    `\nRoom pipeline on PostgreSQL: a Live room, the speaker (${speakerLanguage}) uploads 1 s of 16 kHz mono WAV; ${listenerSpecs.length} listeners (${listenersText}; voices male and female in turn), ` +
      `each socket authenticated with an access token and subscribed; the time runs from the start of the POST to the segment in its final form on every listener's socket. ` +
      `Providers: the OpenAI-compatible stand-in in this process, answering at once, its own time per request measured. ` +
      `Servers (each its own database): ${specs.map((spec) => `${spec.name}: ${spec.describe}`).join('; ')}` +
      (Object.keys(extraEnv).length ? `; all with ${options['server-env'].join(' ')}` : '') +
      `. Steady ${uploadsPerRun} uploads 1 every ${intervalMs} ms, then a burst of ${burstSize}, per server and round; ${rounds} round(s) in turn; ${warmupUploads} warm-up uploads per server; ` +
      `setup ${setupSeconds.toFixed(0)} s; ${os.cpus().length} CPUs, load average ${loadAverage()}, machine ${background?.toFixed(0) ?? '-'}% busy before the runs (other work)` +
      (profiling ? '; CPU PROFILING ON in the last round\'s steady runs (those figures are slowed)' : '') +
      '\n',
  );

  const runs: Run[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      const run = await measuredRun(target, clock, round, 'steady', profiling && round === rounds);
      runs.push(run);
      printRun(run);
    }
    if (burstSize > 0) {
      for (const target of targets) {
        await sleep(500);
        const run = await measuredRun(target, clock, round, 'burst', false);
        runs.push(run);
        printRun(run);
      }
    }
  }

  // pg-boss's own record of each job: queued → started (pickup) → completed (run).
  const jobs = new Map<string, JobTimes[]>();
  for (const target of targets) jobs.set(target.spec.name, await jobTimes(target.databaseUrl));

  for (const target of targets) {
    for (const socket of target.sockets) socket.close();
    await stopServer(target.server);
  }

  const counts: CountResult[] = [];
  if (countUploads > 0) {
    console.log(`\nRound trips to PostgreSQL: each server again on a fresh database behind a counting relay, ${countUploads} uploads one at a time (after 2 not counted)`);
    for (const spec of specs) {
      const result = await countRoundTrips(spec, start, clock);
      counts.push(result);
      console.log(
        `  ${spec.name.padEnd(nameWidth)} ${med(result.total).toFixed(0)} round trips per upload (median; ${med(result.parses).toFixed(0)} statements parsed; idle polling ${result.idlePerSecond.toFixed(1)}/s included), by step:\n` +
          result.windows.map((window) => `      ${med(window.roundTrips).toFixed(window.label.endsWith('each') ? 1 : 0).padStart(4)}  ${window.label}`).join('\n'),
      );
      if (options.trace) console.log(`\n  the last counted upload of ${spec.name}, statement by statement (through the relay: slower than the figures):\n${result.trace.map((line) => `    ${line}`).join('\n')}\n`);
    }
  }

  // ---- figures ----
  console.log('\n=== Figures ===');
  const steady = (name: string) => runs.filter((run) => run.target === name && run.mode === 'steady').flatMap((run) => run.timed);
  const burst = (name: string) => runs.filter((run) => run.target === name && run.mode === 'burst').flatMap((run) => run.timed);
  let failed = 0;
  for (const spec of specs) {
    const timed = steady(spec.name);
    const incomplete = timed.filter((item) => !item.complete).length;
    failed += incomplete;
    const serverUs = med(runs.filter((run) => run.target === spec.name && run.mode === 'steady').map((run) => run.serverUs ?? NaN));
    const serverNetUs = med(runs.filter((run) => run.target === spec.name && run.mode === 'steady').map((run) => run.serverNetUs ?? NaN));
    const postgresUs = med(runs.filter((run) => run.target === spec.name && run.mode === 'steady').map((run) => run.postgresUs ?? NaN));
    const others = med(runs.filter((run) => run.target === spec.name && run.mode === 'steady').map((run) => run.othersBusy ?? NaN));
    console.log(
      `${spec.name.padEnd(nameWidth)} upload → last listener final, steady (${timed.length} uploads, ${rounds} round(s)): ${pcts(timed.map((item) => item.total), [50, 95, 99])} ms; ` +
        `provider time ${pcts(timed.map((item) => item.provider))} ms; beyond provider time ${pcts(timed.map((item) => item.beyond))} ms; ` +
        `per round p95 ${runs.filter((run) => run.target === spec.name && run.mode === 'steady').map((run) => ms(p(run.timed.map((item) => item.total), 95))).join(' ')} ms; ` +
        `CPU per upload: server ${(serverUs / 1000).toFixed(1)} ms (${(serverNetUs / 1000).toFixed(1)} beyond its idle ${((targets.find((target) => target.spec.name === spec.name)?.idleUsPerSecond ?? NaN) / 10_000).toFixed(1)}% of a core), PostgreSQL ${(postgresUs / 1000).toFixed(1)} ms; other work ${others.toFixed(0)}% of the machine` +
        (incomplete ? `; ${incomplete} NEVER FINAL` : ''),
    );
    for (const item of [...timed].filter((one) => one.complete).sort((a, b) => b.total - a.total).slice(0, slowestShown)) {
      console.log(`${''.padEnd(nameWidth)} slow upload, ${ms(item.total)} ms: ${steps([item], spec.kind)}`);
    }
    const bursts = burst(spec.name);
    if (bursts.length) {
      console.log(`${''.padEnd(nameWidth)} burst of ${burstSize} at once (${bursts.length} uploads): ${pcts(bursts.map((item) => item.total), [50, 95])} ms, beyond provider time ${pcts(bursts.map((item) => item.beyond))} ms`);
    }
    const mine = jobs.get(spec.name) ?? [];
    const steadySegments = new Set(timed.flatMap((item) => (item.upload.segmentId === undefined ? [] : [item.upload.segmentId])));
    const jobLine = (queue: string) => {
      const list = mine.filter((job) => job.queue === queue && steadySegments.has(job.segmentId));
      return list.length
        ? `${queue}: waited ${pcts(list.map((job) => job.waitMs))} ms (max ${ms(Math.max(...list.map((job) => job.waitMs)))}), ran ${pcts(list.map((job) => job.runMs))} ms` +
            (list.some((job) => job.retries > 0) ? `, ${list.filter((job) => job.retries > 0).length} retried` : '')
        : `${queue}: no record`;
    };
    console.log(`${''.padEnd(nameWidth)} pg-boss jobs of the steady uploads (queued → started → completed, the database's clock): ${jobLine('segment-transcribe')}; ${jobLine('segment-render')}`);
  }

  const verdicts: string[] = [];
  for (const spec of specs.filter((each) => each.kind === 'full')) {
    // A variant is compared with the reference run of the same server code when there is one.
    const pair = specs.find((each) => each.kind === 'reference' && each.main === spec.main && each.name !== 'reference' && spec.name !== 'full') ?? specs.find((each) => each.name === 'reference')!;
    const reference = steady(pair.name);
    const referenceP95 = p(reference.map((item) => item.total), 95);
    const referenceBeyondP95 = p(reference.map((item) => item.beyond), 95);
    const timed = steady(spec.name);
    const beyondP95 = p(timed.map((item) => item.beyond), 95);
    const totalP95 = p(timed.map((item) => item.total), 95);
    const ratio = totalP95 / referenceP95;
    const ratioBeyond = beyondP95 / referenceBeyondP95;
    const label = spec.name === 'full' ? '' : ` [${spec.name}]`;
    verdicts.push(
      `p95 upload → every listener, beyond provider time${label}: ${ms(beyondP95)} ms; target: at most ${BEYOND_TARGET_MS} ms; ` +
        (beyondP95 <= BEYOND_TARGET_MS ? 'MEETS the target' : `MISSES the target by ${ms(beyondP95 - BEYOND_TARGET_MS)} ms`),
      `p95 upload → every listener${label}, ${spec.name} / ${pair.name} (the same upload path without translation and synthesis): ${ms(totalP95)} / ${ms(referenceP95)} ms = ${ratio.toFixed(2)} ` +
        `(beyond provider time: ${ms(beyondP95)} / ${ms(referenceBeyondP95)} = ${ratioBeyond.toFixed(2)}); target: at most ${RATIO_TARGET}; ` +
        (ratio <= RATIO_TARGET ? 'MEETS the target' : `MISSES the target (${spec.name} would need p95 ≤ ${ms(RATIO_TARGET * referenceP95)} ms)`),
    );
  }
  console.log(`\n${verdicts.join('\n')}`);
  const othersMedian = med(runs.filter((run) => run.mode === 'steady').map((run) => run.othersBusy ?? NaN));
  if (othersMedian > 25) {
    console.log(`WARNING: other work used ${othersMedian.toFixed(0)}% of the machine during the steady runs (median): the latencies are inflated and uneven between runs; compare within the run, or run again when the machine is quieter`);
  }
  if (failed) console.log(`WARNING: ${failed} steady uploads never reached their final form on every listener's socket; the figures are not valid`);
  const overloaded = runs.filter((run) => run.elu > 0.8);
  if (overloaded.length) console.log(`WARNING: the bench's own event loop was over 80% busy in ${overloaded.length} run(s): its clock lags`);
  console.log(`\nwhole bench ${((performance.now() - started) / 1000).toFixed(0)} s; load average at the end: ${loadAverage()}`);

  if (profiling) {
    printProfiles(
      runs.filter((run) => run.profile).map((run) => ({ name: run.target, file: run.profile!, units: run.timed.length })),
      'uploads',
    );
  }
  agent.destroy();
  return 0;
}

runMain(main);
