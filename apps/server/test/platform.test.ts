import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TONES } from '@parla/contract/constants';
import { buildApp } from '../src/app';
import { ConfigError, loadConfig } from '../src/platform/config';
import { GOOD_PASSWORD, activationKeyFrom, signedIn, startServer, uniqueEmail, type TestServer } from './harness';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NOT_FOUND = { type: 'client_error', errors: [{ code: 'not_found', attr: null, detail: 'Not found.' }] };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('GET /api/status/', () => {
  it('answers ok with the version and the state of each part', async () => {
    const answer = await server.client().get('/api/status/');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({
      status: 'ok',
      version: VERSION,
      database: 'ok',
      // The embedded defaults, which the test command installs: Apertium, pocketsphinx, espeak-ng.
      realtime: 'ok',
      translation: 'ok',
      speech: 'ok',
    });
  });

  it('says off for what is switched off, and degraded for a provider that does not answer', async () => {
    const closedPort = `http://127.0.0.1:${await (await import('./harness')).freePort()}/v1`;
    const off = await startServer({ TRANSLATION_PROVIDER: 'none', STT_PROVIDER: 'none', TTS_PROVIDER: 'none' }, { smtp: false });
    const unreachable = await startServer({ OPENAI_BASE_URL: closedPort, TRANSLATION_PROVIDER: 'openai', STT_PROVIDER: 'none', TTS_PROVIDER: 'none' }, { smtp: false });
    try {
      expect((await off.client().get('/api/status/')).body).toMatchObject({ status: 'ok', database: 'ok', realtime: 'ok', translation: 'off', speech: 'off' });
      const degraded = await unreachable.client().get('/api/status/');
      expect(degraded.status).toBe(200);
      expect(degraded.body).toMatchObject({ status: 'ok', database: 'ok', translation: 'degraded', speech: 'off' });
    } finally {
      await off.close();
      await unreachable.close();
    }
  });

  it('answers HEAD like GET, without a body', async () => {
    const answer = await server.client().request('HEAD', '/api/status/');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
  });
});

describe('PostgreSQL ending the server’s connections', () => {
  // A restart or an administrator ends idle pooled connections: the server logs it, opens new
  // ones and goes on (an unhandled pool error would end the process, and fail this file).
  it.runIf(process.env.TEST_DATABASE === 'postgres')('keeps serving: the pool opens new connections', async () => {
    expect((await server.client().get('/api/status/')).body.database).toBe('ok');
    const database = new URL(server.config.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const ended = await admin.query<{ pid: number }>(
      'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    await admin.end();
    expect(ended.rowCount).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await server.client().get('/api/status/');
    expect(after.status).toBe(200);
    expect(after.body.database).toBe('ok');
  });
});

describe('GET /api/speech/tones/', () => {
  const english = [
    'Default', 'Academic', 'Appreciative', 'Analytical', 'Casual', 'Cheerful', 'Descriptive', 'Formal',
    'Friendly', 'Humorous', 'Informative', 'Inspirational', 'Intimate', 'Persuasive', 'Serious',
  ];

  it('lists the 15 tones in the spec order with English labels', async () => {
    const answer = await server.client().get('/api/speech/tones/');
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(15);
    expect(answer.body.map((t: { value: string }) => t.value)).toEqual([...TONES]);
    expect(answer.body).toEqual(TONES.map((value, index) => ({ value, label: english[index] })));
  });

  it('translates the labels through Accept-Language, values unchanged', async () => {
    const answer = await server.client().get('/api/speech/tones/', { headers: { 'accept-language': 'es' } });
    expect(answer.status).toBe(200);
    expect(answer.body.map((t: { value: string }) => t.value)).toEqual([...TONES]);
    const labels = Object.fromEntries(answer.body.map((t: { value: string; label: string }) => [t.value, t.label]));
    expect(labels).toMatchObject({ DEFAULT: 'Predeterminado', CASUAL: 'Informal', SERIOUS: 'Serio', CHEERFUL: 'Alegre' });
    // Apart from words that are the same in both languages, every label changed.
    const unchanged = answer.body.filter((t: { label: string }, i: number) => t.label === english[i]).map((t: { value: string }) => t.value);
    expect(unchanged).toEqual(['FORMAL']);
  });

  it('speaks every language of the spec, and falls back to English for others', async () => {
    const japanese = await server.client().get('/api/speech/tones/', { headers: { 'accept-language': 'ja,en;q=0.5' } });
    expect(japanese.body[0]).toEqual({ value: 'DEFAULT', label: '標準' });
    const norwegian = await server.client().get('/api/speech/tones/', { headers: { 'accept-language': 'nb-NO' } });
    expect(norwegian.body[0].label).not.toBe('Default');
    const unknown = await server.client().get('/api/speech/tones/', { headers: { 'accept-language': 'xx,yy;q=0.5' } });
    expect(unknown.body[0]).toEqual({ value: 'DEFAULT', label: 'Default' });
  });
});

describe('404 and 405', () => {
  it('answers 404 with the standard body for an unknown /api path', async () => {
    const client = server.client();
    for (const url of ['/api/nothing-here/', '/api/accounts/nope/', '/api']) {
      const answer = await client.get(url);
      expect(answer.status, url).toBe(404);
      expect(answer.body, url).toEqual(NOT_FOUND);
    }
    const post = await client.post('/api/does-not-exist/', { a: 1 });
    expect(post.status).toBe(404);
    expect(post.body).toEqual(NOT_FOUND);
  });

  it('translates the 404 detail', async () => {
    const answer = await server.client().get('/api/nothing-here/', { headers: { 'accept-language': 'es' } });
    expect(answer.body.errors[0].detail).toBe('No encontrado.');
  });

  it('answers 405 with an Allow header for a known path and a wrong method', async () => {
    const client = server.client();
    const deleted = await client.request('DELETE', '/api/status/');
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get('allow')).toContain('GET');
    expect(deleted.body).toEqual({
      type: 'client_error',
      errors: [{ code: 'method_not_allowed', attr: null, detail: 'Method "DELETE" not allowed.' }],
    });

    const getLogin = await client.get('/api/accounts/login/');
    expect(getLogin.status).toBe(405);
    expect(getLogin.headers.get('allow')).toBe('POST');

    const deleteUser = await client.request('DELETE', '/api/accounts/user/');
    expect(deleteUser.status).toBe(405);
    expect(deleteUser.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'PATCH', 'PUT']);
  });

  it('answers 404, not 405, to GET and HEAD of a missing file under /media/', async () => {
    const got = await fetch(`${server.url}/media/avatars/missing.webp`);
    expect(got.status).toBe(404);
    expect(got.headers.get('allow')).toBeNull();
    expect(await got.json()).toEqual(NOT_FOUND);
    const head = await fetch(`${server.url}/media/avatars/missing.webp`, { method: 'HEAD' });
    expect(head.status).toBe(404);
  });
});

describe('unexpected errors', () => {
  let app: FastifyInstance;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'parla-boom-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    });
    config.pgliteDir = 'memory://';
    app = await buildApp(config);
    app.get('/api/boom/', () => {
      throw new Error('secret internals');
    });
    app.get('/api/boom-async/', async () => {
      await Promise.resolve();
      throw Object.assign(new TypeError('connection string postgres://admin:hunter2@db'), { statusCode: 502 });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 500 server_error without internals or the request id', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/boom/' });
    expect(answer.statusCode).toBe(500);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.json()).toEqual({
      type: 'server_error',
      errors: [{ code: 'error', attr: null, detail: 'A server error occurred.' }],
    });
    expect(answer.body).not.toContain('secret internals');
    expect(answer.body).not.toContain('Error');
    const requestId = answer.headers['x-request-id'];
    expect(typeof requestId).toBe('string');
    expect(answer.body).not.toContain(String(requestId));
  });

  it('does not leak a 5xx error of another status either', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/boom-async/', headers: { 'accept-language': 'es' } });
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({
      type: 'server_error',
      errors: [{ code: 'error', attr: null, detail: 'Se produjo un error en el servidor.' }],
    });
    expect(answer.body).not.toContain('hunter2');
  });
});

describe('x-request-id', () => {
  it('is on every response, a fresh UUID unless the caller gave a well-formed one', async () => {
    const client = server.client();
    const answers = [
      await client.get('/api/status/'),
      await client.get('/api/nothing-here/'),
      await client.request('DELETE', '/api/status/'),
      await client.post('/api/accounts/login/', {}),
      await client.get('/api/accounts/user/'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 405, 400, 401]);
    const ids = answers.map((a) => a.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);

    const given = await client.get('/api/status/', { headers: { 'x-request-id': 'trace-abc_123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-abc_123');
    const malformed = await client.get('/api/status/', { headers: { 'x-request-id': 'bad id; <script>' } });
    expect(malformed.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('GET /api/docs/json', () => {
  it('serves the OpenAPI description of the API', async () => {
    const answer = await server.client().get('/api/docs/json');
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toMatch(/^3\./);
    expect(answer.body.info).toMatchObject({ title: 'Parla API', version: VERSION });
    expect(Object.keys(answer.body.paths)).toEqual(expect.arrayContaining(['/api/accounts/login/', '/api/accounts/user/']));
    expect(Object.keys(answer.body.paths['/api/accounts/login/'])).toContain('post');
    expect(Object.keys(answer.body.paths['/api/accounts/user/'])).toEqual(expect.arrayContaining(['get', 'put', 'patch']));
  });
});

describe('loadConfig', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'parla-config-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  const failure = (env: Record<string, string>): ConfigError => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
  };

  it('refuses a non-numeric PORT, naming it', () => {
    expect(() => loadConfig({ PORT: 'abc', DATA_DIR: tmp })).toThrow(ConfigError);
    const error = failure({ PORT: 'abc', DATA_DIR: tmp });
    expect(error.message).toMatch(/^\s+PORT: /m);
    expect(error.message).not.toMatch(/DATABASE_URL/);
  });

  it('refuses a DATABASE_URL that is not PostgreSQL, naming it', () => {
    const error = failure({ DATABASE_URL: 'mysql://x', DATA_DIR: tmp });
    expect(error.message).toMatch(/^\s+DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL$/m);
    expect(error.message).not.toMatch(/PORT/);
  });

  it('lists every bad variable at once', () => {
    const error = failure({ PORT: '70000', SECRET_KEY: 'short', LOG_LEVEL: 'loud', DATA_DIR: tmp });
    expect(error.message).toMatch(/^\s+PORT: /m);
    expect(error.message).toMatch(/^\s+SECRET_KEY: must be at least 32 characters$/m);
    expect(error.message).toMatch(/^\s+LOG_LEVEL: /m);
  });

  it('accepts a good environment with defaults and keeps a generated secret across loads', () => {
    const config = loadConfig({ DATA_DIR: tmp, PORT: '8123' });
    expect(config.port).toBe(8123);
    expect(config.publicUrl).toBe('http://localhost:8123');
    expect(config.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: tmp }).secretKey).toBe(config.secretKey);
  });
});

describe('e-mail outbox (no SMTP_URL)', () => {
  it('writes the activation e-mail as a .eml file whose link activates the account', async () => {
    const outboxServer = await startServer({}, { smtp: false });
    try {
      const client = outboxServer.client();
      const email = uniqueEmail('outbox');
      const registered = await client.post('/api/accounts/registration/', {
        email,
        password1: GOOD_PASSWORD,
        password2: GOOD_PASSWORD,
        fullName: 'Outbox Reader',
      });
      expect(registered.status).toBe(201);

      // The e-mail is written in the background, just after the answer.
      const outbox = path.join(outboxServer.dataDir, 'outbox');
      const emlFiles = async () => (await readdir(outbox).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
      await expect.poll(emlFiles, { timeout: 5000 }).toHaveLength(1);
      const files = await emlFiles();
      const raw = await readFile(path.join(outbox, files[0]!));
      const mail = await simpleParser(raw);
      const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
      expect(to?.value[0]?.address).toBe(email);
      expect(mail.subject).toBe('Activate your Parla account');
      expect(mail.text).toContain(`${outboxServer.url}/signup/activation/`);

      const verified = await client.post('/api/accounts/registration/verify-email/', { key: activationKeyFrom(mail.text ?? '') });
      expect(verified.status).toBe(200);
      expect((await client.post('/api/accounts/login/', { email, password: GOOD_PASSWORD })).status).toBe(200);
    } finally {
      await outboxServer.close();
    }
  });
});

describe('security headers', () => {
  it('let calls reach the configured LiveKit server (ws and http forms), and nothing else', async () => {
    const { securityHeaders, livekitOrigins } = await import('../src/platform/security-headers');
    expect(livekitOrigins('wss://lk.example.com')).toEqual(['wss://lk.example.com', 'https://lk.example.com']);
    expect(livekitOrigins('ws://localhost:7880')).toEqual(['ws://localhost:7880', 'http://localhost:7880']);
    expect(livekitOrigins(undefined)).toEqual([]);
    const csp = securityHeaders(false, livekitOrigins('wss://lk.example.com'))['content-security-policy'];
    expect(csp).toContain("connect-src 'self' wss://lk.example.com https://lk.example.com");
  });

  it('sends a CSP without inline script, no framing, nosniff and a same-origin referrer policy on every answer', async () => {
    for (const url of ['/api/status/', '/api/nothing-here/', '/signin']) {
      const answer = await server.client().get(url);
      const csp = answer.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values]));
      // Scripts only from this origin, never inline; WebAssembly may compile (speech detection).
      expect(directives['script-src'], url).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(directives['connect-src']).toEqual(["'self'"]);
      expect(directives['default-src']).toEqual(["'self'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['object-src']).toEqual(["'none'"]);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('referrer-policy')).toBe('same-origin');
      // Plain http here: no HSTS (it would pin a dev machine's localhost to https).
      expect(answer.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('keeps every API answer out of caches (no-store), signed in or not, errors included', async () => {
    const { client } = await signedIn(server);
    for (const url of ['/api/accounts/user/', '/api/chat/', '/api/rooms/', '/api/chat/2147483647/', '/api/status/']) {
      const answer = await client.get(url);
      expect(answer.headers.get('cache-control'), url).toBe('no-store');
    }
    const stranger = await server.client().get('/api/accounts/user/');
    expect(stranger.status).toBe(401);
    expect(stranger.headers.get('cache-control')).toBe('no-store');
    // The web client's pages keep their own caching (revalidated by ETag).
    expect((await server.client().get('/signin')).headers.get('cache-control')).not.toBe('no-store');
  });

  it('serves the API docs page under the same policy: it has no inline script to be blocked', async () => {
    const page = await fetch(`${server.url}/api/docs/static/index.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = '', body = ''] of scripts) {
      expect(attributes).toMatch(/src=/);
      expect(body.trim()).toBe('');
    }
  });
});
