// What others see of a person: their read receipts and their presence (product: "each person may
// turn off sending theirs"). Accounts changes it; chats and presence follow a change at once
// (onChange), so a receipt or a presence no longer shared stops reaching anyone.
import { eq, inArray } from 'drizzle-orm';
import type { Privacy, PrivacyPatch } from '@parla/contract/accounts';
import type { Db } from '../../platform/db/index';
import { users } from '../../platform/db/schema';

export type PrivacyListener = (userId: number, before: Privacy, after: Privacy) => void | Promise<void>;

const columns = { id: users.id, readReceipts: users.readReceipts, showPresence: users.showPresence };

export function createPrivacy(db: Db, log: { error(details: object, message: string): void }) {
  const listeners: PrivacyListener[] = [];
  return {
    /** Null for an account that is gone. */
    async get(userId: number): Promise<Privacy | null> {
      const [row] = await db.select(columns).from(users).where(eq(users.id, userId)).limit(1);
      return row ? { readReceipts: row.readReceipts, showPresence: row.showPresence } : null;
    },

    /** Several people's settings at once (absent: no such account). */
    async of(userIds: readonly number[]): Promise<Map<number, Privacy>> {
      if (userIds.length === 0) return new Map();
      const rows = await db.select(columns).from(users).where(inArray(users.id, [...new Set(userIds)]));
      return new Map(rows.map((row) => [row.id, { readReceipts: row.readReceipts, showPresence: row.showPresence }]));
    },

    /** Changes what is given; the listeners hear of a real change before this answers. */
    async update(userId: number, patch: PrivacyPatch): Promise<Privacy | null> {
      const before = await this.get(userId);
      if (!before) return null;
      const after = { readReceipts: patch.readReceipts ?? before.readReceipts, showPresence: patch.showPresence ?? before.showPresence };
      if (after.readReceipts === before.readReceipts && after.showPresence === before.showPresence) return before;
      await db.update(users).set(after).where(eq(users.id, userId));
      for (const listener of listeners) {
        try {
          await listener(userId, before, after);
        } catch (error) {
          log.error({ err: error, userId }, 'a privacy change was not followed everywhere');
        }
      }
      return after;
    },

    onChange(listener: PrivacyListener) {
      listeners.push(listener);
    },
  };
}

export type PrivacySettings = ReturnType<typeof createPrivacy>;
