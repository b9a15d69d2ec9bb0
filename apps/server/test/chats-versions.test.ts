// Earlier versions of an edited message (issue 34) through the API: each edit keeps the text it
// replaced; a member reads them in their own language and tone (rendered on demand, the cache
// answering for texts translated when current), a stranger gets 404, a deleted message takes them along.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, eventually, person, post, send, setReading } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

let standIn: StandIn;
let server: TestServer;

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  server = await startServer({ OPENAI_BASE_URL: standIn.baseUrl, TRANSLATION_MODEL: 'stand-in', STT_PROVIDER: 'none', TTS_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0' });
});
afterAll(async () => {
  await server?.close();
  await standIn?.close();
});

interface Versions {
  messageId: number;
  results: { version: number; written: string; language: string; content: string; translation: string; original: { language: string; content: string } }[];
}

describe('earlier versions of a message', () => {
  it('each edit keeps the text it replaced, read in the reader’s language, the newest first', async () => {
    const [ana, ben, zed] = await Promise.all([person(server, 'Ana'), person(server, 'Ben'), person(server, 'Zed')]);
    const chat = await createChat(ana, { title: 'Team', languages: ['en', 'es'] });
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es', 'FORMAL');
    const posted = await post(ana, chat.id, 'The launch is on Monday');
    const url = `/api/chat/${chat.id}/messages/${posted.id}/versions/`;
    // Never edited: no earlier version.
    expect((await ben.client.get(url)).body).toEqual({ messageId: posted.id, results: [] });
    // Ben's rendering of the first text is made while it is current.
    await eventually(
      async () => (await ben.client.get(`/api/chat/${chat.id}/messages/${posted.id}/`)).body as { translation: string },
      (message) => message.translation === 'done',
    );
    const firstWritten = (await ana.client.get(`/api/chat/${chat.id}/messages/${posted.id}/`)).body.created as string;

    expect((await send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${posted.id}/`, { content: 'The launch is on Tuesday' })).status).toBe(200);
    const firstEdit = (await ana.client.get(`/api/chat/${chat.id}/messages/${posted.id}/`)).body;
    expect(firstEdit).toMatchObject({ edited: true, content: 'The launch is on Tuesday' });
    expect((await send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${posted.id}/`, { content: 'The launch is on Wednesday' })).status).toBe(200);

    const before = standIn.completions().length;
    const versions = (await ben.client.get(url)).body as Versions;
    expect(versions.messageId).toBe(posted.id);
    expect(versions.results).toEqual([
      {
        version: 2,
        written: expect.any(String),
        language: 'es',
        content: '[es FORMAL] The launch is on Tuesday',
        translation: 'done',
        original: { language: 'en', content: 'The launch is on Tuesday' },
      },
      { version: 1, written: firstWritten, language: 'es', content: '[es FORMAL] The launch is on Monday', translation: 'done', original: { language: 'en', content: 'The launch is on Monday' } },
    ]);
    expect(Date.parse(versions.results[0]!.written)).toBeGreaterThan(Date.parse(firstWritten));
    // The first text was translated for Ben when it was current: the cache answered for it.
    expect(standIn.completions().length - before).toBeLessThanOrEqual(1);
    // The writer reads them as written.
    expect(((await ana.client.get(url)).body as Versions).results.map((version) => [version.content, version.translation])).toEqual([
      ['The launch is on Tuesday', 'none'],
      ['The launch is on Monday', 'none'],
    ]);

    // A stranger, and a message of another chat: 404.
    expect((await zed.client.get(url)).status).toBe(404);
    const elsewhere = await createChat(zed, { title: 'Elsewhere', languages: ['en'] });
    expect((await zed.client.get(`/api/chat/${elsewhere.id}/messages/${posted.id}/versions/`)).status).toBe(404);
    // Deleted, the message takes its versions along.
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/messages/${posted.id}/`)).status).toBe(204);
    expect((await ben.client.get(url)).status).toBe(404);
  });
});
