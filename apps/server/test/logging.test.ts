// No password, hash, token or key in any log line, at any level, in production.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/platform/mailer';
import { hashPassword } from '../src/features/accounts/passwords';
import { createAccountsRepository } from '../src/features/accounts/repository';
import { GOOD_PASSWORD, startServer, uniqueEmail, type TestServer } from './harness';

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let server: TestServer;
let secretHash = '';
beforeAll(async () => {
  secretHash = await hashPassword('a-hash-that-must-never-be-logged');
  server = await startServer(
    { NODE_ENV: 'production', LOG_LEVEL: 'trace' },
    {
      smtp: false,
      logStream: capture,
      beforeListen: (app) => {
        // A query that fails with secrets among its bound parameters, as a bug could make one.
        app.get('/api/test/failing-query/', { schema: { hide: true } }, async () => {
          const repo = createAccountsRepository(app.ctx.db);
          return repo.insertUser({ email: 'victim@example.com', passwordHash: secretHash, fullName: 'NUL\u0000here', language: 'en' });
        });
      },
    },
  );
});
afterAll(() => server.close());

/** The one link of the newest outbox e-mail whose subject matches. */
async function outboxLink(subject: RegExp): Promise<string> {
  const dir = path.join(server.dataDir, 'outbox');
  for (let attempt = 0; attempt < 50; attempt++) {
    const files = (await readdir(dir).catch(() => [])).sort().reverse();
    for (const file of files) {
      const text = await readFile(path.join(dir, file), 'utf8');
      const link = /^X-Parla-Link:\s+(\S+)/m.exec(text)?.[1]; // folded onto the next line when long
      if (link && subject.test(/^Subject: (.+)$/m.exec(text)?.[1] ?? '')) return link.trim();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no outbox e-mail matching ${subject}: ${lines.filter((l) => /mail|outbox/.test(l)).join('\n')}`);
}

describe('logs in production (LOG_LEVEL=trace)', () => {
  it('hold no password, hash, token, key or e-mailed link', async () => {
    const secrets: string[] = [GOOD_PASSWORD, secretHash, 'scrypt$'];
    const client = server.client();
    const email = uniqueEmail('logs');
    expect((await client.post('/api/accounts/registration/', { email, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'Log Reader' })).status).toBe(201);
    const activation = await outboxLink(/activate/i);
    const key = activation.split('/').pop()!;
    secrets.push(activation, key);
    // The page the e-mail opens, then the API call it makes.
    await client.get(`/signup/activation/${key}`);
    expect((await client.post('/api/accounts/registration/verify-email/', { key })).status).toBe(200);

    const login = await client.post('/api/accounts/login/', { email, password: GOOD_PASSWORD });
    expect(login.status).toBe(200);
    const { access, refresh } = login.body as { access: string; refresh: string };
    secrets.push(access, refresh);
    const refreshed = await client.post('/api/accounts/token/refresh/', { refresh });
    expect(refreshed.status).toBe(200);
    secrets.push(refreshed.body.access, refreshed.body.refresh);
    await client.post('/api/accounts/token/verify/', { token: access });
    await client.post('/api/accounts/login/', { email, password: 'wrong-password-123' });

    expect((await client.post('/api/accounts/password/reset/', { email })).status).toBe(200);
    const reset = await outboxLink(/reset/i);
    const [uid, token] = reset.split('/').slice(-2) as [string, string];
    secrets.push(reset, token);
    await client.get(`/password/reset/${uid}/${token}`);
    await client.get(`/password/reset/${uid}/${token}?token=${token}`);
    const confirmed = await client.post('/api/accounts/password/reset/confirm/', { uid, token, newPassword1: 'a-new-password-77', newPassword2: 'a-new-password-77' });
    expect(confirmed.status).toBe(200);
    secrets.push('a-new-password-77');

    const failed = await client.get('/api/test/failing-query/');
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ type: 'server_error', errors: [{ code: 'error', attr: null, detail: 'A server error occurred.' }] });

    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = lines.join('\n');
    // The log is really there and says what happened, without the secrets.
    expect(log).toContain('request completed');
    expect(log).toContain('/password/reset/[redacted]');
    expect(log).toContain('/signup/activation/[redacted]');
    expect(log).toContain('Failed query: insert into \\"users\\"');
    // The database's own reason stays (here PostgreSQL's refusal of the NUL byte).
    expect(log).toMatch(/caused by: error: invalid byte sequence|caused by: error: .*0x00/);
    expect(log).toContain('e-mail written to the outbox');
    for (const secret of secrets) {
      const leaking = lines.filter((line) => line.includes(secret));
      expect(leaking, `a log line holds ${secret.slice(0, 12)}…`).toEqual([]);
    }
    expect(log).not.toContain('victim@example.com');
  });
});

describe('the error serializer', () => {
  it('copies errors whose getters refuse another `this` (DOMException) without throwing', async () => {
    const { redactError } = await import('../src/platform/logging');
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const copy = redactError(new Error('LiveKit did not answer', { cause: timeout })) as Error & { cause: Error };
    expect(copy.message).toBe('LiveKit did not answer');
    expect(copy.cause.name).toBe('TimeoutError');
    expect(copy.cause.message).toBe('The operation was aborted due to timeout');
    expect(copy.cause.constructor).toBe(DOMException);
    expect(String(copy.cause.stack)).toMatch(/^TimeoutError: The operation was aborted/);
  });
});

// Issue 37 (8): in development the activation link was buried inside a JSON log line.
describe('an outbox e-mail in development', () => {
  it('prints its link on a line of its own, and only in development', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'parla-mail-'));
    const printed: string[] = [];
    const logged: unknown[] = [];
    const log = { info: (...args: unknown[]) => logged.push(args) } as never;
    try {
      const link = 'http://localhost:8000/signup/activation/abc_DEF-123';
      await createMailer({ smtpUrl: undefined, from: 'Parla <no-reply@localhost>', dataDir, log, printLinks: true, print: (text) => printed.push(text) }).send({ to: 'ada@example.com', subject: 'Activate your account', text: `Open ${link}`, link });
      const lines = printed.join('').split('\n');
      expect(lines).toContain(`  ${link}`);
      expect(lines).toContain('  E-mail to ada@example.com: Activate your account');
      expect(JSON.stringify(logged)).not.toContain(link);
      printed.length = 0;
      await createMailer({ smtpUrl: undefined, from: 'Parla <no-reply@localhost>', dataDir, log, printLinks: false, print: (text) => printed.push(text) }).send({ to: 'ada@example.com', subject: 'Activate your account', text: `Open ${link}`, link });
      expect(printed).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

