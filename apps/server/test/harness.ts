// Starts the real server over real HTTP for a test file: its own database (a fresh PostgreSQL
// database when TEST_DATABASE=postgres, else in-memory PGlite), its own SMTP server catching mail.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { SMTPServer } from 'smtp-server';
import { checkAnswers } from './document-check';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/platform/config';
import { openDatabase, type Database } from '../src/platform/db/index';

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtp() {
  const mails: CaughtMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
          mails.push({ to: to?.value[0]?.address ?? '', subject: parsed.subject ?? '', text: parsed.text ?? '' });
          waiters.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch(callback);
    },
  });
  // A sender that dies mid-connection (a server process killed by a test) resets its socket: the
  // catcher drops that connection instead of throwing in the test process.
  server.on('error', () => undefined);
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The newest mail to `to` whose subject matches, waiting for it up to 5 s. */
    async waitFor(to: string, subject: RegExp, after = 0): Promise<CaughtMail> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = mails.slice(after).reverse().find((m) => m.to === to && subject.test(m.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${to}; got ${mails.map((m) => m.subject).join(', ')}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A database of this pass without a server: a fresh PostgreSQL database (TEST_DATABASE=postgres)
 * or an in-memory PGlite from the pass's migrated template, migrated. `close` also drops it.
 */
export async function openTestDatabase(): Promise<{ database: Database; databaseUrl: string | undefined; close: () => Promise<void> }> {
  const created = process.env.TEST_DATABASE === 'postgres' ? await createPostgresDatabase() : undefined;
  const template = process.env.PARLA_PGLITE_TEMPLATE;
  const database = await openDatabase({
    databaseUrl: created?.url,
    pgliteDir: 'memory://',
    pgliteTemplate: !created && template ? new Blob([new Uint8Array(await readFile(template))]) : undefined,
  });
  return {
    database,
    databaseUrl: created?.url,
    async close() {
      await database.close();
      await created?.drop();
    },
  };
}

export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE=postgres needs TEST_DATABASE_URL (the test command sets it)');
  const name = `parla_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

let template: Promise<Blob | undefined> | undefined;
/** The migrated PGlite database global-setup.ts dumped (read once per worker). */
function pgliteTemplateBlob(): Promise<Blob | undefined> {
  const file = process.env.PARLA_PGLITE_TEMPLATE;
  template ??= file ? readFile(file).then((bytes) => new Blob([new Uint8Array(bytes)])) : Promise.resolve(undefined);
  return template;
}

export interface TestServer {
  app: FastifyInstance;
  config: Config;
  url: string;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  dataDir: string;
  client(): Client;
  close(): Promise<void>;
}

/** The whole app on a free loopback port. `env` overrides configuration (rate limits...). */
export async function startServer(
  env: Record<string, string> = {},
  options: { smtp?: boolean; logStream?: DestinationStream; beforeListen?: (app: FastifyInstance) => void; pushCa?: string } = {},
  attempt = 1,
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'parla-test-'));
  const smtp = options.smtp === false ? undefined : await startSmtp();
  const postgres = process.env.TEST_DATABASE === 'postgres' ? await createPostgresDatabase() : undefined;
  const port = await freePort();
  const base: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_LOGIN: '1000',
    RATE_LIMIT_LOGIN_PER_ADDRESS: '1000',
    RATE_LIMIT_REGISTRATION: '1000',
    RATE_LIMIT_EMAIL: '1000',
    // The per-user limits of signed-in work are tested at low values where they are the subject.
    RATE_LIMIT_MESSAGES: '100000',
    RATE_LIMIT_CREATIONS: '100000',
    RATE_LIMIT_INVITATIONS: '100000',
    RATE_LIMIT_WRITES: '100000',
    RATE_LIMIT_EXPORTS: '100000',
    RATE_LIMIT_LIVE_EVENTS: '100000',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
  };
  if (smtp) base.SMTP_URL = smtp.url;
  if (postgres) base.DATABASE_URL = postgres.url;
  // Cheap password hashes, as Django's tests use a fast hasher: the suite signs up thousands of
  // people. Production refuses this cost; passwords.test.ts checks the real one.
  if ((env.NODE_ENV ?? base.NODE_ENV) === 'test') base.PASSWORD_HASH_COST = '10';
  const config: Config = loadConfig({ ...base, ...env });
  if (!postgres) config.pgliteDir = 'memory://';
  const pgliteTemplate = postgres || config.databaseUrl ? undefined : await pgliteTemplateBlob();
  const app: FastifyInstance = await buildApp(config, {
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(pgliteTemplate ? { pgliteTemplate } : {}),
    ...(options.pushCa ? { pushCa: options.pushCa } : {}),
  });
  const answers = checkAnswers(app);
  options.beforeListen?.(app);
  try {
    await app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    // The free port was taken by another test file's server meanwhile: start over on another.
    await app.close();
    await smtp?.close();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 3) return startServer(env, options, attempt + 1);
    throw error;
  }
  return {
    app,
    config,
    url: config.publicUrl,
    smtp: smtp!,
    dataDir,
    client: () => new Client(config.publicUrl),
    async close() {
      await app.close();
      await smtp?.close();
      await postgres?.drop();
      await rm(dataDir, { recursive: true, force: true });
      // Every answer this server gave is one its OpenAPI document describes.
      answers.assertClean();
    },
  };
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
  cookies: Record<string, { value: string; attributes: string }>;
}

/** An HTTP client with a cookie jar, as a browser would be (without sending XSRF by itself). */
export class Client {
  readonly jar = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  async request<T = any>(
    method: string,
    url: string,
    options: { json?: unknown; form?: FormData; headers?: Record<string, string>; raw?: string; xsrf?: boolean } = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (options.xsrf && this.jar.get('XSRF-TOKEN')) headers['x-xsrf-token'] = this.jar.get('XSRF-TOKEN')!;
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.raw !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = options.raw;
    } else if (options.form) {
      body = options.form;
    }
    const response = await fetch(this.baseUrl + url, { method, headers, body, redirect: 'manual' });
    const cookies: Answer['cookies'] = {};
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      cookies[name] = { value, attributes: attributes.join(';') };
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers, cookies };
  }

  get<T = any>(url: string, options?: Parameters<Client['request']>[2]) {
    return this.request<T>('GET', url, options);
  }
  post<T = any>(url: string, json?: unknown, options: Parameters<Client['request']>[2] = {}) {
    return this.request<T>('POST', url, { ...options, ...(json === undefined ? {} : { json }) });
  }
}

let counter = 0;
export const uniqueEmail = (label = 'user') => `${label}.${Date.now().toString(36)}.${(counter++).toString(36)}@example.com`;
export const GOOD_PASSWORD = 'violet-harbour-42';

/** Registers through the API, follows the activation link from the e-mail; returns the e-mail. */
export async function registerActivated(server: TestServer, fullName = 'Ada Lovelace', email = uniqueEmail()): Promise<string> {
  const client = server.client();
  const registered = await client.post('/api/accounts/registration/', { email, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName });
  if (registered.status !== 201) throw new Error(`registration failed: ${JSON.stringify(registered.body)}`);
  const mail = await server.smtp.waitFor(email, /activate/i);
  const key = activationKeyFrom(mail.text);
  const verified = await client.post('/api/accounts/registration/verify-email/', { key });
  if (verified.status !== 200) throw new Error(`activation failed: ${JSON.stringify(verified.body)}`);
  return email;
}

export function activationKeyFrom(text: string): string {
  const match = /\/signup\/activation\/([\w-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no activation link in: ${text}`);
  return match[1];
}

/** A signed-in browser-like client (cookies set). */
export async function signedIn(server: TestServer, email?: string, fullName?: string) {
  const address = email ?? (await registerActivated(server, fullName));
  const client = server.client();
  const login = await client.post('/api/accounts/login/', { email: address, password: GOOD_PASSWORD });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { client, email: address, login: login.body as { access: string; refresh: string; user: { id: number } } };
}
