// Rate limits on @fastify/rate-limit's stores: in memory for one process, in Redis when REDIS_URL
// is set so that every process shares the counts. A route declares its limits in one line
// (`preHandler: limits.route(rule, rule...)`); outcomes such as failed sign-ins are counted with
// `limits.counter(rule)` (peek before, count after).
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { throttled } from './errors';

export interface LimitRule {
  /** Names the counter; rules with the same name and key share it. */
  name: string;
  /** Requests allowed per window; 0 turns the rule off. */
  max: number;
  windowMs: number;
  /** What is counted: the caller's address, an e-mail, an account... */
  key: (request: FastifyRequest) => string;
}

export interface Counter {
  /** Throws a 429 when the count has reached the rule's max, without counting. */
  check(request: FastifyRequest): Promise<void>;
  /** Counts one. */
  add(request: FastifyRequest): Promise<void>;
}

/** One set of counters, checked from a route and from outside an HTTP request alike. */
export interface Limiter {
  /** As a route's preHandler. */
  route: preHandlerAsyncHookHandler;
  /** For a signed-in user outside an HTTP request (a live connection): the same counts, the route's 429. */
  user(userId: number): Promise<void>;
}

export interface RateLimits {
  route(...rules: LimitRule[]): preHandlerAsyncHookHandler;
  /** Counters (one per rule) that routes and live operations share: each call of this makes new ones. */
  limiter(...rules: LimitRule[]): Limiter;
  counter(rule: LimitRule): Counter;
}

/** A rule counted per signed-in user (for routes behind requireUser). */
export const perUser = (name: string, max: number, windowMs: number): LimitRule => ({ name, max, windowMs, key: (request) => String(request.auth!.userId) });

/**
 * The declared limits of signed-in work, one counter each, shared by the features: every write has
 * one (`writes` for those without a costlier one of their own), and so has every costly read.
 */
export interface UserLimits {
  /** Chat messages posted or edited, utterances uploaded or corrected: each is a translation (and voices) for every reader. */
  messages: preHandlerAsyncHookHandler;
  /** Chats and rooms created. */
  creations: preHandlerAsyncHookHandler;
  /** People added to chats and rooms (each an e-mail, maybe an account). */
  invitations: preHandlerAsyncHookHandler;
  /** Transcript downloads (every segment of a room rendered). */
  exports: preHandlerAsyncHookHandler;
  /** Message searches. */
  searches: preHandlerAsyncHookHandler;
  /** Any other write. */
  writes: preHandlerAsyncHookHandler;
  /** Public reads and sign-outs, per address (no account needed: the status pings every part). */
  publicReads: preHandlerAsyncHookHandler;
  /** A message posted over the live connection: the same counters as a POST of one (`writes`, then `messages`). */
  liveMessage: (userId: number) => Promise<void>;
}

export function userLimits(limits: RateLimits, rates: { messagesPerMinute: number; creationsPerHour: number; invitationsPerHour: number; exportsPerMinute: number; searchesPerMinute: number; writesPerMinute: number; publicPerMinute: number }): UserLimits {
  const minute = 60_000;
  const hour = 60 * minute;
  // Made once each: the in-memory store keeps the counts of each limiter apart.
  const messages = limits.limiter(perUser('messages', rates.messagesPerMinute, minute));
  const writes = limits.limiter(perUser('writes', rates.writesPerMinute, minute));
  return {
    messages: messages.route,
    creations: limits.route(perUser('creations', rates.creationsPerHour, hour)),
    invitations: limits.route(perUser('invitations', rates.invitationsPerHour, hour)),
    exports: limits.route(perUser('exports', rates.exportsPerMinute, minute)),
    searches: limits.route(perUser('searches', rates.searchesPerMinute, minute)),
    writes: writes.route,
    publicReads: limits.route({ name: 'public', max: rates.publicPerMinute, windowMs: minute, key: addressKey }),
    async liveMessage(userId) {
      await writes.user(userId);
      await messages.user(userId);
    },
  };
}

/** The caller's address as a rate-limit key: IPv4 as is, IPv6 grouped by its /64. */
export const addressKey = (request: FastifyRequest) => normalizeIP(request.ip, 64);

export async function installRateLimits(app: FastifyInstance, options: { redisUrl: string | undefined }): Promise<RateLimits> {
  let redis: Redis | undefined;
  if (options.redisUrl) {
    const { Redis } = await import('ioredis');
    redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    await redis.connect();
    const connection = redis;
    app.addHook('onClose', async () => {
      await connection.quit();
    });
  }
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'parla:rate:' } : { cache: 100_000 }),
  });

  const checker = (rule: LimitRule) =>
    app.createRateLimit({ max: rule.max, timeWindow: rule.windowMs, keyGenerator: (request) => `${rule.name}:${rule.key(request)}` });

  /** Counts the request against each rule that is on; the first one past its max throws the 429. */
  const limiter = (rules: LimitRule[]) => {
    const checks = rules.filter((rule) => rule.max > 0).map(checker);
    return async (request: FastifyRequest) => {
      for (const check of checks) {
        const state = await check(request);
        if (!state.isAllowed && state.isExceeded) throw throttled(Math.max(1, state.ttlInSeconds));
      }
    };
  };

  return {
    route(...rules) {
      const limit = limiter(rules);
      return async (request) => limit(request);
    },
    limiter(...rules) {
      const limit = limiter(rules);
      return {
        route: async (request) => limit(request),
        // What the rules and the store read of a request: who is calling (perUser's key) and the route's options.
        user: (userId) => limit({ auth: { userId }, routeOptions: { config: {} } } as unknown as FastifyRequest),
      };
    },
    counter(rule) {
      if (rule.max <= 0) return { check: async () => undefined, add: async () => undefined };
      const check = checker(rule);
      return {
        async check(request) {
          const state = await check(request, { increment: false });
          if (!state.isAllowed && state.remaining <= 0) throw throttled(Math.max(1, state.ttlInSeconds));
        },
        async add(request) {
          await check(request);
        },
      };
    },
  };
}
