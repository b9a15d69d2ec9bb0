// core/db/fast-rows.ts maps the hot reads' rows by a plan made once: it must give exactly what
// drizzle's own mapping gives (dates as Dates, numbers as numbers, a left-joined row that is not
// there as null), on the database the test pass runs on.
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFastRows } from '../src/core/db/fast-rows';
import type { Database } from '../src/core/db/index';
import { chatMembers, chatMessages, chats, messageRenderings, users } from '../src/core/db/schema';
import { openTestDatabase } from './harness';

let database: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ database, close } = await openTestDatabase());
});

afterAll(() => close());

describe('rows mapped by a plan made once', () => {
  it('equal drizzle’s own mapping: nested objects, dates, nulls, and null for a left join that found nothing', async () => {
    const { db } = database;
    const [user] = await db.insert(users).values({ email: 'fast-rows@example.com', passwordHash: 'x', fullName: 'Fast Rows', language: 'en' }).returning();
    const [chat] = await db.insert(chats).values({ title: 'Rows', description: null, languages: ['en', 'es'] }).returning();
    const [member] = await db.insert(chatMembers).values({ chatId: chat!.id, userId: user!.id, chatRole: 2001, nickName: 'Fast', language: 'en', joinedAt: new Date() }).returning();
    const [first] = await db.insert(chatMessages).values({ chatId: chat!.id, senderId: member!.id, language: 'en', content: 'no rendering' }).returning();
    const [second] = await db.insert(chatMessages).values({ chatId: chat!.id, senderId: member!.id, language: 'en', content: 'rendered', editedAt: new Date() }).returning();
    await db.insert(messageRenderings).values({ messageId: second!.id, language: 'es', tone: 'DEFAULT', version: 1, state: 'done', content: 'traducido', renderedTone: 'DEFAULT' });

    const query = (name: string) =>
      db
        .select({ message: chatMessages, sender: { id: chatMembers.id, nickName: chatMembers.nickName, joinedAt: chatMembers.joinedAt, email: users.email }, rendering: messageRenderings })
        .from(chatMessages)
        .innerJoin(chatMembers, eq(chatMembers.id, chatMessages.senderId))
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .leftJoin(messageRenderings, and(eq(messageRenderings.messageId, chatMessages.id), eq(messageRenderings.language, sql.placeholder('language'))))
        .where(eq(chatMessages.chatId, sql.placeholder('chatId')))
        .orderBy(desc(chatMessages.id))
        .prepare(name);
    const args = { chatId: chat!.id, language: 'es' };
    const drizzles = await query('fast_rows_drizzle').execute(args);
    const planned = await withFastRows(query('fast_rows_planned'), ['rendering']).execute(args);

    expect(planned).toEqual(drizzles);
    expect(planned).toHaveLength(2);
    const [newest, oldest] = planned;
    expect(newest!.rendering?.content).toBe('traducido');
    expect(newest!.message.editedAt).toBeInstanceOf(Date);
    expect(newest!.sender.joinedAt).toBeInstanceOf(Date);
    expect(oldest!.rendering).toBeNull();
    expect(oldest!.message.id).toBe(first!.id);
    expect(oldest!.message.editedAt).toBeNull();

    // A whole table, flat.
    const flat = (name: string) => db.select().from(chatMembers).where(eq(chatMembers.chatId, sql.placeholder('chatId'))).prepare(name);
    const plain = await flat('fast_rows_flat_drizzle').execute({ chatId: chat!.id });
    const planned2 = await withFastRows(flat('fast_rows_flat_planned')).execute({ chatId: chat!.id });
    expect(planned2).toEqual(plain);
    expect(planned2[0]!.joinedAt).toBeInstanceOf(Date);
    expect(planned2[0]!.leftAt).toBeNull();
  });
});
