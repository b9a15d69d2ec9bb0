// Pinned messages (issue 34) through the API: owners and admins pin and unpin, every member reads
// the pinned list in their own language and tone and gets the change live; members may not pin,
// strangers get 404; a chat holds at most LIMITS.pinsPerChat; a deleted message leaves the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@parla/contract/constants';
import { addMember, createChat, eventually, person, post, send, setReading } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

let standIn: StandIn;
let server: TestServer;
const sockets: LiveClient[] = [];

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  server = await startServer({ OPENAI_BASE_URL: standIn.baseUrl, TRANSLATION_MODEL: 'stand-in', STT_PROVIDER: 'none', TTS_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0' });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
  await standIn?.close();
});

describe('pinned messages', () => {
  it('an admin pins; every member reads the pinned list in their language and sees the change live; a member may not pin', async () => {
    const [ana, ben, cy, zed] = await Promise.all([person(server, 'Ana'), person(server, 'Ben'), person(server, 'Cy'), person(server, 'Zed')]);
    const chat = await createChat(ana, { title: 'Team', languages: ['en', 'es'] });
    const benId = await addMember(ana, chat.id, ben, 2002);
    await addMember(ana, chat.id, cy);
    await setReading(cy, chat.id, 'es');
    const first = await post(ana, chat.id, 'The launch is on Monday');
    const second = await post(ana, chat.id, 'Bring the slides');
    const live = await connect(server.url, cy);
    sockets.push(live);
    expect(await live.subscribe(chat.id)).toEqual({ ok: true });

    // Ben (ADMIN) pins: 200 with the message, pinned by him.
    const pinned = await send(ben, 'PUT', `/api/chat/${chat.id}/messages/${first.id}/pin/`);
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(200);
    expect(pinned.body).toMatchObject({ id: first.id, pinned: { by: { id: benId, nickName: 'Ben' }, at: expect.any(String) } });
    const event = await live.next('message:pinned', (payload) => payload.messageId === first.id);
    expect(event).toEqual({ chatId: chat.id, messageId: first.id, pinned: { by: { id: benId, nickName: 'Ben' }, at: pinned.body.pinned.at } });
    // Again: nothing changes (same time, no second push).
    const again = await send(ben, 'PUT', `/api/chat/${chat.id}/messages/${first.id}/pin/`);
    expect(again.status).toBe(200);
    expect(again.body.pinned.at).toBe(pinned.body.pinned.at);

    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await send(ana, 'PUT', `/api/chat/${chat.id}/messages/${second.id}/pin/`)).status).toBe(200);
    // Cy reads the list in Spanish, the latest pinned first; the page shows the pin too.
    const list = await eventually(
      async () => (await cy.client.get(`/api/chat/${chat.id}/pins/`)).body as { results: { id: number; content: string; translation: string; pinned: unknown }[] },
      (body) => body.results.every((message) => message.translation === 'done'),
    );
    expect(list.results.map((message) => message.id)).toEqual([second.id, first.id]);
    expect(list.results[1]!.content).toBe('[es DEFAULT] The launch is on Monday');
    const page = (await cy.client.get(`/api/chat/${chat.id}/messages/`)).body.results as { id: number; pinned: unknown }[];
    expect(page.find((message) => message.id === first.id)!.pinned).toMatchObject({ by: { nickName: 'Ben' } });

    // A MEMBER may read but not pin or unpin (403); a stranger gets 404 for the list and the pin.
    expect((await send(cy, 'PUT', `/api/chat/${chat.id}/messages/${first.id}/pin/`)).status).toBe(403);
    expect((await send(cy, 'DELETE', `/api/chat/${chat.id}/messages/${first.id}/pin/`)).status).toBe(403);
    expect((await zed.client.get(`/api/chat/${chat.id}/pins/`)).status).toBe(404);
    expect((await send(zed, 'PUT', `/api/chat/${chat.id}/messages/${first.id}/pin/`)).status).toBe(404);
    // A message of another chat, or none: 404.
    const elsewhere = await createChat(ana, { title: 'Elsewhere', languages: ['en'] });
    const other = await post(ana, elsewhere.id, 'Not here');
    expect((await send(ana, 'PUT', `/api/chat/${chat.id}/messages/${other.id}/pin/`)).status).toBe(404);
    expect((await send(ana, 'PUT', `/api/chat/${chat.id}/messages/999999/pin/`)).status).toBe(404);

    // Unpinned: gone from the list, pushed live; unpinning again changes nothing (204).
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/messages/${first.id}/pin/`)).status).toBe(204);
    expect(await live.next('message:pinned', (payload) => payload.messageId === first.id && payload.pinned === null)).toMatchObject({ pinned: null });
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/messages/${first.id}/pin/`)).status).toBe(204);
    expect(((await cy.client.get(`/api/chat/${chat.id}/pins/`)).body.results as { id: number }[]).map((message) => message.id)).toEqual([second.id]);

    // A deleted message leaves the list with it.
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/messages/${second.id}/`)).status).toBe(204);
    expect((await cy.client.get(`/api/chat/${chat.id}/pins/`)).body).toEqual({ results: [] });
  });

  it(`a chat holds at most ${LIMITS.pinsPerChat} pinned messages: the next gets a clear 400`, { timeout: 60_000 }, async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana, { title: 'Busy', languages: ['en'] });
    const ids: number[] = [];
    for (let index = 0; index <= LIMITS.pinsPerChat; index++) ids.push((await post(ana, chat.id, `Note ${index}`)).id);
    for (const id of ids.slice(0, LIMITS.pinsPerChat)) expect((await send(ana, 'PUT', `/api/chat/${chat.id}/messages/${id}/pin/`)).status).toBe(200);
    const refused = await send(ana, 'PUT', `/api/chat/${chat.id}/messages/${ids.at(-1)}/pin/`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: 'validation_error', errors: [{ code: 'too_many_pins', attr: 'non_field_errors' }] });
    expect(refused.body.errors[0].detail).toContain(String(LIMITS.pinsPerChat));
    expect((await ana.client.get(`/api/chat/${chat.id}/pins/`)).body.results).toHaveLength(LIMITS.pinsPerChat);
  });
});
