// Expired sessions and e-mail keys are removed by a periodic job; live ones stay.
import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailKeys, sessions } from '../src/core/db/schema';
import { signedIn, startServer, type TestServer } from './harness';

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
});
