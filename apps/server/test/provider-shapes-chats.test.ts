// What readers of a chat get when the OpenAI-compatible server answers the way real ones sometimes
// do (test/stand-ins/openai.ts `misbehave`): JSON in a fence or with words around it (repaired),
// an answer cut by the length limit (not trusted: asked again, in halves), targets left out (the
// others kept, only those asked again), entries nobody asked for (ignored), 429 with Retry-After
// (waited for), no structured output (a plainer format, remembered). Every shape ends with each
// reader's message translated or, after the last try, the original marked failed; every call of
// the API answers 2xx meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, eventually, person, post, setReading, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { startOpenAiStandIn, type RecordedRequest, type StandIn } from './stand-ins/openai';

/** Few, short retries: a shape that never heals settles as failed in a few seconds. */
const ENV = { TRANSLATION_MODEL: 'stand-in', TRANSLATION_RETRIES: '2', TRANSLATION_RETRY_DELAY_SECONDS: '1', RATE_LIMIT_MESSAGES: '0' };

interface Reader {
  who: Person;
  language: string;
  tone: string;
}

interface World {
  server: TestServer;
  standIn: StandIn;
  ana: Person;
  chatId: number;
  readers: Reader[];
}

async function world(server: TestServer, standIn: StandIn, groups: [string, string][]): Promise<World> {
  const ana = await person(server, 'Ana');
  const languages = ['en', ...new Set(groups.map(([language]) => language))];
  const chat = await createChat(ana, { title: 'Shapes', languages });
  const readers = await Promise.all(
    groups.map(async ([language, tone]): Promise<Reader> => {
      const who = await person(server);
      await addMember(ana, chat.id, who);
      await setReading(who, chat.id, language, tone);
      return { who, language, tone };
    }),
  );
  return { server, standIn, ana, chatId: chat.id, readers };
}

/** The message as `reader` reads it through the API (always a 200). */
async function read(w: World, reader: Reader, messageId: number) {
  const answer = await reader.who.client.get(`/api/chat/${w.chatId}/messages/${messageId}/`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** Each reader's view once their rendering is no longer pending. */
const settled = (w: World, messageId: number, timeoutMs = 30_000) =>
  Promise.all(w.readers.map((reader) => eventually(() => read(w, reader, messageId), (m) => m.translation !== 'pending', timeoutMs)));

const rendering = (text: string, reader: Pick<Reader, 'language' | 'tone'>) => `[${reader.language} ${reader.tone}] ${text}`;

/** Every reader got `text` in their language and tone. */
async function expectTranslated(w: World, messageId: number, text: string) {
  const views = await settled(w, messageId);
  w.readers.forEach((reader, index) => {
    expect(views[index], `${reader.language} ${reader.tone}`).toMatchObject({
      translation: 'done',
      content: rendering(text, reader),
      language: reader.language,
      tone: reader.tone,
      rawMessage: { id: messageId, language: 'en', content: text },
    });
  });
}

const callsFor = (standIn: StandIn, text: string) => standIn.completions().filter((request) => standIn.textOf(request) === text);
const formatOf = (request: RecordedRequest) => (request.body as { response_format?: { type?: string } }).response_format?.type ?? 'none';

describe.concurrent('a chat whose OpenAI-compatible server misbehaves', { timeout: 60_000 }, () => {
  let standIn: StandIn;
  let server: TestServer;
  let w: World;
  /** The Spanish (DEFAULT) reader's live connection. */
  let spanish: LiveClient;
  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    server = await startServer({ OPENAI_BASE_URL: standIn.baseUrl, ...ENV });
    w = await world(server, standIn, [
      ['es', 'DEFAULT'],
      ['es', 'FORMAL'],
      ['de', 'CASUAL'],
      ['fr', 'DEFAULT'],
    ]);
    spanish = await connect(server.url, w.readers[0]!.who);
    expect(await spanish.subscribe(w.chatId)).toEqual({ ok: true });
  }, 120_000);
  afterAll(async () => {
    spanish?.close();
    await server?.close();
    await standIn?.close();
  });

  it('repairs an answer in a ```json fence or with words around the object, without asking again', async () => {
    const fenced = 'The parcel arrives on Monday';
    const chatty = 'Lunch is at the usual place';
    standIn.misbehave('completions', { kind: 'fenced' }, { when: fenced, times: Infinity });
    standIn.misbehave('completions', { kind: 'chatty' }, { when: chatty, times: Infinity });
    await Promise.all(
      [fenced, chatty].map(async (text) => {
        const message = await post(w.ana, w.chatId, text);
        await expectTranslated(w, message.id, text);
        expect(callsFor(standIn, text)).toHaveLength(1);
      }),
    );
  });

  it('does not trust an answer cut by the length limit: asks again, in halves, and never shows a cut text', async () => {
    // Complete JSON whose texts were cut (finish_reason length), once.
    const cutShort = 'Please bring the signed contract to the meeting tomorrow';
    // Too long for the model's limit with four targets, fine with two.
    const tooLong = 'The quarterly report needs every figure checked twice';
    // Cut part way by a proxy (finish_reason stop), once: a plain retry.
    const cutOnce = 'The printer on the second floor is fixed';
    // Cut whatever is asked: after the last try, the original marked failed.
    const alwaysCut = 'Nobody will ever read this whole sentence';
    standIn.misbehave('completions', { kind: 'cut-short' }, { when: cutShort });
    standIn.misbehave('completions', { kind: 'too-long-over', targets: 2 }, { when: tooLong, times: Infinity });
    standIn.misbehave('completions', { kind: 'truncated', finishReason: 'stop' }, { when: cutOnce });
    standIn.misbehave('completions', { kind: 'truncated' }, { when: alwaysCut, times: Infinity });
    const [a, b, c, d] = await Promise.all([cutShort, tooLong, cutOnce, alwaysCut].map((text) => post(w.ana, w.chatId, text)));
    await Promise.all([expectTranslated(w, a!.id, cutShort), expectTranslated(w, b!.id, tooLong), expectTranslated(w, c!.id, cutOnce)]);
    // Asked for four at once, then for two and two.
    expect(callsFor(standIn, tooLong).map((request) => standIn.targetsOf(request).length)).toEqual([4, 2, 2]);
    const failed = await settled(w, d!.id);
    for (const view of failed) expect(view).toMatchObject({ translation: 'failed', content: alwaysCut, language: 'en', tone: 'DEFAULT', rawMessage: null });
  });

  it('keeps the targets that came back and asks again only for the one left out', async () => {
    const once = 'The train leaves from platform four';
    const always = 'The garden party is cancelled';
    standIn.misbehave('completions', { kind: 'leave-out', language: 'de' }, { when: once });
    standIn.misbehave('completions', { kind: 'leave-out', language: 'de' }, { when: always, times: Infinity });
    const [first, second] = await Promise.all([post(w.ana, w.chatId, once), post(w.ana, w.chatId, always)]);

    // Left out every time: the others read it translated (pushed live), the German reader gets
    // the original, marked failed.
    const views = await settled(w, second!.id);
    w.readers.forEach((reader, index) => {
      if (reader.language === 'de') expect(views[index]).toMatchObject({ translation: 'failed', content: always, language: 'en', rawMessage: null });
      else expect(views[index]).toMatchObject({ translation: 'done', content: rendering(always, reader) });
    });
    await spanish.next('message:rendered', (p) => p.message.id === second!.id && p.message.content === rendering(always, w.readers[0]!));
    const alwaysCalls = callsFor(standIn, always);
    expect(alwaysCalls.length).toBe(3);
    for (const retry of alwaysCalls.slice(1)) expect(standIn.targetsOf(retry)).toEqual(['de CASUAL']);

    // Left out once: everyone reads it translated, and the retry asked for German alone.
    await expectTranslated(w, first!.id, once);
    const onceCalls = callsFor(standIn, once);
    expect(onceCalls.map((request) => standIn.targetsOf(request).sort())).toEqual([['de CASUAL', 'es DEFAULT', 'es FORMAL', 'fr DEFAULT'], ['de CASUAL']]);
  });

  it('ignores entries nobody asked for and reads targets written loosely', async () => {
    const extras = 'The meeting room is booked until five';
    const loose = 'Coffee is on the table';
    standIn.misbehave('completions', { kind: 'extras' }, { when: extras, times: Infinity });
    standIn.misbehave('completions', { kind: 'loose-labels' }, { when: loose, times: Infinity });
    await Promise.all(
      [extras, loose].map(async (text) => {
        const message = await post(w.ana, w.chatId, text);
        await expectTranslated(w, message.id, text);
        expect(callsFor(standIn, text)).toHaveLength(1);
      }),
    );
  });

  it('waits as long as a 429 asks (Retry-After) before asking again; readers see it pending meanwhile', async () => {
    const text = 'The server room is too warm again';
    standIn.misbehave('completions', { kind: 'status', status: 429, retryAfter: '6' }, { when: text });
    const message = await post(w.ana, w.chatId, text);
    await eventually(async () => callsFor(standIn, text), (calls) => calls.length === 1);
    expect(await read(w, w.readers[2]!, message.id)).toMatchObject({ translation: 'pending', content: text });
    await expectTranslated(w, message.id, text);
    const calls = callsFor(standIn, text);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(5900);
  });
});

describe('a server without structured output (response_format)', () => {
  let standIn: StandIn;
  let server: TestServer;
  let w: World;
  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    server = await startServer({ OPENAI_BASE_URL: standIn.baseUrl, ...ENV });
    w = await world(server, standIn, [
      ['es', 'DEFAULT'],
      ['de', 'FORMAL'],
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await standIn?.close();
  });

  it('falls back to json_object, then to the instruction alone, and remembers each step', { timeout: 60_000 }, async () => {
    const asked = async (text: string) => {
      const message = await post(w.ana, w.chatId, text);
      await expectTranslated(w, message.id, text);
      return callsFor(standIn, text).map(formatOf);
    };
    // json_schema refused, with OpenAI's error body naming response_format.
    standIn.refuseResponseFormats(['json_schema'], 'openai');
    expect(await asked('Welcome to the team')).toEqual(['json_schema', 'json_object']);
    expect(await asked('See you on Friday')).toEqual(['json_object']);
    // Then json_object too, with vLLM's error body (at the top: the SDK reads no message from it).
    // Without a format the stand-in writes its JSON in a ```json fence: repaired too.
    standIn.refuseResponseFormats(['json_schema', 'json_object'], 'vllm');
    expect(await asked('The office is closed on Monday')).toEqual(['json_object', 'none']);
    expect(await asked('Thanks for the flowers')).toEqual(['none']);
  });
});
