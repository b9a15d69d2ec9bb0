// Live pushes (Socket.IO at LIVE_PATH on this origin, authenticated by the session cookie): one
// socket per tab, opened when a page watches a chat or a room (or holds the connection for the
// user's own events, such as a new invitation) and closed when none has for a while or when the
// session ends. Only the chat and room pages (loaded on demand) import this module, and
// socket.io-client itself loads with the first connection (after the page has rendered, not
// with its scripts), never with the public pages.
// After every (re)connection each watched chat and room is subscribed again. A connection that
// dropped for a short while comes back with the events it missed (the server's connection state
// recovery, apps/server/src/platform/realtime.ts): nothing is refetched. Otherwise the listeners are
// told to refetch what they hold from before (`resync`), so nothing pushed while offline is lost.
import { useEffect, useSyncExternalStore } from 'react';
import type { Socket, io as connectTo } from 'socket.io-client';
import { LIVE_PATH, PRESENCE } from '@parla/contract/constants';
import type { CallJoinAck, CallSignal, CallSignalAck, ClientToServerEvents, MessageSendAck, MessageSendRequest, ServerToClientEvents, SubscribeAck } from '@parla/contract/live';
import { http } from './api';
import { EVENTS, keyOf, parseKey, type EventName, type LiveListener, type TopicKind } from './live-topics';
import { useTokenStore } from './stores';
import { afterPageLoad } from './yield';

// LIVE_PATH comes from the contract's constants, not from @parla/contract/live: importing a value
// from there would evaluate the chat schemas and put their zod parts in the chunk the sign-in
// page shares.

type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

// The topics watched, the listeners' shape and the events relayed to them: live-topics.ts.
export type { LiveListener, Topic, TopicKind } from './live-topics';

export type LiveStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting';

/** The handshake error of a refused session (apps/server/src/platform/realtime.ts). */
const NOT_AUTHENTICATED = 'not_authenticated';

/** Without watchers for this long the socket closes. */
const IDLE_CLOSE_MS = 30_000;
/** An unwatched chat or room is unsubscribed after this grace, so moving between two pages of the same one does not churn. */
const UNSUBSCRIBE_GRACE_MS = 2_000;
const ACK_TIMEOUT_MS = 10_000;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** The delay before reconnection attempt `attempt` (0-based): doubling from 1 s to 30 s, with jitter. */
export function retryDelay(attempt: number, random = Math.random): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** attempt);
  return Math.round(base * (0.75 + random() * 0.5));
}

/** Watch counts and subscriptions by `chat:{id}` / `room:{id}`. */
const watched = new Map<string, number>();
/** Pages that want the connection without watching a chat or room (the user's own events: a new invitation). */
let holders = 0;
const subscribed = new Set<string>();
/** What was subscribed when the connection dropped: a recovered connection still receives it. */
let subscribedBeforeDrop = new Set<string>();
const unsubscribeTimers = new Map<string, ReturnType<typeof setTimeout>>();
const listeners = new Set<LiveListener>();
const statusListeners = new Set<() => void>();

let socket: LiveSocket | null = null;
let status: LiveStatus = 'idle';
let wanted = false;
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function setStatus(next: LiveStatus) {
  if (status === next) return;
  status = next;
  statusListeners.forEach((listener) => listener());
}

function emitToListeners<K extends EventName>(name: K, payload: Parameters<ServerToClientEvents[K]>[0]) {
  for (const listener of [...listeners]) {
    const handler = listener[name] as ((event: typeof payload) => void) | undefined;
    handler?.(payload);
  }
}

/** socket.io-client, asked for by the first connection (a fifth of a chat page's script otherwise). */
let library: Promise<{ io: typeof connectTo }> | undefined;

function getSocket(io: typeof connectTo): LiveSocket {
  if (socket) return socket;
  const created: LiveSocket = io({
    path: LIVE_PATH,
    // Reconnection is ours: the session may need a refresh before the handshake carries a valid cookie.
    autoConnect: false,
    reconnection: false,
    // WebSocket first; where it cannot pass (a proxy without upgrades, Vite's dev proxy) long polling.
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    withCredentials: true,
  });
  created.on('connect', onConnect);
  created.on('disconnect', (reason) => {
    subscribedBeforeDrop = new Set(subscribed);
    subscribed.clear();
    // Our own disconnect() (idle, signed out) is final; anything else is retried.
    if (reason === 'io client disconnect' || !wanted) return setStatus('idle');
    letGo(created);
    setStatus('reconnecting');
    scheduleRetry();
  });
  created.on('connect_error', (error) => {
    subscribed.clear();
    letGo(created);
    setStatus('reconnecting');
    // The server refused the session the expiries call valid (revoked by a password change
    // elsewhere, or its cookie ran out first): a refresh tells which; a refused one ends the
    // session (the app leaves for sign-in) instead of retrying for ever.
    if (error.message === NOT_AUTHENTICATED) void confirmThenRetry();
    else scheduleRetry();
  });
  for (const name of EVENTS) {
    created.on(name, ((payload: never) => emitToListeners(name, payload)) as never);
  }
  socket = created;
  return created;
}

/**
 * Reconnection is ours: a socket whose connection dropped under it (network gone, server
 * restarted: "transport close", "ping timeout") or could not be opened stays `active` for
 * socket.io, waiting for the library's own reconnection, which is off; `connect()` would then
 * never open it again. Letting go of it (no event: it is not connected) makes it inactive.
 */
function letGo(dropped: LiveSocket) {
  if (!dropped.connected && dropped.active) dropped.disconnect();
}

// Presence: the server counts a connection as in use until told otherwise; it is idle (away) once
// nothing was typed, clicked or touched for PRESENCE.awayAfterMs (a hidden page gets no input).
let lastInput = Date.now();
let away = false;
function setAway(next: boolean) {
  if (away === next) return;
  away = next;
  if (socket?.connected) socket.emit('presence:away', { away });
}
if (typeof window !== 'undefined') {
  const onInput = () => {
    lastInput = Date.now();
    if (away) setAway(false);
  };
  for (const name of ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const) window.addEventListener(name, onInput, { passive: true, capture: true });
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && onInput());
  setInterval(() => {
    if (!away && Date.now() - lastInput >= PRESENCE.awayAfterMs) setAway(true);
  }, 15_000);
}

function onConnect() {
  attempt = 0;
  setStatus('connected');
  // A new connection starts in use: say so if this tab is idle.
  if (away) socket?.emit('presence:away', { away: true });
  const at = Date.now();
  // Recovered: the missed events came first, and only topics watched since the drop need a refetch.
  const recovered = socket?.recovered ? subscribedBeforeDrop : undefined;
  subscribedBeforeDrop = new Set();
  const keys = [...watched.keys()];
  void Promise.all(keys.map(async (key) => ({ key, ok: await subscribe(key) }))).then((answers) => {
    if (!socket?.connected) return;
    for (const listener of [...listeners]) {
      if (!recovered) listener.resync?.(at);
      else for (const { key, ok } of answers) if (ok && !recovered.has(key)) listener.resync?.(at, parseKey(key));
    }
  });
}

/** Resolves true once the server confirmed the subscription. */
function subscribe(key: string): Promise<boolean> {
  const current = socket;
  if (!current?.connected) return Promise.resolve(false);
  const topic = parseKey(key);
  const { kind, id } = topic;
  return new Promise((resolve) => {
    const onAnswer = (error: Error | null, answer?: SubscribeAck) => {
      if (error || !answer) {
        // No answer in time. A dead link is found by the heartbeat (engine.io closes it, and we
        // connect again); a live server on a busy machine answers late: ask again on the same
        // connection rather than tear down one the machine would have to build again (issue 37:
        // under load this loop dropped a call's signalling every 10 s).
        if (current === socket && current.connected && watched.has(key)) return void subscribe(key).then(resolve);
      } else if (answer.ok) {
        subscribed.add(key);
      } else if (answer.error === 'not_found') {
        for (const listener of [...listeners]) listener.refused?.(topic);
      }
      resolve(!!answer?.ok);
    };
    const timed = current.timeout(ACK_TIMEOUT_MS);
    if (kind === 'chat') timed.emit('chat:subscribe', { chatId: id }, onAnswer);
    else timed.emit('room:subscribe', { roomId: id }, onAnswer);
  });
}

async function confirmThenRetry() {
  let goesOn: boolean;
  try {
    goesOn = await http.confirmSession();
  } catch {
    // No answer from the refresh (offline, 5xx): try again later.
    return scheduleRetry();
  }
  if (goesOn) scheduleRetry();
  else close();
}

function scheduleRetry() {
  if (!wanted || retryTimer) return;
  const delay = retryDelay(attempt++);
  retryTimer = setTimeout(() => {
    retryTimer = undefined;
    void connect();
  }, delay);
}

async function connect() {
  if (!wanted || socket?.connected || socket?.active) return;
  setStatus(status === 'idle' ? 'connecting' : 'reconnecting');
  let io: typeof connectTo;
  try {
    // The first connection of the tab waits for the page to have shown what it loaded with it
    // (its scripts, its data): socket.io-client and the handshake then do not compete with them
    // on a phone's network and main thread. The first connection refetches what the page holds
    // (`resync`), so nothing pushed before it is lost.
    if (!library) await afterPageLoad();
    ({ io } = await (library ??= import('socket.io-client')));
  } catch {
    // The library did not load (offline, or a deploy replaced it): try again later.
    library = undefined;
    return scheduleRetry();
  }
  if (!wanted) return;
  const current = getSocket(io);
  if (current.connected || current.active) return;
  let signedIn: boolean;
  try {
    signedIn = await http.ensureSession();
  } catch {
    // No answer from the refresh (offline, 5xx): try again later.
    return scheduleRetry();
  }
  if (!signedIn) return close();
  if (wanted && !current.connected && !current.active) current.connect();
}

function close() {
  wanted = false;
  clearTimeout(retryTimer);
  retryTimer = undefined;
  clearTimeout(idleTimer);
  idleTimer = undefined;
  subscribed.clear();
  socket?.disconnect();
  setStatus('idle');
}

function want() {
  clearTimeout(idleTimer);
  idleTimer = undefined;
  if (wanted) return;
  wanted = true;
  attempt = 0;
  void connect();
}

/** Back online: retry now instead of waiting for the backoff. */
function onOnline() {
  if (!wanted || socket?.connected) return;
  clearTimeout(retryTimer);
  retryTimer = undefined;
  attempt = 0;
  void connect();
}

if (typeof window !== 'undefined') window.addEventListener('online', onOnline);

// Signed out: no socket stays open for the previous user.
useTokenStore.subscribe((state, previous) => {
  if (previous.refreshExpiration !== undefined && state.refreshExpiration === undefined) {
    watched.clear();
    holders = 0;
    close();
  }
});

/** Nothing watched and nobody holding the connection: it closes after a while. */
function idleUnlessWanted() {
  if (watched.size > 0 || holders > 0) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (watched.size === 0 && holders === 0) close();
  }, IDLE_CLOSE_MS);
}

/**
 * Receive a chat's or a room's events while the returned function is not called. Watches are
 * counted per topic: the subscription ends (after a short grace) when the last watcher stops.
 */
export function watch(kind: TopicKind, id: number): () => void {
  const key = keyOf(kind, id);
  const count = watched.get(key) ?? 0;
  watched.set(key, count + 1);
  const pending = unsubscribeTimers.get(key);
  if (pending) {
    clearTimeout(pending);
    unsubscribeTimers.delete(key);
  }
  if (count === 0 && !subscribed.has(key) && socket?.connected) {
    const at = Date.now();
    void subscribe(key).then((ok) => {
      if (!ok) return;
      for (const listener of [...listeners]) listener.resync?.(at, { kind, id });
    });
  }
  want();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    const left = (watched.get(key) ?? 1) - 1;
    if (left > 0) return void watched.set(key, left);
    watched.delete(key);
    unsubscribeTimers.set(
      key,
      setTimeout(() => {
        unsubscribeTimers.delete(key);
        if (watched.has(key)) return;
        if (!subscribed.delete(key) || !socket?.connected) return;
        if (kind === 'chat') socket.emit('chat:unsubscribe', { chatId: id });
        else socket.emit('room:unsubscribe', { roomId: id });
      }, UNSUBSCRIBE_GRACE_MS),
    );
    idleUnlessWanted();
  };
}

/**
 * Keeps the connection open while the returned function is not called, without watching any chat
 * or room: the events addressed to the user themself (`chat:updated` / `room:updated` of a new
 * invitation, `chat:removed` / `room:removed` of one withdrawn) reach a page that shows none.
 */
export function holdConnection(): () => void {
  holders++;
  want();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders = Math.max(0, holders - 1);
    idleUnlessWanted();
  };
}

export const watchChat = (chatId: number): (() => void) => watch('chat', chatId);
export const watchRoom = (roomId: number): (() => void) => watch('room', roomId);

/** Holds the connection (holdConnection) while the calling page is shown and `active`. */
export function useHeldConnection(active = true) {
  useEffect(() => (active ? holdConnection() : undefined), [active]);
}

/** Receive the events of every watched chat and room (filter by `chatId` / `roomId`). */
export function addLiveListener(listener: LiveListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** "I am writing" in a chat (callers throttle it to once every 2 s). */
export function sendTyping(chatId: number) {
  if (socket?.connected && subscribed.has(keyOf('chat', chatId))) socket.emit('chat:typing', { chatId });
}

/**
 * Posts a message on the live connection (`message:send`): the answer a POST of it would get,
 * without a request of its own. Undefined when the connection is not up (post it over HTTP then);
 * rejects when no answer came in time (it may have been stored: send it again with the same clientId).
 */
export function sendMessage(request: MessageSendRequest): Promise<MessageSendAck> | undefined {
  if (!socket?.connected) return undefined;
  return socket.timeout(ACK_TIMEOUT_MS).emitWithAck('message:send', request);
}

/** Resolves once the live connection is up (true), or false after `timeoutMs` without it. */
function connected(timeoutMs: number): Promise<boolean> {
  if (socket?.connected) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve(false);
    }, timeoutMs);
    const stop = subscribeLiveStatus(() => {
      if (status !== 'connected') return;
      clearTimeout(timer);
      stop();
      resolve(true);
    });
  });
}

/**
 * Enter a Live room's call without a media server (a mesh): who is there, and the ICE servers.
 * A connection still being opened is waited for.
 */
export async function joinCall(roomId: number, instance?: string): Promise<CallJoinAck> {
  if (!(await connected(ACK_TIMEOUT_MS)) || !socket) return { ok: false, error: 'not_found' };
  return socket
    .timeout(ACK_TIMEOUT_MS)
    .emitWithAck('call:join', instance ? { roomId, instance } : { roomId })
    .catch((): CallJoinAck => ({ ok: false, error: 'throttled' }));
}

/** Resolves once the live connection is up (true), or false after `timeoutMs` without it. */
export const liveConnected = (timeoutMs: number): Promise<boolean> => connected(timeoutMs);

/** A signal for one peer of the call (an offer, an answer, a network candidate). */
export function sendCallSignal(roomId: number, to: number, signal: CallSignal): Promise<CallSignalAck> {
  if (!socket?.connected) return Promise.resolve({ ok: false, error: 'not_found' });
  return socket
    .timeout(ACK_TIMEOUT_MS)
    .emitWithAck('call:signal', { roomId, to, signal })
    .catch((): CallSignalAck => ({ ok: false, error: 'throttled' }));
}

export function leaveCall(roomId: number) {
  if (socket?.connected) socket.emit('call:leave', { roomId });
}

export const getLiveStatus = () => status;

export function subscribeLiveStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/** The connection's state, for the banner of the screens that watch chats or rooms. */
export const useLiveStatus = () => useSyncExternalStore(subscribeLiveStatus, getLiveStatus);
