// Expired sessions and e-mail keys are removed by a periodic job; live ones stay.
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailKeys, sessions, users } from '../src/platform/db/schema';
import { createChat, invite, person, send } from './chat-helpers';
import { GOOD_PASSWORD, signedIn, startServer, uniqueEmail, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ HOUSEKEEPING_INTERVAL_SECONDS: '1' });
});
afterAll(() => server.close());

describe('housekeeping', () => {
  it('removes expired and long-revoked sessions and spent or expired keys, and keeps the live ones', async () => {
    const { login } = await signedIn(server);
    const userId = login.user.id;
    const db = server.app.ctx.db;
    const hour = 60 * 60_000;
    const now = Date.now();
    const ids = { expired: randomUUID(), revoked: randomUUID(), revokedJustNow: randomUUID() };
    await db.insert(sessions).values([
      { id: ids.expired, userId, refreshJti: 'a', refreshExpiresAt: new Date(now - hour) },
      { id: ids.revoked, userId, refreshJti: 'b', refreshExpiresAt: new Date(now + hour), revokedAt: new Date(now - 48 * hour) },
      { id: ids.revokedJustNow, userId, refreshJti: 'c', refreshExpiresAt: new Date(now + hour), revokedAt: new Date(now) },
    ]);
    const keys = await db
      .insert(emailKeys)
      .values([
        { userId, purpose: 'reset', keyHash: randomUUID(), expiresAt: new Date(now - hour) },
        { userId, purpose: 'reset', keyHash: randomUUID(), expiresAt: new Date(now + hour), usedAt: new Date(now - 48 * hour) },
        { userId, purpose: 'reset', keyHash: randomUUID(), expiresAt: new Date(now + hour) },
      ])
      .returning({ id: emailKeys.id });

    await new Promise((resolve) => setTimeout(resolve, 2500));
    const leftSessions = await db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, Object.values(ids)));
    expect(leftSessions.map((row) => row.id)).toEqual([ids.revokedJustNow]);
    const leftKeys = await db.select({ id: emailKeys.id }).from(emailKeys).where(inArray(emailKeys.id, keys.map((key) => key.id)));
    expect(leftKeys.map((row) => row.id)).toEqual([keys[2]!.id]);
    // The signed-in session itself is untouched.
    const client = server.client();
    expect((await client.get('/api/accounts/user/', { headers: { authorization: `Bearer ${login.access}` } })).status).toBe(200);
  });

  // Issue 31 (8): the account an invitation made for an unknown address was never removed.
  it('removes the accounts only invitations made once no invitation waits there, and keeps the others', async () => {
    const db = server.app.ctx.db;
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana);
    const [withdrawn, waiting, signingUp] = [uniqueEmail('withdrawn'), uniqueEmail('waiting'), uniqueEmail('signing-up')];
    const withdrawnId = await invite(ana, chat.id, withdrawn);
    await invite(ana, chat.id, waiting);
    const signingUpId = await invite(ana, chat.id, signingUp);
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/members/${withdrawnId}/?permanent=true`)).status).toBe(204);
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/members/${signingUpId}/?permanent=true`)).status).toBe(204);
    // Someone is signing up with the third address (an activation key waits).
    expect((await server.client().post('/api/accounts/registration/', { email: signingUp, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'Sam' })).status).toBe(201);
    const hourAgo = new Date(Date.now() - 2 * 60 * 60_000);
    await db.update(users).set({ updatedAt: hourAgo }).where(inArray(users.email, [withdrawn, waiting, signingUp]));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const left = await db.select({ email: users.email }).from(users).where(inArray(users.email, [withdrawn, waiting, signingUp]));
    expect(left.map((row) => row.email).sort()).toEqual([waiting, signingUp].sort());
    // Signed-up accounts are never placeholders, however alone.
    expect((await db.select({ id: users.id }).from(users).where(eq(users.id, ana.userId))).length).toBe(1);
  });
});
