// Test data written straight into a Parla database (already migrated by the real server), so that
// setting up is not measured and takes seconds: users (no password: sockets and Bearer requests
// need none), one session each with an access token signed like the server's, chats, memberships,
// messages and their renderings. The tables are the server's own (apps/server/src/platform/db/schema.ts).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { CHAT_ROLE } from '@parla/contract/constants';
import { chatMembers, chatMessages, chats, messageRenderings, sessions, users } from '../../apps/server/src/platform/db/schema';
import { signAccessToken } from './harness';

export interface Seeder {
  db: NodePgDatabase;
  close(): Promise<void>;
}

export function openSeeder(databaseUrl: string): Seeder {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  return { db: drizzle({ client: pool }), close: () => pool.end() };
}

export interface SeededUser {
  userId: number;
  sessionId: string;
  email: string;
  /** Bearer / socket token of the user's session. */
  token: string;
}

const chunks = <T>(items: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
};

/** `count` verified users with a live session each; `avatar(i)` gives some an avatar key. */
export async function seedUsers(
  seeder: Seeder,
  secretKey: string,
  count: number,
  options: { prefix: string; language?: (index: number) => string; avatar?: (index: number) => string | null; fullName?: (index: number) => string },
): Promise<SeededUser[]> {
  const { db } = seeder;
  const rows = Array.from({ length: count }, (_, index) => ({
    email: `${options.prefix}-${index}-${randomUUID().slice(0, 8)}@example.com`,
    // Not a valid scrypt hash: these users never sign in with a password.
    passwordHash: 'bench:no-password',
    fullName: options.fullName?.(index) ?? `Bench ${options.prefix} ${index}`,
    avatarKey: options.avatar?.(index) ?? null,
    language: options.language?.(index) ?? 'en',
    emailVerified: true,
  }));
  const inserted: { id: number; email: string }[] = [];
  for (const part of chunks(rows, 1000)) inserted.push(...(await db.insert(users).values(part).returning({ id: users.id, email: users.email })));
  const refreshExpiresAt = new Date(Date.now() + 7 * 24 * 60 * 60_000);
  const sessionRows = inserted.map((user) => ({ id: randomUUID(), userId: user.id, refreshJti: randomUUID(), refreshExpiresAt }));
  for (const part of chunks(sessionRows, 1000)) await db.insert(sessions).values(part);
  return Promise.all(
    inserted.map(async (user, index) => ({
      userId: user.id,
      sessionId: sessionRows[index]!.id,
      email: user.email,
      token: await signAccessToken(secretKey, user.id, sessionRows[index]!.id),
    })),
  );
}

export interface SeededMember {
  memberId: number;
  userId: number;
  language: string;
  tone: string;
  user: SeededUser;
}

export interface SeededChat {
  chatId: number;
  members: SeededMember[];
}

/** Chats with their members (the first of each is OWNER, the rest MEMBER), in as few statements as possible. */
export async function seedChats(
  seeder: Seeder,
  specs: { title: string; languages: string[]; members: { user: SeededUser; language: string; tone?: string }[] }[],
): Promise<SeededChat[]> {
  const { db } = seeder;
  const now = new Date();
  const created: { id: number }[] = [];
  for (const part of chunks(specs, 1000)) {
    created.push(
      ...(await db
        .insert(chats)
        .values(part.map((spec) => ({ title: spec.title, description: null, languages: spec.languages, createdAt: now, modifiedAt: now })))
        .returning({ id: chats.id })),
    );
  }
  const memberRows = specs.flatMap((spec, chatIndex) =>
    spec.members.map((member, index) => ({
      chatId: created[chatIndex]!.id,
      userId: member.user.userId,
      chatRole: index === 0 ? CHAT_ROLE.OWNER : CHAT_ROLE.MEMBER,
      nickName: `Member ${index + 1}`,
      language: member.language,
      tone: member.tone ?? 'DEFAULT',
    })),
  );
  const members: (typeof chatMembers.$inferSelect)[] = [];
  for (const part of chunks(memberRows, 1000)) members.push(...(await db.insert(chatMembers).values(part).returning()));
  const byChatUser = new Map(members.map((row) => [`${row.chatId}:${row.userId}`, row]));
  return specs.map((spec, chatIndex) => {
    const chatId = created[chatIndex]!.id;
    return {
      chatId,
      members: spec.members.map((member) => {
        const row = byChatUser.get(`${chatId}:${member.user.userId}`)!;
        return { memberId: row.id, userId: row.userId, language: row.language, tone: row.tone, user: member.user };
      }),
    };
  });
}

/**
 * Messages of a chat, oldest first, one millisecond apart and ending now, each with a `done`
 * rendering for every reading group given that does not read the sender's language (as the
 * render job writes them: `[<language> <tone>] <text>`, as the OpenAI stand-in answers).
 */
export async function seedMessages(
  seeder: Seeder,
  chat: SeededChat,
  items: { sender: SeededMember; content: string }[],
  groups: { language: string; tone: string }[],
): Promise<number[]> {
  const { db } = seeder;
  const start = Date.now() - items.length;
  const ids: number[] = [];
  for (const part of chunks(
    items.map((item, index) => ({ ...item, at: new Date(start + index) })),
    1000,
  )) {
    const rows = await db
      .insert(chatMessages)
      .values(part.map((item) => ({ chatId: chat.chatId, senderId: item.sender.memberId, language: item.sender.language, content: item.content, createdAt: item.at })))
      .returning({ id: chatMessages.id });
    ids.push(...rows.map((row) => row.id));
  }
  const renderings = items.flatMap((item, index) =>
    groups
      .filter((group) => group.language !== item.sender.language)
      .map((group) => ({
        messageId: ids[index]!,
        language: group.language,
        tone: group.tone,
        version: 1,
        state: 'done' as const,
        content: `[${group.language} ${group.tone}] ${item.content}`,
        renderedTone: group.tone,
      })),
  );
  for (const part of chunks(renderings, 1000)) await db.insert(messageRenderings).values(part);
  return ids;
}

/** Fresh planner statistics after the bulk inserts. */
export async function analyze(seeder: Seeder): Promise<void> {
  await seeder.db.execute(sql`analyze`);
}
