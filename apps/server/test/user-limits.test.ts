// The declared limits of signed-in work (platform/rate-limit.ts `userLimits`), each at a low value
// here: editing counts like posting, corrections like uploads, creating chats and rooms, exporting
// transcripts, any other write, and the events of one live connection. A refused request answers
// 429 in the standard body with Retry-After, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, person, post, send } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect } from './live-helpers';
import { createRoom, setState, toneWav, upload, uploadForm } from './room-helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    RATE_LIMIT_MESSAGES: '3',
    RATE_LIMIT_CREATIONS: '4',
    RATE_LIMIT_EXPORTS: '2',
    RATE_LIMIT_WRITES: '12',
    RATE_LIMIT_LIVE_EVENTS: '5',
    TRANSLATION_PROVIDER: 'none',
    STT_PROVIDER: 'none',
    TTS_PROVIDER: 'none',
  });
});
afterAll(() => server.close());

function expectThrottled(answer: { status: number; body: any; headers: Headers }) {
  expect(answer.status).toBe(429);
  expect(answer.body).toMatchObject({ type: 'client_error', errors: [{ code: 'throttled', attr: null }] });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('per-user limits', () => {
  it('counts message edits with posts, and a refused edit changes nothing', async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana);
    const message = await post(ana, chat.id, 'one');
    await post(ana, chat.id, 'two');
    expect((await send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${message.id}/`, { content: 'one, edited' })).status).toBe(200);
    expectThrottled(await send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${message.id}/`, { content: 'one, edited twice' }));
    expect((await ana.client.get(`/api/chat/${chat.id}/messages/${message.id}/`)).body.content).toBe('one, edited');
  });

  it('counts transcript corrections with uploads', async () => {
    const ana = await person(server, 'Ana');
    const room = await createRoom(ana);
    await setState(ana, room.id, 3002);
    const id = (await upload(ana, room.id, uploadForm(toneWav(1)))).body.id;
    expect((await send(ana, 'PATCH', `/api/rooms/${room.id}/segments/${id}/`, { transcript: 'first' })).status).toBe(200);
    expect((await send(ana, 'PATCH', `/api/rooms/${room.id}/segments/${id}/`, { transcript: 'second' })).status).toBe(200);
    expectThrottled(await send(ana, 'PATCH', `/api/rooms/${room.id}/segments/${id}/`, { transcript: 'third' }));
    expectThrottled(await upload(ana, room.id, uploadForm(toneWav(1))));
    expect((await ana.client.get(`/api/rooms/${room.id}/segments/${id}/`)).body.transcript).toBe('second');
    expect((await ana.client.get(`/api/rooms/${room.id}/segments/`)).body.count).toBe(1);
  });

  it('limits creating chats and rooms together', async () => {
    const ana = await person(server, 'Ana');
    await createChat(ana);
    await createRoom(ana);
    await createChat(ana);
    await createRoom(ana);
    expectThrottled(await send(ana, 'POST', '/api/chat/', { title: 'one too many' }));
    expectThrottled(await send(ana, 'POST', '/api/rooms/', { title: 'one too many' }));
    expect((await ana.client.get('/api/rooms/')).body.count).toBe(2);
  });

  it('limits transcript downloads', async () => {
    const ana = await person(server, 'Ana');
    const room = await createRoom(ana);
    for (let i = 0; i < 2; i++) expect((await ana.client.get(`/api/rooms/${room.id}/transcript/`)).status).toBe(200);
    expectThrottled(await ana.client.get(`/api/rooms/${room.id}/transcript/?format=srt`));
  });

  it('limits every other write, and reads stay free', async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana);
    // The chat's creation was one write; eleven more go through.
    for (let i = 0; i < 11; i++) expect((await send(ana, 'PATCH', `/api/chat/${chat.id}/member/`, { nickName: `Ana ${i}` })).status).toBe(200);
    expectThrottled(await send(ana, 'PATCH', `/api/chat/${chat.id}/member/`, { nickName: 'Ana refused' }));
    expect((await ana.client.get(`/api/chat/${chat.id}/member/`)).body.nickName).toBe('Ana 10');
    for (let i = 0; i < 20; i++) expect((await ana.client.get(`/api/chat/${chat.id}/`)).status).toBe(200);
  });
});

describe('live events', () => {
  it('answers `throttled` past the budget without reading, and closes a connection that floods', async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana);
    const live = await connect(server.url, ana);
    try {
      const answers = [];
      for (let i = 0; i < 7; i++) answers.push(await live.subscribe(chat.id));
      expect(answers.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => ({ ok: true })));
      expect(answers.slice(5)).toEqual([
        { ok: false, error: 'throttled' },
        { ok: false, error: 'throttled' },
      ]);
      const closed = new Promise<string>((resolve) => live.socket.on('disconnect', (reason) => resolve(reason)));
      for (let i = 0; i < 60; i++) live.socket.emit('chat:typing', { chatId: chat.id });
      expect(await closed).toBe('io server disconnect');
    } finally {
      live.close();
    }
  });
});

// Issue 31 (12): the public reads answered no 4xx at all; they are counted per address now, so
// a client hammering the status (which pings every part) is told to wait, in the standard body.
describe('public reads per address', () => {
  it('answer 429 past RATE_LIMIT_PUBLIC, with the standard body, each route sharing the one count', async () => {
    const open = await startServer({ RATE_LIMIT_PUBLIC: '4', TRANSLATION_PROVIDER: 'none', STT_PROVIDER: 'none', TTS_PROVIDER: 'none' });
    try {
      const client = open.client();
      expect((await client.get('/api/status/')).status).toBe(200);
      expect((await client.get('/api/translation/')).status).toBe(200);
      expect((await client.get('/api/speech/tones/')).status).toBe(200);
      expect((await client.get('/api/accounts/logout/')).status).toBe(200);
      expectThrottled(await client.get('/api/status/'));
      expectThrottled(await client.get('/api/speech/tones/'));
      expectThrottled(await client.post('/api/accounts/logout/', {}));
    } finally {
      await open.close();
    }
  });
});
