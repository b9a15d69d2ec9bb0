// Report, not a test: live fan-out of chat messages. 1,000 Socket.IO connections (by default) in
// 100 chats of 10 members reading in 3 languages (en, es, fr; tone DEFAULT); a message posted on
// the sender's own socket (`message:send`, acknowledged with the stored message, as a member's web
// client posts while connected; `--post http`: POST /api/chat/{id}/messages/ instead) is timed
// until `message:created` reached every member's socket (the 9 others' and the sender's own). The reference is a real chat server doing the same job, driven by
// the same client processes in the same run: ejabberd (Debian 23.01, bench/lib/ejabberd.ts) with
// multi-user chat rooms and their message archive (mod_mam) on the same PostgreSQL, every member an
// XMPP connection (@xmpp/client) in the chat's room, a message a `groupchat` stanza sent on the
// sender's own connection (like for like: both post over the connection they hold) timed until
// the room's copy reached every occupant (the sender's echo included). The bare broadcast server
// (bench/bare-broadcast.ts: socket.io, no database, no authentication: a `message:send` or a POST
// that emits to a room) runs beside them as the floor of the transport.
//
// Figures and targets:
//   - latency post → message:created (p50/p95/p99 over every delivery) at a steady load (open
//     loop, `--rate` messages/s spread over the chats): p99 at most 50 ms;
//   - sustained messages/s, closed loop (`--posters` concurrent posters, each posting its next
//     message once the previous one reached all 10 members): at least 1.0 × ejabberd's, and p99
//     latency at most ejabberd's;
//   - with the OpenAI stand-in (apps/server/test/stand-ins/openai.ts) as the provider: the same
//     steady load timed to `message:created` and to `message:rendered` (members reading another
//     language than the sender's), and the provider calls for one new message in a chat of 5
//     (language, tone) reading groups (target 1) and for the same text again (target 0).
//
// Setup is not measured: a throw-away PostgreSQL database (DATABASE_URL / TEST_DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/postgres), the real server as a child process (`node --import
// tsx apps/server/src/main.ts`, NODE_ENV=production, LOG_LEVEL=warn, TRANSLATION_PROVIDER=none,
// RATE_LIMIT_MESSAGES=0), users, sessions, chats and memberships written straight into the
// database with access tokens signed like the server's (lib/seed.ts), and the sockets held by
// `--workers` client processes (lib/fanout-client.ts), which time everything with their own clock.
// Each run line gives the CPU used during its window by the server, by PostgreSQL (every backend
// on the machine), by the client processes (and their event-loop utilisation: near 100% means the
// load generator sets the pace) and by the whole machine, whose load before the runs (other work)
// the header gives. Loopback only; about 1.5 to 2 minutes.
//
//   npm run bench:chat-fanout -w @parla/bench [-- options]
//   --chats 100 --members 10 --languages en,es,fr
//   --rate 20             steady load, messages/s over all chats (evenly: the client processes take turns)
//   --posters 40          closed loop: concurrent posters (each owns some chats)
//   --seconds 15 --closed-seconds 5 --warmup 2 --drain 5 --rounds 2
//                         each run: `--warmup` s of load, then the measured window; deliveries still
//                         due are waited for up to `--drain` s; rounds alternate the servers (Parla's in turn first)
//   --workers 2           client processes holding the sockets
//   --post socket         how Parla (and the bare server) get each message: `socket` (message:send
//                         on the sender's socket) or `http` (a POST with the sender's access token)
//   --no-translation      skip the stand-in part
//   --stand-in-delay 0    ms the stand-in waits before answering (a model's think time)
//   --profile [dir]       CPU-profile the real, variant and bare servers during the closed-loop
//                         window of the last round and print profile-summary.ts's tables (per message)
//   --server-env K=V      extra environment for the real server (repeatable)
//   --server-main <file>  another main.ts for the real server (an experiment in a copy of apps/server)
//   --variant 'label=<main.ts> [K=V...]'
//                         one more real server in the rotation (repeatable; same database, its own
//                         sockets, TRANSLATION_PROVIDER=none): an experiment in a copy of apps/server,
//                         or the same main.ts with other environment; its figures print beside real's
//   --keep                keep the temporary folder (server logs)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { LIVE_PATH, type ClientToServerEvents, type MessageEvent, type ServerToClientEvents } from '@parla/contract/live';
import { startOpenAiStandIn, type StandIn } from '../apps/server/test/stand-ins/openai';
import { startEjabberd, type Ejabberd } from './lib/ejabberd';
import type { ClientChat, FromClient, LoadResult, PostVia, ToClient, XmppRoom } from './lib/fanout-client';
import {
  backgroundLoad,
  call,
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
import { openSeeder, seedChats, seedUsers, type SeededChat, type SeededUser } from './lib/seed';

const LATENCY_TARGET_MS = 50;
const THROUGHPUT_TARGET = 1.0;
/** The throughput and latency reference. */
const REFERENCE = 'ejabberd';

const { values: options } = parseBenchArgs({
    chats: { type: 'string', default: '100' },
    members: { type: 'string', default: '10' },
    languages: { type: 'string', default: 'en,es,fr' },
    rate: { type: 'string', default: '20' },
    posters: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '15' },
    'closed-seconds': { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    drain: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    post: { type: 'string', default: 'socket' },
    'no-translation': { type: 'boolean', default: false },
    'stand-in-delay': { type: 'string', default: '0' },
});
const chatCount = Number(options.chats);
const memberCount = Number(options.members);
const languages = options.languages.split(',').map((language) => language.trim()).filter(Boolean);
const rate = Number(options.rate);
const posters = Number(options.posters);
const steadySeconds = Number(options.seconds);
const closedSeconds = Number(options['closed-seconds']);
const warmup = Number(options.warmup);
const drainMs = Number(options.drain) * 1000;
const rounds = Number(options.rounds);
const workerCount = Math.max(1, Math.min(Number(options.workers), chatCount));
const profiling = options.profile !== undefined;
if (options.post !== 'socket' && options.post !== 'http') throw new StartError(`--post is socket or http, not ${options.post}`);
const postVia: PostVia = options.post;

// ---- client processes ----

interface Worker {
  child: ChildProcess;
  chats: ClientChat[];
  /** The same chats as ejabberd's rooms. */
  rooms: XmppRoom[];
  next<T extends FromClient['type']>(type: T): Promise<Extract<FromClient, { type: T }>>;
  send(message: ToClient): void;
}

async function startWorker(chats: ClientChat[], rooms: XmppRoom[]): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/lib/fanout-client.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox: FromClient[] = [];
  const waiters: { type: string; resolve: (message: FromClient) => void; reject: (error: Error) => void }[] = [];
  const fail = (error: Error) => {
    for (const waiter of waiters.splice(0)) waiter.reject(error);
  };
  child.on('message', (message: FromClient) => {
    if (message.type === 'failed') return fail(new StartError(`a client process failed: ${message.message}`));
    const at = waiters.findIndex((waiter) => waiter.type === message.type);
    if (at >= 0) waiters.splice(at, 1)[0]!.resolve(message);
    else inbox.push(message);
  });
  child.once('exit', (code) => fail(new StartError(`a client process ended (${code})`)));
  onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });
  const worker: Worker = {
    child,
    chats,
    rooms,
    next<T extends FromClient['type']>(type: T) {
      const at = inbox.findIndex((message) => message.type === type);
      if (at >= 0) return Promise.resolve(inbox.splice(at, 1)[0] as Extract<FromClient, { type: T }>);
      return new Promise<Extract<FromClient, { type: T }>>((resolve, reject) =>
        waiters.push({ type, resolve: resolve as (message: FromClient) => void, reject }),
      );
    },
    send: (message) => child.send(message),
  };
  await worker.next('ready');
  return worker;
}

// ---- measuring ----

interface CpuSnapshot {
  at: number;
  server: number | undefined;
  postgres: Map<number, number>;
  clients: number | undefined;
  machine: ReturnType<typeof machineCpuUs>;
}

/** A server under load: ours (a child process we may profile) or the peer (ejabberd's VM). */
interface Measured {
  name: string;
  pid(): number | undefined;
  server?: Server;
}

const measuredServer = (server: Server): Measured => ({ name: server.name, pid: () => server.child.pid, server });
const measuredPeer = (peer: Ejabberd): Measured => ({ name: REFERENCE, pid: () => peer.pid() });

function snapshot(server: Measured, workers: Worker[]): CpuSnapshot {
  const clients = workers.map((worker) => cpuTimeUs(worker.child.pid));
  return {
    at: performance.now(),
    server: cpuTimeUs(server.pid()),
    postgres: postgresCpuUs(),
    clients: clients.every((value) => value !== undefined) ? clients.reduce((sum: number, value) => sum + value!, 0) : undefined,
    machine: machineCpuUs(),
  };
}

interface FanoutRun {
  round: number;
  name: string;
  mode: 'steady' | 'closed';
  windowMs: number;
  result: LoadResult;
  /** Messages per second: posted in the window (steady) or completed in it (closed). */
  rate: number;
  cpu: { server?: number; postgres?: number; clients?: number; machine?: number };
  /** The machine's busy time by kind, % of all cores. */
  machine: { user: number; system: number; softirq: number; steal: number } | undefined;
  /** CPU µs per message of the window. */
  perMessage: { server?: number; postgres?: number };
  profile: string | undefined;
}

function merge(results: LoadResult[]): LoadResult {
  const all = (pick: (result: LoadResult) => number[]) => results.flatMap(pick).sort((a, b) => a - b);
  const sum = (pick: (result: LoadResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  return {
    messages: sum((result) => result.messages),
    httpErrors: sum((result) => result.httpErrors),
    created: all((result) => result.created),
    createdLast: all((result) => result.createdLast),
    rendered: all((result) => result.rendered),
    renderedLast: all((result) => result.renderedLast),
    http: all((result) => result.http),
    missingCreated: sum((result) => result.missingCreated),
    missingRendered: sum((result) => result.missingRendered),
    extra: sum((result) => result.extra),
    windowMs: Math.max(...results.map((result) => result.windowMs)),
    // The busiest client process: the one that would cap the load.
    elu: Math.max(...results.map((result) => result.elu)),
  };
}

async function measuredLoad(
  server: Measured,
  workers: Worker[],
  target: string,
  load: { mode: 'steady'; rate: number; rendered: boolean } | { mode: 'closed'; posters: number },
  round: number,
  profile: boolean,
): Promise<FanoutRun> {
  // Steady: worker i starts i intervals of the whole rate after the first, 50 ms from now (the messages reach it meanwhile).
  const startAt = Date.now() + 50;
  workers.forEach((worker, index) => {
    const share = (total: number) => Math.floor(total / workers.length) + (index < total % workers.length ? 1 : 0);
    worker.send(
      load.mode === 'steady'
        ? { type: 'load', target, mode: 'steady', rate: load.rate / workers.length, rendered: load.rendered, startAt: startAt + (index * 1000) / load.rate }
        : { type: 'load', target, mode: 'closed', concurrency: Math.max(1, share(load.posters)) },
    );
  });
  await sleep(warmup * 1000);
  if (profile && server.server) await toggleProfile(server.server, false);
  const before = snapshot(server, workers);
  for (const worker of workers) worker.send({ type: 'measure' });
  await sleep((load.mode === 'steady' ? steadySeconds : closedSeconds) * 1000);
  for (const worker of workers) worker.send({ type: 'stop', drainMs });
  const after = snapshot(server, workers);
  const profileFile = profile && server.server ? await toggleProfile(server.server, true) : undefined;
  const result = merge((await Promise.all(workers.map((worker) => worker.next('result')))).map((message) => message.result));
  const windowUs = (after.at - before.at) * 1000;
  const used = (pick: (snap: CpuSnapshot) => number | undefined) => {
    const a = pick(before);
    const b = pick(after);
    return a === undefined || b === undefined ? undefined : b - a;
  };
  const server_ = used((snap) => snap.server);
  const postgres = postgresCpuBetween(before.postgres, after.postgres);
  const clients = used((snap) => snap.clients);
  const machineBusy = used((snap) => snap.machine?.busy);
  const machineTotal = used((snap) => snap.machine?.total);
  const windowSeconds = (after.at - before.at) / 1000;
  const pct = (value: number | undefined) => (value === undefined ? undefined : (100 * value) / windowUs);
  const perMessage = (value: number | undefined) => (value === undefined || result.messages === 0 ? undefined : value / result.messages);
  return {
    round,
    name: server.name,
    mode: load.mode,
    windowMs: after.at - before.at,
    result,
    rate: result.messages / windowSeconds,
    cpu: {
      server: pct(server_),
      postgres: pct(postgres),
      clients: pct(clients),
      machine: machineBusy !== undefined && machineTotal ? (100 * machineBusy) / machineTotal : undefined,
    },
    perMessage: { server: perMessage(server_), postgres: perMessage(postgres) },
    machine:
      before.machine && after.machine && machineTotal
        ? {
            user: (100 * (after.machine.user - before.machine.user)) / machineTotal,
            system: (100 * (after.machine.system - before.machine.system)) / machineTotal,
            softirq: (100 * (after.machine.softirq - before.machine.softirq)) / machineTotal,
            steal: (100 * (after.machine.steal - before.machine.steal)) / machineTotal,
          }
        : undefined,
    profile: profileFile,
  };
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(1) : value.toFixed(0));
const pcts = (sorted: number[]) => `p50 ${ms(percentile(sorted, 50))} p95 ${ms(percentile(sorted, 95))} p99 ${ms(percentile(sorted, 99))} ms`;
const percent = (value: number | undefined) => (value === undefined ? '-' : `${value.toFixed(0)}%`);
const micros = (value: number | undefined) => (value === undefined ? '-' : `${value.toFixed(0)} µs`);
let nameWidth = 4;

function printRun(run: FanoutRun) {
  const { result } = run;
  const head =
    run.mode === 'steady'
      ? `${rate} msg/s steady: ${result.messages} messages, ${result.created.length} deliveries`
      : `closed loop, ${posters} posters: ${run.rate.toFixed(0)} msg/s (${(run.rate * memberCount).toFixed(0)} deliveries/s)`;
  const problems = [
    result.httpErrors ? `${result.httpErrors} POSTS FAILED` : '',
    result.missingCreated ? `${result.missingCreated} message:created NEVER ARRIVED` : '',
    result.missingRendered ? `${result.missingRendered} message:rendered NEVER ARRIVED` : '',
    result.extra ? `${result.extra} extra events` : '',
  ].filter(Boolean);
  console.log(
    `round ${run.round} ${run.name.padEnd(nameWidth)}  ${head}; created ${pcts(result.created)} (last member p99 ${ms(percentile(result.createdLast, 99))})` +
      (result.rendered.length ? `; rendered ${pcts(result.rendered)}` : '') +
      `; ${postVia === 'socket' ? 'ack' : 'POST'} p50 ${ms(percentile(result.http, 50))} ms` +
      `\n        CPU per message: server ${micros(run.perMessage.server)}, postgres ${micros(run.perMessage.postgres)}; ` +
      `busy: server ${percent(run.cpu.server)}, postgres ${percent(run.cpu.postgres)}, clients ${percent(run.cpu.clients)} ` +
      `(busiest event loop ${percent(result.elu * 100)}), machine ${percent(run.cpu.machine)} of ${os.cpus().length} cores` +
      (run.machine
        ? ` (user ${percent(run.machine.user)}, system ${percent(run.machine.system)}, softirq ${percent(run.machine.softirq)}, steal ${percent(run.machine.steal)})`
        : '') +
      (problems.length ? `; ${problems.join(', ')}` : ''),
  );
}

// ---- the provider calls of one message ----

type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

async function providerCalls(baseUrl: string, standIn: StandIn, chat: SeededChat) {
  const [sender, ...readers] = chat.members;
  if (!sender) throw new Error('no sender');
  const sockets: LiveSocket[] = [];
  const seen = new Map<number, MessageEvent[]>();
  try {
    for (const reader of readers) {
      const socket: LiveSocket = io(baseUrl, { path: LIVE_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: reader.user.token } });
      sockets.push(socket);
      seen.set(reader.memberId, []);
      socket.on('message:rendered', (event) => seen.get(reader.memberId)!.push(event));
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const ack = await socket.timeout(10_000).emitWithAck('chat:subscribe', { chatId: chat.chatId });
      if (!ack.ok) throw new StartError(`provider-calls reader could not subscribe: ${ack.error}`);
    }
    const text = `See you at noon by the fountain, bring the tickets (${randomBytes(3).toString('hex')})`;
    const postAndCount = async () => {
      const before = standIn.completions().length;
      const posted = await call('POST', `${baseUrl}/api/chat/${chat.chatId}/messages/`, { content: text }, sender.user.token);
      const id = (posted.json as { id?: number }).id;
      if (posted.status !== 201 || !id) throw new StartError(`provider-calls post answered ${posted.status}`);
      const deadline = Date.now() + 20_000;
      const rendered = () => readers.every((reader) => seen.get(reader.memberId)!.some((event) => event.message.id === id && event.message.translation === 'done'));
      while (!rendered()) {
        if (Date.now() > deadline) throw new StartError(`provider-calls: message ${id} was not rendered for every reader within 20 s`);
        await sleep(20);
      }
      await sleep(200); // a late second call would show now
      const contents = readers.map((reader) => seen.get(reader.memberId)!.find((event) => event.message.id === id)!.message.content);
      return { calls: standIn.completions().length - before, contents };
    };
    const first = await postAndCount();
    const repeat = await postAndCount();
    const groups = new Set(readers.map((reader) => `${reader.language} ${reader.tone}`));
    return { groups: [...groups], first, repeat };
  } finally {
    for (const socket of sockets) socket.close();
  }
}

// ---- main ----

async function main(): Promise<number> {
  const started = performance.now();
  const { tmp, profileDir } = await benchFolders('chat-fanout', options);
  if (languages.length === 0 || chatCount < 1 || memberCount < 2) throw new StartError('want at least one language, one chat and two members');

  const databaseUrl = await createDatabase();
  const secretKey = randomBytes(48).toString('base64url');
  const extraEnv = parseEnv(options['server-env']);
  const realEnv = async (name: string, extra: Record<string, string>) => {
    const port = await freePort();
    const env = {
      ...parlaEnv({ port, publicUrl: `http://127.0.0.1:${port}`, dataDir: path.join(tmp, `data-${name}`), databaseUrl, secretKey, logLevel: 'warn' }),
      RATE_LIMIT_MESSAGES: '0',
      ...extra,
      ...extraEnv,
    };
    return { port, env };
  };
  const startReal = async (name: string, extra: Record<string, string>, profile: boolean, main = options['server-main']) => {
    const { port, env } = await realEnv(name, extra);
    return startServer({
      name,
      main: path.resolve(ROOT, main),
      url: `http://127.0.0.1:${port}`,
      readyUrl: `http://127.0.0.1:${port}/api/status/`,
      tmp,
      profileDir: profile ? profileDir : undefined,
      env,
    });
  };

  // The real server migrates the database; then the data goes straight in.
  let real = await startReal('real', { TRANSLATION_PROVIDER: 'none' }, true);
  const seeded = await seed(databaseUrl, secretKey);
  const barePort = await freePort();
  const bare = await startServer({
    name: 'bare',
    main: path.join(ROOT, 'bench/bare-broadcast.ts'),
    url: `http://127.0.0.1:${barePort}`,
    readyUrl: `http://127.0.0.1:${barePort}/`,
    tmp,
    profileDir,
    env: { PORT: String(barePort) },
  });
  const variants: Server[] = [];
  for (const spec of options.variant) {
    const at = spec.indexOf('=');
    const label = spec.slice(0, at).trim();
    const [main = '', ...env] = spec.slice(at + 1).trim().split(/\s+/);
    if (at <= 0 || !main || ['real', 'bare', 'real+stand-in'].includes(label)) throw new StartError(`--variant wants 'label=<main.ts> [K=V...]', got ${spec}`);
    variants.push(await startReal(label, { TRANSLATION_PROVIDER: 'none', ...parseEnv(env) }, true, main));
  }
  nameWidth = Math.max(real.name.length, bare.name.length, 'real+stand-in'.length, ...variants.map((variant) => variant.name.length));

  const clientChats: ClientChat[] = seeded.chats.map((chat) => ({
    chatId: chat.chatId,
    members: chat.members.map((member) => ({ userId: member.userId, token: member.user.token, language: member.language })),
  }));
  // The same chats on ejabberd: a room each, its members' accounts in the same order.
  const peer = await startEjabberd(tmp);
  const rooms: XmppRoom[] = seeded.chats.map((chat) => ({
    room: `chat${chat.chatId}@${peer.mucDomain}`,
    members: chat.members.map((member) => ({ username: `member${member.userId}`, password: randomBytes(9).toString('base64url') })),
  }));
  await peer.addUsers(rooms.flatMap((room) => room.members));
  const workers = await Promise.all(
    Array.from({ length: workerCount }, (_, index) =>
      startWorker(
        clientChats.filter((_, chatIndex) => chatIndex % workerCount === index),
        rooms.filter((_, chatIndex) => chatIndex % workerCount === index),
      ),
    ),
  );
  const connectAll = async (server: Server, target: string) => {
    const at = performance.now();
    for (const worker of workers) worker.send({ type: 'connect', target, baseUrl: server.url, chats: worker.chats, parallel: 20, post: postVia });
    const answers = await Promise.all(workers.map((worker) => worker.next('connected')));
    return { sockets: answers.reduce((sum, answer) => sum + answer.sockets, 0), seconds: (performance.now() - at) / 1000 };
  };
  const toReal = await connectAll(real, 'real');
  for (const variant of variants) await connectAll(variant, variant.name);
  const toBare = await connectAll(bare, 'bare');
  const toPeer = await (async () => {
    const at = performance.now();
    for (const worker of workers) worker.send({ type: 'connect-xmpp', target: REFERENCE, port: peer.port, domain: peer.domain, rooms: worker.rooms, parallel: 10 });
    const answers = await Promise.all(workers.map((worker) => worker.next('connected')));
    return { sockets: answers.reduce((sum, answer) => sum + answer.sockets, 0), seconds: (performance.now() - at) / 1000 };
  })();
  const setupSeconds = (performance.now() - started) / 1000;
  const background = await backgroundLoad();

  console.log(
    `\nChat fan-out on PostgreSQL: ${chatCount} chats of ${memberCount} members reading ${languages.join('/')} (tone DEFAULT), ` +
      `${toReal.sockets} sockets to the real server (connected and subscribed in ${toReal.seconds.toFixed(1)} s)` +
      variants.map((variant) => `, as many to ${variant.name}`).join('') +
      `, ${toPeer.sockets} XMPP connections to ejabberd (online and in their rooms in ${toPeer.seconds.toFixed(1)} s) and ${toBare.sockets} to the bare broadcast server, ` +
      `held by ${workerCount} client processes; post → message:created on every member's socket (${memberCount} per message, the sender's own included); ` +
      `Parla and bare get each message ${postVia === 'socket' ? "on the sender's socket (message:send, acknowledged)" : 'by POST /api/chat/{id}/messages/ (the sender\'s access token)'}, ejabberd on the sender's XMPP connection. ` +
      `Steady load ${rate} msg/s for ${steadySeconds} s, closed loop of ${posters} posters for ${closedSeconds} s, each after ${warmup} s of warm-up; ` +
      `${rounds} round(s) alternating (Parla's servers in turn first) ${['real', ...variants.map((variant) => variant.name), REFERENCE, 'bare'].join(', ')}; real server LOG_LEVEL=warn, TRANSLATION_PROVIDER=none` +
      (Object.keys(extraEnv).length ? `, ${options['server-env'].join(' ')}` : '') +
      (options['server-main'] !== 'apps/server/src/main.ts' ? `; real server: ${options['server-main']}` : '') +
      variants.map((variant, index) => `; ${variant.name}: ${options.variant[index]!.slice(options.variant[index]!.indexOf('=') + 1).trim()}`).join('') +
      `; setup ${setupSeconds.toFixed(0)} s; ${os.cpus().length} CPUs, load average ${loadAverage()}, machine ${background?.toFixed(0) ?? '-'}% busy before the load (other work)` +
      (profiling ? '; CPU PROFILING ON in the last closed-loop runs (those figures are slowed)' : '') +
      '\n',
  );

  const runs: FanoutRun[] = [];
  const servers: [Measured, string][] = [
    [measuredServer(real), 'real'],
    ...variants.map((variant): [Measured, string] => [measuredServer(variant), variant.name]),
    [measuredPeer(peer), REFERENCE],
    [measuredServer(bare), 'bare'],
  ];
  // Parla's tables start empty: a first closed loop on each of its servers, not counted, so that no
  // measured run is the one that meets them cold (in one run the first such loop gave 882 msg/s,
  // the next ones 1,149-1,195).
  for (const [server, target] of servers.slice(0, 1 + variants.length)) {
    const warm = await measuredLoad(server, workers, target, { mode: 'closed', posters }, 0, false);
    console.log(`warm-up  ${target.padEnd(14)} closed loop, not counted: ${warm.result.messages} messages`);
  }
  for (let round = 1; round <= rounds; round++) {
    // Parla's servers share one database: the first to run a load meets its tables colder (an A/A
    // run, the same main.ts twice, gave the first 5-15% fewer msg/s), so their order turns each round.
    const parla = servers.slice(0, 1 + variants.length);
    const order = round % 2 === 0 ? [...parla.reverse(), ...servers.slice(parla.length)] : servers;
    for (const [server, target] of order) {
      const run = await measuredLoad(server, workers, target, { mode: 'steady', rate, rendered: false }, round, false);
      runs.push(run);
      printRun(run);
    }
    for (const [server, target] of order) {
      const run = await measuredLoad(server, workers, target, { mode: 'closed', posters }, round, profiling && round === rounds);
      runs.push(run);
      printRun(run);
    }
  }
  const latency = runs.length ? reportFanout(runs, variants.map((variant) => variant.name)) : { lines: ['(no fan-out rounds: --rounds 0)'] };

  let translation: Awaited<ReturnType<typeof translationPart>> | undefined;
  if (!options['no-translation']) {
    for (const server of [real, ...variants]) {
      for (const worker of workers) worker.send({ type: 'disconnect', target: server === real ? 'real' : server.name });
      await Promise.all(workers.map((worker) => worker.next('disconnected')));
      await stopServer(server);
    }
    translation = await translationPart();
  }
  async function translationPart() {
    const standIn = await startOpenAiStandIn();
    onCleanup(() => standIn.close());
    standIn.delay(Number(options['stand-in-delay']));
    real = await startReal('real+stand-in', { OPENAI_BASE_URL: standIn.baseUrl, TRANSLATION_MODEL: 'stand-in' }, false);
    const connected = await connectAll(real, 'real+stand-in');
    console.log(
      `\nWith translation: the real server again (same database), TRANSLATION_PROVIDER auto → OpenAI-compatible stand-in answering at once` +
        `${Number(options['stand-in-delay']) ? ` after ${options['stand-in-delay']} ms` : ''}; ${connected.sockets} sockets reconnected in ${connected.seconds.toFixed(1)} s\n`,
    );
    const calls = await providerCalls(real.url, standIn, seeded.providerChat);
    const steady = await measuredLoad(measuredServer(real), workers, 'real+stand-in', { mode: 'steady', rate, rendered: true }, 1, false);
    printRun(steady);
    return { calls, steady };
  }

  const archived = await peer.archived();
  console.log('\n=== Figures ===');
  console.log(`ejabberd archived ${archived} groupchat messages in PostgreSQL (mod_mam) during the runs`);
  console.log(latency.lines.join('\n'));
  if (translation) {
    const { result } = translation.steady;
    console.log(
      `\nWith the stand-in as provider, steady ${rate} msg/s: message:created ${pcts(result.created)}; ` +
        `message:rendered ${pcts(result.rendered)} (${result.rendered.length} deliveries; last reader p99 ${ms(percentile(result.renderedLast, 99))} ms); ` +
        `reference: message:created of the same messages (p99 ratio rendered/created ${(percentile(result.rendered, 99) / percentile(result.created, 99)).toFixed(1)}); ` +
        `no target for message:rendered (a real model adds its own seconds); message:created p99 ${ms(percentile(result.created, 99))} ms against ${LATENCY_TARGET_MS} ms: ` +
        `${percentile(result.created, 99) <= LATENCY_TARGET_MS ? 'MEETS the target' : 'MISSES the target'}`,
    );
    const { calls } = translation;
    console.log(
      `Provider calls per message, chat of ${calls.groups.length} reading groups (${calls.groups.join(', ')}) besides the sender's: ` +
        `new message ${calls.first.calls} call(s) (reference: ${calls.groups.length}, one per group unbatched; ratio ${(calls.first.calls / calls.groups.length).toFixed(2)}); target 1: ${calls.first.calls === 1 ? 'MEETS the target' : 'MISSES the target'}`,
    );
    console.log(
      `  the same text again ${calls.repeat.calls} call(s) (reference: ${calls.first.calls}, the first message; ratio ${(calls.repeat.calls / Math.max(1, calls.first.calls)).toFixed(2)}); target 0: ${calls.repeat.calls === 0 ? 'MEETS the target' : 'MISSES the target'}` +
        `; renderings seen: ${calls.first.contents.map((content) => content.slice(0, content.indexOf(']') + 1)).join(' ')}`,
    );
  }
  console.log(`\nwhole bench ${((performance.now() - started) / 1000).toFixed(0)} s; load average at the end: ${loadAverage()}`);

  if (profiling) {
    printProfiles(
      runs.filter((run) => run.profile).map((run) => ({ name: run.name, file: run.profile!, units: run.result.messages })),
      'messages',
    );
  }
  for (const worker of workers) worker.send({ type: 'exit' });
  return 0;
}

function reportFanout(runs: FanoutRun[], variants: string[]) {
  const of = (name: string, mode: FanoutRun['mode']) => runs.filter((run) => run.name === name && run.mode === mode);
  const pooled = (name: string) => of(name, 'steady').flatMap((run) => run.result.created).sort((a, b) => a - b);
  const rateOf = (name: string) => median(of(name, 'closed').map((run) => run.rate));
  const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}..${Math.max(...values).toFixed(0)}`;
  const bareLatency = pooled(REFERENCE);
  const bareP99 = percentile(bareLatency, 99);
  const bareRate = rateOf(REFERENCE);
  const bareClosed = of(REFERENCE, 'closed');
  const floorRate = rateOf('bare');
  const floorLatency = pooled('bare');
  const limits = (list: FanoutRun[], name: string) => {
    const elu = Math.max(...list.map((run) => run.result.elu * 100));
    const server = median(list.map((run) => run.cpu.server ?? NaN));
    const postgres = median(list.map((run) => run.cpu.postgres ?? NaN));
    const cpu = median(list.map((run) => run.cpu.machine ?? NaN));
    const notes = [`server process ${server.toFixed(0)}% of a core`, `PostgreSQL ${postgres.toFixed(0)}%`, `busiest client event loop ${elu.toFixed(0)}%`, `machine ${cpu.toFixed(0)}% busy`];
    const verdict =
      server >= 85
        ? 'the server process is saturated (its one thread)'
        : elu >= 90
          ? 'the load generator is saturated: the figure is a floor of what this server can do'
          : cpu >= 85
            ? 'the machine is saturated: server, PostgreSQL, clients and any other work share its cores'
            : 'nothing saturated: more posters would go faster';
    return `${name}: ${notes.join(', ')} → ${verdict}`;
  };
  const lines: string[] = [];
  for (const name of ['real', ...variants]) {
    const latency = pooled(name);
    const p99 = percentile(latency, 99);
    const closed = of(name, 'closed');
    const rate_ = rateOf(name);
    const ratio = rate_ / bareRate;
    const label = name === 'real' ? '' : ` [${name}]`;
    lines.push(
      `Latency post → message:created${label} at a steady ${rate} msg/s (${rate * memberCount} deliveries/s), every delivery of ${rounds} round(s): ` +
        `${name} ${pcts(latency)} (${latency.length} deliveries; per round p99 ${of(name, 'steady').map((run) => ms(percentile(run.result.created, 99))).join(' ')} ms); ` +
        `reference ${REFERENCE} ${pcts(bareLatency)}; ratio of p99 ${name}/${REFERENCE} ${(p99 / bareP99).toFixed(2)}; the bare broadcast floor ${pcts(floorLatency)}`,
      `  p99 ${ms(p99)} ms; targets: at most ${LATENCY_TARGET_MS} ms and at most ${REFERENCE}'s ${ms(bareP99)} ms; ` +
        `${p99 <= LATENCY_TARGET_MS && p99 <= bareP99 ? 'MEETS the targets' : 'MISSES ' + [p99 > LATENCY_TARGET_MS ? `${LATENCY_TARGET_MS} ms` : '', p99 > bareP99 ? `${REFERENCE}'s p99` : ''].filter(Boolean).join(' and ')}`,
      `Sustained throughput${label}, closed loop of ${posters} posters (a message counts once all ${memberCount} members have it): ` +
        `${name} median ${rate_.toFixed(0)} msg/s (runs ${spread(closed.map((run) => run.rate))}, server CPU ${median(closed.map((run) => run.perMessage.server ?? NaN)).toFixed(0)} µs/message, ` +
        `PostgreSQL ${median(closed.map((run) => run.perMessage.postgres ?? NaN)).toFixed(0)} µs); ` +
        `reference ${REFERENCE} median ${bareRate.toFixed(0)} msg/s (runs ${spread(bareClosed.map((run) => run.rate))}, server CPU ${median(bareClosed.map((run) => run.perMessage.server ?? NaN)).toFixed(0)} µs/message, ` +
        `PostgreSQL ${median(bareClosed.map((run) => run.perMessage.postgres ?? NaN)).toFixed(0)} µs); the bare broadcast floor ${floorRate.toFixed(0)} msg/s; ` +
        `per round ${closed.map((run) => (run.rate / (bareClosed.find((other) => other.round === run.round)?.rate ?? NaN)).toFixed(2)).join(' ')}`,
      `  ratio ${name}/${REFERENCE} ${ratio.toFixed(2)}; target: at least ${THROUGHPUT_TARGET}; ` +
        (ratio >= THROUGHPUT_TARGET ? 'MEETS the target' : `BELOW the target (${name} would need ${(THROUGHPUT_TARGET * bareRate).toFixed(0)} msg/s)`) +
        (profiling ? ' [profiled runs: not the figure]' : ''),
      `  what limited it: ${limits(closed, name)}`,
    );
  }
  lines.push(`  what limited the reference: ${limits(bareClosed, REFERENCE)}`);
  const bad = runs.reduce((sum, run) => sum + run.result.httpErrors + run.result.missingCreated, 0);
  if (bad) lines.push(`WARNING: ${bad} posts failed or deliveries never arrived; the figures are not valid`);
  return { lines };
}

/** Users, sessions, the chats and memberships, straight into the database. */
async function seed(databaseUrl: string, secretKey: string) {
  const seeder = openSeeder(databaseUrl);
  try {
    const users = await seedUsers(seeder, secretKey, chatCount * memberCount, { prefix: 'fan', language: (index) => languages[index % languages.length]! });
    const chats = await seedChats(
      seeder,
      Array.from({ length: chatCount }, (_, chat) => ({
        title: `Fan-out ${chat + 1}`,
        languages,
        members: Array.from({ length: memberCount }, (_, member) => ({
          user: users[chat * memberCount + member]!,
          language: languages[(chat + member) % languages.length]!,
        })),
      })),
    );
    // The provider-calls chat: an English sender and 5 (language, tone) reading groups.
    const groups: [string, string][] = [
      ['en', 'DEFAULT'],
      ['es', 'DEFAULT'],
      ['es', 'FORMAL'],
      ['de', 'CASUAL'],
      ['fr', 'DEFAULT'],
      ['en', 'FRIENDLY'],
    ];
    const people: SeededUser[] = await seedUsers(seeder, secretKey, groups.length, { prefix: 'calls' });
    const [providerChat] = await seedChats(seeder, [
      {
        title: 'Provider calls',
        languages: ['en', 'es', 'de', 'fr'],
        members: groups.map(([language, tone], index) => ({ user: people[index]!, language, tone })),
      },
    ]);
    return { chats, providerChat: providerChat! };
  } finally {
    await seeder.close();
  }
}

runMain(main);
