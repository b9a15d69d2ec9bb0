// Fixed-window counters for the costly and sensitive calls: in memory for one process, in Redis
// when REDIS_URL is set so that all processes share them.
import type { Redis } from 'ioredis';
import { throttled } from './errors';

export interface RateLimiter {
  /** Counts one hit on `key`; throws a 429 ApiError once `limit` is passed within the window. */
  hit(key: string, limit: number, windowMs: number): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key, limit, windowMs) {
      if (limit <= 0) return;
      const now = Date.now();
      let entry = windows.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + windowMs };
        windows.set(key, entry);
        if (windows.size > 100_000) {
          for (const [k, v] of windows) if (v.resetAt <= now) windows.delete(k);
        }
      }
      entry.count += 1;
      if (entry.count > limit) throw throttled(Math.ceil((entry.resetAt - now) / 1000));
    },
    async close() {
      windows.clear();
    },
  };
}

export async function createRedisRateLimiter(url: string): Promise<RateLimiter> {
  const { Redis } = await import('ioredis');
  const redis: Redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  return {
    async hit(key, limit, windowMs) {
      if (limit <= 0) return;
      const name = `ratelimit:${key}`;
      const [[, count], [, ttl]] = (await redis
        .multi()
        .incr(name)
        .pttl(name)
        .exec()) as [[null, number], [null, number]];
      if (ttl < 0) await redis.pexpire(name, windowMs);
      if (count > limit) throw throttled(Math.ceil((ttl > 0 ? ttl : windowMs) / 1000));
    },
    async close() {
      await redis.quit();
    },
  };
}
