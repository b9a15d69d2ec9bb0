import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, activationKeyFrom, registerActivated, signedIn, startServer, uniqueEmail, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const NEW_PASSWORD = 'copper-lantern-917';
const INVALID_LINK = { code: 'invalid_token', attr: 'token', detail: 'This password reset link is invalid or has expired.' };

/** Asks for a reset of `email` and returns uid and token from the link of the e-mail it gets. */
async function resetLink(email: string): Promise<{ uid: string; token: string; link: string }> {
  const count = server.smtp.mails.length;
  const answer = await server.client().post('/api/accounts/password/reset/', { email });
  expect(answer.status).toBe(200);
  const mail = await server.smtp.waitFor(email, /reset/i, count);
  const match = /(https?:\/\/\S+?\/password\/reset\/([\w-]+)\/([\w-]+))/.exec(mail.text);
  if (!match?.[1] || !match[2] || !match[3]) throw new Error(`no reset link in: ${mail.text}`);
  return { link: match[1], uid: match[2], token: match[3] };
}

const confirm = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  server.client().post('/api/accounts/password/reset/confirm/', body, { headers });

const login = (email: string, password: string) => server.client().post('/api/accounts/login/', { email, password });

describe('POST /api/accounts/password/reset/', () => {
  it('answers the same for a known and an unknown e-mail; only the known one gets a link', async () => {
    const email = await registerActivated(server, 'Rosalind Franklin');
    const stranger = uniqueEmail('nobody');
    const client = server.client();

    const unknown = await client.post('/api/accounts/password/reset/', { email: stranger });
    const count = server.smtp.mails.length;
    const known = await client.post('/api/accounts/password/reset/', { email });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ detail: 'Password reset e-mail has been sent.' });
    expect(unknown.body).toEqual(known.body);

    const mail = await server.smtp.waitFor(email, /reset your parla password/i, count);
    expect(mail.text).toContain('Rosalind Franklin');
    expect(mail.text).toMatch(new RegExp(`${server.url.replace(/\./g, '\\.')}/password/reset/[\\w-]+/[\\w-]+`));
    expect(server.smtp.mails.some((m) => m.to === stranger)).toBe(false);
  });

  it('matches the e-mail without regard to case', async () => {
    const email = await registerActivated(server);
    const count = server.smtp.mails.length;
    const answer = await server.client().post('/api/accounts/password/reset/', { email: email.toUpperCase() });
    expect(answer.status).toBe(200);
    const mail = await server.smtp.waitFor(email, /reset/i, count);
    expect(mail.text).toContain(`${server.url}/password/reset/`);
  });

  it('answers 400 on a missing or malformed e-mail', async () => {
    const client = server.client();
    const missing = await client.post('/api/accounts/password/reset/', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      type: 'validation_error',
      errors: [{ code: 'required', attr: 'email', detail: 'This field is required.' }],
    });
    const malformed = await client.post('/api/accounts/password/reset/', { email: 'not-an-email' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ code: 'invalid', attr: 'email', detail: 'Enter a valid e-mail address.' }]);
  });
});

describe('POST /api/accounts/password/reset/confirm/', () => {
  it('sets the new password from the link: the new one signs in, the old one no longer does', async () => {
    const email = await registerActivated(server);
    const { link, uid, token } = await resetLink(email);
    expect(link).toBe(`${server.url}/password/reset/${uid}/${token}`);

    const answer = await confirm({ uid, token, newPassword1: NEW_PASSWORD, newPassword2: NEW_PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ detail: 'Password has been reset with the new password.' });

    const withNew = await login(email, NEW_PASSWORD);
    expect(withNew.status).toBe(200);
    expect(withNew.body.user.email).toBe(email);

    const withOld = await login(email, GOOD_PASSWORD);
    expect(withOld.status).toBe(400);
    expect(withOld.body).toEqual({
      type: 'validation_error',
      errors: [{ code: 'authorization', attr: 'non_field_errors', detail: 'Unable to log in with provided credentials.' }],
    });
  });

  it('accepts a link once only', async () => {
    const email = await registerActivated(server);
    const { uid, token } = await resetLink(email);
    const first = await confirm({ uid, token, newPassword1: NEW_PASSWORD, newPassword2: NEW_PASSWORD });
    expect(first.status).toBe(200);

    const again = await confirm({ uid, token, newPassword1: 'another-fine-secret-5', newPassword2: 'another-fine-secret-5' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ type: 'validation_error', errors: [INVALID_LINK] });
    // The second attempt changed nothing.
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
    expect((await login(email, 'another-fine-secret-5')).status).toBe(400);
  });

  it('refuses a token with a wrong uid (malformed, unknown, or another account) and keeps it usable', async () => {
    const email = await registerActivated(server);
    const other = await resetLink(await registerActivated(server));
    const { uid, token } = await resetLink(email);
    expect(other.uid).not.toBe(uid);

    const passwords = { newPassword1: NEW_PASSWORD, newPassword2: NEW_PASSWORD };
    // 'MWUzMDA' is base64 of '1e300' and '999999999999' is beyond int4: no row, not a 500.
    const beyondInt4 = Buffer.from('999999999999').toString('base64url');
    for (const wrongUid of ['zzzz', Buffer.from('99999999').toString('base64url'), 'MWUzMDA', beyondInt4, other.uid]) {
      const answer = await confirm({ uid: wrongUid, token, ...passwords });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ type: 'validation_error', errors: [INVALID_LINK] });
    }
    const madeUp = await confirm({ uid, token: 'made-up-token', ...passwords });
    expect(madeUp.status).toBe(400);
    expect(madeUp.body.errors).toEqual([INVALID_LINK]);

    expect((await confirm({ uid, token, ...passwords })).status).toBe(200);
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a weak or common new password on newPassword1 without using up the link', async () => {
    const email = await registerActivated(server);
    const { uid, token } = await resetLink(email);

    const common = await confirm({ uid, token, newPassword1: 'password1', newPassword2: 'password1' });
    expect(common.status).toBe(400);
    expect(common.body).toEqual({
      type: 'validation_error',
      errors: [{ code: 'password_too_common', attr: 'newPassword1', detail: 'This password is too common.' }],
    });

    const short = await confirm({ uid, token, newPassword1: 'abc12', newPassword2: 'abc12' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([
      {
        code: 'password_too_short',
        attr: 'newPassword1',
        detail: 'This password is too short. It must contain at least 8 characters.',
      },
    ]);

    const likeEmail = email.split('@')[0]!;
    const similar = await confirm({ uid, token, newPassword1: likeEmail, newPassword2: likeEmail });
    expect(similar.status).toBe(400);
    expect(similar.body.errors).toEqual([
      { code: 'password_too_similar', attr: 'newPassword1', detail: 'The password is too similar to the e-mail address.' },
    ]);

    // The old password still works, and the link is still good.
    expect((await login(email, GOOD_PASSWORD)).status).toBe(200);
    const good = await confirm({ uid, token, newPassword1: NEW_PASSWORD, newPassword2: NEW_PASSWORD });
    expect(good.status).toBe(200);
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses mismatched passwords on newPassword2', async () => {
    const email = await registerActivated(server);
    const { uid, token } = await resetLink(email);
    const answer = await confirm({ uid, token, newPassword1: NEW_PASSWORD, newPassword2: `${NEW_PASSWORD}x` });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      type: 'validation_error',
      errors: [{ code: 'password_mismatch', attr: 'newPassword2', detail: "The two password fields didn't match." }],
    });
    expect((await login(email, GOOD_PASSWORD)).status).toBe(200);
  });

  it('answers 400 naming each missing field', async () => {
    const answer = await confirm({});
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('validation_error');
    const byAttr = Object.fromEntries(answer.body.errors.map((e: { attr: string; code: string; detail: string }) => [e.attr, [e.code, e.detail]]));
    expect(byAttr).toEqual({
      newPassword1: ['required', 'This field is required.'],
      newPassword2: ['required', 'This field is required.'],
      uid: ['required', 'This field is required.'],
      token: ['required', 'This field is required.'],
    });

    const blank = await confirm({ uid: '', token: '', newPassword1: NEW_PASSWORD, newPassword2: NEW_PASSWORD });
    expect(blank.status).toBe(400);
    expect(blank.body.errors.map((e: { attr: string }) => e.attr).sort()).toEqual(['token', 'uid']);
  });

  it('translates the details through Accept-Language', async () => {
    const answer = await confirm(
      { uid: 'MQ', token: 'made-up-token', newPassword1: NEW_PASSWORD, newPassword2: 'different-one-123' },
      { 'accept-language': 'es' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { code: 'password_mismatch', attr: 'newPassword2', detail: 'Los dos campos de contraseña no coinciden.' },
    ]);
  });

  it('ends the sessions that were open before the reset', async () => {
    const { client, email, login: before } = await signedIn(server);
    expect((await client.get('/api/accounts/user/')).status).toBe(200);

    const { uid, token } = await resetLink(email);
    expect((await confirm({ uid, token, newPassword1: NEW_PASSWORD, newPassword2: NEW_PASSWORD })).status).toBe(200);

    const byCookie = await client.get('/api/accounts/user/');
    expect(byCookie.status).toBe(401);
    expect(byCookie.body).toEqual({
      type: 'client_error',
      errors: [{ code: 'token_not_valid', attr: null, detail: 'Token is invalid or expired.' }],
    });
    const byBearer = await server.client().get('/api/accounts/user/', { headers: { authorization: `Bearer ${before.access}` } });
    expect(byBearer.status).toBe(401);
    const refreshed = await server.client().post('/api/accounts/token/refresh/', { refresh: before.refresh });
    expect(refreshed.status).toBe(401);

    // A session started afterwards works.
    const fresh = server.client();
    expect((await fresh.post('/api/accounts/login/', { email, password: NEW_PASSWORD })).status).toBe(200);
    expect((await fresh.get('/api/accounts/user/')).status).toBe(200);
  });

  it('ends every other outstanding key: an older reset link and an activation link stop working', async () => {
    const email = uniqueEmail('keys');
    const before = server.smtp.mails.length;
    await server.client().post('/api/accounts/registration/', { email, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'Keys' });
    const activation = await server.smtp.waitFor(email, /activate/i, before);
    const key = activationKeyFrom(activation.text);
    const older = await resetLink(email);
    const newer = await resetLink(email);
    expect((await confirm({ uid: newer.uid, token: newer.token, newPassword1: NEW_PASSWORD, newPassword2: NEW_PASSWORD })).status).toBe(200);

    const stale = await confirm({ uid: older.uid, token: older.token, newPassword1: 'attacker-choice-55', newPassword2: 'attacker-choice-55' });
    expect(stale.status).toBe(400);
    expect(stale.body.errors).toEqual([INVALID_LINK]);
    const staleActivation = await server.client().post('/api/accounts/registration/verify-email/', { key });
    expect(staleActivation.status).toBe(400);
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
    expect((await login(email, GOOD_PASSWORD)).status).toBe(400);
  });

  it('activates an account that had not been activated yet', async () => {
    const email = uniqueEmail('unverified');
    const registered = await server
      .client()
      .post('/api/accounts/registration/', { email, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'Late' });
    expect(registered.status).toBe(201);
    await server.smtp.waitFor(email, /activate/i);
    expect((await login(email, GOOD_PASSWORD)).body.errors[0].code).toBe('email_not_verified');

    const { uid, token } = await resetLink(email);
    expect((await confirm({ uid, token, newPassword1: NEW_PASSWORD, newPassword2: NEW_PASSWORD })).status).toBe(200);
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('answers 429 past RATE_LIMIT_EMAIL reset requests', async () => {
    const limited = await startServer({ RATE_LIMIT_EMAIL: '2' });
    try {
      const client = limited.client();
      const email = uniqueEmail('limit');
      const first = await client.post('/api/accounts/password/reset/', { email });
      const second = await client.post('/api/accounts/password/reset/', { email });
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      const third = await client.post('/api/accounts/password/reset/', { email });
      expect(third.status).toBe(429);
      expect(third.body).toEqual({
        type: 'client_error',
        errors: [{ code: 'throttled', attr: null, detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/) }],
      });
      const retryAfter = Number(third.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(900);
      // The per-address counter is spent too: another e-mail from the same address is refused.
      const other = await client.post('/api/accounts/password/reset/', { email: uniqueEmail('limit') });
      expect(other.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
