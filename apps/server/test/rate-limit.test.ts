// Rate limits shared through Redis when REDIS_URL is set: two server processes, one count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, registerActivated, startServer, uniqueEmail, type TestServer } from './harness';

const redisUrl = process.env.REDIS_TEST_URL;

describe.skipIf(!redisUrl)('rate limits on Redis (REDIS_TEST_URL, started by the test command)', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    const env = { REDIS_URL: redisUrl!, RATE_LIMIT_EMAIL: '2', RATE_LIMIT_LOGIN: '2', TRUST_PROXY: '1' };
    [first, second] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close()]);
  });
  // An address of this run only, so counts an earlier run left in Redis do not matter.
  const freshAddress = () => `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

  it('shares request counts between two servers, and answers 429 with the standard body and Retry-After', async () => {
    const headers = { 'x-forwarded-for': freshAddress() };
    const email = uniqueEmail('redis');
    const reset = (server: TestServer) => server.client().post('/api/accounts/password/reset/', { email }, { headers });
    expect((await reset(first)).status).toBe(200);
    expect((await reset(second)).status).toBe(200);
    const third = await reset(first);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ type: 'client_error', errors: [{ code: 'throttled', attr: null }] });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('shares sign-in failure counts between two servers', async () => {
    const email = await registerActivated(first);
    const headers = { 'x-forwarded-for': freshAddress() };
    const login = (server: TestServer, password: string) => server.client().post('/api/accounts/login/', { email, password }, { headers });
    expect((await login(first, 'wrong-password-1')).status).toBe(400);
    expect((await login(second, 'wrong-password-2')).status).toBe(400);
    expect((await login(first, GOOD_PASSWORD)).status).toBe(429);
    expect((await login(second, GOOD_PASSWORD)).status).toBe(429);
  });
});
