// Live interpreting (issue 33) through an OpenAI-compatible server's realtime transcription
// (STT_STREAMING=realtime): the speaker's stream goes on to the stand-in's /v1/realtime as
// OpenAI's Realtime API takes it (a transcription session, PCM at 24 kHz, server VAD), its deltas
// reach the Spanish listener as translated partials while the speaker speaks, its completed
// transcript is stored as the segment; a commit ends an utterance at once; a server that refuses
// the session or goes away leaves the speaker on uploads, with a clear message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { SPEECH_STREAM_CLOSE } from '@parla/contract/interpreting';
import { createResampler } from '../src/domain/rendering/speech/openai-realtime';
import { person, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { addParticipant, createRoom, setListening, setState } from './room-helpers';
import { openSpeechStream, silence, speak, speechPcm } from './speech-stream-helpers';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

let standIn: StandIn;
let server: TestServer;
const sockets: LiveClient[] = [];
const streams: WebSocket[] = [];
const openStream = (roomId: number, who: Person | null) => openSpeechStream(server, streams, roomId, who);

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  server = await startServer({
    OPENAI_BASE_URL: standIn.baseUrl,
    TRANSLATION_MODEL: 'stand-in',
    STT_PROVIDER: 'openai',
    STT_STREAMING: 'realtime',
    STT_REALTIME_MODEL: 'stand-in-live',
    TTS_PROVIDER: 'openai',
    RATE_LIMIT_MESSAGES: '0',
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const stream of streams) stream.terminate();
  await server?.close();
  await standIn?.close();
});

async function liveRoom(title: string, listenerLanguage = 'es') {
  const [ana, ben] = await Promise.all([person(server, 'Ana'), person(server, 'Ben')]);
  const room = await createRoom(ana, { title, languages: ['en', 'es'] });
  await addParticipant(ana, room.id, ben);
  await setListening(ben, room.id, { language: listenerLanguage, maleVoice: false });
  await setState(ana, room.id, 3002);
  const live = await connect(server.url, ben);
  sockets.push(live);
  expect(await live.socket.timeout(5000).emitWithAck('room:subscribe', { roomId: room.id })).toEqual({ ok: true });
  return { ana, ben, room, live };
}

describe('live interpreting through a realtime transcription server', () => {
  it('the listener reads translated words while the speaker speaks; the completed transcript is stored', { timeout: 60_000 }, async () => {
    const { ana, room, live } = await liveRoom('Realtime');
    const said = 'Good morning everyone thank you for joining the meeting about the budget';
    standIn.realtime.script(() => ({ text: said }));
    const stream = await openStream(room.id, ana);
    await stream.next('ready');
    const session = standIn.realtime.sessions.at(-1)!;
    // The session as OpenAI's Realtime API takes it: transcription, the model and language, PCM at 24 kHz.
    expect(session.config).toMatchObject({
      type: 'transcription',
      audio: { input: { format: { type: 'audio/pcm', rate: 24_000 }, transcription: { model: 'stand-in-live', language: 'en' }, turn_detection: { type: 'server_vad' } } },
    });

    const speech = await speechPcm('Good morning everyone. Thank you for joining the meeting about the budget.');
    const pcm = Buffer.concat([silence(300), speech, silence(1_200)]);
    const spokenMs = 300 + speech.length / 32;
    const startedAt = Date.now();
    let firstSpanishAt: number | undefined;
    const watching = live.next('segment:partial', (p) => p.translated && p.state === 'speaking', 30_000).then((partial) => {
      firstSpanishAt = Date.now();
      return partial;
    });
    await speak(stream.ws, pcm);
    const first = await watching;
    // Spanish words (the stand-in's translation, tagged) before the speaker had finished.
    expect(firstSpanishAt! - startedAt).toBeLessThan(spokenMs);
    expect(first.text).toMatch(/^\[es [A-Z_]+\] Good\b/);

    const stored = await live.next('segment:partial', (p) => p.state === 'stored', 20_000);
    expect(stored.utterance).toBe(first.utterance);
    // A paid model is asked for a partial's translation at most every 1.5 s (PARTIAL_TRANSLATION_MS by default).
    const partialCalls = standIn.completions().filter((request) => request.at >= startedAt && !standIn.textOf(request).includes('budget'));
    expect(partialCalls.length).toBeGreaterThan(0);
    expect(partialCalls.length).toBeLessThanOrEqual(Math.ceil(spokenMs / 1_500) + 1);
    const segmentId = stored.segmentId as number;
    const rendered = await live.next('segment:rendered', (p) => p.segment.id === segmentId && p.segment.translation === 'done' && p.segment.speech === 'done', 20_000);
    expect(rendered.segment.transcript).toBe(`[es DEFAULT] ${said}`);
    const own = await ana.client.get(`/api/rooms/${room.id}/segments/${segmentId}/`);
    expect(own.body.transcript).toBe(said);
    expect(own.body.duration).toBeGreaterThan(spokenMs / 1000 - 1.5);
    // Every sample reached the realtime server, resampled to 24 kHz (the same time).
    expect(session.audioMs).toBeGreaterThan(pcm.length / 32 - 150);
    expect(session.audioMs).toBeLessThan(pcm.length / 32 + 50);
    expect(session.transcripts).toEqual([said]);
    // No whole-utterance transcription was asked for: the realtime server did it.
    expect(standIn.transcriptions()).toHaveLength(0);
    stream.ws.close();
  });

  it('the speaker’s own end of an utterance commits it at once, before the server’s pause', { timeout: 30_000 }, async () => {
    const { ana, room, live } = await liveRoom('Commit');
    standIn.realtime.script(() => ({ text: 'Short and to the point' }));
    const stream = await openStream(room.id, ana);
    await stream.next('ready');
    await speak(stream.ws, Buffer.concat([silence(200), await speechPcm('Short and to the point.')]));
    stream.ws.send(JSON.stringify({ type: 'end' }));
    const stored = await live.next('segment:partial', (p) => p.state === 'stored', 10_000);
    expect(stored.segmentId).toEqual(expect.any(Number));
    expect(standIn.realtime.sessions.at(-1)!.events).toContain('input_audio_buffer.commit');
    // An end with nothing said since: the server's commit_empty error ends nothing, the stream goes on.
    stream.ws.send(JSON.stringify({ type: 'end' }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(stream.ws.readyState).toBe(stream.ws.OPEN);
    stream.ws.close();
  });

  it('a server that refuses the session leaves the speaker on uploads; one that goes away says so', { timeout: 30_000 }, async () => {
    const { ana, room } = await liveRoom('Refused');
    standIn.realtime.refuseUpgrades(401);
    try {
      const refused = await openStream(room.id, ana);
      expect(await refused.next('unavailable')).toEqual({ type: 'unavailable', reason: 'provider' });
      expect((await refused.closed).code).toBe(1000);
    } finally {
      standIn.realtime.refuseUpgrades(undefined);
    }
    const stream = await openStream(room.id, ana);
    await stream.next('ready');
    standIn.realtime.dropAll();
    expect(await stream.next('error')).toMatchObject({ code: 'recogniser_failed' });
    expect((await stream.closed).code).toBe(SPEECH_STREAM_CLOSE.unavailable);
    expect((await server.client().get('/api/status/')).status).toBe(200);
  });

  it('a Spanish speaker streams too: the realtime server hears every language', { timeout: 30_000 }, async () => {
    const { ben, room } = await liveRoom('Español', 'es');
    const stream = await openStream(room.id, ben);
    expect(await stream.next('ready')).toEqual({ type: 'ready' });
    stream.ws.close();
  });
});

describe('the 16 → 24 kHz resampler of the realtime stream', () => {
  it('gives 1.5 samples per sample, the same across frames of any size, the wave kept', () => {
    const input = Buffer.alloc(16_000 * 2);
    for (let index = 0; index < 16_000; index++) input.writeInt16LE(Math.round(10_000 * Math.sin((2 * Math.PI * 440 * index) / 16_000)), index * 2);
    const whole = createResampler()(input);
    expect(whole.length / 2).toBeGreaterThanOrEqual(23_998);
    expect(whole.length / 2).toBeLessThanOrEqual(24_000);
    const resample = createResampler();
    const parts: Buffer[] = [];
    for (let at = 0, size = 2; at < input.length; at += size, size = ((size * 7) % 3_000) + 2) parts.push(resample(input.subarray(at, at + size)));
    expect(Buffer.concat(parts).equals(whole)).toBe(true);
    // Sample n at 24 kHz is the 440 Hz wave at n / 24000 s (within the interpolation's error).
    for (const n of [100, 5_001, 23_000]) expect(Math.abs(whole.readInt16LE(n * 2) - 10_000 * Math.sin((2 * Math.PI * 440 * n) / 24_000))).toBeLessThan(150);
  });
});
