// Tables of the accounts feature and of the shared plumbing. Migrations are generated from this
// file (`npm run db:generate -w @parla/server`) and kept in apps/server/drizzle.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name'),
    /** Storage key of the 256 px WebP avatar. */
    avatarKey: text('avatar_key'),
    /** The interface language the user last used (from Accept-Language). */
    language: text('language').notNull().default('en'),
    emailVerified: boolean('email_verified').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

/** Single-use keys sent by e-mail: account activation and password reset. Only hashes are kept. */
export const emailKeys = pgTable(
  'email_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['activation', 'reset'] }).notNull(),
    keyHash: text('key_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('email_keys_hash_key').on(t.keyHash), index('email_keys_user_idx').on(t.userId)],
);

/**
 * A sign-in session = one refresh-token family. Each refresh rotates `refreshJti`; a token of the
 * family with an older jti is a replay and revokes the family.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    refreshJti: text('refresh_jti').notNull(),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId).where(sql`revoked_at is null`)],
);

/** A live room (voice/video call). State codes 3001 Start, 3002 Live, 3003 End. */
export const rooms = pgTable(
  'rooms',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description'),
    languages: text('languages').array().notNull(),
    domain: text('domain').notNull().default('DEFAULT'),
    state: integer('state').notNull().default(3001),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rooms_modified_idx').on(t.modifiedAt)],
);

/** A user's place in a room; `leftAt` marks one who left or was removed (history kept). */
export const roomParticipants = pgTable(
  'room_participants',
  {
    id: serial('id').primaryKey(),
    roomId: integer('room_id').notNull().references(() => rooms.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    roomRole: integer('room_role').notNull(),
    alias: text('alias').notNull(),
    language: text('language').notNull(),
    maleVoice: boolean('male_voice').notNull().default(false),
    tone: text('tone').notNull().default('DEFAULT'),
    leftAt: timestamp('left_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('room_participants_room_user_key').on(t.roomId, t.userId), index('room_participants_user_idx').on(t.userId)],
);
