import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/core/errors';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from '../src/core/rate-limit';
import { GOOD_PASSWORD, registerActivated, startServer } from './harness';

const redisUrl = process.env.REDIS_TEST_URL;

async function exercise(limiter: RateLimiter) {
  const key = `test:${Math.random()}`;
  await limiter.hit(key, 2, 60_000);
  await limiter.hit(key, 2, 60_000);
  const error = await limiter.hit(key, 2, 60_000).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).statusCode).toBe(429);
  expect(Number((error as ApiError).headers['retry-after'])).toBeGreaterThan(0);
  // Other keys and a zero limit are untouched.
  await expect(limiter.hit(`${key}:other`, 2, 60_000)).resolves.toBeUndefined();
  await expect(limiter.hit(key, 0, 60_000)).resolves.toBeUndefined();
}

describe('memory rate limiter', () => {
  it('counts per key and answers 429 past the limit', async () => {
    const limiter = createMemoryRateLimiter();
    await exercise(limiter);
    await limiter.close();
  });

  it('opens a new window when the old one ends', async () => {
    const limiter = createMemoryRateLimiter();
    await limiter.hit('w', 1, 50);
    await expect(limiter.hit('w', 1, 50)).rejects.toBeInstanceOf(ApiError);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await expect(limiter.hit('w', 1, 50)).resolves.toBeUndefined();
  });
});

describe.skipIf(!redisUrl)('Redis rate limiter (REDIS_TEST_URL, started by the test command)', () => {
  const opened: RateLimiter[] = [];
  afterAll(async () => {
    for (const limiter of opened) await limiter.close();
  });

  it('counts per key and answers 429 past the limit', async () => {
    const limiter = await createRedisRateLimiter(redisUrl!);
    opened.push(limiter);
    await exercise(limiter);
  });

  it('shares counts between processes (two limiters on one Redis)', async () => {
    const first = await createRedisRateLimiter(redisUrl!);
    const second = await createRedisRateLimiter(redisUrl!);
    opened.push(first, second);
    const key = `shared:${Math.random()}`;
    await first.hit(key, 2, 60_000);
    await second.hit(key, 2, 60_000);
    await expect(first.hit(key, 2, 60_000)).rejects.toMatchObject({ statusCode: 429 });
  });

  it('limits sign-in over HTTP when the server runs with REDIS_URL', async () => {
    const server = await startServer({ REDIS_URL: redisUrl!, RATE_LIMIT_LOGIN: '2' });
    try {
      const email = await registerActivated(server);
      const client = server.client();
      expect((await client.post('/api/accounts/login/', { email, password: GOOD_PASSWORD })).status).toBe(200);
      expect((await client.post('/api/accounts/login/', { email, password: GOOD_PASSWORD })).status).toBe(200);
      const third = await client.post('/api/accounts/login/', { email, password: GOOD_PASSWORD });
      expect(third.status).toBe(429);
      expect(third.body.errors[0].code).toBe('throttled');
    } finally {
      await server.close();
    }
  });
});
