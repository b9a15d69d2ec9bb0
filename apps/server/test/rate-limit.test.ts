// Rate limits shared through Redis when REDIS_URL is set: two server processes, one count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/platform/config';
import { GOOD_PASSWORD, registerActivated, signedIn, startServer, uniqueEmail, type TestServer } from './harness';

// Given by the test command, else started by global-setup.ts (when redis-server is installed).
const redisUrl = process.env.REDIS_TEST_URL;

describe('rate limits on Redis', () => {
  it('has a Redis to run against', () => {
    expect(redisUrl, 'REDIS_TEST_URL is unset and redis-server is not installed (apt-get install redis-server)').toBeTruthy();
  });
});

describe.skipIf(!redisUrl)('rate limits on Redis (REDIS_TEST_URL)', () => {
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

// Two processes with one session need one database: PostgreSQL (skipped on PGlite, by design).
describe.skipIf(!redisUrl || process.env.TEST_DATABASE !== 'postgres')('rate limits at their real values, across two servers on one Redis and one PostgreSQL (PostgreSQL pass only)', () => {
  let first: TestServer;
  let second: TestServer;
  // The defaults a deployment runs with, read from the configuration itself (the harness raises them).
  const real = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'parla-defaults-')) }).rateLimits;
  beforeAll(async () => {
    const env = {
      REDIS_URL: redisUrl!,
      TRUST_PROXY: '1',
      RATE_LIMIT_MESSAGES: String(real.messagesPerMinute),
      RATE_LIMIT_CREATIONS: String(real.creationsPerHour),
      RATE_LIMIT_EXPORTS: String(real.exportsPerMinute),
      RATE_LIMIT_LOGIN: String(real.login),
      TRANSLATION_PROVIDER: 'none',
      // One deployment: the same secret and database behind both processes.
      SECRET_KEY: 'a-secret-shared-by-both-servers-of-this-test',
    };
    first = await startServer(env);
    second = await startServer({ ...env, DATABASE_URL: first.config.databaseUrl! });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });
  const pick = (index: number) => (index % 2 ? second : first);

  it(`posts: ${60} a minute per user, counted on both servers together`, async () => {
    expect(real.messagesPerMinute).toBe(60);
    const { client } = await signedIn(first);
    const chat = await client.request('POST', '/api/chat/', { json: { title: 'Limits' }, xsrf: true });
    const post = (index: number) =>
      fetch(`${pick(index).url}/api/chat/${chat.body.id}/messages/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '), 'x-xsrf-token': client.cookie('XSRF-TOKEN')! },
        body: JSON.stringify({ content: `message ${index}` }),
      });
    for (let i = 0; i < 60; i++) expect((await post(i)).status, `post ${i + 1}`).toBe(201);
    const over = await post(60);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await client.get(`/api/chat/${chat.body.id}/messages/?limit=100`)).body.results).toHaveLength(60);
  });

  it('creations: 30 chats and rooms an hour per user, on both servers together', async () => {
    expect(real.creationsPerHour).toBe(30);
    const { client } = await signedIn(first);
    const create = (index: number) =>
      fetch(`${pick(index).url}/api/${index % 3 ? 'chat' : 'rooms'}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '), 'x-xsrf-token': client.cookie('XSRF-TOKEN')! },
        body: JSON.stringify({ title: `made ${index}` }),
      });
    for (let i = 0; i < 30; i++) expect((await create(i)).status, `creation ${i + 1}`).toBe(201);
    expect((await create(30)).status).toBe(429);
  });

  it('sign-in failures: 10 per account and address, on both servers together', async () => {
    expect(real.login).toBe(10);
    const email = await registerActivated(first);
    const headers = { 'x-forwarded-for': `198.19.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` };
    for (let i = 0; i < 10; i++) expect((await pick(i).client().post('/api/accounts/login/', { email, password: `wrong-${i}` }, { headers })).status).toBe(400);
    expect((await second.client().post('/api/accounts/login/', { email, password: GOOD_PASSWORD }, { headers })).status).toBe(429);
  });
});

