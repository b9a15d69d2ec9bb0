// Tables of the accounts feature and of the shared plumbing. Migrations are generated from this
// file (`npm run db:generate -w @parla/server`) and kept in apps/server/drizzle.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
    /** The language the user reads new chats and rooms in; null: their interface language. */
    readingLanguage: text('reading_language'),
    /** The global switch of push notifications (each device subscribes apart). */
    notificationsEnabled: boolean('notifications_enabled').notNull().default(true),
    /** Others see how far they read ("seen by"); off, they see nobody's either. */
    readReceipts: boolean('read_receipts').notNull().default(true),
    /** Others see them online, away or offline and when they were last seen; off, always offline. */
    showPresence: boolean('show_presence').notNull().default(true),
    /** When their last live connection ended (what "last seen" says). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    emailVerified: boolean('email_verified').notNull().default(false),
    /**
     * Made by an invitation to an address nobody had signed up with (no usable password): removed
     * by housekeeping once no invitation waits there and nobody is signing up with it.
     */
    invitedOnly: boolean('invited_only').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

/**
 * Single-use keys sent by e-mail: account activation and password reset. Only hashes are kept.
 * An activation key carries the credentials of the registration it was sent for, and its use
 * applies those and nothing else (a second registration of an unverified address cannot take
 * over the first, nor the other way round).
 */
export const emailKeys = pgTable(
  'email_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['activation', 'reset'] }).notNull(),
    keyHash: text('key_hash').notNull(),
    passwordHash: text('password_hash'),
    fullName: text('full_name'),
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
    /** The jti this family rotated away from, and when: a concurrent refresh with it shares the new one. */
    previousJti: text('previous_jti'),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId).where(sql`revoked_at is null`)],
);

/**
 * A glossary entry of a chat or of a room (exactly one of the two): a term in a language that
 * translation renders as required (`renderings`: language → text) or keeps as it is (`keep`).
 * One entry per term (case-insensitive) and language in each glossary.
 */
export const glossaryEntries = pgTable(
  'glossary_entries',
  {
    id: serial('id').primaryKey(),
    chatId: integer('chat_id').references(() => chats.id, { onDelete: 'cascade' }),
    roomId: integer('room_id').references(() => rooms.id, { onDelete: 'cascade' }),
    term: text('term').notNull(),
    language: text('language').notNull(),
    keep: boolean('keep').notNull().default(false),
    renderings: jsonb('renderings').$type<{ language: string; text: string }[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('glossary_entries_chat_idx').on(t.chatId),
    index('glossary_entries_room_idx').on(t.roomId),
    uniqueIndex('glossary_entries_term_key').on(sql`coalesce(${t.chatId}, 0)`, sql`coalesce(${t.roomId}, 0)`, sql`lower(${t.term})`, t.language),
    check('glossary_entries_one_scope', sql`(${t.chatId} is null) <> (${t.roomId} is null)`),
  ],
);

/**
 * A browser's Web Push subscription (one per device and browser): where its push service takes
 * messages and the keys they are encrypted with (RFC 8291). The endpoint is unique: a browser
 * that signs in to another account moves its subscription there.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
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

/**
 * A user's place in a room; `leftAt` marks one who left or was removed (history kept), a null
 * `joinedAt` one invited who has not accepted yet.
 */
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
    /** When they accepted; null while invited (they see the room's name and nothing more). */
    joinedAt: timestamp('joined_at', { withTimezone: true }).defaultNow(),
    /** How whoever invited them was named in the room then (shown to them while invited). */
    invitedBy: text('invited_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('room_participants_room_user_key').on(t.roomId, t.userId), index('room_participants_user_idx').on(t.userId)],
);

/** A group chat. `modifiedAt` moves on every new message: the chat list is ordered by it. */
export const chats = pgTable(
  'chats',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description'),
    languages: text('languages').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chats_modified_idx').on(t.modifiedAt)],
);

/**
 * A user's membership of a chat: how they read it (language, tone) and where they stopped.
 * `leftAt` marks one who left or was removed (history kept, can be re-added).
 */
export const chatMembers = pgTable(
  'chat_members',
  {
    id: serial('id').primaryKey(),
    chatId: integer('chat_id').notNull().references(() => chats.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    chatRole: integer('chat_role').notNull(),
    nickName: text('nick_name').notNull(),
    language: text('language').notNull(),
    tone: text('tone').notNull().default('DEFAULT'),
    lastReadMessage: integer('last_read_message'),
    /** When lastReadMessage last moved (what "seen by" says). */
    lastReadAt: timestamp('last_read_at', { withTimezone: true }),
    /** No notifications or sounds for the chat's messages (mentions of the member still notify). */
    muted: boolean('muted').notNull().default(false),
    leftAt: timestamp('left_at', { withTimezone: true }),
    /** When they accepted; null while invited (they see the chat's name and nothing more). */
    joinedAt: timestamp('joined_at', { withTimezone: true }).defaultNow(),
    /** How whoever invited them was named in the chat then (shown to them while invited). */
    invitedBy: text('invited_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('chat_members_chat_user_key').on(t.chatId, t.userId), index('chat_members_user_idx').on(t.userId)],
);

/**
 * A message, stored once in its sender's membership language. `version` moves on every edit, so a
 * rendering of an older text is never shown for a newer one. The same `clientId` from the same
 * member is one message (idempotent posting).
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    chatId: integer('chat_id').notNull().references(() => chats.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id').notNull().references(() => chatMembers.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    content: text('content').notNull(),
    clientId: text('client_id'),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    /** The message this one replies to (same chat); null when none or deleted since. */
    replyToId: integer('reply_to_id').references((): AnyPgColumn => chatMessages.id, { onDelete: 'set null' }),
    /** Whether pictures or files are attached (a page reads them only then). */
    hasAttachments: boolean('has_attachments').notNull().default(false),
    /** Pinned to the chat (by an OWNER or ADMIN): when, and by whom (null once they are gone). */
    pinnedAt: timestamp('pinned_at', { withTimezone: true }),
    pinnedBy: integer('pinned_by').references((): AnyPgColumn => chatMembers.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('chat_messages_chat_idx').on(t.chatId, t.id),
    uniqueIndex('chat_messages_client_key').on(t.senderId, t.clientId),
    index('chat_messages_pinned_idx')
      .on(t.chatId, t.pinnedAt)
      .where(sql`${t.pinnedAt} is not null`),
  ],
);

/**
 * The earlier texts of an edited message (issue 34): each version as it was written, with when it
 * was written (the post, or the edit before); the message row holds the current one. They go with
 * the message.
 */
export const messageVersions = pgTable(
  'message_versions',
  {
    messageId: integer('message_id').notNull().references(() => chatMessages.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    language: text('language').notNull(),
    content: text('content').notNull(),
    writtenAt: timestamp('written_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.version] })],
);

/**
 * The members a message mentions (`<@memberId>` in its content, markup.ts): a reference, so the
 * name shown is the member's current one and unread mentions are counted per member.
 */
export const messageMentions = pgTable(
  'message_mentions',
  {
    messageId: integer('message_id').notNull().references(() => chatMessages.id, { onDelete: 'cascade' }),
    memberId: integer('member_id').notNull().references(() => chatMembers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.memberId] }), index('message_mentions_member_idx').on(t.memberId, t.messageId)],
);

/**
 * A picture or file uploaded to a chat by a member: attached to their next message (`messageId`),
 * kept in private storage under `attachments/<chatId>/`. Pictures are re-encoded, with a thumbnail.
 */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    id: serial('id').primaryKey(),
    chatId: integer('chat_id').notNull().references(() => chats.id, { onDelete: 'cascade' }),
    uploaderId: integer('uploader_id').notNull().references(() => chatMembers.id, { onDelete: 'cascade' }),
    messageId: integer('message_id').references(() => chatMessages.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['image', 'file'] }).notNull(),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    fileKey: text('file_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('message_attachments_message_idx').on(t.messageId), index('message_attachments_chat_idx').on(t.chatId, t.uploaderId)],
);

/** An emoji a member put on a message (once per emoji and member). */
export const messageReactions = pgTable(
  'message_reactions',
  {
    messageId: integer('message_id').notNull().references(() => chatMessages.id, { onDelete: 'cascade' }),
    memberId: integer('member_id').notNull().references(() => chatMembers.id, { onDelete: 'cascade' }),
    emoji: text('emoji').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.memberId, t.emoji] })],
);

/**
 * A message rendered in one (language, tone) for the members who read it so. `state`: pending
 * (a job will write it), done, failed (after the last try: readers get the original), none (the
 * provider cannot reach that language). `renderedTone` is the tone really applied (DEFAULT when
 * the provider knows no tone).
 */
export const messageRenderings = pgTable(
  'message_renderings',
  {
    messageId: integer('message_id').notNull().references(() => chatMessages.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    tone: text('tone').notNull(),
    version: integer('version').notNull(),
    state: text('state', { enum: ['pending', 'done', 'failed', 'none'] }).notNull(),
    /** What the group reads: the machine's text, or a reader's correction of it. */
    content: text('content'),
    renderedTone: text('rendered_tone'),
    /** The machine's text when a reader corrected it (`content` holds the correction); null otherwise. */
    machineContent: text('machine_content'),
    correctedBy: integer('corrected_by').references(() => chatMembers.id, { onDelete: 'set null' }),
    correctedAt: timestamp('corrected_at', { withTimezone: true }),
    /** Glossary terms whose required rendering the provider left out even when asked twice. */
    missedTerms: text('missed_terms').array(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.language, t.tone] })],
);

/**
 * Translations already made, by a digest of (provider, source language, source text, target
 * language, tone, domain): the same text to the same reader costs no second provider call.
 */
export const translationCache = pgTable('translation_cache', {
  key: text('key').primaryKey(),
  content: text('content').notNull(),
  renderedTone: text('rendered_tone').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One utterance of one speaker in a live room: its recording (by content WAV, Ogg or WebM), its
 * transcript in the speaker's language once transcribed, and the previous transcript after a
 * correction (for the word diff). `version` moves on every correction.
 */
export const segments = pgTable(
  'segments',
  {
    id: serial('id').primaryKey(),
    roomId: integer('room_id').notNull().references(() => rooms.id, { onDelete: 'cascade' }),
    speakerId: integer('speaker_id').notNull().references(() => roomParticipants.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    audioKey: text('audio_key').notNull(),
    /** The stored recording's size (counted against the speaker's and the room's storage). */
    audioBytes: integer('audio_bytes').notNull().default(0),
    /** The speaker's client's id for this upload (a retried upload is stored once). */
    clientId: text('client_id'),
    durationSeconds: real('duration_seconds').notNull(),
    transcription: text('transcription', { enum: ['pending', 'done', 'failed', 'none'] }).notNull(),
    transcript: text('transcript').notNull().default(''),
    previousTranscript: text('previous_transcript'),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [index('segments_room_idx').on(t.roomId, t.id), uniqueIndex('segments_client_key').on(t.speakerId, t.clientId)],
);

/**
 * A segment's transcript in one (language, tone): its translation state and text, and the text of
 * the version before (for the reader's word diff). `renderedTone`: the tone really applied.
 */
export const segmentRenderings = pgTable(
  'segment_renderings',
  {
    segmentId: integer('segment_id').notNull().references(() => segments.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    tone: text('tone').notNull(),
    version: integer('version').notNull(),
    state: text('state', { enum: ['pending', 'done', 'failed', 'none'] }).notNull(),
    /** What the group reads: the machine's text, or a listener's correction of it. */
    transcript: text('transcript'),
    previousTranscript: text('previous_transcript'),
    renderedTone: text('rendered_tone'),
    /** The machine's text when a listener corrected it (`transcript` holds the correction); null otherwise. */
    machineTranscript: text('machine_transcript'),
    correctedBy: integer('corrected_by').references(() => roomParticipants.id, { onDelete: 'set null' }),
    correctedAt: timestamp('corrected_at', { withTimezone: true }),
    /** Glossary terms whose required rendering the provider left out even when asked twice. */
    missedTerms: text('missed_terms').array(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.segmentId, t.language, t.tone] })],
);

/** A segment's rendering spoken in one voice: the file listeners of that (language, tone, voice) hear. */
export const segmentVoices = pgTable(
  'segment_voices',
  {
    segmentId: integer('segment_id').notNull().references(() => segments.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    tone: text('tone').notNull(),
    male: boolean('male').notNull(),
    version: integer('version').notNull(),
    state: text('state', { enum: ['pending', 'done', 'failed', 'none'] }).notNull(),
    audioKey: text('audio_key'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.segmentId, t.language, t.tone, t.male] })],
);

/** A listener's own tone for one segment (they may change the tone of their rendering). */
export const segmentTones = pgTable(
  'segment_tones',
  {
    segmentId: integer('segment_id').notNull().references(() => segments.id, { onDelete: 'cascade' }),
    participantId: integer('participant_id').notNull().references(() => roomParticipants.id, { onDelete: 'cascade' }),
    tone: text('tone').notNull(),
  },
  (t) => [primaryKey({ columns: [t.segmentId, t.participantId] })],
);
