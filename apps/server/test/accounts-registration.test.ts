import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, activationKeyFrom, startServer, uniqueEmail, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const register = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  server.client().post('/api/accounts/registration/', body, { headers });

describe('POST /api/accounts/registration/', () => {
  it('creates the account and sends an activation e-mail whose link activates it', async () => {
    const email = uniqueEmail('reg');
    const answer = await register({ email, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'Grace Hopper' });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ detail: 'Verification e-mail sent.' });

    const mail = await server.smtp.waitFor(email, /activate/i);
    expect(mail.text).toContain('Grace Hopper');
    expect(mail.text).toContain(`${server.url}/signup/activation/`);

    const client = server.client();
    const beforeActivation = await client.post('/api/accounts/login/', { email, password: GOOD_PASSWORD });
    expect(beforeActivation.status).toBe(400);
    expect(beforeActivation.body.errors).toEqual([
      { code: 'email_not_verified', attr: 'non_field_errors', detail: 'E-mail is not verified.' },
    ]);

    const key = activationKeyFrom(mail.text);
    const verified = await client.post('/api/accounts/registration/verify-email/', { key });
    expect(verified.status).toBe(200);
    const login = await client.post('/api/accounts/login/', { email: email.toUpperCase(), password: GOOD_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email, fullName: 'Grace Hopper', avatarImage: null });

    // The link opened again (a second click, a mail scanner) says the account is active, not that it failed.
    const again = await client.post('/api/accounts/registration/verify-email/', { key });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([{ code: 'already_active', attr: 'key', detail: 'This account is already active: sign in.' }]);
  });

  it('answers 400 naming each bad field', async () => {
    const answer = await register({ email: 'not-an-email', password1: 'x', fullName: 42 });
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('validation_error');
    const byAttr = Object.fromEntries(answer.body.errors.map((e: { attr: string; detail: string }) => [e.attr, e.detail]));
    expect(byAttr).toEqual({
      email: 'Enter a valid e-mail address.',
      password2: 'This field is required.',
      fullName: 'Expected string, received number.',
    });
  });

  it('refuses control characters in fullName with 400 on fullName (PostgreSQL would refuse a NUL)', async () => {
    for (const fullName of ['Ada\u0000Lovelace', 'Ada\u001b[31m', 'half \ud800']) {
      const answer = await register({ email: uniqueEmail(), password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        type: 'validation_error',
        errors: [{ code: 'invalid_characters', attr: 'fullName', detail: 'This field may not contain control characters.' }],
      });
    }
  });

  it('applies the server password policy and equality check', async () => {
    const short = await register({ email: uniqueEmail(), password1: 'abc', password2: 'abd', fullName: 'A' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([
      { code: 'password_too_short', attr: 'password1', detail: 'This password is too short. It must contain at least 8 characters.' },
      { code: 'password_mismatch', attr: 'password2', detail: "The two password fields didn't match." },
    ]);
    const common = await register({ email: uniqueEmail(), password1: 'password1', password2: 'password1', fullName: 'A' });
    expect(common.status).toBe(400);
    expect(common.body.errors[0]).toMatchObject({ attr: 'password1', code: 'password_too_common' });
  });

  it('translates details through Accept-Language', async () => {
    const answer = await register({ email: 'nope' }, { 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toEqual({ code: 'invalid', attr: 'email', detail: 'Introduzca una dirección de correo electrónico válida.' });
  });

  it('does not reveal that an e-mail is taken: same answer, a different e-mail', async () => {
    const email = uniqueEmail('taken');
    await register({ email, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'First' });
    const first = await server.smtp.waitFor(email, /activate/i);
    await server.app.inject({ method: 'POST', url: '/api/accounts/registration/verify-email/', payload: { key: activationKeyFrom(first.text) } });
    const count = server.smtp.mails.length;
    const second = await register({ email, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'Second' });
    expect(second.status).toBe(201);
    expect(second.body).toEqual({ detail: 'Verification e-mail sent.' });
    const notice = await server.smtp.waitFor(email, /your parla account/i, count);
    expect(notice.text).toContain('/password/reset');
  });

  it('does not let an earlier registration of an unverified address keep its password (pre-hijacking)', async () => {
    const email = uniqueEmail('victim');
    // An attacker registers the victim's address first, with a password of their own.
    expect((await register({ email, password1: 'attacker-password-1', password2: 'attacker-password-1', fullName: 'Mallory' })).status).toBe(201);
    const attackerMail = await server.smtp.waitFor(email, /activate/i);
    // The real owner registers later and follows the link of their own registration.
    const count = server.smtp.mails.length;
    expect((await register({ email, password1: 'owner-password-22', password2: 'owner-password-22', fullName: 'Victoria' })).status).toBe(201);
    const ownerMail = await server.smtp.waitFor(email, /activate/i, count);
    expect(ownerMail.text).toContain('Victoria');
    const client = server.client();
    expect((await client.post('/api/accounts/registration/verify-email/', { key: activationKeyFrom(ownerMail.text) })).status).toBe(200);

    const attacker = await client.post('/api/accounts/login/', { email, password: 'attacker-password-1' });
    expect(attacker.status).toBe(400);
    expect(attacker.body.errors[0].code).toBe('authorization');
    const owner = await client.post('/api/accounts/login/', { email, password: 'owner-password-22' });
    expect(owner.status).toBe(200);
    expect(owner.body.user.fullName).toBe('Victoria');
    // The other registration's link is dead now.
    expect((await client.post('/api/accounts/registration/verify-email/', { key: activationKeyFrom(attackerMail.text) })).status).toBe(400);
  });

  it('applies, on activation, the credentials of the registration whose link is followed', async () => {
    const email = uniqueEmail('twice');
    expect((await register({ email, password1: 'first-password-11', password2: 'first-password-11', fullName: 'First' })).status).toBe(201);
    const firstMail = await server.smtp.waitFor(email, /activate/i);
    const count = server.smtp.mails.length;
    expect((await register({ email, password1: 'second-password-22', password2: 'second-password-22', fullName: 'Second' })).status).toBe(201);
    await server.smtp.waitFor(email, /activate/i, count);
    const client = server.client();
    expect((await client.post('/api/accounts/registration/verify-email/', { key: activationKeyFrom(firstMail.text) })).status).toBe(200);
    expect((await client.post('/api/accounts/login/', { email, password: 'second-password-22' })).status).toBe(400);
    expect((await client.post('/api/accounts/login/', { email, password: 'first-password-11' })).body.user.fullName).toBe('First');
  });

  it('rejects malformed JSON with the standard body', async () => {
    const answer = await server.client().request('POST', '/api/accounts/registration/', { raw: '{"email": ' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'validation_error', errors: [{ attr: 'non_field_errors' }] });
  });
});

describe('POST /api/accounts/registration/resend-email/', () => {
  it('sends a fresh activation e-mail to an inactive account, and answers the same for strangers', async () => {
    const email = uniqueEmail('resend');
    await register({ email, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'Resender' });
    await server.smtp.waitFor(email, /activate/i);
    const count = server.smtp.mails.length;
    const client = server.client();
    const answer = await client.post('/api/accounts/registration/resend-email/', { email });
    expect(answer.status).toBe(200);
    const mail = await server.smtp.waitFor(email, /activate/i, count);
    const verified = await client.post('/api/accounts/registration/verify-email/', { key: activationKeyFrom(mail.text) });
    expect(verified.status).toBe(200);

    const stranger = await client.post('/api/accounts/registration/resend-email/', { email: uniqueEmail('nobody') });
    expect(stranger.status).toBe(200);
    expect(stranger.body).toEqual(answer.body);
  });

  it('answers 400 on a bad e-mail', async () => {
    const answer = await server.client().post('/api/accounts/registration/resend-email/', {});
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ code: 'required', attr: 'email', detail: 'This field is required.' }]);
  });
});

describe('POST /api/accounts/registration/verify-email/', () => {
  it('refuses an unknown key with 400 on key, and a missing key', async () => {
    const client = server.client();
    const unknown = await client.post('/api/accounts/registration/verify-email/', { key: 'made-up' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { code: 'invalid_key', attr: 'key', detail: 'This activation link is invalid or has expired.' },
    ]);
    const missing = await client.post('/api/accounts/registration/verify-email/', { key: '' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].attr).toBe('key');
  });
});

describe('rate limits', () => {
  it('answers 429 past the registration and resend limits', async () => {
    const limited = await startServer({ RATE_LIMIT_REGISTRATION: '2', RATE_LIMIT_EMAIL: '2' });
    try {
      const client = limited.client();
      const body = () => ({ email: uniqueEmail('limit'), password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'L' });
      expect((await client.post('/api/accounts/registration/', body())).status).toBe(201);
      expect((await client.post('/api/accounts/registration/', body())).status).toBe(201);
      const third = await client.post('/api/accounts/registration/', body());
      expect(third.status).toBe(429);
      expect(third.body.type).toBe('client_error');
      expect(third.body.errors[0].code).toBe('throttled');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);

      const email = uniqueEmail('limit');
      expect((await client.post('/api/accounts/registration/resend-email/', { email })).status).toBe(200);
      expect((await client.post('/api/accounts/registration/resend-email/', { email })).status).toBe(200);
      expect((await client.post('/api/accounts/registration/resend-email/', { email })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
