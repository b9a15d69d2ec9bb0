// Data access of the accounts feature: users, e-mail keys, sessions (refresh-token families).
import { and, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/index';
import { withFastRows } from '../../platform/db/fast-rows';
import { chatMembers, emailKeys, roomParticipants, sessions, users } from '../../platform/db/schema';

export type UserRow = typeof users.$inferSelect;
export type EmailKeyPurpose = (typeof emailKeys.$inferSelect)['purpose'];

export function createAccountsRepository(db: Db) {
  // The two queries of every authenticated request, prepared once: drizzle builds their SQL once
  // and PostgreSQL plans them once per connection; their rows mapped by a plan made once (platform/db/fast-rows.ts).
  const userById = withFastRows(db.select().from(users).where(eq(users.id, sql.placeholder('id'))).limit(1).prepare('user_by_id'));
  const activeSession = withFastRows(db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sql.placeholder('id')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.refreshExpiresAt, sql`now()`),
      ),
    )
    .limit(1)
    .prepare('session_active'));

  return {
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row;
    },

    async findUserById(id: number): Promise<UserRow | undefined> {
      const [row] = await userById.execute({ id });
      return row;
    },

    /** Inserts a user; undefined when the e-mail is taken (concurrent sign-ups included). */
    async insertUser(values: { email: string; passwordHash: string; fullName: string; language: string }) {
      const [row] = await db.insert(users).values(values).onConflictDoNothing().returning();
      return row;
    },

    async updateUser(id: number, values: Partial<Pick<UserRow, 'fullName' | 'avatarKey' | 'passwordHash' | 'emailVerified' | 'language' | 'readingLanguage'>>) {
      const [row] = await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    async insertEmailKey(values: {
      userId: number;
      purpose: EmailKeyPurpose;
      keyHash: string;
      expiresAt: Date;
      passwordHash?: string | null;
      fullName?: string | null;
    }) {
      await db.insert(emailKeys).values(values);
    },

    /**
     * Marks an unused, unexpired key as used and returns its user and the credentials it carries;
     * undefined when there is no such key. Atomic, so a key works once even under concurrent use.
     */
    async consumeEmailKey(purpose: EmailKeyPurpose, keyHash: string, userId?: number) {
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
        .returning({ userId: emailKeys.userId, passwordHash: emailKeys.passwordHash, fullName: emailKeys.fullName });
      return row;
    },

    /** Ends every outstanding key of a user (after a password change or reset, an activation). */
    /** Whether this key was sent to an account that is active now (an activation link used before). */
    async emailKeyOfActiveAccount(purpose: EmailKeyPurpose, keyHash: string): Promise<boolean> {
      const [row] = await db
        .select({ id: emailKeys.id })
        .from(emailKeys)
        .innerJoin(users, eq(users.id, emailKeys.userId))
        .where(and(eq(emailKeys.keyHash, keyHash), eq(emailKeys.purpose, purpose), eq(users.emailVerified, true)))
        .limit(1);
      return row !== undefined;
    },

    async endEmailKeys(userId: number) {
      await db
        .update(emailKeys)
        .set({ usedAt: new Date() })
        .where(and(eq(emailKeys.userId, userId), isNull(emailKeys.usedAt)));
    },

    /**
     * Sets the avatar and returns the key it replaced, under a row lock: of concurrent uploads
     * each learns exactly the file it displaced, so none is left behind on disk.
     */
    async replaceAvatar(userId: number, avatarKey: string | null): Promise<{ user: UserRow; previous: string | null } | undefined> {
      return db.transaction(async (tx) => {
        const [current] = await tx.select({ avatarKey: users.avatarKey }).from(users).where(eq(users.id, userId)).for('update');
        if (!current) return undefined;
        const [user] = await tx.update(users).set({ avatarKey, updatedAt: new Date() }).where(eq(users.id, userId)).returning();
        return user ? { user, previous: current.avatarKey } : undefined;
      });
    },

    /** Removes sessions and e-mail keys that can no longer be used; returns how many went. */
    async pruneExpired(now = new Date()) {
      const dayAgo = new Date(now.getTime() - 24 * 60 * 60_000);
      const deadSessions = await db
        .delete(sessions)
        .where(or(lt(sessions.refreshExpiresAt, now), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, dayAgo))))
        .returning({ id: sessions.id });
      const deadKeys = await db
        .delete(emailKeys)
        .where(or(lt(emailKeys.expiresAt, now), and(isNotNull(emailKeys.usedAt), lt(emailKeys.usedAt, dayAgo))))
        .returning({ id: emailKeys.id });
      // Accounts only invitations made, once no invitation waits there (declined, withdrawn, the
      // chat or room gone) and nobody is signing up with the address, left alone for an hour.
      const hourAgo = new Date(now.getTime() - 60 * 60_000);
      const placeholders = await db
        .delete(users)
        .where(
          and(
            eq(users.invitedOnly, true),
            eq(users.emailVerified, false),
            lt(users.updatedAt, hourAgo),
            sql`not exists (select 1 from ${chatMembers} where ${chatMembers.userId} = ${users.id} and ${chatMembers.leftAt} is null)`,
            sql`not exists (select 1 from ${roomParticipants} where ${roomParticipants.userId} = ${users.id} and ${roomParticipants.leftAt} is null)`,
            sql`not exists (select 1 from ${emailKeys} where ${emailKeys.userId} = ${users.id} and ${emailKeys.usedAt} is null and ${emailKeys.expiresAt} > ${now})`,
          ),
        )
        .returning({ id: users.id });
      return { sessions: deadSessions.length, emailKeys: deadKeys.length, placeholders: placeholders.length };
    },

    async insertSession(values: { id: string; userId: number; refreshJti: string; refreshExpiresAt: Date }) {
      await db.insert(sessions).values(values);
    },

    async findSession(id: string) {
      const [row] = await db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
      return row;
    },

    async isSessionActive(id: string, userId: number): Promise<boolean> {
      const rows = await activeSession.execute({ id, userId });
      return rows.length > 0;
    },

    /** Which of these sessions are still active, with their users (one statement for many). */
    async activeSessions(ids: readonly string[]): Promise<{ id: string; userId: number }[]> {
      if (ids.length === 0) return [];
      return db
        .select({ id: sessions.id, userId: sessions.userId })
        .from(sessions)
        .where(and(inArray(sessions.id, [...ids]), isNull(sessions.revokedAt), gt(sessions.refreshExpiresAt, sql`now()`)));
    },

    /**
     * Moves the family on to a new refresh jti, only if `fromJti` is still the current one. False
     * means the presented token was already rotated (a replay) or the session is gone.
     */
    async rotateSession(id: string, fromJti: string, toJti: string, refreshExpiresAt: Date): Promise<boolean> {
      const rows = await db
        .update(sessions)
        .set({ refreshJti: toJti, previousJti: fromJti, rotatedAt: new Date(), refreshExpiresAt, lastUsedAt: new Date() })
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
