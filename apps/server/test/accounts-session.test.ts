import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(user).toEqual({ id: expect.any(Number), email, fullName: 'Alan Turing', avatarImage: null });
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

  it('answers 429 past the per-account limit, even with the right password', async () => {
    const limited = await startServer({ RATE_LIMIT_LOGIN: '3' });
    try {
      const email = await registerActivated(limited);
      const client = limited.client();
      for (let i = 0; i < 3; i++) expect((await client.post('/api/accounts/login/', { email, password: 'wrong-password' })).status).toBe(400);
      const blocked = await client.post('/api/accounts/login/', { email, password: GOOD_PASSWORD });
      expect(blocked.status).toBe(429);
      expect(blocked.body.errors[0].code).toBe('throttled');
      // Another account from the same address is not blocked by this one's limit.
      const other = await registerActivated(limited);
      expect((await client.post('/api/accounts/login/', { email: other, password: GOOD_PASSWORD })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('answers 429 past the per-address limit', async () => {
    const limited = await startServer({ RATE_LIMIT_LOGIN_PER_ADDRESS: '2' });
    try {
      const client = limited.client();
      // A forged X-Forwarded-For does not make a new address (TRUST_PROXY is off by default).
      const forged = (i: number) => ({ headers: { 'x-forwarded-for': `10.0.0.${i}` } });
      for (let i = 0; i < 2; i++) await client.post('/api/accounts/login/', { email: uniqueEmail(), password: 'whatever1' }, forged(i));
      expect((await client.post('/api/accounts/login/', { email: uniqueEmail(), password: 'whatever1' }, forged(9))).status).toBe(429);
    } finally {
      await limited.close();
    }
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

  it('revokes the whole family when a rotated refresh token is used again', async () => {
    const { login } = await signedIn(server);
    const api = server.client();
    const first = await api.post('/api/accounts/token/refresh/', { refresh: login.refresh });
    expect(first.status).toBe(200);
    const replay = await api.post('/api/accounts/token/refresh/', { refresh: login.refresh });
    expect(replay.status).toBe(401);
    expect(replay.body.errors[0].code).toBe('token_not_valid');
    // The legitimate newest token and its access token are dead too.
    expect((await api.post('/api/accounts/token/refresh/', { refresh: first.body.refresh })).status).toBe(401);
    const me = await api.get('/api/accounts/user/', { headers: { authorization: `Bearer ${first.body.access}` } });
    expect(me.status).toBe(401);
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
