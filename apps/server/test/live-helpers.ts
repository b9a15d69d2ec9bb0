// A live-push client as the web client has one: Socket.IO at /api/live/ with the session cookie
// (or an access token), collecting every event it receives.
import { io, type Socket } from 'socket.io-client';
import { LIVE_PATH, type ClientToServerEvents, type ServerToClientEvents, type SubscribeAck } from '@parla/contract/live';
import type { Person } from './chat-helpers';
import type { TestServer } from './harness';

export interface Received {
  event: string;
  payload: any;
  at: number;
}

export interface LiveClient {
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  received: Received[];
  subscribe(chatId: number): Promise<SubscribeAck>;
  /** Waits for an event matching `test`, received since `after` (an index into `received`). */
  next(event: string, test?: (payload: any) => boolean, timeoutMs?: number, after?: number): Promise<any>;
  close(): void;
}

export async function connect(
  baseUrl: string,
  who: Person | { cookie?: string; token?: string; origin?: string },
  options: { expectFailure?: boolean; resume?: { pid: string; offset: string } } = {},
): Promise<LiveClient> {
  const cookie = 'client' in who ? [...who.client.jar].map(([k, v]) => `${k}=${v}`).join('; ') : who.cookie;
  const token = 'client' in who ? undefined : who.token;
  const origin = 'client' in who ? undefined : who.origin;
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(baseUrl, {
    path: LIVE_PATH,
    transports: ['websocket'],
    reconnection: false,
    ...(token ? { auth: { token } } : {}),
    autoConnect: false,
    ...(cookie || origin ? { extraHeaders: { ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) } } : {}),
  });
  // Another tab of the same browser cannot do this; a browser whose connection a load balancer
  // sends to another server does (the client keeps its position across connections).
  if (options.resume) Object.assign(socket, { _pid: options.resume.pid, _lastOffset: options.resume.offset });
  socket.connect();
  const received: Received[] = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload, at: Date.now() }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => (options.expectFailure ? resolve() : reject(error)));
  });
  return {
    socket,
    received,
    subscribe: (chatId) => socket.timeout(5000).emitWithAck('chat:subscribe', { chatId }),
    async next(event, test = () => true, timeoutMs = 10_000, after = 0) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.slice(after).find((item) => item.event === event && test(item.payload));
        if (found) return found.payload;
        if (Date.now() > deadline) throw new Error(`no ${event} in ${timeoutMs} ms; got ${received.map((r) => r.event).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => socket.close(),
  };
}

/**
 * A positive marker on `socket` (a live connection of `who`): someone else invites `who` to a new
 * chat, and its `chat:updated` must arrive. Events of one connection keep their order, so whatever
 * was sent to it before the marker has arrived once the marker has; an event that is absent from
 * `received` between `after` and the marker was never sent. Returns the marker's index.
 */
export async function marker(server: { url: string }, host: Person, who: Person, socket: LiveClient): Promise<number> {
  const made = await host.client.request('POST', '/api/chat/', { json: { title: 'Marker' }, xsrf: true });
  if (made.status !== 201) throw new Error(`marker chat: ${made.status}`);
  const invited = await host.client.request('POST', `/api/chat/${made.body.id}/members/`, { json: { user: who.email, chatRole: 2003 }, xsrf: true });
  if (invited.status !== 201) throw new Error(`marker invitation: ${invited.status}`);
  await socket.next('chat:updated', (payload: { chat: { id: number } }) => payload.chat.id === made.body.id, 10_000);
  return socket.received.findIndex((item) => item.event === 'chat:updated' && (item.payload as { chat: { id: number } }).chat.id === made.body.id);
}

/** Where a client stands in the server's event stream (Socket.IO's private session id and last offset). */
export function positionOf(client: LiveClient): { pid: string; offset: string } {
  const inner = client.socket as unknown as { _pid?: string; _lastOffset?: string };
  if (!inner._pid || !inner._lastOffset) throw new Error('the connection has no position yet (no event received)');
  return { pid: inner._pid, offset: inner._lastOffset };
}

/**
 * The connection drops under the client (as when the network goes): the server keeps its session.
 * Returns once `server` (where it was connected) has seen it go, so what follows happens while away.
 */
export async function drop(client: LiveClient, server: TestServer): Promise<void> {
  const id = client.socket.id;
  const gone = new Promise<void>((resolve) => client.socket.once('disconnect', () => resolve()));
  client.socket.io.engine.close();
  await gone;
  const sockets = server.app.ctx.realtime.io.of('/').sockets;
  for (let waited = 0; id && sockets.has(id); waited += 10) {
    if (waited > 5_000) throw new Error('the server did not see the connection drop');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The same client connects again (as the web client does after a drop), giving back its position. */
export async function reconnect(client: LiveClient): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    client.socket.once('connect', () => resolve());
    client.socket.once('connect_error', reject);
    client.socket.connect();
  });
}
