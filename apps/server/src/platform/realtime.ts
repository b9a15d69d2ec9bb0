// Live pushes: one Socket.IO server on the API's own HTTP server, at LIVE_PATH. A socket
// authenticates at the handshake with the session cookie (same origin only) or an access token
// in `auth.token`, and is refused at once otherwise. Each socket joins its user's and its
// session's rooms; features add their own rooms (a chat's rendering groups) after checking
// membership. With REDIS_URL the Redis adapter carries emits, joins and disconnects across
// processes.
// Catch-up: a connection that drops for less than RECOVERY_MS comes back with its rooms and the
// events it missed (Socket.IO's connection state recovery: every event carries the offset of the
// stream it was sent in, and the client gives back the last one it saw), instead of refetching
// everything it shows. A session is restored only when it is still active and every topic it was
// subscribed to is still the caller's, in the same reading group (the features' `onRecovery`
// checks); otherwise the client starts afresh and refetches, as it does after a longer outage.
// With REDIS_URL the events are kept in a Redis stream, so a client may come back on any process.
// A connection's session is checked at the handshake and again every minute (one statement for
// every session with a connection here): a session that ended (sign-out, password change,
// refresh-token reuse: those also cut its connections at once) takes its connections with it, so
// what a connection sends (a message posted over it) needs no session query of its own.
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server, type Socket } from 'socket.io';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Adapter, Session } from 'socket.io-adapter';
import { COOKIES } from '@parla/contract/constants';
import { LIVE_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@parla/contract/live';
import type { TokenService } from './auth';

export interface SocketData {
  userId: number;
  sessionId: string;
  /** The client said this connection is idle or hidden (presence: away). */
  away?: boolean;
}

export type LiveServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export const userRoom = (userId: number) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

interface RecoveryNote {
  userId: number;
  sessionId: string;
  rooms: string[];
}

/** How long a dropped connection may come back with the events it missed. */
export const RECOVERY_MS = 2 * 60_000;

/** How often the sessions of the open connections are checked again. */
export const SESSION_CHECK_MS = 60_000;
const SESSION_CHECK_SLICE = 10_000;

/**
 * Whether a user may get back these rooms of a restored connection (the rooms of one feature's
 * topics among them): false when one of them is no longer theirs as it was.
 */
export type RecoveryCheck = (userId: number, rooms: ReadonlySet<string>) => Promise<boolean>;

export interface Realtime {
  io: LiveServer;
  /** Registers what a feature does with each new authenticated socket (its event handlers). */
  onConnection(handler: (socket: LiveSocket) => void): void;
  /** Registers a feature's check of the rooms a dropped connection would get back (see RecoveryCheck). */
  onRecovery(check: RecoveryCheck): void;
  /**
   * A WebSocket of its own (a speaker's audio stream) at the paths `match` accepts, authenticated
   * as the live connection is (the session cookie, same origin) and closed with it (sign-out,
   * session check). `match` gives what the handler needs of the path, or null for another path.
   */
  acceptSockets<T>(match: (pathname: string) => T | null, handler: (socket: WebSocket, user: SocketData, matched: T) => void, options: { maxPayload: number }): void;
  /** Ends the live connections of a session (logout) or of a user's sessions but one (password change). */
  disconnectSession(sessionId: string): void;
  disconnectUser(userId: number, exceptSessionId?: string): Promise<void>;
  /** Checks the sessions of this process's connections now (done every SESSION_CHECK_MS): those of ended sessions are closed. */
  checkSessions(): Promise<void>;
  close(): Promise<void>;
}

export async function createRealtime(
  app: FastifyInstance,
  options: {
    tokens: TokenService;
    isSessionActive: (sessionId: string, userId: number) => Promise<boolean>;
    /** Which of these sessions are still active, with their users (the periodic check). */
    activeSessions: (sessionIds: readonly string[]) => Promise<{ id: string; userId: number }[]>;
    redisUrl: string | undefined;
    log: FastifyBaseLogger;
    /** Events one connection may send per 10 s (0: no limit); past it they are refused unread, past ten times it the connection ends. */
    eventsPer10s?: number;
  },
): Promise<Realtime> {
  const { tokens, isSessionActive, log } = options;
  const io: LiveServer = new Server(app.server, {
    path: LIVE_PATH,
    serveClient: false,
    // Same origin only: no CORS headers are sent, and cookie handshakes are checked below.
    cors: undefined,
    pingInterval: 20_000,
    pingTimeout: 20_000,
    maxHttpBufferSize: 64 * 1024,
    // Upgrades to other paths are ours (acceptSockets), not refused by engine.io.
    destroyUpgrade: false,
    // The handshake's checks run again on a restored connection (the session may have ended).
    connectionStateRecovery: { maxDisconnectionDuration: RECOVERY_MS, skipMiddlewares: false },
  });

  const closers: (() => Promise<unknown>)[] = [];
  const recoveryChecks: RecoveryCheck[] = [];
  /**
   * Whether a dropped connection may come back as it was: its session still active and every room
   * still its user's. Checked before the adapter gathers the missed events, and with no wait
   * between that and the socket taking its rooms back, so no event falls between the two.
   */
  async function mayRecover(note: RecoveryNote | undefined): Promise<boolean> {
    if (!note) return false;
    try {
      if (!(await isSessionActive(note.sessionId, note.userId))) return false;
      const rooms = new Set(note.rooms);
      for (const check of recoveryChecks) if (!(await check(note.userId, rooms))) return false;
      return true;
    } catch (error) {
      log.error({ err: error }, 'live recovery check failed');
      return false;
    }
  }
  /** Who held a dropped connection and its rooms, by its private session id (Socket.IO's `pid`). */
  let notes: { save(pid: string, note: RecoveryNote): void; read(pid: string): Promise<RecoveryNote | undefined> };
  // Socket.IO makes each namespace's adapter with `new`: a plain function returning the adapter
  // it made (the streams adapter's, or the in-memory one) serves.
  const checkingRestores = (make: (nsp: unknown) => Adapter) =>
    function (nsp: unknown): Adapter {
      const adapter = make(nsp);
      const persist = adapter.persistSession.bind(adapter);
      const restore = adapter.restoreSession.bind(adapter);
      adapter.persistSession = (session) => {
        const data = session.data as Partial<SocketData> | undefined;
        if (data?.userId && data.sessionId) notes.save(session.pid, { userId: data.userId, sessionId: data.sessionId, rooms: session.rooms });
        persist(session);
      };
      // The adapter's type says a Session; it answers null when there is none to restore.
      adapter.restoreSession = async (pid, offset) => ((await mayRecover(await notes.read(pid))) ? restore(pid, offset) : (null as unknown as Session));
      return adapter;
    } as unknown as typeof Adapter;
  if (options.redisUrl) {
    const [{ Redis }, { createAdapter }] = await Promise.all([import('ioredis'), import('@socket.io/redis-streams-adapter')]);
    const client = new Redis(options.redisUrl, { lazyConnect: true });
    await client.connect();
    const key = (pid: string) => `parla:live:note:${pid}`;
    notes = {
      save: (pid, note) => void client.set(key(pid), JSON.stringify(note), 'PX', RECOVERY_MS).catch(() => undefined),
      read: async (pid) => {
        const found = await client.get(key(pid));
        return found ? (JSON.parse(found) as RecoveryNote) : undefined;
      },
    };
    const make = createAdapter(client, {
      streamName: 'parla:live',
      maxLen: 10_000,
      sessionKeyPrefix: 'parla:live:session:',
      // How long a closing server's stream reader may still wait for Redis.
      blockTimeInMs: 1_000,
      onlyPlaintext: true,
    });
    io.adapter(checkingRestores(make));
    closers.push(() => client.quit());
  } else {
    const kept = new Map<string, RecoveryNote & { at: number }>();
    notes = {
      save(pid, note) {
        const now = Date.now();
        for (const [old, { at }] of kept) if (at < now - RECOVERY_MS) kept.delete(old);
        kept.set(pid, { ...note, at: now });
      },
      read: async (pid) => kept.get(pid),
    };
    const { SessionAwareAdapter } = await import('socket.io-adapter');
    io.adapter(checkingRestores((nsp) => new SessionAwareAdapter(nsp as ConstructorParameters<typeof SessionAwareAdapter>[0])));
  }

  /** Who a handshake's request is: the session cookie (same origin only) or an access token; null when refused. */
  async function authenticate(headers: IncomingHttpHeaders, given?: unknown): Promise<SocketData | null> {
    let token: string | undefined;
    if (typeof given === 'string' && given) {
      token = given;
    } else {
      // A cookie handshake must come from a page of this origin (no cross-site WebSocket hijack).
      const origin = headers.origin;
      const host = headers.host;
      if (origin && host && safeHost(origin) !== host) return null;
      token = fastifyCookie.parse(headers.cookie ?? '')[COOKIES.access];
    }
    if (!token) return null;
    const claims = await tokens.verify(token, 'access');
    if (!claims || !(await isSessionActive(claims.sessionId, claims.userId))) return null;
    return { userId: claims.userId, sessionId: claims.sessionId };
  }

  io.use((socket, next) => {
    const refuse = () => next(new Error('not_authenticated'));
    authenticate(socket.handshake.headers, (socket.handshake.auth as { token?: unknown } | undefined)?.token)
      .then((user) => {
        if (!user) return refuse();
        socket.data = user;
        next();
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'live handshake failed');
        refuse();
      });
  });

  // WebSockets of their own (acceptSockets), kept with who opened them.
  const ownSockets = new Map<WebSocket, SocketData>();
  const acceptors: ((request: IncomingMessage, raw: Duplex, head: Buffer, pathname: string) => boolean)[] = [];
  app.server.on('upgrade', (request: IncomingMessage, raw: Duplex, head: Buffer) => {
    const pathname = (request.url ?? '').split('?')[0] ?? '';
    if (pathname.startsWith(LIVE_PATH)) return;
    if (!acceptors.some((accept) => accept(request, raw, head, pathname))) raw.destroy();
  });
  const refuseUpgrade = (raw: Duplex, status: string) => {
    if (raw.writable) raw.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    raw.destroy();
  };
  function acceptSockets<T>(match: (pathname: string) => T | null, handler: (socket: WebSocket, user: SocketData, matched: T) => void, wsOptions: { maxPayload: number }) {
    const server = new WebSocketServer({ noServer: true, maxPayload: wsOptions.maxPayload, perMessageDeflate: false });
    closers.push(async () => {
      for (const client of server.clients) client.terminate();
      server.close();
    });
    acceptors.push((request, raw, head, pathname) => {
      const matched = match(pathname);
      if (matched === null) return false;
      raw.on('error', () => undefined);
      authenticate(request.headers)
        .then((user) => {
          if (!user) return refuseUpgrade(raw, '401 Unauthorized');
          server.handleUpgrade(request, raw, head, (socket) => {
            // A frame past maxPayload is an error the socket reports and closes on (1009).
            socket.on('error', () => undefined);
            ownSockets.set(socket, user);
            socket.once('close', () => ownSockets.delete(socket));
            handler(socket, user, matched);
          });
        })
        .catch((error: unknown) => {
          log.error({ err: error }, 'a WebSocket handshake failed');
          refuseUpgrade(raw, '500 Internal Server Error');
        });
      return true;
    });
  }
  /** Closes the own WebSockets of the sessions `ends` picks (sign-out, password change, session check). */
  const closeOwn = (ends: (user: SocketData) => boolean) => {
    for (const [socket, user] of ownSockets) if (ends(user)) socket.close(4401, 'not_authenticated');
  };

  const handlers: ((socket: LiveSocket) => void)[] = [];
  const budget = options.eventsPer10s ?? 0;
  io.on('connection', (socket) => {
    if (budget > 0) limitEvents(socket, budget, log);
    void socket.join([userRoom(socket.data.userId), sessionRoom(socket.data.sessionId)]);
    for (const handler of handlers) handler(socket);
  });

  async function checkSessions() {
    const sockets = [...io.of('/').sockets.values()];
    const ids = [...new Set([...sockets.map((socket) => socket.data.sessionId), ...[...ownSockets.values()].map((user) => user.sessionId)])];
    const active = new Map<string, number>();
    // In slices: a statement takes at most 65,535 parameters.
    for (let at = 0; at < ids.length; at += SESSION_CHECK_SLICE) {
      for (const session of await options.activeSessions(ids.slice(at, at + SESSION_CHECK_SLICE))) active.set(session.id, session.userId);
    }
    for (const socket of sockets) if (active.get(socket.data.sessionId) !== socket.data.userId) socket.disconnect(true);
    closeOwn((user) => active.get(user.sessionId) !== user.userId);
  }
  const sessionCheck = setInterval(() => {
    checkSessions().catch((error: unknown) => log.error({ err: error }, 'live session check failed'));
  }, SESSION_CHECK_MS).unref();

  return {
    io,
    onConnection: (handler) => handlers.push(handler),
    onRecovery: (check) => recoveryChecks.push(check),
    acceptSockets,
    disconnectSession(sessionId) {
      io.in(sessionRoom(sessionId)).disconnectSockets(true);
      closeOwn((user) => user.sessionId === sessionId);
    },
    async disconnectUser(userId, exceptSessionId) {
      closeOwn((user) => user.userId === userId && user.sessionId !== exceptSessionId);
      const sockets = await io.in(userRoom(userId)).fetchSockets();
      for (const socket of sockets) if (socket.data.sessionId !== exceptSessionId) socket.disconnect(true);
    },
    checkSessions,
    async close() {
      clearInterval(sessionCheck);
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => {
        // io.close() would also close the HTTP server, which Fastify closes itself.
        io.engine.close();
        resolve();
      });
      await Promise.resolve(io.of('/').adapter.close()).catch(() => undefined);
      for (const close of closers) await close().catch(() => undefined);
    },
  };
}

const EVENT_WINDOW_MS = 10_000;

/**
 * Every event a client sends costs (a membership query, a broadcast): at most `budget` per 10 s
 * window per connection are read. The rest are answered `throttled` when they ask for an answer,
 * and dropped; a connection that keeps sending at ten times the budget is closed.
 */
function limitEvents(socket: LiveSocket, budget: number, log: FastifyBaseLogger) {
  let windowStart = Date.now();
  let count = 0;
  socket.use((packet, next) => {
    const now = Date.now();
    if (now - windowStart >= EVENT_WINDOW_MS) {
      windowStart = now;
      count = 0;
    }
    count++;
    if (count <= budget) return next();
    const ack = packet[packet.length - 1];
    if (typeof ack === 'function') (ack as (answer: unknown) => void)({ ok: false, error: 'throttled' });
    if (count > budget * 10) {
      log.warn({ userId: socket.data.userId }, 'a live connection sent too many events and was closed');
      socket.disconnect(true);
    }
  });
}

function safeHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
