// A load-generating client process of bench/chat-fanout.ts (started with `node --import tsx`, an
// IPC channel to the bench): it holds the Socket.IO connections of whole chats (every member's
// socket, subscribed with `chat:subscribe`), posts messages through the HTTP API as members of
// those chats, and times each post → `message:created` (and `message:rendered`) on every member's
// socket with its own clock (performance.now()), so no time crosses a process.
//
// The bench drives it: connect (a target server's sockets), load (steady: an open loop at a rate
// spread over its chats; closed: N posters, each posting the next message of its chats once the
// previous one reached all its members), measure (the window starts), stop (no new posts; wait for
// the deliveries still due, then answer the figures of the window, with this process's event-loop
// utilisation: near 1 means the client, not the server, sets the pace).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { LIVE_PATH, type ClientToServerEvents, type MessageEvent, type ServerToClientEvents } from '@parla/contract/live';

export interface ClientMember {
  userId: number;
  token: string;
  language: string;
}

export interface ClientChat {
  chatId: number;
  members: ClientMember[];
}

export type ToClient =
  | { type: 'connect'; target: string; baseUrl: string; chats: ClientChat[]; parallel: number }
  | { type: 'disconnect'; target: string }
  | { type: 'load'; target: string; mode: 'steady'; rate: number; rendered: boolean }
  | { type: 'load'; target: string; mode: 'closed'; concurrency: number }
  | { type: 'measure' }
  | { type: 'stop'; drainMs: number }
  | { type: 'exit' };

export interface LoadResult {
  /** Steady: posts started in the window. Closed: messages whose every delivery arrived in the window. */
  messages: number;
  httpErrors: number;
  /** ms from the start of the POST to each `message:created` of a message of the window (every member's socket). */
  created: number[];
  /** ms to the last member's `message:created`, per message. */
  createdLast: number[];
  /** ms to each `message:rendered` (members reading another language than the sender's). */
  rendered: number[];
  renderedLast: number[];
  /** ms of each POST (its response). */
  http: number[];
  /** Deliveries due but not received when the drain ended. */
  missingCreated: number;
  missingRendered: number;
  /** Events of a message delivered twice to the same count (more than its members). */
  extra: number;
  windowMs: number;
  /** Event-loop utilisation of this process over the window (0..1). */
  elu: number;
}

export type FromClient =
  | { type: 'ready' }
  | { type: 'connected'; target: string; sockets: number; ms: number }
  | { type: 'disconnected'; target: string }
  | { type: 'result'; result: LoadResult }
  | { type: 'failed'; message: string };

type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

interface Target {
  baseUrl: string;
  chats: ClientChat[];
  sockets: LiveSocket[];
}

interface Pending {
  start: number;
  measured: boolean;
  createdDue: number;
  renderedDue: number;
  createdLast: number;
  renderedLast: number;
  /** Resolves when every `message:created` arrived. */
  delivered: () => void;
  done: Promise<void>;
}

const send = (message: FromClient) => process.send?.(message);
const prefix = `${process.pid.toString(36)}`;
const KEY = /fanout ([\w.-]+):/;
const LINES = [
  'Morning all! The new build is on staging, please try the checkout flow before lunch.',
  'Found a small issue with the date picker on Safari, opening a ticket now.',
  'Thanks! Can we move the review to 3 pm? The client call ran late.',
  'Sure, 3 pm works. I will update the invite.',
];

const targets = new Map<string, Target>();
const pending = new Map<string, Pending>();
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let sequence = 0;
/** The load running now. */
let current: { mode: 'steady' | 'closed'; running: boolean; measuring: boolean; result: LoadResult; loops: Promise<void>[]; windowStart: number; elu: ReturnType<typeof performance.eventLoopUtilization> } | undefined;

function emptyResult(): LoadResult {
  return { messages: 0, httpErrors: 0, created: [], createdLast: [], rendered: [], renderedLast: [], http: [], missingCreated: 0, missingRendered: 0, extra: 0, windowMs: 0, elu: 0 };
}

function keyOf(event: MessageEvent): string | undefined {
  return KEY.exec(event.message.rawMessage?.content ?? event.message.content)?.[1];
}

function onCreated(event: MessageEvent) {
  const at = performance.now();
  const key = keyOf(event);
  const item = key ? pending.get(key) : undefined;
  if (!item) return;
  if (item.createdDue <= 0) {
    if (item.measured && current) current.result.extra++;
    return;
  }
  item.createdDue--;
  const latency = at - item.start;
  if (item.measured && current) current.result.created.push(latency);
  if (item.createdDue === 0) {
    item.createdLast = latency;
    item.delivered();
  }
}

function onRendered(event: MessageEvent) {
  const at = performance.now();
  const key = keyOf(event);
  const item = key ? pending.get(key) : undefined;
  if (!item || event.message.translation === 'pending') return;
  if (item.renderedDue <= 0) {
    if (item.measured && current) current.result.extra++;
    return;
  }
  item.renderedDue--;
  const latency = at - item.start;
  if (item.measured && current) current.result.rendered.push(latency);
  if (item.renderedDue === 0) item.renderedLast = latency;
}

async function connect(name: string, baseUrl: string, chats: ClientChat[], parallel: number) {
  const started = performance.now();
  const target: Target = { baseUrl, chats, sockets: [] };
  targets.set(name, target);
  const jobs = chats.flatMap((chat) => chat.members.map((member) => ({ chat, member })));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { chat, member } = jobs[next++]!;
      const socket: LiveSocket = io(baseUrl, { path: LIVE_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: member.token } });
      target.sockets.push(socket);
      socket.on('message:created', onCreated);
      socket.on('message:rendered', onRendered);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', (error) => reject(new Error(`socket of user ${member.userId} to ${baseUrl}: ${error.message}`)));
      });
      const answer = await socket.timeout(15_000).emitWithAck('chat:subscribe', { chatId: chat.chatId });
      if (!answer.ok) throw new Error(`user ${member.userId} could not subscribe to chat ${chat.chatId}: ${answer.error}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  send({ type: 'connected', target: name, sockets: target.sockets.length, ms: performance.now() - started });
}

function disconnect(name: string) {
  const target = targets.get(name);
  for (const socket of target?.sockets ?? []) socket.close();
  targets.delete(name);
  send({ type: 'disconnected', target: name });
}

/** POSTs a message; resolves with its status and duration (ms). */
function postMessage(target: Target, chatId: number, token: string, content: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const body = JSON.stringify({ content, clientId: randomUUID() });
  const url = new URL(`/api/chat/${chatId}/messages/`, target.baseUrl);
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}` } },
      (response) => {
        response.resume();
        response.once('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
        response.once('error', () => resolve({ status: 0, ms: performance.now() - started }));
      },
    );
    request.once('error', () => resolve({ status: 0, ms: performance.now() - started }));
    request.end(body);
  });
}

/** Posts message number `index` of this load: chats in turn, and in each chat its members in turn. */
function postOne(target: Target, index: number, chatIndex: number, rendered: boolean): Pending {
  const chat = target.chats[chatIndex % target.chats.length]!;
  const sender = chat.members[Math.floor(index / target.chats.length) % chat.members.length]!;
  const key = `${prefix}.${++sequence}`;
  let delivered!: () => void;
  const done = new Promise<void>((resolve) => (delivered = resolve));
  const state = current!;
  const item: Pending = {
    start: performance.now(),
    measured: state.measuring,
    createdDue: chat.members.length,
    renderedDue: rendered ? chat.members.filter((member) => member.language !== sender.language).length : 0,
    createdLast: NaN,
    renderedLast: NaN,
    delivered,
    done,
  };
  pending.set(key, item);
  const content = `fanout ${key}: ${LINES[sequence % LINES.length]}`;
  void postMessage(target, chat.chatId, sender.token, content).then(({ status, ms }) => {
    if (!item.measured || state !== current) return;
    if (status < 200 || status > 299) state.result.httpErrors++;
    else state.result.http.push(ms);
  });
  return item;
}

function startLoad(command: Extract<ToClient, { type: 'load' }>) {
  const target = targets.get(command.target);
  if (!target) throw new Error(`no sockets to ${command.target}`);
  pending.clear();
  const state = { mode: command.mode, running: true, measuring: false, result: emptyResult(), loops: [] as Promise<void>[], windowStart: 0, elu: performance.eventLoopUtilization() };
  current = state;
  if (command.mode === 'steady') {
    const interval = 1000 / command.rate;
    let index = 0;
    let due = performance.now();
    state.loops.push(
      new Promise<void>((resolve) => {
        const tick = () => {
          if (!state.running) return resolve();
          const now = performance.now();
          while (due <= now) {
            const item = postOne(target, index, index, command.rendered);
            if (item.measured) state.result.messages++;
            index++;
            due += interval;
          }
          setTimeout(tick, Math.max(0, due - performance.now()));
        };
        tick();
      }),
    );
    return;
  }
  // Closed loop: poster p owns chats p, p + N, p + 2N...; each waits for its message to reach every member.
  const posters = Math.min(command.concurrency, target.chats.length);
  for (let poster = 0; poster < posters; poster++) {
    state.loops.push(
      (async () => {
        const own = target.chats.map((_, index) => index).filter((index) => index % posters === poster);
        for (let turn = 0; state.running; turn++) {
          const chatIndex = own[turn % own.length]!;
          const item = postOne(target, Math.floor(turn / own.length) * target.chats.length, chatIndex, false);
          const timedOut = await Promise.race([item.done.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 15_000).unref())]);
          if (timedOut) continue;
          if (state.measuring && state.running) {
            state.result.messages++;
            state.result.createdLast.push(item.createdLast);
          }
        }
      })(),
    );
  }
}

function measure() {
  if (!current) return;
  current.measuring = true;
  current.windowStart = performance.now();
  current.elu = performance.eventLoopUtilization();
}

async function stop(drainMs: number) {
  const state = current;
  if (!state) throw new Error('no load to stop');
  const windowEnd = performance.now();
  const elu = performance.eventLoopUtilization(state.elu);
  state.running = false;
  state.measuring = false;
  const deadline = windowEnd + drainMs;
  const due = () => [...pending.values()].filter((item) => item.measured && (item.createdDue > 0 || item.renderedDue > 0));
  while (due().length && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await Promise.race([Promise.all(state.loops), new Promise((resolve) => setTimeout(resolve, 16_000))]);
  const result = state.result;
  for (const item of pending.values()) {
    if (!item.measured) continue;
    result.missingCreated += Math.max(0, item.createdDue);
    result.missingRendered += Math.max(0, item.renderedDue);
    // A steady load times every message of the window; a closed loop those completed in it (counted above).
    if (state.mode === 'steady' && !Number.isNaN(item.createdLast)) result.createdLast.push(item.createdLast);
    if (!Number.isNaN(item.renderedLast)) result.renderedLast.push(item.renderedLast);
  }
  result.windowMs = windowEnd - state.windowStart;
  result.elu = elu.utilization;
  pending.clear();
  current = undefined;
  send({ type: 'result', result });
}

process.on('message', (message: ToClient) => {
  const run = async () => {
    switch (message.type) {
      case 'connect':
        return connect(message.target, message.baseUrl, message.chats, message.parallel);
      case 'disconnect':
        return disconnect(message.target);
      case 'load':
        return startLoad(message);
      case 'measure':
        return measure();
      case 'stop':
        return stop(message.drainMs);
      case 'exit':
        for (const name of [...targets.keys()]) disconnect(name);
        agent.destroy();
        process.exit(0);
    }
  };
  run().catch((error: unknown) => send({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
