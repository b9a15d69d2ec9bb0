// Utterance uploads that survive a lost answer and a crash: a retried upload with the same
// `clientId` is stored once, and an utterance stored without its transcription job (a crash in
// between) is found and transcribed.
import { readdir, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segments } from '../src/platform/db/schema';
import type { AppContext } from '../src/context';
import { eventually, person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { addParticipant, createRoom, setState, toneWav, upload } from './room-helpers';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

let standIn: StandIn;
let server: TestServer;
beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  server = await startServer({
    OPENAI_BASE_URL: standIn.baseUrl,
    STT_PROVIDER: 'openai',
    TTS_PROVIDER: 'none',
    TRANSLATION_PROVIDER: 'none',
    RATE_LIMIT_MESSAGES: '0',
    STALE_WORK_CHECK_SECONDS: '1',
  });
});
afterAll(async () => {
  await server.close();
  await standIn.close();
});

const filesOf = async (roomId: number) => readdir(path.join(server.dataDir, 'private', 'rooms', String(roomId))).catch(() => [] as string[]);

function form(audio: Buffer, clientId?: string): FormData {
  const data = new FormData();
  if (clientId !== undefined) data.append('clientId', clientId);
  data.append('audio', new Blob([new Uint8Array(audio)], { type: 'audio/wav' }), 'utterance.wav');
  return data;
}

describe('a retried upload', () => {
  it('is stored once per clientId: the repeat answers 200 with the stored segment', async () => {
    const ana = await person(server, 'Ana');
    const room = await createRoom(ana, { title: 'Retries', languages: ['en'] });
    await setState(ana, room.id, 3002);
    const clientId = randomUUID();
    const first = await upload(ana, room.id, form(toneWav(1), clientId));
    expect(first.status).toBe(201);
    // The answer was lost; the client sends the same utterance again (and once more with other bytes).
    const again = await upload(ana, room.id, form(toneWav(1), clientId));
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const twice = await Promise.all([upload(ana, room.id, form(toneWav(2), clientId)), upload(ana, room.id, form(toneWav(2), clientId))]);
    expect(twice.map((answer) => [answer.status, answer.body.id])).toEqual([
      [200, first.body.id],
      [200, first.body.id],
    ]);
    expect((await ana.client.get(`/api/rooms/${room.id}/segments/`)).body.count).toBe(1);
    expect(await filesOf(room.id)).toHaveLength(1);
    // Even after the room ended, a late retry gets what was stored rather than "not live".
    await setState(ana, room.id, 3003);
    expect((await upload(ana, room.id, form(toneWav(1), clientId))).status).toBe(200);
    // Another utterance with a new clientId is another segment; a malformed clientId is refused.
    await setState(ana, room.id, 3002);
    expect((await upload(ana, room.id, form(toneWav(1), randomUUID()))).status).toBe(201);
    const bad = await upload(ana, room.id, form(toneWav(1), 'not-a-uuid'));
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ attr: 'clientId' });
    expect((await ana.client.get(`/api/rooms/${room.id}/segments/`)).body.count).toBe(2);
  });

  it('is scoped to its speaker: another participant’s same clientId is their own utterance', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const room = await createRoom(ana, { title: 'Two speakers', languages: ['en'] });
    await addParticipant(ana, room.id, ben);
    await setState(ana, room.id, 3002);
    const clientId = randomUUID();
    const fromAna = await upload(ana, room.id, form(toneWav(1), clientId));
    const fromBen = await upload(ben, room.id, form(toneWav(1), clientId));
    expect([fromAna.status, fromBen.status]).toEqual([201, 201]);
    expect(fromBen.body.id).not.toBe(fromAna.body.id);
  });
});

describe('an utterance whose transcription job was lost', () => {
  it('is found and transcribed', async () => {
    const ana = await person(server, 'Ana');
    const room = await createRoom(ana, { title: 'Crash', languages: ['en'] });
    const me = (await ana.client.get(`/api/rooms/${room.id}/participant/`)).body;
    // What a crash between storing the utterance and queueing its job leaves behind.
    const key = `rooms/${room.id}/${'ab'.repeat(12)}.wav`;
    await mkdir(path.join(server.dataDir, 'private', 'rooms', String(room.id)), { recursive: true });
    await writeFile(path.join(server.dataDir, 'private', key), toneWav(1));
    const { db } = (server.app as unknown as { ctx: AppContext }).ctx;
    const [row] = await db
      .insert(segments)
      .values({ roomId: room.id, speakerId: me.id, language: 'en', audioKey: key, durationSeconds: 1, transcription: 'pending', createdAt: new Date(Date.now() - 5 * 60_000) })
      .returning();
    const transcribed = await eventually(
      () => ana.client.get(`/api/rooms/${room.id}/segments/${row!.id}/`),
      (answer) => answer.body.transcription === 'done',
      20_000,
    );
    expect(transcribed.body.transcript).toBe('hello from the stand-in');
  });
});

// Issue 31 (3): a Live room of one's own kept every utterance's recording for good, unbounded.
describe('a room’s storage', () => {
  it('refuses an utterance past the room’s quota with a clear error, and stores nothing', async () => {
    const quota = await startServer({ TRANSLATION_PROVIDER: 'none', STT_PROVIDER: 'none', TTS_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0', STORAGE_ROOM_MB: '1' });
    try {
      const ana = await person(quota, 'Ana');
      const room = await createRoom(ana, { title: 'Long talk', languages: ['en'] });
      await setState(ana, room.id, 3002);
      const statuses: number[] = [];
      let refused: { status: number; body: any } | undefined;
      for (let i = 0; i < 5 && !refused; i++) {
        const answer = await upload(ana, room.id, form(toneWav(10)));
        statuses.push(answer.status);
        if (answer.status !== 201) refused = answer;
      }
      // 10 s of 16 kHz PCM is 320 KB: three fit in 1 MB.
      expect(statuses).toEqual([201, 201, 201, 400]);
      expect(refused!.body.errors[0]).toMatchObject({ attr: 'audio', code: 'quota_exceeded' });
      expect(refused!.body.errors[0].detail).toMatch(/recordings of this room/);
      expect((await ana.client.get(`/api/rooms/${room.id}/segments/`)).body.count).toBe(3);
      expect(await readdir(path.join(quota.dataDir, 'private', 'rooms', String(room.id)))).toHaveLength(3);
    } finally {
      await quota.close();
    }
  });
});

