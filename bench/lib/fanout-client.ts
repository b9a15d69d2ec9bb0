// A load-generating client process of bench/chat-fanout.ts (started with `node --import tsx`, an
// IPC channel to the bench): it holds the connections of whole chats and times each message from
// its sending to its arrival on every member's connection with its own clock (performance.now()),
// so no time crosses a process. Two kinds of target: Parla (and the bare broadcast server): every
// member's Socket.IO socket subscribed with `chat:subscribe`, messages posted on the sender's own
// socket (`message:send`, acknowledged with the stored message; `--post http`: through the HTTP
// API instead), arrivals `message:created` (and `message:rendered`); ejabberd: every member's XMPP connection
// joined to the chat's multi-user chat room, messages sent as `groupchat` stanzas on the sender's
// connection, arrivals the room's copies (the sender's own echo included, as Parla's sender gets
// their own `message:created`).
//
// The bench drives it: connect (a target server's sockets), load (steady: an open loop at a rate
// spread over its chats; closed: N posters, each posting the next message of its chats once the
// previous one reached all its members), measure (the window starts), stop (no new posts; wait for
// the deliveries still due, then answer the figures of the window, with this process's event-loop
// utilisation: near 1 means the client, not the server, sets the pace).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { client as xmppClient, xml, type Element, type XmppClient } from '@xmpp/client';
import { io, type Socket } from 'socket.io-client';
import { LIVE_PATH, type ClientToServerEvents, type MessageEvent, type ServerToClientEvents } from '@parla/contract/live';

/** How a Parla target's messages are posted: on the sender's socket (`message:send`) or by POST. */
export type PostVia = 'socket' | 'http';

export interface ClientMember {
  userId: number;
  token: string;
  language: string;
}

export interface ClientChat {
  chatId: number;
  members: ClientMember[];
}

/** A multi-user chat room of ejabberd and its members' accounts. */
export interface XmppRoom {
  /** The room's address (name@muc-domain). */
  room: string;
  members: { username: string; password: string }[];
}

export type ToClient =
  | { type: 'connect'; target: string; baseUrl: string; chats: ClientChat[]; parallel: number; post: PostVia }
  | { type: 'connect-xmpp'; target: string; port: number; domain: string; rooms: XmppRoom[]; parallel: number }
  | { type: 'disconnect'; target: string }
  /**
   * `startAt` (epoch ms): the worker's first post. The bench staggers its workers by one interval of
   * the whole rate each, so that together they post evenly (not in simultaneous pairs).
   */
  | { type: 'load'; target: string; mode: 'steady'; rate: number; rendered: boolean; startAt: number }
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
  /** ms of each post until its answer (the POST's response, or `message:send`'s acknowledgement). */
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

/** What the load needs of a target, whatever its protocol. */
interface Target {
  /** How many chats (rooms) this process holds of it. */
  size: number;
  /** How many members chat `index` has (each gets every message, the sender included). */
  members(index: number): number;
  /**
   * Sends `content` to chat `index` as its member number `turn` (in turn); resolves with the
   * HTTP status and duration where the protocol answers (a POST), else with undefined.
   */
  post(index: number, turn: number, content: string): Promise<{ status: number; ms: number } | undefined>;
  /** How many of chat `index`'s members read another language than its member `turn` (their `message:rendered` is due). */
  otherReaders(index: number, turn: number): number;
  close(): void;
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

const onCreated = (event: MessageEvent) => delivered(keyOf(event));

/** A message reached one member's connection. */
function delivered(key: string | undefined) {
  const at = performance.now();
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

async function connect(name: string, baseUrl: string, chats: ClientChat[], parallel: number, via: PostVia) {
  const started = performance.now();
  const sockets: LiveSocket[] = [];
  /** Each member's socket in each chat, by `chatId:userId`. */
  const socketOf = new Map<string, LiveSocket>();
  const target: Target = {
    size: chats.length,
    members: (index) => chats[index % chats.length]!.members.length,
    post(index, turn, content) {
      const chat = chats[index % chats.length]!;
      const sender = chat.members[turn % chat.members.length]!;
      if (via === 'http') return postMessage(baseUrl, chat.chatId, sender.token, content);
      return sendMessage(socketOf.get(`${chat.chatId}:${sender.userId}`)!, chat.chatId, content);
    },
    otherReaders(index, turn) {
      const chat = chats[index % chats.length]!;
      const sender = chat.members[turn % chat.members.length]!;
      return chat.members.filter((member) => member.language !== sender.language).length;
    },
    close: () => sockets.forEach((socket) => socket.close()),
  };
  targets.set(name, target);
  const jobs = chats.flatMap((chat) => chat.members.map((member) => ({ chat, member })));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { chat, member } = jobs[next++]!;
      const socket: LiveSocket = io(baseUrl, { path: LIVE_PATH, transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: member.token } });
      sockets.push(socket);
      socketOf.set(`${chat.chatId}:${member.userId}`, socket);
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
  send({ type: 'connected', target: name, sockets: sockets.length, ms: performance.now() - started });
}

const MUC = 'http://jabber.org/protocol/muc';

/**
 * Every member of every room online (PLAIN on loopback) and in its room: the first member joins
 * and makes it an instant room (a new room stays locked until its owner configures it), then the
 * others join; no history is sent on joining.
 */
async function connectXmpp(name: string, port: number, domain: string, rooms: XmppRoom[], parallel: number) {
  const started = performance.now();
  const connections: XmppClient[][] = rooms.map(() => []);
  const target: Target = {
    size: rooms.length,
    members: (index) => rooms[index % rooms.length]!.members.length,
    async post(index, turn, content) {
      const room = rooms[index % rooms.length]!;
      const sender = connections[index % rooms.length]![turn % room.members.length]!;
      await sender.send(xml('message', { to: room.room, type: 'groupchat' }, xml('body', {}, content)));
      return undefined;
    },
    otherReaders: () => 0,
    close: () => connections.flat().forEach((connection) => void connection.stop().catch(() => undefined)),
  };
  targets.set(name, target);
  const join = async (connection: XmppClient, room: string, nick: string) => {
    const joined = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${nick} did not get into ${room}`)), 15_000);
      connection.on('stanza', (stanza: Element) => {
        if (!stanza.is('presence') || !stanza.attrs.from?.startsWith(`${room}/`)) return;
        if (stanza.attrs.type === 'error') return reject(new Error(`${nick} refused by ${room}: ${stanza.toString()}`));
        const self = stanza.getChild('x', `${MUC}#user`)?.getChild('status');
        if (stanza.attrs.from === `${room}/${nick}` || self?.attrs.code === '110') {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await connection.send(xml('presence', { to: `${room}/${nick}` }, xml('x', { xmlns: MUC }, xml('history', { maxstanzas: '0' }))));
    await joined;
  };
  const open = async (member: XmppRoom['members'][number]) => {
    const connection = xmppClient({ service: `xmpp://127.0.0.1:${port}`, domain, username: member.username, password: member.password, resource: 'bench' });
    connection.on('error', () => undefined);
    // @xmpp/connection waits 2 s for each step of the stream's opening: too little for a thousand
    // connections opened at once on two cores.
    (connection as XmppClient & { timeout: number }).timeout = 30_000;
    connection.on('stanza', (stanza: Element) => {
      if (stanza.name !== 'message' || stanza.attrs.type !== 'groupchat') return;
      const body = stanza.getChildText('body');
      if (body) delivered(KEY.exec(body)?.[1]);
    });
    const at = performance.now();
    await connection.start().catch((error: unknown) => {
      throw new Error(`${member.username} could not sign in (after ${(performance.now() - at).toFixed(0)} ms): ${describe(error)}`);
    });
    return connection;
  };
  let next = 0;
  const worker = async () => {
    while (next < rooms.length) {
      const index = next++;
      const room = rooms[index]!;
      const [owner, ...others] = room.members;
      if (!owner) continue;
      const first = await open(owner);
      connections[index]!.push(first);
      await join(first, room.room, owner.username);
      await first.iqCaller.request(xml('iq', { type: 'set', to: room.room }, xml('query', { xmlns: `${MUC}#owner` }, xml('x', { xmlns: 'jabber:x:data', type: 'submit' }))), 30_000).catch((error: unknown) => {
        throw new Error(`${room.room} could not be made an instant room: ${describe(error)}`);
      });
      for (const member of others) {
        const connection = await open(member);
        connections[index]!.push(connection);
        await join(connection, room.room, member.username);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, rooms.length)) }, worker));
  send({ type: 'connected', target: name, sockets: connections.flat().length, ms: performance.now() - started });
}

function disconnect(name: string) {
  targets.get(name)?.close();
  targets.delete(name);
  send({ type: 'disconnected', target: name });
}

/** Sends a message on the sender's socket; resolves with the status a POST would have answered and the time to the acknowledgement (ms). */
function sendMessage(socket: LiveSocket, chatId: number, content: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return socket
    .timeout(30_000)
    .emitWithAck('message:send', { chatId, content, clientId: randomUUID() })
    .then(
      (answer) => ({ status: answer.ok ? (answer.created ? 201 : 200) : 'status' in answer ? answer.status : 429, ms: performance.now() - started }),
      () => ({ status: 0, ms: performance.now() - started }),
    );
}

/** POSTs a message; resolves with its status and duration (ms). */
function postMessage(baseUrl: string, chatId: number, token: string, content: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const body = JSON.stringify({ content, clientId: randomUUID() });
  const url = new URL(`/api/chat/${chatId}/messages/`, baseUrl);
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
  const turn = Math.floor(index / target.size);
  const key = `${prefix}.${++sequence}`;
  let delivered!: () => void;
  const done = new Promise<void>((resolve) => (delivered = resolve));
  const state = current!;
  const item: Pending = {
    start: performance.now(),
    measured: state.measuring,
    createdDue: target.members(chatIndex),
    renderedDue: rendered ? target.otherReaders(chatIndex, turn) : 0,
    createdLast: NaN,
    renderedLast: NaN,
    delivered,
    done,
  };
  pending.set(key, item);
  const content = `fanout ${key}: ${LINES[sequence % LINES.length]}`;
  void target.post(chatIndex, turn, content).then(
    (answer) => {
      if (!answer || !item.measured || state !== current) return;
      if (answer.status < 200 || answer.status > 299) state.result.httpErrors++;
      else state.result.http.push(answer.ms);
    },
    () => {
      if (item.measured && state === current) state.result.httpErrors++;
    },
  );
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
    // The worker's own clock for the wall-clock start (performance.now() counts from this process's origin).
    let due = Math.max(performance.now(), command.startAt - performance.timeOrigin);
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
        setTimeout(tick, Math.max(0, due - performance.now()));
      }),
    );
    return;
  }
  // Closed loop: poster p owns chats p, p + N, p + 2N...; each waits for its message to reach every member.
  const posters = Math.min(command.concurrency, target.size);
  for (let poster = 0; poster < posters; poster++) {
    state.loops.push(
      (async () => {
        const own = Array.from({ length: target.size }, (_, index) => index).filter((index) => index % posters === poster);
        for (let turn = 0; state.running; turn++) {
          const chatIndex = own[turn % own.length]!;
          const item = postOne(target, Math.floor(turn / own.length) * target.size, chatIndex, false);
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

/** An error as one line: XMPP errors carry their condition and the stanza, not always a message. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { condition, element } = error as Error & { condition?: string; element?: { toString(): string } };
  return [error.name, error.message, condition, element?.toString().slice(0, 300)].filter(Boolean).join(': ');
}

process.on('message', (message: ToClient) => {
  const run = async () => {
    switch (message.type) {
      case 'connect':
        return connect(message.target, message.baseUrl, message.chats, message.parallel, message.post);
      case 'connect-xmpp':
        return connectXmpp(message.target, message.port, message.domain, message.rooms, message.parallel);
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
  run().catch((error: unknown) => send({ type: 'failed', message: describe(error) }));
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
