// The speech pipeline of a live room with real audio: English speech made by espeak-ng, its
// transcription through the OpenAI-compatible stand-in, translation by the real Apertium into
// Spanish, the Spanish voice by the real espeak-ng; pushed live to the listener; the speaker's
// correction reaches the listener re-translated, with its word diff.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWav } from '../src/domain/rendering/speech/audio';
import { runProcess } from '../src/platform/process';
import { person, send } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { addParticipant, createRoom, setListening, setState, upload, uploadForm } from './room-helpers';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

let standIn: StandIn;
let server: TestServer;
const sockets: LiveClient[] = [];
beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  server = await startServer({
    OPENAI_BASE_URL: standIn.baseUrl,
    TRANSLATION_PROVIDER: 'apertium',
    STT_PROVIDER: 'openai',
    TTS_PROVIDER: 'espeak',
    RATE_LIMIT_MESSAGES: '0',
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
  await standIn.close();
});

async function speech(text: string): Promise<Buffer> {
  const { stdout } = await runProcess('espeak-ng', ['--stdout', '-v', 'en-us', text], { timeoutMs: 30_000 });
  return stdout;
}

/** Seconds of sound in an Ogg Opus file, decoded by opusdec. */
async function oggSeconds(data: Buffer): Promise<number> {
  const { stdout } = await runProcess('opusdec', ['--quiet', '--rate', '16000', '--force-wav', '-', '-'], { input: data, timeoutMs: 30_000 });
  const wav = parseWav(stdout);
  if (!wav) throw new Error('not Ogg Opus');
  return wav.dataLength / 2 / wav.channels / 16_000;
}

describe('an utterance in a live room', () => {
  it('reaches the Spanish listener transcribed, in Spanish, spoken in their voice; a correction follows live', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const room = await createRoom(ana, { title: 'Meeting', languages: ['en', 'es'], domain: 'BUSINESS' });
    await addParticipant(ana, room.id, ben);
    await setListening(ben, room.id, { language: 'es', maleVoice: true });
    await setState(ana, room.id, 3002);
    const benSocket = await connect(server.url, ben);
    sockets.push(benSocket);
    expect(await benSocket.socket.timeout(5000).emitWithAck('room:subscribe', { roomId: room.id })).toEqual({ ok: true });

    // What the transcriber writes is cleaned before it is stored (an override, a NEXT LINE, a BOM).
    standIn.transcriptFor('The cat\u202E is black.\u0085\ufeff');
    const recorded = await speech('The cat is black.');
    const posted = await upload(ana, room.id, uploadForm(recorded));
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ isMe: true, transcription: 'pending', language: 'en' });

    expect((await benSocket.next('segment:created')).segment).toMatchObject({ id: posted.body.id, transcription: 'pending', isMe: false });
    const heard = await benSocket.next('segment:rendered', (p) => p.segment.id === posted.body.id && p.segment.speech === 'done', 60_000);
    expect(heard.segment).toMatchObject({
      transcription: 'done',
      translation: 'done',
      language: 'es',
      rawSegment: { language: 'en', transcript: 'The cat is black.' },
      transcriptDiff: [],
    });
    expect(heard.segment.transcript).toMatch(/gato/i);
    // The recording went to the transcriber once, with the speaker's language.
    expect(standIn.transcriptions()).toHaveLength(1);
    const voice = await fetch(heard.segment.audioFile, { headers: { cookie: [...ben.client.jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(voice.status).toBe(200);
    expect(voice.headers.get('content-type')).toBe('audio/ogg');
    // Participants' audio is never kept by a shared cache (issue 31, 7).
    expect(voice.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const seconds = await oggSeconds(Buffer.from(await voice.arrayBuffer()));
    expect(seconds).toBeGreaterThan(0.5);
    expect(seconds).toBeLessThan(10);

    // The speaker corrects a word: the listener's text is translated again, with its diff, and spoken again.
    const corrected = await send(ana, 'PATCH', `/api/rooms/${room.id}/segments/${posted.body.id}/`, { transcript: 'The dog is black.' });
    expect(corrected.body).toMatchObject({ transcript: 'The dog is black.', edited: true, transcriptDiff: ['The', '-cat', '+dog', 'is', 'black.'] });
    const mark = benSocket.received.length;
    const edited = await benSocket.next('segment:rendered', (p) => p.segment.id === posted.body.id && /perro/i.test(p.segment.transcript) && p.segment.speech === 'done', 60_000, mark);
    expect(edited.segment.transcriptDiff).toEqual(expect.arrayContaining([expect.stringMatching(/^-gato/), expect.stringMatching(/^\+perro/)]));
    expect(edited.segment.audioFile).not.toBe(heard.segment.audioFile);
    // The old voice is gone with the old text.
    expect((await ben.client.get(new URL(heard.segment.audioFile).pathname)).status).toBe(404);

    // Silence (nothing recognised) settles at once: nothing to translate or to speak.
    standIn.transcriptFor('');
    const quiet = await upload(ana, room.id, uploadForm(await speech('hmm')));
    const settled = await benSocket.next('segment:rendered', (p) => p.segment.id === quiet.body.id && p.segment.transcription === 'done', 30_000);
    expect(settled.segment).toMatchObject({ transcript: '', translation: 'none', speech: 'none' });
    standIn.transcriptFor(undefined);
  });
});

describe('corrections in a row', () => {
  it('renders and pushes the newest transcript when the speaker corrects it twice while a render runs', async () => {
    // Translations through the stand-in, held 1.5 s each: a correction's job waits behind the
    // running one, and a second correction finds it waiting.
    const slow = await startOpenAiStandIn();
    const quick = await startServer({ OPENAI_BASE_URL: slow.baseUrl, TRANSLATION_MODEL: 'stand-in', STT_PROVIDER: 'openai', TTS_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0' });
    try {
      const ana = await person(quick, 'Ana');
      const ben = await person(quick, 'Ben');
      const room = await createRoom(ana, { title: 'Quick fixes', languages: ['en', 'es'] });
      await addParticipant(ana, room.id, ben);
      await setListening(ben, room.id, { language: 'es' });
      await setState(ana, room.id, 3002);
      const benSocket = await connect(quick.url, ben);
      sockets.push(benSocket);
      expect(await benSocket.socket.timeout(5000).emitWithAck('room:subscribe', { roomId: room.id })).toEqual({ ok: true });
      slow.transcriptFor('The cat is black.');
      const posted = await upload(ana, room.id, uploadForm(await speech('The cat is black.')));
      await benSocket.next('segment:rendered', (p) => p.segment.id === posted.body.id && p.segment.translation === 'done', 30_000);
      slow.delay(1500);
      const url = `/api/rooms/${room.id}/segments/${posted.body.id}/`;
      for (const [first, second, third] of [
        ['The dog is black.', 'The dog is white.', 'The dog is grey.'],
        ['The house is big.', 'The house is small.', 'The house is new.'],
      ]) {
        const mark = benSocket.received.length;
        for (const transcript of [first, second, third]) expect((await send(ana, 'PATCH', url, { transcript })).status).toBe(200);
        const newest = `[es DEFAULT] ${third}`;
        const heard = await benSocket.next('segment:rendered', (p) => p.segment.id === posted.body.id && p.segment.transcript === newest, 30_000, mark);
        expect(heard.segment).toMatchObject({ translation: 'done', rawSegment: { transcript: third } });
        expect((await ben.client.get(url)).body).toMatchObject({ transcript: newest, translation: 'done' });
      }
    } finally {
      await quick.close();
      await slow.close();
    }
  }, 120_000);
});
