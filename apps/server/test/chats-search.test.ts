// Search across languages (issue 18): a Spanish reader finds an English message by a Spanish word
// through its Spanish rendering (real Apertium), and by the English word through its original;
// each text is matched in its own language's terms (stems), only in the searcher's chats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, eventually, person, post, send, setReading, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { eq } from 'drizzle-orm';
import { chatMessages } from '../src/platform/db/schema';

const search = async (who: Person, query: Record<string, string | number>) => {
  const params = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]));
  return who.client.get(`/api/chat/search/?${params}`);
};
const idsOf = (body: { results: { message: { id: number } }[] }) => body.results.map((result) => result.message.id);

describe('GET /api/chat/search/', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRANSLATION_PROVIDER: 'apertium', RATE_LIMIT_MESSAGES: '0' });
  });
  afterAll(() => server.close());

  it('finds an English message by a Spanish word through the reader’s rendering, and by an English word through the original', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const stranger = await person(server, 'Zed');
    const chat = await createChat(ana, { title: 'Planning', languages: ['en', 'es'] });
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    const meeting = await post(ana, chat.id, 'The meeting is at ten.');
    const other = await post(ana, chat.id, 'The cat is black.');
    await eventually(() => ben.client.get(`/api/chat/${chat.id}/messages/${meeting.id}/`).then((answer) => answer.body), (m) => m.translation === 'done', 30_000);
    await eventually(() => ben.client.get(`/api/chat/${chat.id}/messages/${other.id}/`).then((answer) => answer.body), (m) => m.translation === 'done', 30_000);

    // "reuniones" (plural) finds "reunión" in Ben's Spanish rendering: Spanish stems.
    const spanish = await search(ben, { q: 'reuniones' });
    expect(spanish.status).toBe(200);
    expect(idsOf(spanish.body)).toEqual([meeting.id]);
    const [hit] = spanish.body.results;
    expect(hit.chat).toEqual({ id: chat.id, title: 'Planning' });
    expect(hit.message).toMatchObject({ id: meeting.id, language: 'es', translation: 'done', rawMessage: { content: 'The meeting is at ten.' } });
    expect(hit.message.content).toMatch(/reunión/i);
    expect(hit.highlights.map((word: string) => word.toLowerCase())).toContain('reunión');

    // "meetings" finds the English original: English stems.
    const english = await search(ben, { q: 'meetings' });
    expect(idsOf(english.body)).toEqual([meeting.id]);
    expect(english.body.results[0].highlights).toContain('meeting');

    // Ana reads in English: no Spanish rendering of hers says "reunión".
    expect(idsOf((await search(ana, { q: 'reunión' })).body)).toEqual([]);
    expect(idsOf((await search(ana, { q: 'meeting' })).body)).toEqual([meeting.id]);
    // Phrases and exclusions (web search syntax); "or".
    expect(idsOf((await search(ana, { q: '"cat is black" or meeting' })).body)).toEqual([other.id, meeting.id].sort((a, b) => b - a));
    expect(idsOf((await search(ana, { q: 'cat -black' })).body)).toEqual([]);

    // A stranger finds nothing, and a chat not theirs is a 404.
    expect(idsOf((await search(stranger, { q: 'meeting' })).body)).toEqual([]);
    expect((await search(stranger, { q: 'meeting', chatId: chat.id })).status).toBe(404);
  });

  it('finds a month-old message under newer ones by a word of the reader’s language', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Archive', languages: ['en', 'es'] });
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    const old = await post(ana, chat.id, 'The invoice is ready.');
    await eventually(() => ben.client.get(`/api/chat/${chat.id}/messages/${old.id}/`).then((answer) => answer.body), (m) => m.translation === 'done', 30_000);
    // Written 35 days ago; 30 messages have come since.
    await server.app.ctx.db.update(chatMessages).set({ createdAt: new Date(Date.now() - 35 * 24 * 3600_000) }).where(eq(chatMessages.id, old.id));
    for (let i = 0; i < 30; i++) await post(ana, chat.id, `The cat is black ${i}.`);
    const found = await search(ben, { q: 'facturas' });
    expect(idsOf(found.body)).toEqual([old.id]);
    expect(found.body.results[0].message.content).toMatch(/factura/i);
    expect(Date.now() - Date.parse(found.body.results[0].message.created)).toBeGreaterThan(30 * 24 * 3600_000);
  });

  it('searches one chat or all, newest first, a page at a time', async () => {
    const ana = await person(server, 'Ana');
    const first = await createChat(ana, { title: 'First', languages: ['en'] });
    const second = await createChat(ana, { title: 'Second', languages: ['en'] });
    const ids: number[] = [];
    for (const [chatId, text] of [
      [first.id, 'budget draft one'],
      [second.id, 'budget draft two'],
      [first.id, 'budget draft three'],
      [first.id, 'nothing to see'],
    ] as const) {
      ids.push((await post(ana, chatId, text)).id);
    }
    const all = await search(ana, { q: 'budgets', limit: 2 });
    expect(idsOf(all.body)).toEqual([ids[2], ids[1]]);
    expect(all.body.next).toContain('toId=');
    const next = await ana.client.get(new URL(all.body.next).pathname + new URL(all.body.next).search);
    expect(idsOf(next.body)).toEqual([ids[0]]);
    expect(next.body.next).toBeNull();
    expect(idsOf((await search(ana, { q: 'budget', chatId: first.id })).body)).toEqual([ids[2], ids[0]]);
    // A word nobody wrote, and stop words only: nothing.
    expect(idsOf((await search(ana, { q: 'zebra' })).body)).toEqual([]);
    expect(idsOf((await search(ana, { q: 'the' })).body)).toEqual([]);
  });

  it('refuses an empty, a blank or a too long query with 400 on q, and needs a session', async () => {
    const ana = await person(server, 'Ana');
    for (const q of ['', '   ', 'x'.repeat(201)]) {
      const answer = await search(ana, { q });
      expect(answer.status, q).toBe(400);
      expect(answer.body.errors[0].attr).toBe('q');
    }
    expect((await ana.client.get('/api/chat/search/')).status).toBe(400);
    expect((await server.client().get('/api/chat/search/?q=meeting')).status).toBe(401);
    // Markup and quotes are words like any others: no error.
    expect((await search(ana, { q: '<@1> `code` "unclosed' })).status).toBe(200);
    expect((await send(ana, 'GET', '/api/chat/search/?q=a%00b')).status).toBe(400);
  });

  // Issue 31 (11): `q=-zzzz&limit=100` answered every message, 443 KB in ~700 ms, and slowed others.
  it('refuses a search of only excluded words, and pages of more than 25 results', async () => {
    const ana = await person(server, 'Ana');
    for (const q of ['-zzzz', '-zzzz -yyyy', '-"a phrase"', '-zzzz or -yyyy']) {
      const answer = await search(ana, { q });
      expect(answer.status, q).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ attr: 'q', code: 'invalid' });
      expect(answer.body.errors[0].detail).toMatch(/at least one word/);
    }
    expect((await search(ana, { q: 'meeting -zzzz' })).status).toBe(200);
    const tooMany = await search(ana, { q: 'meeting', limit: 100 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]).toMatchObject({ attr: 'limit', code: 'max_value' });
    expect((await search(ana, { q: 'meeting', limit: 25 })).status).toBe(200);
  });
});

describe('search counted in work', () => {
  it('answers 429 once a person’s searches took their seconds of the minute, and serves another person still', async () => {
    const server = await startServer({ TRANSLATION_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0', RATE_LIMIT_SEARCHES: '0', RATE_LIMIT_SEARCH_SECONDS: '1' });
    try {
      const ana = await person(server, 'Ana');
      const ben = await person(server, 'Ben');
      const chat = await createChat(ana, { title: 'Long', languages: ['en'] });
      await addMember(ana, chat.id, ben);
      const long = 'The plan for the budget meeting needs everyone to read the draft before Thursday. '.repeat(48);
      for (let i = 0; i < 100; i++) await post(ana, chat.id, `${i} ${long}`.slice(0, 4000));
      let status = 200;
      let searches = 0;
      const started = Date.now();
      while (status === 200 && Date.now() - started < 50_000) {
        status = (await search(ana, { q: 'budget', limit: 25 })).status;
        searches++;
      }
      expect(status).toBe(429);
      expect(searches).toBeGreaterThan(1);
      expect((await search(ben, { q: 'budget', limit: 25 })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
