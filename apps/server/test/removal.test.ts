// Removing someone "for good" (permanent=true): their rows go, and so does everything that hung on
// them — a participant's recordings and the voices made of them leave the disk, and every deletion
// reaches the screens open on the chat or room at once.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, eventually, person, post, send } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { addParticipant, createRoom, setListening, setState, toneWav, upload, uploadForm } from './room-helpers';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

let standIn: StandIn;
let server: TestServer;
const sockets: LiveClient[] = [];
beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  server = await startServer({ OPENAI_BASE_URL: standIn.baseUrl, TRANSLATION_MODEL: 'stand-in', RATE_LIMIT_MESSAGES: '0' });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
  await standIn.close();
});

const filesOf = async (roomId: number) => (await readdir(path.join(server.dataDir, 'private', 'rooms', String(roomId))).catch(() => [] as string[])).sort();

describe('a participant removed for good', () => {
  it('takes their recordings and voices off the disk and their segments off every screen', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const room = await createRoom(ana, { title: 'Gone', languages: ['en', 'es'] });
    const benId = await addParticipant(ana, room.id, ben);
    await setListening(ana, room.id, { language: 'es' });
    await setState(ana, room.id, 3002);
    const anaSocket = await connect(server.url, ana);
    sockets.push(anaSocket);
    expect(await anaSocket.socket.timeout(5000).emitWithAck('room:subscribe', { roomId: room.id })).toEqual({ ok: true });

    const spoken: number[] = [];
    for (let i = 0; i < 2; i++) spoken.push((await upload(ben, room.id, uploadForm(toneWav(1)))).body.id);
    // Ana hears Ben in Spanish: a voice file per utterance, beside its recording.
    for (const id of spoken) await anaSocket.next('segment:rendered', (p) => p.segment.id === id && p.segment.speech === 'done', 30_000);
    const own = (await upload(ana, room.id, uploadForm(toneWav(1)))).body.id;
    // Ana's utterance is voiced for Ben too: wait until that is written, or it lands after the count.
    await eventually(
      async () => (await ben.client.get(`/api/rooms/${room.id}/segments/${own}/`)).body,
      (segment) => segment.transcription !== 'pending' && segment.speech !== 'pending',
      30_000,
    );
    const before = await filesOf(room.id);
    // Ben's two recordings and their Spanish voices; Ana's recording and its voice (Ben's language).
    expect(before.length).toBe(6);
    const anasRecording = String((await ana.client.get(`/api/rooms/${room.id}/segments/${own}/`)).body.audioFile).split('/').pop();
    const audio = (await ana.client.get(`/api/rooms/${room.id}/segments/${spoken[0]}/`)).body.audioFile as string;

    const mark = anaSocket.received.length;
    expect((await send(ana, 'DELETE', `/api/rooms/${room.id}/participants/${benId}/?permanent=true`)).status).toBe(204);
    const deleted = await anaSocket.next('segments:deleted', () => true, 5000, mark);
    expect(deleted).toEqual({ roomId: room.id, segmentIds: spoken });
    // Only Ana's recording and the voice made of it are left.
    const after = await filesOf(room.id);
    expect(after).toHaveLength(2);
    expect(after).toContain(anasRecording);
    for (const file of after) expect(before).toContain(file);
    expect((await ana.client.get(new URL(audio).pathname)).status).toBe(404);
    const left = (await ana.client.get(`/api/rooms/${room.id}/segments/`)).body;
    expect(left.results.map((s: { id: number }) => s.id)).toEqual([own]);
  });

  it('keeps everything when removed without permanent (history kept)', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const room = await createRoom(ana, { title: 'Kept', languages: ['en'] });
    const benId = await addParticipant(ana, room.id, ben);
    await setState(ana, room.id, 3002);
    await upload(ben, room.id, uploadForm(toneWav(1)));
    const before = await filesOf(room.id);
    expect((await send(ana, 'DELETE', `/api/rooms/${room.id}/participants/${benId}/`)).status).toBe(204);
    expect(await filesOf(room.id)).toEqual(before);
    expect((await ana.client.get(`/api/rooms/${room.id}/segments/`)).body.count).toBe(1);
  });

  it('leaving for good takes the leaver’s own recordings too', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const room = await createRoom(ana, { title: 'Leaving', languages: ['en'] });
    await addParticipant(ana, room.id, ben);
    await setState(ana, room.id, 3002);
    await upload(ben, room.id, uploadForm(toneWav(1)));
    expect(await filesOf(room.id)).toHaveLength(1);
    expect((await send(ben, 'DELETE', `/api/rooms/${room.id}/participant/?permanent=true`)).status).toBe(204);
    expect(await filesOf(room.id)).toEqual([]);
  });
});

describe('a chat member removed for good', () => {
  it('takes their messages off every open screen at once', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Gone', languages: ['en'] });
    const benId = await addMember(ana, chat.id, ben);
    const theirs = [(await post(ben, chat.id, 'one')).id, (await post(ben, chat.id, 'two')).id];
    const mine = (await post(ana, chat.id, 'mine')).id;
    const anaSocket = await connect(server.url, ana);
    sockets.push(anaSocket);
    expect(await anaSocket.subscribe(chat.id)).toEqual({ ok: true });
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/members/${benId}/?permanent=true`)).status).toBe(204);
    expect(await anaSocket.next('messages:deleted')).toEqual({ chatId: chat.id, messageIds: theirs });
    const page = await eventually(() => ana.client.get(`/api/chat/${chat.id}/messages/`), (answer) => answer.status === 200);
    expect(page.body.results.map((m: { id: number }) => m.id)).toEqual([mine]);
  });

  it('leaving for good takes the leaver’s messages off the others’ screens', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Leaving', languages: ['en'] });
    await addMember(ana, chat.id, ben);
    const theirs = (await post(ben, chat.id, 'bye')).id;
    const anaSocket = await connect(server.url, ana);
    sockets.push(anaSocket);
    expect(await anaSocket.subscribe(chat.id)).toEqual({ ok: true });
    expect((await send(ben, 'DELETE', `/api/chat/${chat.id}/member/?permanent=true`)).status).toBe(204);
    expect(await anaSocket.next('messages:deleted')).toEqual({ chatId: chat.id, messageIds: [theirs] });
  });
});
