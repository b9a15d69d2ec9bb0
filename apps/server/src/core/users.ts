// Who a user is, for the features that add people by e-mail or default a membership from the
// account (chats, rooms). Accounts owns the users table; this is the read-only view others share.
import { eq } from 'drizzle-orm';
import type { Db } from './db/index';
import { users } from './db/schema';

export interface UserSummary {
  id: number;
  email: string;
  fullName: string | null;
  /** The interface language of the account (from its registration). */
  language: string;
}

const summary = { id: users.id, email: users.email, fullName: users.fullName, language: users.language };

export function createUserDirectory(db: Db) {
  return {
    async byId(id: number): Promise<UserSummary | undefined> {
      const [row] = await db.select(summary).from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    /** By e-mail as accounts store it (trimmed, lower-case). */
    async byEmail(email: string): Promise<UserSummary | undefined> {
      const [row] = await db.select(summary).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
      return row;
    },
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;

/** How a new member is shown by default: the full name, else the e-mail's local part. */
export const displayName = (user: Pick<UserSummary, 'fullName' | 'email'>) => user.fullName || user.email.split('@')[0] || user.email;
