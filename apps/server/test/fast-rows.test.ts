// platform/db/fast-rows.ts maps the hot reads' rows by a plan made once: it must give exactly what
// drizzle's own mapping gives (dates as Dates, numbers as numbers, a left-joined row that is not
// there as null), on the database the test pass runs on.
import { and, desc, DrizzleQueryError, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastRowsOf, parseTimestamptz, withFastRows } from '../src/platform/db/fast-rows';
import { createRoomsRepository } from '../src/features/rooms/repository';
import type { Database } from '../src/platform/db/index';
import { chatMembers, chatMessages, chats, messageRenderings, roomParticipants, rooms, segmentRenderings, segments, segmentTones, segmentVoices, users } from '../src/platform/db/schema';
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
    // The guard against a drizzle upgrade: both fast paths are really taken (they fall back to
    // drizzle's own silently when its internals change), the pool's only on node-postgres.
    expect(fastRowsOf(withFastRows(query('fast_rows_guard'), ['rendering']))).toEqual({ mapped: true, direct: database.kind === 'postgres' });
    const [newest, oldest] = planned;
    expect(newest!.rendering?.content).toBe('traducido');
    expect(newest!.message.editedAt).toBeInstanceOf(Date);
    expect(newest!.sender.joinedAt).toBeInstanceOf(Date);
    expect(oldest!.rendering).toBeNull();
    expect(oldest!.message.id).toBe(first!.id);
    expect(oldest!.message.editedAt).toBeNull();
    // A failure reads as drizzle's own (the SQL kept, the cause under it), on either driver's path.
    const failed = await withFastRows(query('fast_rows_failing'), ['rendering'])
      .execute({ chatId: 'not a number', language: 'es' })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(DrizzleQueryError);
    expect((failed as DrizzleQueryError).message).toMatch(/^Failed query: select/);

    // A whole table, flat.
    const flat = (name: string) => db.select().from(chatMembers).where(eq(chatMembers.chatId, sql.placeholder('chatId'))).prepare(name);
    const plain = await flat('fast_rows_flat_drizzle').execute({ chatId: chat!.id });
    const planned2 = await withFastRows(flat('fast_rows_flat_planned')).execute({ chatId: chat!.id });
    expect(planned2).toEqual(plain);
    expect(planned2[0]!.joinedAt).toBeInstanceOf(Date);
    expect(planned2[0]!.leftAt).toBeNull();
  });

  it('a segment’s snapshot in one statement (lists as JSON mapped by the tables’ columns) equals its rows read one by one', async () => {
    const { db } = database;
    const repo = createRoomsRepository(db);
    const people = await db
      .insert(users)
      .values([
        { email: 'snapshot-speaker@example.com', passwordHash: 'x', fullName: 'Ada Speaker', language: 'en' },
        { email: 'snapshot-listener@example.com', passwordHash: 'x', fullName: null, language: 'es' },
        { email: 'snapshot-invited@example.com', passwordHash: 'x', fullName: 'Not Yet', language: 'fr' },
      ])
      .returning();
    const [room] = await db.insert(rooms).values({ title: 'Snapshot', description: null, languages: ['en', 'es', 'fr'], domain: 'BUSINESS' }).returning();
    const [speaker, listener] = await db
      .insert(roomParticipants)
      .values([
        { roomId: room!.id, userId: people[0]!.id, roomRole: 1, alias: 'Ada', language: 'en', maleVoice: false },
        { roomId: room!.id, userId: people[1]!.id, roomRole: 2, alias: 'Ben', language: 'es', maleVoice: true, tone: 'FORMAL' },
        { roomId: room!.id, userId: people[2]!.id, roomRole: 2, alias: 'Cleo', language: 'fr', joinedAt: null },
      ])
      .returning();
    const [segment] = await db
      .insert(segments)
      .values({ roomId: room!.id, speakerId: speaker!.id, language: 'en', audioKey: 'rooms/1/a.wav', durationSeconds: 1.3, transcription: 'done', transcript: 'Hello there', editedAt: new Date(Date.now() - 1234) })
      .returning();
    const [empty] = await db.insert(segments).values({ roomId: room!.id, speakerId: speaker!.id, language: 'en', audioKey: 'rooms/1/b.wav', durationSeconds: 2, transcription: 'pending' }).returning();
    await db.insert(segmentRenderings).values([
      { segmentId: segment!.id, language: 'es', tone: 'FORMAL', version: 1, state: 'done', transcript: 'Hola', machineTranscript: 'Hola allí', correctedBy: listener!.id, correctedAt: new Date(), missedTerms: ['there', 'a "quoted", term'] },
      { segmentId: segment!.id, language: 'fr', tone: 'DEFAULT', version: 1, state: 'pending' },
    ]);
    await db.insert(segmentVoices).values({ segmentId: segment!.id, language: 'es', tone: 'FORMAL', male: true, version: 1, state: 'done', audioKey: 'rooms/1/c.ogg' });
    await db.insert(segmentTones).values({ segmentId: segment!.id, participantId: listener!.id, tone: 'CASUAL' });

    const snapshot = await repo.segmentSnapshot(segment!.id);
    const [plain] = await repo.listSegments(room!.id, { limit: 1, offset: 0, id: segment!.id }).then((page) => page.rows);
    expect(snapshot?.item).toEqual(plain);
    expect(snapshot?.item.segment.editedAt).toBeInstanceOf(Date);
    expect(snapshot?.domain).toBe('BUSINESS');
    const context = await repo.renderingsOf([segment!.id]);
    const byKey = <T extends { language: string; tone: string }>(rows: T[]) => [...rows].sort((a, b) => `${a.language}${a.tone}`.localeCompare(`${b.language}${b.tone}`));
    expect(byKey(snapshot!.context.renderings)).toEqual(byKey(context.renderings));
    expect(snapshot!.context.renderings.find((row) => row.language === 'es')?.correctedAt).toBeInstanceOf(Date);
    expect(snapshot!.context.renderings.find((row) => row.language === 'es')?.missedTerms).toEqual(['there', 'a "quoted", term']);
    expect(snapshot!.context.voices).toEqual(context.voices);
    expect(snapshot!.context.tones).toEqual(context.tones);
    expect([...snapshot!.context.correctors]).toEqual([...context.correctors]);
    expect([...snapshot!.context.correctors]).toEqual([[listener!.id, 'Ben']]);
    // The listeners: those who joined (not the invited), with their accounts' full names.
    const joined = await db.select().from(roomParticipants).where(and(eq(roomParticipants.roomId, room!.id), sql`${roomParticipants.joinedAt} is not null`));
    const listeners = [...snapshot!.listeners].sort((a, b) => a.id - b.id);
    expect(listeners).toEqual(joined.sort((a, b) => a.id - b.id).map((row, index) => ({ ...row, fullName: index === 0 ? 'Ada Speaker' : null })));
    expect(listeners[0]!.joinedAt).toBeInstanceOf(Date);

    // A segment with nothing yet: empty lists; a segment that is not there: nothing.
    const bare = await repo.segmentSnapshot(empty!.id);
    expect(bare?.context).toEqual({ renderings: [], voices: [], tones: [], correctors: new Map() });
    expect(bare?.listeners).toHaveLength(2);
    expect(await repo.segmentSnapshot(empty!.id + 1000)).toBeUndefined();
  });

  it('a render’s writes (prepared, rows as JSON) save, answer the rows as read back, and keep what is newer or corrected', async () => {
    const { db } = database;
    const repo = createRoomsRepository(db);
    const [user] = await db.insert(users).values({ email: 'render-writes@example.com', passwordHash: 'x', fullName: 'Writer', language: 'en' }).returning();
    const [room] = await db.insert(rooms).values({ title: 'Writes', description: null, languages: ['en', 'es', 'fr'] }).returning();
    const [speaker] = await db.insert(roomParticipants).values({ roomId: room!.id, userId: user!.id, roomRole: 1, alias: 'W', language: 'en' }).returning();
    const [segment] = await db.insert(segments).values({ roomId: room!.id, speakerId: speaker!.id, language: 'en', audioKey: 'rooms/1/w.wav', durationSeconds: 1, transcription: 'done', transcript: 'Hi' }).returning();
    const id = segment!.id;
    const readBack = async () => (await repo.renderingsOf([id])).renderings.sort((a, b) => a.language.localeCompare(b.language));

    const saved = await repo.saveRenderings([
      { segmentId: id, version: 1, language: 'es', tone: 'DEFAULT', state: 'done', transcript: 'Hola "tú"\n¿qué?', renderedTone: 'DEFAULT', missedTerms: ['a "quoted", term'] },
      { segmentId: id, version: 1, language: 'fr', tone: 'DEFAULT', state: 'none', transcript: null, renderedTone: null, missedTerms: [] },
    ]);
    expect(saved.sort((a, b) => a.language.localeCompare(b.language))).toEqual(await readBack());
    expect(saved[0]).toMatchObject({ transcript: 'Hola "tú"\n¿qué?', missedTerms: ['a "quoted", term'], previousTranscript: null });
    expect(saved[0]!.updatedAt).toBeInstanceOf(Date);
    expect(saved[1]).toMatchObject({ state: 'none', transcript: null, missedTerms: null });

    // A listener corrects the Spanish text: the same version's machine text does not replace it.
    await db.update(segmentRenderings).set({ machineTranscript: 'Hola "tú"\n¿qué?', transcript: 'Hola, tú', correctedBy: speaker!.id, correctedAt: new Date() }).where(and(eq(segmentRenderings.segmentId, id), eq(segmentRenderings.language, 'es')));
    expect(await repo.saveRenderings([{ segmentId: id, version: 1, language: 'es', tone: 'DEFAULT', state: 'done', transcript: 'otra', renderedTone: 'DEFAULT' }])).toEqual([]);
    // A new version replaces it and keeps the text before it for the word diff; an older one changes nothing.
    const [next] = await repo.saveRenderings([{ segmentId: id, version: 2, language: 'es', tone: 'DEFAULT', state: 'done', transcript: 'Hola a todos', renderedTone: 'DEFAULT' }]);
    expect(next).toMatchObject({ version: 2, transcript: 'Hola a todos', previousTranscript: 'Hola, tú', machineTranscript: null, correctedBy: null, correctedAt: null, missedTerms: null });
    expect(await repo.saveRenderings([{ segmentId: id, version: 1, language: 'es', tone: 'DEFAULT', state: 'done', transcript: 'vieja', renderedTone: 'DEFAULT' }])).toEqual([]);

    const voices = await repo.saveVoices([
      { segmentId: id, version: 2, language: 'es', tone: 'DEFAULT', male: true, state: 'done', audioKey: 'rooms/1/m.ogg' },
      { segmentId: id, version: 2, language: 'es', tone: 'DEFAULT', male: false, state: 'none', audioKey: null },
    ]);
    expect(voices.sort((a, b) => Number(b.male) - Number(a.male))).toEqual((await repo.renderingsOf([id])).voices.sort((a, b) => Number(b.male) - Number(a.male)));
    expect(voices[0]).toMatchObject({ male: true, state: 'done', audioKey: 'rooms/1/m.ogg', version: 2 });
    expect(voices[0]!.updatedAt).toBeInstanceOf(Date);
    // The same version again is saved (a voice made again), an older one is not.
    expect(await repo.saveVoices([{ segmentId: id, version: 2, language: 'es', tone: 'DEFAULT', male: true, state: 'done', audioKey: 'rooms/1/m2.ogg' }])).toMatchObject([{ audioKey: 'rooms/1/m2.ogg' }]);
    expect(await repo.saveVoices([{ segmentId: id, version: 1, language: 'es', tone: 'DEFAULT', male: true, state: 'done', audioKey: 'rooms/1/old.ogg' }])).toEqual([]);
    expect(await repo.saveVoices([])).toEqual([]);
  });
});

describe('timestamps read digit by digit', () => {
  it('give the Date new Date() gives for every shape PostgreSQL writes, and for shapes it does not', () => {
    const texts = [
      '2026-11-28 15:49:52+00',
      '2026-11-28 15:49:52.1+00',
      '2026-11-28 15:49:52.12+00',
      '2026-11-28 15:49:52.123+00',
      '2026-11-28 15:49:52.123999+00',
      '2026-11-28 15:49:52.000001+05:30',
      '2026-11-28 15:49:52.5-03',
      '2026-11-28 15:49:52-09:45',
      '1999-12-31 23:59:59.999999+14',
      '2024-02-29 00:00:00+00',
      '1000-01-01 00:00:00+00',
      '0099-01-01 00:00:00+00',
      '2026-11-28 15:49:52 BC+00',
      '12026-11-28 15:49:52+00',
      '2026-11-28 15:49:52.1234567+00',
      '2026-11-28 15:49:52+05:30:15',
      '2026-11-28T15:49:52+00',
      '2026-11-28 15:49:52.+00',
      '2026-13-01 00:00:00+00',
      'infinity',
      '-infinity',
    ];
    for (const text of texts) expect([text, parseTimestamptz(text).getTime()]).toEqual([text, new Date(text).getTime()]);
  });
});
