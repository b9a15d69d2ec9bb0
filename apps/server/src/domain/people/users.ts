// Who a user is, for the features that add people by e-mail or default a membership from the
// account (chats, rooms). Accounts owns the users table; this is the view others share, plus the
// one write they need: an account for an e-mail that has none yet, when someone invites it.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/index';
import { users } from '../../platform/db/schema';

export interface UserSummary {
  id: number;
  email: string;
  fullName: string | null;
  /** The language the account reads new chats and rooms in: the one chosen in the profile, else its interface language. */
  language: string;
  /** False for an account not activated yet, such as one made by an invitation. */
  emailVerified: boolean;
}

const summary = {
  id: users.id,
  email: users.email,
  fullName: users.fullName,
  language: sql<string>`coalesce(${users.readingLanguage}, ${users.language})`,
  emailVerified: users.emailVerified,
};

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function createUserDirectory(db: Db, options: { unusablePasswordHash?: Promise<string> } = {}) {
  return {
    async byId(id: number): Promise<UserSummary | undefined> {
      const [row] = await db.select(summary).from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    /** By e-mail as accounts store it (trimmed, lower-case). */
    async byEmail(email: string): Promise<UserSummary | undefined> {
      const [row] = await db.select(summary).from(users).where(eq(users.email, normaliseEmail(email))).limit(1);
      return row;
    },
    /**
     * The account of an e-mail someone invites: the existing one, or a new one that is not
     * activated and has no usable password (a hash of a secret nobody knows). Signing up with that
     * address then activates it with the new password and name (accounts' usual path for an
     * address registered but not activated), and the invitations wait there.
     */
    async byEmailOrInvited(email: string, language: string): Promise<UserSummary> {
      const address = normaliseEmail(email);
      if (!options.unusablePasswordHash) throw new Error('the user directory cannot make accounts');
      const passwordHash = await options.unusablePasswordHash;
      // One statement: an existing account is returned as it is, but for an invitation's own
      // account, whose time moves on (housekeeping removes only those left alone for a while, so
      // it never takes one away from an invitation being made).
      const [row] = await db
        .insert(users)
        .values({ email: address, passwordHash, fullName: null, language, emailVerified: false, invitedOnly: true })
        .onConflictDoUpdate({
          target: users.email,
          set: { updatedAt: sql`case when ${users.invitedOnly} and not ${users.emailVerified} then now() else ${users.updatedAt} end` },
        })
        .returning(summary);
      if (!row) throw new Error('the invited account could not be stored');
      return row;
    },
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;

/** How a new member is shown by default: the full name, else the e-mail's local part. */
export const displayName = (user: Pick<UserSummary, 'fullName' | 'email'>) => user.fullName || user.email.split('@')[0] || user.email;

/** How someone invited is shown until they accept: the local part of the address they were invited by, never their name. */
export const invitedName = (email: string) => email.split('@')[0] || email;
