// The README's default speech path, end to end through the API with no OpenAI-compatible server at
// all: an English utterance (human-like speech made by flite, which pocketsphinx understands) is
// uploaded to a live room, transcribed by pocketsphinx, translated by the embedded Apertium and
// spoken by espeak-ng; the Spanish listener gets each step pushed live on their socket, and reads
// the same again through GET.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWav } from '../src/domain/rendering/speech/audio';
import { runProcess } from '../src/platform/process';
import { person } from './chat-helpers';
import { fliteWav } from './crafted-audio';
import { startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { addParticipant, createRoom, setListening, setState, upload, uploadForm } from './room-helpers';

/** What the speaker says: clear, read English (pocketsphinx's measured 0 % word errors on flite's rms voice). */
const SAID = 'Good morning everyone. Thank you for joining the meeting today.';

const words = (text: string) => text.toLowerCase().replace(/[^a-z' ]+/g, ' ').split(/\s+/).filter(Boolean);

/** Word error rate: word-level edit distance over the reference's length. */
function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = words(reference);
  const hyp = words(hypothesis);
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[hyp.length]! / ref.length;
}

/** Seconds of sound in an Ogg Opus file, decoded by opusdec. */
async function oggSeconds(data: Buffer): Promise<number> {
  const { stdout } = await runProcess('opusdec', ['--quiet', '--rate', '16000', '--force-wav', '-', '-'], { input: data, timeoutMs: 30_000 });
  const wav = parseWav(stdout);
  if (!wav) throw new Error('opusdec wrote no WAV: not Ogg Opus');
  return wav.dataLength / 2 / wav.channels / 16_000;
}

let server: TestServer;
const sockets: LiveClient[] = [];
beforeAll(async () => {
  server = await startServer({
    // The embedded defaults, named (a missing program is then a failure here, not a quiet none);
    // no OPENAI_BASE_URL or OPENAI_API_KEY: the server's environment is only what is given here.
    STT_PROVIDER: 'pocketsphinx',
    TRANSLATION_PROVIDER: 'apertium',
    TTS_PROVIDER: 'espeak',
    RATE_LIMIT_MESSAGES: '0',
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
});

describe('the embedded speech path (pocketsphinx → Apertium → espeak-ng)', () => {
  it('an English utterance reaches the Spanish listener live: transcript, Spanish text and a Spanish voice', { timeout: 60_000 }, async () => {
    const status = await server.client().get('/api/status/');
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ translation: 'ok', speech: 'ok' });
    // Said up front: offline speech is US English only.
    expect((await server.client().get('/api/translation/')).body).toMatchObject({ provider: 'apertium', transcribes: ['en'] });

    const [ana, ben] = await Promise.all([person(server, 'Ana'), person(server, 'Ben')]);
    const room = await createRoom(ana, { title: 'Morning meeting', languages: ['en', 'es'] });
    await addParticipant(ana, room.id, ben);
    await setListening(ben, room.id, { language: 'es', maleVoice: false });
    await setState(ana, room.id, 3002);
    const live = await connect(server.url, ben);
    sockets.push(live);
    expect(await live.socket.timeout(5000).emitWithAck('room:subscribe', { roomId: room.id })).toEqual({ ok: true });

    const recorded = await fliteWav(SAID);
    const started = Date.now();
    const posted = await upload(ana, room.id, uploadForm(recorded, 'utterance.wav', 'audio/wav'));
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.body).toMatchObject({ isMe: true, transcription: 'pending', language: 'en' });
    const id = posted.body.id as number;

    // Pushed live, step by step: the utterance, its English transcript, the Spanish text, the voice.
    expect((await live.next('segment:created', (p) => p.segment.id === id)).segment).toMatchObject({ transcription: 'pending', isMe: false });
    const transcribed = await live.next('segment:rendered', (p) => p.segment.id === id && p.segment.transcription === 'done', 30_000);
    const transcript: string = transcribed.segment.translation === 'done' ? transcribed.segment.rawSegment.transcript : transcribed.segment.transcript;
    const errors = wordErrorRate(SAID, transcript);
    console.info(`pocketsphinx heard "${transcript}" (${(errors * 100).toFixed(0)} % word errors)`);
    expect(errors).toBeLessThan(0.25);

    const spoken = await live.next('segment:rendered', (p) => p.segment.id === id && p.segment.speech === 'done', 30_000);
    const segment = spoken.segment;
    console.info(`Apertium: "${segment.transcript}"; upload to voice in ${Date.now() - started} ms`);
    expect(segment).toMatchObject({
      transcription: 'done',
      translation: 'done',
      speech: 'done',
      language: 'es',
      tone: 'DEFAULT',
      isMe: false,
      rawSegment: { id, language: 'en', transcript },
    });
    // Apertium's Spanish: "buenos días ... gracias ... reunión hoy" (no punctuation from pocketsphinx).
    expect(segment.transcript.toLowerCase()).toMatch(/buenos d[ií]as/);
    expect(segment.transcript.toLowerCase()).toMatch(/gracias/);
    expect(segment.transcript.toLowerCase()).toMatch(/reuni[oó]n|hoy/);
    expect(segment.transcript).not.toMatch(/[*#@]/);

    // The Spanish voice: Ogg Opus of plausible length, served to the listener only.
    const cookie = [...ben.client.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const voice = await fetch(segment.audioFile, { headers: { cookie } });
    expect(voice.status).toBe(200);
    expect(voice.headers.get('content-type')).toBe('audio/ogg');
    const data = Buffer.from(await voice.arrayBuffer());
    expect(data.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(data.includes(Buffer.from('OpusHead'))).toBe(true);
    const seconds = await oggSeconds(data);
    // About ten Spanish words at espeak-ng's 175 a minute.
    expect(seconds).toBeGreaterThan(1.5);
    expect(seconds).toBeLessThan(10);
    expect((await server.client().get(new URL(segment.audioFile).pathname)).status).toBe(401);

    // Read again through the API: the same view, for the listener and (in English) for the speaker.
    const again = await ben.client.get(`/api/rooms/${room.id}/segments/${id}/`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ transcript: segment.transcript, translation: 'done', speech: 'done', audioFile: segment.audioFile, rawSegment: { transcript } });
    const list = await ben.client.get(`/api/rooms/${room.id}/segments/`);
    expect(list.status).toBe(200);
    expect(list.body.results).toEqual([expect.objectContaining({ id, transcript: segment.transcript, speech: 'done' })]);
    const own = await ana.client.get(`/api/rooms/${room.id}/segments/${id}/`);
    expect(own.body).toMatchObject({ isMe: true, transcript, language: 'en', translation: 'none', speech: 'none' });
  });
});
