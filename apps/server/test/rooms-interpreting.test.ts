// Live interpreting (issue 33) through the API on the embedded defaults: a speaker's audio streamed
// over the speech WebSocket while they speak, recognised by pocketsphinx's long-lived decoder; the
// Spanish listener reads Spanish words (Apertium) before the speaker has finished, then the stored
// segment (its transcript, its audio, its Spanish text and voice) takes the partial's place. And
// what a stream refuses: strangers, a room not Live, bad frames, a flood, a removal mid-utterance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SPEECH_STREAM_CLOSE } from '@parla/contract/interpreting';
import { parseWav } from '../src/domain/rendering/speech/audio';
import { person, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { addParticipant, createRoom, setListening, setState } from './room-helpers';
import { openSpeechStream, silence, speak, speechPcm, waitFor } from './speech-stream-helpers';

const SAID = 'Good morning everyone. Thank you for joining the meeting today. We will talk about the budget for next year and then about the new office.';

let server: TestServer;
const sockets: LiveClient[] = [];
const streams: WebSocket[] = [];

beforeAll(async () => {
  server = await startServer({ STT_PROVIDER: 'pocketsphinx', TRANSLATION_PROVIDER: 'apertium', TTS_PROVIDER: 'espeak', RATE_LIMIT_MESSAGES: '0' });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const stream of streams) stream.terminate();
  await server?.close();
});

/** Opens the speech stream of a room as `who`'s browser would (their cookie, this origin). */
const openStream = (roomId: number, who: Person | null, headers: Record<string, string> = {}) => openSpeechStream(server, streams, roomId, who, headers);

describe('live interpreting on the embedded defaults', () => {
  it('the Spanish listener reads Spanish words while the speaker speaks, then the stored segment with its voice', { timeout: 90_000 }, async () => {
    const [ana, ben] = await Promise.all([person(server, 'Ana'), person(server, 'Ben')]);
    const room = await createRoom(ana, { title: 'Budget', languages: ['en', 'es'] });
    await addParticipant(ana, room.id, ben);
    await setListening(ben, room.id, { language: 'es', maleVoice: false });
    await setState(ana, room.id, 3002);
    const live = await connect(server.url, ben);
    sockets.push(live);
    expect(await live.socket.timeout(5000).emitWithAck('room:subscribe', { roomId: room.id })).toEqual({ ok: true });

    const stream = await openStream(room.id, ana);
    await stream.next('ready');
    const pcm = Buffer.concat([silence(300), await speechPcm(SAID), silence(1_500)]);
    let speechEndsAt = 0;
    const spokenMs = pcm.length / 32 - 1_500;
    let firstSpanishAt: number | undefined;
    const watching = (async () => {
      const partial = await live.next('segment:partial', (p) => p.translated && p.state === 'speaking' && p.text.trim().split(/\s+/).length >= 2, 60_000);
      firstSpanishAt = Date.now();
      return partial;
    })();
    const startedAt = Date.now();
    await speak(stream.ws, pcm, (sentMs) => {
      if (!speechEndsAt && sentMs >= spokenMs) speechEndsAt = Date.now();
    });
    const firstSpanish = await watching;
    // Spanish words reached the listener before the speaker had finished.
    expect(firstSpanishAt! - startedAt).toBeLessThan(spokenMs);
    expect(firstSpanish).toMatchObject({ roomId: room.id, language: 'en', translated: true, state: 'speaking', segmentId: null, speaker: { alias: expect.any(String) } });
    console.info(`first Spanish partial after ${firstSpanishAt! - startedAt} ms of ${Math.round(spokenMs)} ms of speech: "${firstSpanish.text}"`);

    // The recogniser ends the utterance at the pause: the segment is stored and takes the partial's place.
    const stored = await live.next('segment:partial', (p) => p.state === 'stored', 30_000);
    expect(stored.utterance).toBe(firstSpanish.utterance);
    const segmentId = stored.segmentId as number;
    const created = await live.next('segment:created', (p) => p.segment.id === segmentId);
    expect(created.segment).toMatchObject({ transcription: 'done', isMe: false });
    const voiced = await live.next('segment:rendered', (p) => p.segment.id === segmentId && p.segment.speech === 'done', 30_000);
    const at = (event: string, test: (p: any) => boolean) => (live.received.find((item) => item.event === event && test(item.payload))?.at ?? 0) - speechEndsAt;
    console.info(
      `after the speech ended: stored ${at('segment:partial', (p) => p.state === 'stored')} ms, created ${at('segment:created', (p) => p.segment.id === segmentId)} ms, ` +
        `Spanish text ${at('segment:rendered', (p) => p.segment.id === segmentId && p.segment.translation === 'done')} ms, voice ${at('segment:rendered', (p) => p.segment.id === segmentId && p.segment.speech === 'done')} ms`,
    );
    expect(voiced.segment).toMatchObject({ language: 'es', translation: 'done', speech: 'done', rawSegment: { language: 'en' } });
    expect(voiced.segment.transcript.toLowerCase()).toMatch(/buenos d[ií]as/);
    expect((await stream.next('stored')) as { segmentId: number }).toMatchObject({ segmentId });

    // Stored as the segment API describes it: the whole utterance's transcript and its audio.
    const own = await ana.client.get(`/api/rooms/${room.id}/segments/${segmentId}/`);
    expect(own.status).toBe(200);
    expect(own.body.transcript.toLowerCase()).toContain('good morning');
    expect(own.body.transcript.toLowerCase()).toMatch(/office|budget/);
    expect(own.body.duration).toBeGreaterThan(5);
    const cookie = [...ana.client.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const recording = await fetch(own.body.rawSegment?.audioFile ?? own.body.audioFile, { headers: { cookie } });
    expect(recording.status).toBe(200);
    const wav = parseWav(Buffer.from(await recording.arrayBuffer()));
    expect(wav?.sampleRate).toBe(16_000);
    expect(wav!.dataLength / 32_000).toBeGreaterThan(5);
    stream.ws.close();
  });

  it('the last words are kept when the speaker stops streaming mid-sentence', { timeout: 60_000 }, async () => {
    const [ana, ben] = await Promise.all([person(server, 'Ana'), person(server, 'Ben')]);
    const room = await createRoom(ana, { title: 'Cut short', languages: ['en', 'es'] });
    await addParticipant(ana, room.id, ben);
    await setState(ana, room.id, 3002);
    const stream = await openStream(room.id, ana);
    await stream.next('ready');
    // No pause after the words: the browser is closed as they end.
    await speak(stream.ws, Buffer.concat([silence(200), await speechPcm('Thank you for joining the meeting today.')]));
    stream.ws.close();
    const segments = await waitFor(async () => (await ben.client.get(`/api/rooms/${room.id}/segments/`)).body.results as { transcript: string }[], (rows) => rows.length > 0, 30_000);
    expect(segments[0]!.transcript.toLowerCase()).toMatch(/meeting|joining/);
  });

  it('refuses strangers, a room not Live, someone only invited, and a handshake from another site', async () => {
    const [ana, eve, ivy] = await Promise.all([person(server, 'Ana'), person(server, 'Eve'), person(server, 'Ivy')]);
    const room = await createRoom(ana, { title: 'Closed', languages: ['en'] });
    // Not Live yet: the stream closes with 4409.
    const early = await openStream(room.id, ana);
    expect((await early.closed).code).toBe(SPEECH_STREAM_CLOSE.notLive);
    await setState(ana, room.id, 3002);
    const stranger = await openStream(room.id, eve);
    expect((await stranger.closed).code).toBe(SPEECH_STREAM_CLOSE.notFound);
    const missing = await openStream(999_999, ana);
    expect((await missing.closed).code).toBe(SPEECH_STREAM_CLOSE.notFound);
    await ana.client.request('POST', `/api/rooms/${room.id}/participants/`, { json: { user: ivy.email, roomRole: 1002 }, xsrf: true });
    const invited = await openStream(room.id, ivy);
    expect((await invited.closed).code).toBe(SPEECH_STREAM_CLOSE.notFound);
    await expect(openStream(room.id, null)).rejects.toThrow('upgrade refused: 401');
    await expect(openStream(room.id, ana, { origin: 'https://evil.example' })).rejects.toThrow('upgrade refused: 401');
    // Another path under /api/ is no WebSocket at all.
    const other = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/rooms/${room.id}/other/`, { headers: { origin: server.url } });
    streams.push(other);
    await expect(new Promise((resolve, reject) => other.once('open', resolve).once('error', reject))).rejects.toThrow();
  });

  it('bad frames and messages get a clear error; a flood is dropped and the server stays responsive', { timeout: 60_000 }, async () => {
    const ana = await person(server, 'Ana');
    const room = await createRoom(ana, { title: 'Noise', languages: ['en'] });
    await setState(ana, room.id, 3002);
    const stream = await openStream(room.id, ana);
    await stream.next('ready');
    stream.ws.send('not json');
    expect(await stream.next('error')).toMatchObject({ code: 'invalid_message' });
    stream.messages.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    stream.ws.send(JSON.stringify({ type: 'shout' }));
    expect(await stream.next('error')).toMatchObject({ code: 'invalid_message' });
    stream.messages.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    stream.ws.send(Buffer.alloc(3));
    expect(await stream.next('error')).toMatchObject({ code: 'frame_invalid' });
    stream.messages.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Longer than a frame may be (600 ms).
    stream.ws.send(Buffer.alloc(600 * 32));
    expect(await stream.next('error')).toMatchObject({ code: 'frame_invalid' });
    stream.messages.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // 30 s of audio at once: past the burst, refused as too fast.
    for (let index = 0; index < 60; index++) stream.ws.send(Buffer.alloc(500 * 32));
    expect(await stream.next('error')).toMatchObject({ code: 'too_fast' });
    expect((await server.client().get('/api/status/')).status).toBe(200);
    // Far past a frame: the socket itself is closed (1009, too big).
    const big = await openStream(room.id, ana);
    await big.next('ready');
    big.ws.send(Buffer.alloc(200_000));
    expect((await big.closed).code).toBe(1009);
    // A flood of refused frames closes the stream.
    const flood = await openStream(room.id, ana);
    await flood.next('ready');
    for (let index = 0; index < 400; index++) flood.ws.send(Buffer.alloc(1));
    expect((await flood.closed).code).toBe(SPEECH_STREAM_CLOSE.flooded);
    expect((await server.client().get('/api/status/')).status).toBe(200);
  });

  it('a speaker removed mid-utterance stops being streamed, and nothing of it is stored', { timeout: 60_000 }, async () => {
    const [ana, ben] = await Promise.all([person(server, 'Ana'), person(server, 'Ben')]);
    const room = await createRoom(ana, { title: 'Removal', languages: ['en'] });
    const benId = await addParticipant(ana, room.id, ben);
    await setState(ana, room.id, 3002);
    const stream = await openStream(room.id, ben);
    await stream.next('ready');
    const pcm = await speechPcm(SAID);
    const speaking = speak(stream.ws, pcm.subarray(0, 32_000 * 2));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const removed = await ana.client.request('POST', `/api/rooms/${room.id}/participants/multi_delete/`, { json: { ids: [benId] }, xsrf: true });
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    expect((await stream.closed).code).toBe(SPEECH_STREAM_CLOSE.notFound);
    await speaking.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await ana.client.get(`/api/rooms/${room.id}/segments/`)).body.results).toEqual([]);
  });
});
