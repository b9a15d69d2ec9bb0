// Presence: whether a person is online (a live connection of theirs in use), away (every one of
// them idle or hidden, as their clients say) or offline (none left for PRESENCE_OFFLINE_GRACE: a
// reload or a short drop is not a departure), and when they were last seen.
//
// A person's state is worked out from their live connections wherever they are: the socket rooms
// of the Socket.IO adapter cross processes (Redis when REDIS_URL is set), so a process asks
// `fetchSockets` of the person's room and sees the connections of every process. The answer is
// kept in a store the members' lists read (a Redis hash shared by the processes, or memory), and a
// change is told to the features' listeners (chats announce it to the chats the person is in).
// Each process refreshes the entries of the people connected to it; an entry not refreshed (its
// process ended without saying goodbye) reads as offline once it expires.
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { PresenceState } from '@parla/contract/constants';
import { presenceAwaySchema } from '@parla/contract/live';
import type { Db } from '../../platform/db/index';
import { users } from '../../platform/db/schema';
import { userRoom, type Realtime } from '../../platform/realtime';

/** What others are shown of a person. */
export interface PresenceView {
  state: PresenceState;
  lastSeen: Date | null;
}

/** A person as the lists ask about them: whether they show presence, and when they were last seen (stored). */
export interface PresenceSubject {
  userId: number;
  showPresence: boolean;
  lastSeenAt: Date | null;
}

export type PresenceListener = (userId: number, view: PresenceView) => void | Promise<void>;

/** How often a process refreshes the entries of the people connected to it, and how long one lasts. */
const REFRESH_MS = 60_000;
const ENTRY_TTL_MS = 2.5 * REFRESH_MS;
const KEY = 'parla:presence';

interface Entry {
  state: Exclude<PresenceState, 'offline'>;
  /** When it stops counting unless refreshed (ms since the epoch). */
  until: number;
}

interface Store {
  get(userIds: readonly number[]): Promise<Map<number, Entry>>;
  set(userId: number, entry: Entry | null): Promise<void>;
  refresh(userIds: readonly number[], until: number): Promise<void>;
  close(): Promise<void>;
}

function memoryStore(): Store {
  const entries = new Map<number, Entry>();
  return {
    async get(userIds) {
      const found = new Map<number, Entry>();
      for (const id of userIds) {
        const entry = entries.get(id);
        if (entry) found.set(id, entry);
      }
      return found;
    },
    async set(userId, entry) {
      if (entry) entries.set(userId, entry);
      else entries.delete(userId);
    },
    async refresh(userIds, until) {
      for (const id of userIds) {
        const entry = entries.get(id);
        if (entry) entry.until = until;
      }
    },
    close: async () => undefined,
  };
}

async function redisStore(url: string): Promise<Store> {
  const { Redis } = await import('ioredis');
  const client: Redis = new Redis(url, { lazyConnect: true });
  await client.connect();
  const parse = (text: string | null): Entry | undefined => {
    if (!text) return undefined;
    const [state, until] = text.split(':');
    return (state === 'online' || state === 'away') && until ? { state, until: Number(until) } : undefined;
  };
  return {
    async get(userIds) {
      if (userIds.length === 0) return new Map();
      const values = await client.hmget(KEY, ...userIds.map(String));
      const found = new Map<number, Entry>();
      userIds.forEach((id, index) => {
        const entry = parse(values[index] ?? null);
        if (entry) found.set(id, entry);
      });
      return found;
    },
    async set(userId, entry) {
      if (entry) await client.hset(KEY, String(userId), `${entry.state}:${entry.until}`);
      else await client.hdel(KEY, String(userId));
    },
    async refresh(userIds, until) {
      if (userIds.length === 0) return;
      const values = await client.hmget(KEY, ...userIds.map(String));
      const fresh: string[] = [];
      userIds.forEach((id, index) => {
        const entry = parse(values[index] ?? null);
        if (entry) fresh.push(String(id), `${entry.state}:${until}`);
      });
      if (fresh.length) await client.hset(KEY, ...fresh);
    },
    close: async () => {
      await client.quit().catch(() => undefined);
    },
  };
}

export async function createPresence(options: {
  realtime: Realtime;
  db: Db;
  redisUrl: string | undefined;
  offlineGraceMs: number;
  /** Whether a person shows their presence (their privacy setting). */
  shows: (userId: number) => Promise<boolean>;
  log: { error(details: object, message: string): void };
}) {
  const { realtime, db, offlineGraceMs, shows, log } = options;
  const { io } = realtime;
  const store = options.redisUrl ? await redisStore(options.redisUrl) : memoryStore();
  const listeners: PresenceListener[] = [];
  const timers = new Map<number, NodeJS.Timeout>();
  let closed = false;

  const announce = async (userId: number, view: PresenceView) => {
    for (const listener of listeners) {
      try {
        await listener(userId, view);
      } catch (error) {
        log.error({ err: error, userId }, 'a presence change was not announced');
      }
    }
  };

  /** The person's state from their connections on every process; a change is stored and told. */
  async function evaluate(userId: number) {
    const sockets = await io.in(userRoom(userId)).fetchSockets();
    const state: PresenceState = sockets.length === 0 ? 'offline' : sockets.some((socket) => !socket.data.away) ? 'online' : 'away';
    const stored = (await store.get([userId])).get(userId);
    const before: PresenceState = stored && stored.until > Date.now() ? stored.state : 'offline';
    if (before === state) return;
    const now = new Date();
    await store.set(userId, state === 'offline' ? null : { state, until: Date.now() + ENTRY_TTL_MS });
    if (state === 'offline') await db.update(users).set({ lastSeenAt: now }).where(eq(users.id, userId));
    if (await shows(userId)) await announce(userId, { state, lastSeen: state === 'offline' ? now : null });
  }

  function schedule(userId: number, delayMs: number) {
    if (closed) return;
    clearTimeout(timers.get(userId));
    timers.set(
      userId,
      setTimeout(() => {
        timers.delete(userId);
        evaluate(userId).catch((error: unknown) => log.error({ err: error, userId }, 'presence could not be worked out'));
      }, delayMs).unref(),
    );
  }

  realtime.onConnection((socket) => {
    const { userId } = socket.data;
    socket.data.away = false;
    schedule(userId, 0);
    socket.on('presence:away', (payload) => {
      const parsed = presenceAwaySchema.safeParse(payload);
      if (!parsed.success || socket.data.away === parsed.data.away) return;
      socket.data.away = parsed.data.away;
      schedule(userId, 0);
    });
    socket.on('disconnect', () => schedule(userId, offlineGraceMs));
  });

  const refresher = setInterval(() => {
    const here = [...new Set([...io.of('/').sockets.values()].map((socket) => socket.data.userId))];
    store.refresh(here, Date.now() + ENTRY_TTL_MS).catch((error: unknown) => log.error({ err: error }, 'presence entries were not refreshed'));
  }, REFRESH_MS).unref();

  return {
    /** What others are shown of these people now. */
    async of(subjects: readonly PresenceSubject[]): Promise<Map<number, PresenceView>> {
      const entries = await store.get(subjects.filter((subject) => subject.showPresence).map((subject) => subject.userId));
      const now = Date.now();
      return new Map(
        subjects.map((subject): [number, PresenceView] => {
          if (!subject.showPresence) return [subject.userId, { state: 'offline', lastSeen: null }];
          const entry = entries.get(subject.userId);
          if (entry && entry.until > now) return [subject.userId, { state: entry.state, lastSeen: null }];
          return [subject.userId, { state: 'offline', lastSeen: subject.lastSeenAt }];
        }),
      );
    },

    /** The person now shows their presence, or hides it: what others see of them follows at once. */
    async shownChanged(userId: number, showPresence: boolean) {
      const [row] = await db.select({ lastSeenAt: users.lastSeenAt }).from(users).where(eq(users.id, userId)).limit(1);
      const [view] = (await this.of([{ userId, showPresence, lastSeenAt: row?.lastSeenAt ?? null }])).values();
      if (view) await announce(userId, view);
    },

    onChange(listener: PresenceListener) {
      listeners.push(listener);
    },

    async close() {
      closed = true;
      clearInterval(refresher);
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await store.close();
    },
  };
}

export type Presence = Awaited<ReturnType<typeof createPresence>>;
