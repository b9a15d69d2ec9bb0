// What listeners of a live room get when the OpenAI-compatible server behind transcription,
// translation and voices misbehaves (test/stand-ins/openai.ts `misbehave`): 5xx and 429 with
// Retry-After are retried (no sooner than asked), a voice that is no sound or not audio is marked
// failed rather than stored, a WAV voice is made Ogg Opus, a language left out of a translation
// fails alone. Each utterance is told apart by its size (the stand-in answers its own transcript),
// and each listener's view is followed on their live connection, then read again through GET.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWav } from '../src/domain/rendering/speech/audio';
import { runProcess } from '../src/platform/process';
import { CACHED_UTTERANCE_MAX } from '../src/features/rooms/service';
import { person, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { addParticipant, createRoom, setListening, setState, toneWav, upload, uploadForm } from './room-helpers';
import { EMPTY_OGG_OPUS, startOpenAiStandIn, type StandIn, type TranscriptionBody } from './stand-ins/openai';

let standIn: StandIn;
let server: TestServer;
let ana: Person;
/** Listens in Spanish (male voice) and in German (female voice). */
let ben: Person;
let cy: Person;
let benLive: LiveClient;
let cyLive: LiveClient;
let roomId: number;

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  server = await startServer({
    OPENAI_BASE_URL: standIn.baseUrl,
    TRANSLATION_MODEL: 'stand-in',
    STT_PROVIDER: 'openai',
    TTS_PROVIDER: 'openai',
    TRANSLATION_RETRIES: '2',
    TRANSLATION_RETRY_DELAY_SECONDS: '1',
    RATE_LIMIT_MESSAGES: '0',
  });
  [ana, ben, cy] = await Promise.all([person(server, 'Ana'), person(server, 'Ben'), person(server, 'Cy')]);
  const room = await createRoom(ana, { title: 'Shapes', languages: ['en', 'es', 'de'] });
  roomId = room.id;
  await addParticipant(ana, roomId, ben);
  await addParticipant(ana, roomId, cy);
  await setListening(ben, roomId, { language: 'es', maleVoice: true });
  await setListening(cy, roomId, { language: 'de', maleVoice: false });
  await setState(ana, roomId, 3002);
  benLive = await connect(server.url, ben);
  cyLive = await connect(server.url, cy);
  for (const live of [benLive, cyLive]) expect(await live.socket.timeout(5000).emitWithAck('room:subscribe', { roomId })).toEqual({ ok: true });
});
afterAll(async () => {
  benLive?.close();
  cyLive?.close();
  await server?.close();
  await standIn?.close();
});

let utterances = 0;
/** An utterance of its own size, which the stand-in transcribes as `text`. */
function utterance(text: string): { audio: Buffer; picks: (request: { body: unknown }) => boolean } {
  const audio = toneWav(0.6 + 0.04 * ++utterances);
  const mine = (upload: TranscriptionBody) => upload.file?.size === audio.length;
  standIn.transcriptFor(text, mine);
  return { audio, picks: (request) => mine(request.body as TranscriptionBody) };
}

async function say(audio: Buffer): Promise<number> {
  const posted = await upload(ana, roomId, uploadForm(audio));
  expect(posted.status, JSON.stringify(posted.body)).toBe(201);
  return posted.body.id as number;
}

const settledView = (segment: any) => segment.transcription !== 'pending' && segment.translation !== 'pending' && segment.speech !== 'pending';

/** The listener's view once every step settled, as pushed live. */
async function heard(live: LiveClient, segmentId: number, timeoutMs = 30_000) {
  return (await live.next('segment:rendered', (p) => p.segment.id === segmentId && settledView(p.segment), timeoutMs)).segment;
}

/** The same view read again through the API (a 200). */
async function readAgain(who: Person, segmentId: number) {
  const answer = await who.client.get(`/api/rooms/${roomId}/segments/${segmentId}/`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const cookieOf = (who: Person) => [...who.client.jar].map(([k, v]) => `${k}=${v}`).join('; ');
const speechFor = (text: string) => standIn.speeches().filter((request) => String((request.body as { input?: string }).input).includes(text));

/** Both listeners heard `text` translated, in a voice. */
async function expectSpoken(segmentId: number, text: string) {
  const [es, de] = await Promise.all([heard(benLive, segmentId), heard(cyLive, segmentId)]);
  expect(es).toMatchObject({ transcription: 'done', translation: 'done', speech: 'done', language: 'es', transcript: `[es DEFAULT] ${text}`, rawSegment: { transcript: text } });
  expect(de).toMatchObject({ transcription: 'done', translation: 'done', speech: 'done', language: 'de', transcript: `[de DEFAULT] ${text}` });
  expect(es.audioFile).toMatch(/\/api\/rooms\/\d+\/audio\//);
  return { es, de };
}

describe.concurrent('a live room whose OpenAI-compatible server misbehaves', { timeout: 60_000 }, () => {
  it('retries a transcription and a voice answered 500', async () => {
    const text = 'We start with the budget';
    const { audio, picks } = utterance(text);
    standIn.misbehave('transcriptions', { kind: 'status', status: 500 }, { when: picks, times: 2 });
    standIn.misbehave('speech', { kind: 'status', status: 502 }, { when: `[es DEFAULT] ${text}` });
    const id = await say(audio);
    await expectSpoken(id, text);
    expect(standIn.transcriptions().filter(picks)).toHaveLength(3);
    expect(speechFor(`[es DEFAULT] ${text}`)).toHaveLength(2);
  });

  it('looks a short utterance up in the translator’s cache, never a long one: said again word for word, only the long one is translated again', async () => {
    const short = 'Can you hear me now?';
    const long = 'Let us go through the second quarter figures once more, slowly';
    expect([short.length <= CACHED_UTTERANCE_MAX, long.length > CACHED_UTTERANCE_MAX]).toEqual([true, true]);
    for (const text of [short, short, long, long]) await expectSpoken(await say(utterance(text).audio), text);
    const asked = (text: string) => standIn.completions().filter((request) => standIn.textOf(request) === text);
    expect(asked(short)).toHaveLength(1);
    expect(asked(long)).toHaveLength(2);
  });

  it('waits as long as a 429 on a transcription asks (Retry-After) before sending it again', async () => {
    const text = 'The numbers look good this month';
    const { audio, picks } = utterance(text);
    standIn.misbehave('transcriptions', { kind: 'status', status: 429, retryAfter: '6' }, { when: picks });
    const id = await say(audio);
    await expectSpoken(id, text);
    const tries = standIn.transcriptions().filter(picks);
    expect(tries).toHaveLength(2);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(5900);
  });

  it('waits as long as a 429 on a voice asks; the other listener is not held up', async () => {
    const text = 'Lunch will be served at noon';
    const { audio } = utterance(text);
    standIn.misbehave('speech', { kind: 'status', status: 429, retryAfter: '6' }, { when: `[es DEFAULT] ${text}` });
    const id = await say(audio);
    const german = await heard(cyLive, id);
    expect(german).toMatchObject({ speech: 'done' });
    const { es } = await expectSpoken(id, text);
    expect(es.speech).toBe('done');
    const tries = speechFor(`[es DEFAULT] ${text}`);
    expect(tries).toHaveLength(2);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(5900);
    expect(speechFor(`[de DEFAULT] ${text}`)).toHaveLength(1);
  });

  it('does not hurry a retry a 429 asked to wait for when the listener reads meanwhile', async () => {
    const text = 'Reading while the voice waits';
    const { audio } = utterance(text);
    standIn.misbehave('speech', { kind: 'status', status: 429, retryAfter: '6' }, { when: `[es DEFAULT] ${text}` });
    const id = await say(audio);
    // The Spanish listener reads the transcript again and again while the voice waits.
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      await readAgain(ben, id);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await expectSpoken(id, text);
    const tries = speechFor(`[es DEFAULT] ${text}`);
    expect(tries).toHaveLength(2);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(5900);
  });

  it('makes a WAV voice Ogg Opus, and marks one failed, never stored, that is no sound or not audio', async () => {
    const wav = 'This voice comes back as a WAV file';
    const silent = 'This voice has no sound in it';
    const page = 'This voice is a web page';
    const [one, two, three] = [utterance(wav), utterance(silent), utterance(page)];
    // A server that ignores response_format and answers WAV.
    standIn.misbehave('speech', { kind: 'body', contentType: 'audio/wav', body: toneWav(1.2) }, { when: `[es DEFAULT] ${wav}`, times: Infinity });
    standIn.misbehave('speech', { kind: 'body', contentType: 'audio/ogg', body: EMPTY_OGG_OPUS }, { when: `[es DEFAULT] ${silent}`, times: Infinity });
    standIn.misbehave('speech', { kind: 'body', contentType: 'text/html', body: Buffer.from('<html><body>502 Bad Gateway</body></html>') }, { when: `[es DEFAULT] ${page}`, times: Infinity });
    const [wavId, silentId, pageId] = await Promise.all([say(one.audio), say(two.audio), say(three.audio)]);

    const { es } = await expectSpoken(wavId!, wav);
    const voice = await fetch(es.audioFile, { headers: { cookie: cookieOf(ben) } });
    expect(voice.status).toBe(200);
    expect(voice.headers.get('content-type')).toBe('audio/ogg');
    const { stdout } = await runProcess('opusdec', ['--quiet', '--rate', '16000', '--force-wav', '-', '-'], { input: Buffer.from(await voice.arrayBuffer()), timeoutMs: 30_000 });
    expect(parseWav(stdout)!.dataLength / 2 / 16_000).toBeCloseTo(1.2, 1);

    for (const [id, text] of [
      [silentId!, silent],
      [pageId!, page],
    ] as const) {
      // The translation is there to read; the voice is failed, with nothing to play.
      expect(await heard(benLive, id), text).toMatchObject({ translation: 'done', transcript: `[es DEFAULT] ${text}`, speech: 'failed', audioFile: null });
      expect(await readAgain(ben, id)).toMatchObject({ translation: 'done', speech: 'failed', audioFile: null });
      expect(await heard(cyLive, id)).toMatchObject({ speech: 'done' });
    }
  });

  it('keeps the translations that came back when one language is left out every time', async () => {
    const text = 'The German team joins us later';
    const { audio } = utterance(text);
    standIn.misbehave('completions', { kind: 'leave-out', language: 'de' }, { when: text, times: Infinity });
    const id = await say(audio);
    const [es, de] = await Promise.all([heard(benLive, id), heard(cyLive, id)]);
    expect(es).toMatchObject({ translation: 'done', speech: 'done', transcript: `[es DEFAULT] ${text}` });
    // The German listener reads the original, marked failed, and hears nothing.
    expect(de).toMatchObject({ translation: 'failed', speech: 'none', transcript: text, language: 'en', rawSegment: null });
    expect(await readAgain(cy, id)).toMatchObject({ translation: 'failed', transcript: text });
    expect(await readAgain(ben, id)).toMatchObject({ translation: 'done', speech: 'done' });
  });
});
