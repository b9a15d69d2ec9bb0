// Per-reader translation through providers: an OpenAI-compatible stand-in (one request per message
// for every target; a repeat costs none; failures retried, then marked failed) and the real
// Apertium APY of the embedded default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, eventually, person, post, send, setReading, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect } from './live-helpers';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

const read = async (who: Person, chatId: number, messageId: number) => (await who.client.get(`/api/chat/${chatId}/messages/${messageId}/`)).body;

describe('through an OpenAI-compatible server', () => {
  let standIn: StandIn;
  let server: TestServer;
  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    server = await startServer({
      OPENAI_BASE_URL: standIn.baseUrl,
      TRANSLATION_MODEL: 'stand-in',
      TRANSLATION_RETRIES: '2',
      TRANSLATION_RETRY_DELAY_SECONDS: '1',
      RATE_LIMIT_MESSAGES: '0',
    });
  });
  afterAll(async () => {
    await server.close();
    await standIn.close();
  });

  it('renders and pushes the newest version when a message is edited twice at once', async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana, { title: 'Quick', languages: ['en', 'es'] });
    const reader = await person(server);
    await addMember(ana, chat.id, reader);
    await setReading(reader, chat.id, 'es');
    const socket = await connect(server.url, reader);
    try {
      expect(await socket.subscribe(chat.id)).toEqual({ ok: true });
      const messages = [];
      for (let i = 0; i < 5; i++) {
        const message = await post(ana, chat.id, `Draft ${i}`);
        // Both edits leave while the first version's job still waits.
        const edits = await Promise.all([`Second ${i}`, `Third ${i}`].map((content) => send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${message.id}/`, { content })));
        for (const edit of edits) expect(edit.status).toBe(200);
        messages.push(message.id);
      }
      for (const id of messages) {
        const stored = (await ana.client.get(`/api/chat/${chat.id}/messages/${id}/`)).body;
        const newest = `[es DEFAULT] ${stored.content}`;
        const seen = await eventually(() => read(reader, chat.id, id), (m) => m.translation === 'done', 20_000);
        expect(seen.content).toBe(newest);
        await socket.next('message:rendered', (p) => p.message.id === id && p.message.content === newest, 20_000);
      }
    } finally {
      socket.close();
    }
  });

  it('stores what the provider writes without control or bidi-override characters', async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana, { title: 'Clean', languages: ['en', 'es'] });
    const reader = await person(server);
    await addMember(ana, chat.id, reader);
    await setReading(reader, chat.id, 'es');
    standIn.translationSuffix(' \u202Eexe.jpg\u0085\ufeff\u2066!\u2069\u0000');
    try {
      const message = await post(ana, chat.id, 'Open the file');
      const seen = await eventually(() => read(reader, chat.id, message.id), (m) => m.translation === 'done');
      expect(seen.content).toBe('[es DEFAULT] Open the file exe.jpg!');
    } finally {
      standIn.translationSuffix('');
    }
  });

  it('renders a message for 5 (language, tone) readers with one provider call, and a repeat with none', async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana, { title: 'World', languages: ['en', 'es', 'de', 'fr'] });
    const readers: [Person, string, string][] = [];
    for (const [language, tone] of [
      ['es', 'DEFAULT'],
      ['es', 'FORMAL'],
      ['de', 'CASUAL'],
      ['fr', 'DEFAULT'],
      ['en', 'FRIENDLY'],
    ]) {
      const reader = await person(server);
      await addMember(ana, chat.id, reader);
      await setReading(reader, chat.id, language!, tone);
      readers.push([reader, language!, tone!]);
    }
    const before = standIn.completions().length;
    const message = await post(ana, chat.id, 'See you at noon');
    expect(message).toMatchObject({ content: 'See you at noon', translation: 'none' });

    for (const [reader, language, tone] of readers) {
      const seen = await eventually(() => read(reader, chat.id, message.id), (m) => m.translation === 'done');
      expect(seen).toMatchObject({
        content: `[${language} ${tone}] See you at noon`,
        language,
        tone,
        rawMessage: { id: message.id, language: 'en', content: 'See you at noon' },
        isMe: false,
      });
    }
    const calls = standIn.completions().slice(before);
    expect(calls).toHaveLength(1);
    const instruction = (calls[0]!.body as { messages: { role: string; content: string }[] }).messages[0]!.content;
    expect(instruction.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(5);
    expect(instruction).toContain('written in English (en)');

    // The same text again: every rendering from the cache, no provider call.
    const again = await post(ana, chat.id, 'See you at noon');
    for (const [reader] of readers) await eventually(() => read(reader, chat.id, again.id), (m) => m.translation === 'done');
    expect(standIn.completions().slice(before)).toHaveLength(1);
  });

  it('re-renders an edited message, and a reader who changes language gets the old messages in the new one', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const chat = await createChat(ana, { title: 'Edit', languages: ['en', 'es', 'it'] });
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    const message = await post(ana, chat.id, 'First draft');
    await eventually(() => read(ben, chat.id, message.id), (m) => m.content === '[es DEFAULT] First draft');
    await send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${message.id}/`, { content: 'Final text' });
    await eventually(() => read(ben, chat.id, message.id), (m) => m.content === '[es DEFAULT] Final text' && m.edited === true);
    await setReading(ben, chat.id, 'it');
    const page = await eventually(
      async () => (await ben.client.get(`/api/chat/${chat.id}/messages/`)).body,
      (body) => body.results[0]?.translation === 'done',
    );
    expect(page.results[0]).toMatchObject({ content: '[it DEFAULT] Final text', language: 'it' });
  });

  it('retries a failing provider and the message still arrives translated', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const chat = await createChat(ana, { title: 'Flaky', languages: ['en', 'es'] });
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    standIn.failNext(2);
    const message = await post(ana, chat.id, 'Eventually fine');
    const first = await read(ben, chat.id, message.id);
    expect(first).toMatchObject({ translation: 'pending', content: 'Eventually fine', rawMessage: null });
    const seen = await eventually(() => read(ben, chat.id, message.id), (m) => m.translation !== 'pending', 30_000);
    expect(seen).toMatchObject({ translation: 'done', content: '[es DEFAULT] Eventually fine' });
  });

  it('after the last try delivers the original, marked failed', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const chat = await createChat(ana, { title: 'Down', languages: ['en', 'es'] });
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    standIn.failAlways(true);
    try {
      const message = await post(ana, chat.id, 'Nobody translates this');
      const seen = await eventually(() => read(ben, chat.id, message.id), (m) => m.translation !== 'pending', 30_000);
      expect(seen).toMatchObject({ translation: 'failed', content: 'Nobody translates this', language: 'en', tone: 'DEFAULT', rawMessage: null });
    } finally {
      standIn.failAlways(false);
    }
  });
});

describe('through Apertium (the embedded default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRANSLATION_PROVIDER: 'apertium', RATE_LIMIT_MESSAGES: '0' });
  });
  afterAll(() => server.close());

  it('an English message reaches a Spanish member in Spanish; tone and unreachable languages are said plainly', async () => {
    const status = await server.client().get('/api/status/');
    expect(status.body.translation).toBe('ok');
    const ana = await person(server, 'Ana');
    const [ben, cy, dai] = await Promise.all([person(server, 'Ben'), person(server, 'Cy'), person(server, 'Dai')]);
    const chat = await createChat(ana, { title: 'Amigos', languages: ['en', 'es', 'ja'] });
    for (const member of [ben, cy, dai]) await addMember(ana, chat.id, member);
    await setReading(ben, chat.id, 'es');
    await setReading(cy, chat.id, 'es', 'FORMAL');
    await setReading(dai, chat.id, 'ja');
    const message = await post(ana, chat.id, 'The cat is black.');
    const spanish = await eventually(() => read(ben, chat.id, message.id), (m) => m.translation === 'done');
    expect(spanish.content).toMatch(/gato/i);
    expect(spanish).toMatchObject({ language: 'es', tone: 'DEFAULT', rawMessage: { content: 'The cat is black.' } });
    // Apertium knows no tone: the formal reader gets the same Spanish, with tone DEFAULT.
    const formal = await eventually(() => read(cy, chat.id, message.id), (m) => m.translation === 'done');
    expect(formal).toMatchObject({ content: spanish.content, tone: 'DEFAULT' });
    // No pair reaches Japanese: the original, said to be untranslated.
    expect(await read(dai, chat.id, message.id)).toMatchObject({ translation: 'none', content: 'The cat is black.', language: 'en' });
  });
});

describe('GET /api/translation/', () => {
  it('says what each provider can do: languages reached, tone, and the languages transcribed', async () => {
    const none = await startServer({ TRANSLATION_PROVIDER: 'none', STT_PROVIDER: 'none' });
    const apertium = await startServer({ TRANSLATION_PROVIDER: 'apertium', STT_PROVIDER: 'none' });
    const openai = await startServer({ TRANSLATION_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    try {
      expect((await none.client().get('/api/translation/')).body).toEqual({ provider: 'none', supportsTone: false, reach: {}, transcribes: [] });
      const local = (await apertium.client().get('/api/translation/')).body;
      expect(local).toMatchObject({ provider: 'apertium', supportsTone: false });
      expect(local.reach.en).toContain('es');
      expect(local.reach.en).not.toContain('ja');
      expect(local.reach.ja).toBeUndefined();
      // A server's speech-to-text (STT_PROVIDER auto with OPENAI_BASE_URL) hears every language.
      expect((await openai.client().get('/api/translation/')).body).toEqual({ provider: 'openai', supportsTone: true, reach: null, transcribes: null });
    } finally {
      await Promise.all([none.close(), apertium.close(), openai.close()]);
    }
  });
});
