import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../src/context';
import { sessions } from '../src/platform/db/schema';
import { REFRESH_GRACE_MS } from '../src/features/accounts/service';
import { GOOD_PASSWORD, registerActivated, signedIn, startServer, uniqueEmail, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('POST /api/accounts/login/', () => {
  it('answers the tokens, the user and both expiries, and sets HttpOnly cookies plus a readable XSRF cookie', async () => {
    const email = await registerActivated(server, 'Alan Turing');
    const client = server.client();
    const before = Date.now();
    const answer = await client.post('/api/accounts/login/', { email, password: GOOD_PASSWORD });
    expect(answer.status).toBe(200);
    const { access, refresh, user, accessExpiration, refreshExpiration } = answer.body;
    expect(typeof access).toBe('string');
    expect(typeof refresh).toBe('string');
    expect(user).toEqual({ id: expect.any(Number), email, fullName: 'Alan Turing', avatarImage: null, readingLanguage: null });
    const accessMs = Date.parse(accessExpiration) - before;
    const refreshMs = Date.parse(refreshExpiration) - before;
    expect(accessMs).toBeGreaterThan(4 * 60_000);
    expect(accessMs).toBeLessThanOrEqual(5 * 60_000 + 1000);
    expect(refreshMs).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(accessExpiration).toMatch(/T.*(Z|[+-]\d\d:\d\d)$/);

    expect(answer.cookies['access_token']?.attributes).toMatch(/HttpOnly/i);
    expect(answer.cookies['access_token']?.attributes).toMatch(/SameSite=Lax/i);
    expect(answer.cookies['refresh_token']?.attributes).toMatch(/HttpOnly/i);
    expect(answer.cookies['XSRF-TOKEN']?.attributes).not.toMatch(/HttpOnly/i);

    const me = await client.get('/api/accounts/user/');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
  });

  it('refuses wrong credentials without saying which part was wrong', async () => {
    const email = await registerActivated(server);
    const client = server.client();
    const wrong = await client.post('/api/accounts/login/', { email, password: 'not-the-password' });
    const unknown = await client.post('/api/accounts/login/', { email: uniqueEmail('ghost'), password: GOOD_PASSWORD });
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        type: 'validation_error',
        errors: [{ code: 'authorization', attr: 'non_field_errors', detail: 'Unable to log in with provided credentials.' }],
      });
    }
  });

  it('answers 400 naming the fields', async () => {
    const answer = await server.client().post('/api/accounts/login/', { email: 'x', password: '' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { attr: string }) => e.attr)).toEqual(['email', 'password']);
  });
});

describe('sign-in throttling and TRUST_PROXY', () => {
  // One proxied server for these tests; each test uses addresses of its own.
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startServer({ RATE_LIMIT_LOGIN: '3', RATE_LIMIT_LOGIN_PER_ADDRESS: '4', TRUST_PROXY: '1' });
  });
  afterAll(() => proxied.close());
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
  const attempt = (email: string, password: string, address: string) =>
    proxied.client().post('/api/accounts/login/', { email, password }, from(address));

  it('throttles failures per account and address: the guesser is stopped, the owner elsewhere still signs in', async () => {
    const email = await registerActivated(proxied);
    for (let i = 0; i < 3; i++) expect((await attempt(email, 'wrong-password', '203.0.113.7')).status).toBe(400);
    // From the guessing address even the right password now waits.
    const blocked = await attempt(email, GOOD_PASSWORD, '203.0.113.7');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ type: 'client_error', errors: [{ code: 'throttled', attr: null }] });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner from another address is not locked out, and successes are not failures.
    for (let i = 0; i < 5; i++) expect((await attempt(email, GOOD_PASSWORD, '198.51.100.20')).status).toBe(200);
  });

  it('ten wrong passwords from ten addresses do not lock the owner out', async () => {
    const email = await registerActivated(proxied);
    for (let i = 1; i <= 10; i++) expect((await attempt(email, 'wrong-password', `192.0.2.${i}`)).status).toBe(400);
    expect((await attempt(email, GOOD_PASSWORD, '192.0.2.200')).status).toBe(200);
  });

  it('throttles failures per address across accounts', async () => {
    for (let i = 0; i < 4; i++) expect((await attempt(uniqueEmail(), 'whatever1', '203.0.113.99')).status).toBe(400);
    expect((await attempt(uniqueEmail(), 'whatever1', '203.0.113.99')).status).toBe(429);
  });

  it('with a hop count, trusts only the address the proxy added: a rotating client header changes nothing', async () => {
    // The client writes anything on the left; the proxy appends the address it saw.
    for (let i = 0; i < 4; i++) expect((await attempt(uniqueEmail(), 'whatever1', `10.1.1.${i}, 198.51.100.9`)).status).toBe(400);
    expect((await attempt(uniqueEmail(), 'whatever1', '10.1.1.99, 198.51.100.9')).status).toBe(429);
    // Another client behind the same proxy is counted apart.
    expect((await attempt(uniqueEmail(), 'whatever1', '198.51.100.10')).status).toBe(400);
  });

  it('groups IPv6 clients by their /64', async () => {
    for (const host of ['::1', '::2', 'ffff:ffff:ffff:fffe', '::abcd']) {
      expect((await attempt(uniqueEmail(), 'whatever1', `2001:db8:1:2:${host.replace(/^::/, '0:0:0:')}`)).status).toBe(400);
    }
    expect((await attempt(uniqueEmail(), 'whatever1', '2001:db8:1:2::9')).status).toBe(429);
    expect((await attempt(uniqueEmail(), 'whatever1', '2001:db8:1:3::1')).status).toBe(400);
  });

  it('with proxy addresses, trusts hops from those only; without TRUST_PROXY a forged header is no new address', async () => {
    const listed = await startServer({ RATE_LIMIT_LOGIN_PER_ADDRESS: '1', TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
    const direct = await startServer({ RATE_LIMIT_LOGIN_PER_ADDRESS: '1' });
    try {
      const chain = (value: string) => from(value);
      // 10.x is a trusted proxy, so the client is 203.0.113.50 whatever is written before it.
      await listed.client().post('/api/accounts/login/', { email: uniqueEmail(), password: 'whatever1' }, chain('1.1.1.1, 203.0.113.50, 10.2.3.4'));
      const again = await listed.client().post('/api/accounts/login/', { email: uniqueEmail(), password: 'whatever1' }, chain('2.2.2.2, 203.0.113.50, 10.9.9.9'));
      expect(again.status).toBe(429);

      await direct.client().post('/api/accounts/login/', { email: uniqueEmail(), password: 'whatever1' }, chain('10.0.0.1'));
      expect((await direct.client().post('/api/accounts/login/', { email: uniqueEmail(), password: 'whatever1' }, chain('10.0.0.2'))).status).toBe(429);
    } finally {
      await listed.close();
      await direct.close();
    }
  });

  it('refuses a TRUST_PROXY that is neither a hop count nor addresses', async () => {
    const { loadConfig, ConfigError } = await import('../src/platform/config');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parla-config-'));
    expect(() => loadConfig({ TRUST_PROXY: 'yes please', DATA_DIR: dir })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33', DATA_DIR: dir })).toThrow(ConfigError);
    expect(loadConfig({ TRUST_PROXY: 'true', DATA_DIR: dir }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2', DATA_DIR: dir }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'false', DATA_DIR: dir }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1,fd00::/8', DATA_DIR: dir }).trustProxy).toEqual(['10.0.0.1', 'fd00::/8']);
  });
});

describe('POST /api/accounts/token/refresh/', () => {
  it('rotates a refresh token given in the body', async () => {
    const { login } = await signedIn(server);
    const api = server.client();
    const answer = await api.post('/api/accounts/token/refresh/', { refresh: login.refresh });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      access: expect.any(String),
      refresh: expect.any(String),
      accessExpiration: expect.any(String),
      refreshExpiration: expect.any(String),
    });
    expect(answer.body.refresh).not.toBe(login.refresh);
    const me = await api.get('/api/accounts/user/', { headers: { authorization: `Bearer ${answer.body.access}` } });
    expect(me.status).toBe(200);
  });

  it('refreshes from the cookie with an empty body when the XSRF header is echoed', async () => {
    const { client } = await signedIn(server);
    const oldRefreshCookie = client.cookie('refresh_token');
    const answer = await client.request('POST', '/api/accounts/token/refresh/', { xsrf: true });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['access', 'accessExpiration', 'refreshExpiration']);
    expect(client.cookie('refresh_token')).not.toBe(oldRefreshCookie);
    expect((await client.get('/api/accounts/user/')).status).toBe(200);
  });

  it('refuses a cookie refresh without the XSRF header', async () => {
    const { client } = await signedIn(server);
    const answer = await client.request('POST', '/api/accounts/token/refresh/');
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0].code).toBe('csrf_failed');
  });

  it('revokes the whole family when a rotated refresh token is used again after the grace window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { login } = await signedIn(server);
    const api = server.client();
    const first = await api.post('/api/accounts/token/refresh/', { refresh: login.refresh });
    expect(first.status).toBe(200);
    vi.setSystemTime(Date.now() + REFRESH_GRACE_MS + 1000);
    const replay = await api.post('/api/accounts/token/refresh/', { refresh: login.refresh });
    vi.useRealTimers();
    expect(replay.status).toBe(401);
    expect(replay.body.errors[0].code).toBe('token_not_valid');
    // The legitimate newest token and its access token are dead too.
    expect((await api.post('/api/accounts/token/refresh/', { refresh: first.body.refresh })).status).toBe(401);
    const me = await api.get('/api/accounts/user/', { headers: { authorization: `Bearer ${first.body.access}` } });
    expect(me.status).toBe(401);
  });

  it('lets two tabs refresh with the same token at once: both succeed and share one family', async () => {
    const { login } = await signedIn(server);
    const api = server.client();
    const [one, two] = await Promise.all([
      api.post('/api/accounts/token/refresh/', { refresh: login.refresh }),
      api.post('/api/accounts/token/refresh/', { refresh: login.refresh }),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
    for (const answer of [one, two]) {
      const me = await api.get('/api/accounts/user/', { headers: { authorization: `Bearer ${answer.body.access}` } });
      expect(me.status).toBe(200);
    }
    // Both hold the family's current token: either can go on refreshing.
    const next = await api.post('/api/accounts/token/refresh/', { refresh: two.body.refresh });
    expect(next.status).toBe(200);
  });

  it('lets a second tab refresh with its cookie just after the first rotated it', async () => {
    const { client } = await signedIn(server);
    const stale = client.cookie('refresh_token')!;
    expect((await client.request('POST', '/api/accounts/token/refresh/', { xsrf: true })).status).toBe(200);
    const otherTab = await server.client().post('/api/accounts/token/refresh/', { refresh: stale });
    expect(otherTab.status).toBe(200);
    expect((await client.get('/api/accounts/user/')).status).toBe(200);
  });

  it('still takes a rotated token used after the grace window for reuse', async () => {
    const { login } = await signedIn(server);
    const api = server.client();
    const first = await api.post('/api/accounts/token/refresh/', { refresh: login.refresh });
    expect(first.status).toBe(200);
    // Two rotations later the original token is no longer the one just rotated away from.
    const second = await api.post('/api/accounts/token/refresh/', { refresh: first.body.refresh });
    expect(second.status).toBe(200);
    expect((await api.post('/api/accounts/token/refresh/', { refresh: login.refresh })).status).toBe(401);
    expect((await api.post('/api/accounts/token/refresh/', { refresh: second.body.refresh })).status).toBe(401);
  });

  it('answers 401 without any refresh token and for a forged one', async () => {
    const api = server.client();
    const none = await api.request('POST', '/api/accounts/token/refresh/');
    expect(none.status).toBe(401);
    expect(none.body.errors[0].code).toBe('not_authenticated');
    const forged = await api.post('/api/accounts/token/refresh/', { refresh: 'a.b.c' });
    expect(forged.status).toBe(401);
    expect(forged.body.errors[0].code).toBe('token_not_valid');
  });

  it('answers 400 for a refresh of the wrong type', async () => {
    const answer = await server.client().post('/api/accounts/token/refresh/', { refresh: 12 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].attr).toBe('refresh');
  });
});

describe('POST /api/accounts/token/verify/', () => {
  it('accepts a live token and refuses a bad one', async () => {
    const { login } = await signedIn(server);
    const api = server.client();
    expect((await api.post('/api/accounts/token/verify/', { token: login.access })).status).toBe(200);
    const bad = await api.post('/api/accounts/token/verify/', { token: `${login.access}x` });
    expect(bad.status).toBe(401);
    expect(bad.body.errors[0]).toMatchObject({ code: 'token_not_valid', detail: 'Token is invalid or expired.' });
    const missing = await api.post('/api/accounts/token/verify/', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].attr).toBe('token');
  });
});

describe('/api/accounts/logout/', () => {
  it('POST ends the session and clears the cookies', async () => {
    const { client, login } = await signedIn(server);
    const answer = await client.request('POST', '/api/accounts/logout/', { xsrf: true });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ detail: 'Successfully logged out.' });
    expect(client.cookie('access_token')).toBeUndefined();
    const api = server.client();
    expect((await api.get('/api/accounts/user/', { headers: { authorization: `Bearer ${login.access}` } })).status).toBe(401);
    expect((await api.post('/api/accounts/token/refresh/', { refresh: login.refresh })).status).toBe(401);
  });

  it('GET ends the session too, and a refresh token in the body is enough', async () => {
    const { client } = await signedIn(server);
    expect((await client.get('/api/accounts/logout/')).status).toBe(200);
    expect((await client.get('/api/accounts/user/')).status).toBe(401);

    const other = await signedIn(server);
    const api = server.client();
    expect((await api.post('/api/accounts/logout/', { refresh: other.login.refresh })).status).toBe(200);
    expect((await other.client.get('/api/accounts/user/')).status).toBe(401);
  });

  it('answers 400 on a malformed body', async () => {
    const answer = await server.client().post('/api/accounts/logout/', { refresh: 5 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].attr).toBe('refresh');
  });
});

describe('POST /api/accounts/password/change/', () => {
  it('changes the password and ends the other sessions only', async () => {
    const email = await registerActivated(server);
    const here = await signedIn(server, email);
    const elsewhere = await signedIn(server, email);
    const newPassword = 'another-long-secret-7';
    const answer = await here.client.request('POST', '/api/accounts/password/change/', {
      json: { newPassword1: newPassword, newPassword2: newPassword },
      xsrf: true,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ detail: 'New password has been saved.' });
    expect((await here.client.get('/api/accounts/user/')).status).toBe(200);
    expect((await elsewhere.client.get('/api/accounts/user/')).status).toBe(401);
    const api = server.client();
    expect((await api.post('/api/accounts/login/', { email, password: GOOD_PASSWORD })).status).toBe(400);
    expect((await api.post('/api/accounts/login/', { email, password: newPassword })).status).toBe(200);
  });

  it('tells the owner by e-mail, ends every outstanding e-mailed key, and is rate-limited', async () => {
    const limited = await startServer({ RATE_LIMIT_EMAIL: '2' });
    try {
      const email = await registerActivated(limited);
      const { client } = await signedIn(limited, email);
      // A reset link asked for before the change must not work after it.
      expect((await limited.client().post('/api/accounts/password/reset/', { email })).status).toBe(200);
      const resetMail = await limited.smtp.waitFor(email, /reset/i);
      const [uid, token] = /\/password\/reset\/([\w-]+)\/([\w-]+)/.exec(resetMail.text)!.slice(1) as [string, string];

      const before = limited.smtp.mails.length;
      const change = (password: string) =>
        client.request('POST', '/api/accounts/password/change/', { json: { newPassword1: password, newPassword2: password }, xsrf: true });
      expect((await change('first-new-secret-1')).status).toBe(200);
      const notice = await limited.smtp.waitFor(email, /password was changed/i, before);
      expect(notice.text).toContain(`${limited.url}/password/reset`);

      const stale = await limited.client().post('/api/accounts/password/reset/confirm/', { uid, token, newPassword1: 'attacker-secret-9', newPassword2: 'attacker-secret-9' });
      expect(stale.status).toBe(400);
      expect(stale.body.errors[0]).toMatchObject({ attr: 'token', code: 'invalid_token' });

      expect((await change('second-new-secret-2')).status).toBe(200);
      const third = await change('third-new-secret-3');
      expect(third.status).toBe(429);
      expect(third.body.errors[0].code).toBe('throttled');
      expect((await limited.client().post('/api/accounts/login/', { email, password: 'second-new-secret-2' })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('asks for the current password once the sign-in is more than a few minutes old', async () => {
    const email = await registerActivated(server);
    const { client } = await signedIn(server, email);
    // The session signed in ten minutes ago; whoever sits at it now need not be its owner.
    const { db } = (server.app as unknown as { ctx: AppContext }).ctx;
    await db.update(sessions).set({ createdAt: new Date(Date.now() - 10 * 60_000) }).where(eq(sessions.userId, (await client.get('/api/accounts/user/')).body.id));
    const change = (body: Record<string, string>) => client.request('POST', '/api/accounts/password/change/', { json: body, xsrf: true });
    const fresh = { newPassword1: 'taken-over-secret-4', newPassword2: 'taken-over-secret-4' };
    const without = await change(fresh);
    expect(without.status).toBe(400);
    expect(without.body.errors).toEqual([{ code: 'required', attr: 'oldPassword', detail: 'Enter your current password to change it.' }]);
    const wrong = await change({ ...fresh, oldPassword: 'not-my-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ code: 'wrong_password', attr: 'oldPassword', detail: 'Your current password is not correct.' }]);
    // Nothing changed: the old password still signs in.
    expect((await server.client().post('/api/accounts/login/', { email, password: GOOD_PASSWORD })).status).toBe(200);
    expect((await change({ ...fresh, oldPassword: GOOD_PASSWORD })).status).toBe(200);
    expect((await server.client().post('/api/accounts/login/', { email, password: fresh.newPassword1 })).status).toBe(200);
  });

  it('answers 401 signed out, 403 without XSRF, 400 on bad passwords', async () => {
    const body = { newPassword1: 'another-long-secret-7', newPassword2: 'another-long-secret-7' };
    const anonymous = await server.client().post('/api/accounts/password/change/', body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].code).toBe('not_authenticated');

    const { client } = await signedIn(server);
    expect((await client.post('/api/accounts/password/change/', body)).status).toBe(403);

    const mismatch = await client.request('POST', '/api/accounts/password/change/', {
      json: { newPassword1: 'another-long-secret-7', newPassword2: 'another-long-secret-8' },
      xsrf: true,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual([{ code: 'password_mismatch', attr: 'newPassword2', detail: "The two password fields didn't match." }]);

    const tooLong = await client.request('POST', '/api/accounts/password/change/', {
      json: { newPassword1: 'x'.repeat(129), newPassword2: 'x'.repeat(129) },
      xsrf: true,
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0]).toEqual({ code: 'max_length', attr: 'newPassword1', detail: 'Ensure this field has no more than 128 characters.' });
  });
});
