// Data access of the accounts feature: users, e-mail keys, sessions (refresh-token families).
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../core/db/index';
import { emailKeys, sessions, users } from '../../core/db/schema';

export type UserRow = typeof users.$inferSelect;
export type EmailKeyPurpose = (typeof emailKeys.$inferSelect)['purpose'];

export function createAccountsRepository(db: Db) {
  return {
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row;
    },

    async findUserById(id: number): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** Inserts a user; undefined when the e-mail is taken (concurrent sign-ups included). */
    async insertUser(values: { email: string; passwordHash: string; fullName: string; language: string }) {
      const [row] = await db.insert(users).values(values).onConflictDoNothing().returning();
      return row;
    },

    async updateUser(id: number, values: Partial<Pick<UserRow, 'fullName' | 'avatarKey' | 'passwordHash' | 'emailVerified' | 'language'>>) {
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    async insertEmailKey(values: { userId: number; purpose: EmailKeyPurpose; keyHash: string; expiresAt: Date }) {
      await db.insert(emailKeys).values(values);
    },

    /**
     * Marks an unused, unexpired key as used and returns its user id; undefined when there is no
     * such key. Atomic, so a key works once even under concurrent use.
     */
    async consumeEmailKey(purpose: EmailKeyPurpose, keyHash: string, userId?: number): Promise<number | undefined> {
      const now = new Date();
      const [row] = await db
        .update(emailKeys)
        .set({ usedAt: now })
        .where(
          and(
            eq(emailKeys.keyHash, keyHash),
            eq(emailKeys.purpose, purpose),
            isNull(emailKeys.usedAt),
            gt(emailKeys.expiresAt, now),
            userId === undefined ? undefined : eq(emailKeys.userId, userId),
          ),
        )
        .returning({ userId: emailKeys.userId });
      return row?.userId;
    },

    async insertSession(values: { id: string; userId: number; refreshJti: string; refreshExpiresAt: Date }) {
      await db.insert(sessions).values(values);
    },

    async findSession(id: string) {
      const [row] = await db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
      return row;
    },

    async isSessionActive(id: string, userId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(
          and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.refreshExpiresAt, new Date())),
        )
        .limit(1);
      return row !== undefined;
    },

    /**
     * Moves the family on to a new refresh jti, only if `fromJti` is still the current one. False
     * means the presented token was already rotated (a replay) or the session is gone.
     */
    async rotateSession(id: string, fromJti: string, toJti: string, refreshExpiresAt: Date): Promise<boolean> {
      const rows = await db
        .update(sessions)
        .set({ refreshJti: toJti, refreshExpiresAt, lastUsedAt: new Date() })
        .where(and(eq(sessions.id, id), eq(sessions.refreshJti, fromJti), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.length === 1;
    },

    async revokeSession(id: string, reason: string) {
      await db
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
    },

    /** Ends every session of a user, or every one but `exceptId`. */
    async revokeUserSessions(userId: number, reason: string, exceptId?: string) {
      const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
      if (exceptId) conditions.push(ne(sessions.id, exceptId));
      await db
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(...conditions));
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
