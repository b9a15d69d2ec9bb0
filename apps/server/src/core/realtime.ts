// Live pushes: one Socket.IO server on the API's own HTTP server, at LIVE_PATH. A socket
// authenticates at the handshake with the session cookie (same origin only) or an access token
// in `auth.token`, and is refused at once otherwise. Each socket joins its user's and its
// session's rooms; features add their own rooms (a chat's rendering groups) after checking
// membership. With REDIS_URL the Redis adapter carries emits, joins and disconnects across
// processes.
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import { COOKIES } from '@parla/contract/constants';
import { LIVE_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@parla/contract/live';
import type { TokenService } from './auth';

export interface SocketData {
  userId: number;
  sessionId: string;
}

export type LiveServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export const userRoom = (userId: number) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

export interface Realtime {
  io: LiveServer;
  /** Registers what a feature does with each new authenticated socket (its event handlers). */
  onConnection(handler: (socket: LiveSocket) => void): void;
  /** Ends the live connections of a session (logout) or of a user's sessions but one (password change). */
  disconnectSession(sessionId: string): void;
  disconnectUser(userId: number, exceptSessionId?: string): Promise<void>;
  close(): Promise<void>;
}

export async function createRealtime(
  app: FastifyInstance,
  options: {
    tokens: TokenService;
    isSessionActive: (sessionId: string, userId: number) => Promise<boolean>;
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
  });

  const closers: (() => Promise<unknown>)[] = [];
  if (options.redisUrl) {
    const [{ Redis }, { createAdapter }] = await Promise.all([import('ioredis'), import('@socket.io/redis-adapter')]);
    const pub = new Redis(options.redisUrl, { lazyConnect: true });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub, { key: 'parla:live' }));
    closers.push(() => pub.quit(), () => sub.quit());
  }

  io.use((socket, next) => {
    const refuse = () => next(new Error('not_authenticated'));
    const given = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    let token: string | undefined;
    if (typeof given === 'string' && given) {
      token = given;
    } else {
      // A cookie handshake must come from a page of this origin (no cross-site WebSocket hijack).
      const origin = socket.handshake.headers.origin;
      const host = socket.handshake.headers.host;
      if (origin && host && safeHost(origin) !== host) return refuse();
      token = fastifyCookie.parse(socket.handshake.headers.cookie ?? '')[COOKIES.access];
    }
    if (!token) return refuse();
    tokens
      .verify(token, 'access')
      .then(async (claims) => {
        if (!claims || !(await isSessionActive(claims.sessionId, claims.userId))) return refuse();
        socket.data = { userId: claims.userId, sessionId: claims.sessionId };
        next();
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'live handshake failed');
        refuse();
      });
  });

  const handlers: ((socket: LiveSocket) => void)[] = [];
  const budget = options.eventsPer10s ?? 0;
  io.on('connection', (socket) => {
    if (budget > 0) limitEvents(socket, budget, log);
    void socket.join([userRoom(socket.data.userId), sessionRoom(socket.data.sessionId)]);
    for (const handler of handlers) handler(socket);
  });

  return {
    io,
    onConnection: (handler) => handlers.push(handler),
    disconnectSession: (sessionId) => io.in(sessionRoom(sessionId)).disconnectSockets(true),
    async disconnectUser(userId, exceptSessionId) {
      const sockets = await io.in(userRoom(userId)).fetchSockets();
      for (const socket of sockets) if (socket.data.sessionId !== exceptSessionId) socket.disconnect(true);
    },
    async close() {
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => {
        // io.close() would also close the HTTP server, which Fastify closes itself.
        io.engine.close();
        resolve();
      });
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
