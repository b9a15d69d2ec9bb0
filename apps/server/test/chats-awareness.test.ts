// Read receipts and presence (issue 34) through the API and the live connection: a member who
// reads further is seen by the others who share their receipts, pushed live in batches; one who
// turns theirs off is seen by nobody and sees nobody's, at once in their open chats; presence goes
// online, away and offline (after the grace) with "last seen", and a hidden one looks offline with
// none; strangers get 404. Two servers on one Redis and one PostgreSQL share both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, invite, person, post, send, type Person } from './chat-helpers';
import { Client, startServer, type TestServer } from './harness';
import { connect, marker, type LiveClient } from './live-helpers';

const sockets: LiveClient[] = [];
const open = async (url: string, who: Person) => {
  const client = await connect(url, who);
  sockets.push(client);
  return client;
};
const read = (who: Person, chatId: number, messageId: number) => send(who, 'PATCH', `/api/chat/${chatId}/member/`, { lastReadMessage: messageId });
const privacy = (who: Person, body: unknown) => send(who, 'PATCH', '/api/accounts/privacy/', body);
const receiptsOf = async (who: Person, chatId: number) => (await who.client.get(`/api/chat/${chatId}/receipts/`)).body as { enabled: boolean; results: { memberId: number; lastReadMessage: number; readAt: string | null }[] };
const presenceOf = async (who: Person, chatId: number) => (await who.client.get(`/api/chat/${chatId}/presence/`)).body as { results: { memberId: number; state: string; lastSeen: string | null }[] };

afterAll(() => {
  for (const socket of sockets) socket.close();
});

describe('read receipts and presence, one server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRANSLATION_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0', PRESENCE_OFFLINE_GRACE_SECONDS: '0.3' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('receipts: who read how far, pushed to those who share theirs; turned off, nobody sees them and they see nobody’s', async () => {
    const [ana, ben, cy, zed, ivy] = await Promise.all([person(server, 'Ana'), person(server, 'Ben'), person(server, 'Cy'), person(server, 'Zed'), person(server, 'Ivy')]);
    const chat = await createChat(ana, { title: 'Team', languages: ['en'] });
    const benId = await addMember(ana, chat.id, ben);
    const cyId = await addMember(ana, chat.id, cy);
    await invite(ana, chat.id, ivy.email);
    const first = await post(ana, chat.id, 'Monday at ten');
    const second = await post(ana, chat.id, 'Bring the slides');
    const anaLive = await open(server.url, ana);
    const cyLive = await open(server.url, cy);
    expect(await anaLive.subscribe(chat.id)).toEqual({ ok: true });
    expect(await cyLive.subscribe(chat.id)).toEqual({ ok: true });

    // The settings, as they start.
    expect((await ana.client.get('/api/accounts/privacy/')).body).toEqual({ readReceipts: true, showPresence: true });

    // Ben reads both: pushed at once (the first in its window), and listed.
    expect((await read(ben, chat.id, second.id)).status).toBe(200);
    const pushed = await anaLive.next('receipts', (event) => event.receipts.some((item: { memberId: number }) => item.memberId === benId));
    expect(pushed).toEqual({ chatId: chat.id, receipts: [{ memberId: benId, nickName: 'Ben', lastReadMessage: second.id, readAt: expect.any(String) }] });
    const listed = await receiptsOf(ana, chat.id);
    expect(listed.enabled).toBe(true);
    expect(listed.results).toEqual([{ memberId: benId, nickName: 'Ben', lastReadMessage: second.id, readAt: pushed.receipts[0].readAt }]);

    // Cy turns hers off: she sees nobody's, her open chat no longer gets them, and her reading is not shown.
    expect((await privacy(cy, { readReceipts: false })).body).toEqual({ readReceipts: false, showPresence: true });
    expect(await receiptsOf(cy, chat.id)).toEqual({ enabled: false, results: [] });
    const cyMark = cyLive.received.length;
    expect((await read(cy, chat.id, first.id)).status).toBe(200);
    const third = await post(ana, chat.id, 'See you');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await read(ben, chat.id, third.id)).status).toBe(200);
    await anaLive.next('receipts', (event) => event.receipts.some((item: { lastReadMessage: number }) => item.lastReadMessage === third.id));
    const until = await marker(server, ana, cy, cyLive);
    expect(cyLive.received.slice(cyMark, until).filter((item) => item.event === 'receipts')).toEqual([]);
    expect(anaLive.received.some((item) => item.event === 'receipts' && item.payload.receipts.some((r: { memberId: number }) => r.memberId === cyId))).toBe(false);
    expect((await receiptsOf(ana, chat.id)).results.map((item) => item.memberId)).toEqual([benId]);

    // On again: her open chat gets them again, and hers are shown.
    expect((await privacy(cy, { readReceipts: true })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await read(cy, chat.id, third.id)).status).toBe(200);
    expect((await read(ben, chat.id, first.id)).status).toBe(200);
    await cyLive.next('receipts', (event) => event.receipts.some((item: { memberId: number; lastReadMessage: number }) => item.memberId === benId && item.lastReadMessage === first.id), 5_000);
    expect((await receiptsOf(ana, chat.id)).results.map((item) => [item.memberId, item.lastReadMessage])).toEqual([
      [benId, first.id],
      [cyId, third.id],
    ]);

    // Strangers and people only invited: 404 for both lists.
    for (const who of [zed, ivy]) {
      expect((await who.client.get(`/api/chat/${chat.id}/receipts/`)).status).toBe(404);
      expect((await who.client.get(`/api/chat/${chat.id}/presence/`)).status).toBe(404);
    }
    // Bad settings: 400 naming the field.
    const bad = await privacy(ana, { readReceipts: 'no' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('readReceipts');
  });

  it('receipts read at once in a window go out together, each member’s latest', async () => {
    const [ana, ben, cy] = await Promise.all([person(server, 'Ana'), person(server, 'Ben'), person(server, 'Cy')]);
    const chat = await createChat(ana, { title: 'Busy', languages: ['en'] });
    const benId = await addMember(ana, chat.id, ben);
    const cyId = await addMember(ana, chat.id, cy);
    const messages = [];
    for (const text of ['one', 'two', 'three']) messages.push(await post(ana, chat.id, text));
    const anaLive = await open(server.url, ana);
    expect(await anaLive.subscribe(chat.id)).toEqual({ ok: true });
    const mark = anaLive.received.length;
    await read(ben, chat.id, messages[0]!.id);
    await read(cy, chat.id, messages[1]!.id);
    await read(ben, chat.id, messages[2]!.id);
    const gathered = await anaLive.next('receipts', (event) => event.receipts.length === 2, 5_000, mark);
    expect(gathered.receipts.map((item: { memberId: number; lastReadMessage: number }) => [item.memberId, item.lastReadMessage]).sort()).toEqual(
      [
        [benId, messages[2]!.id],
        [cyId, messages[1]!.id],
      ].sort(),
    );
    // Two pushes for three reads: the first at once, the rest together.
    expect(anaLive.received.slice(mark).filter((item) => item.event === 'receipts')).toHaveLength(2);
  });

  it('presence: online, away, offline after the grace with last seen; hidden, always offline without it', async () => {
    const [ana, ben] = await Promise.all([person(server, 'Ana'), person(server, 'Ben')]);
    const chat = await createChat(ana, { title: 'Presence', languages: ['en'] });
    const benId = await addMember(ana, chat.id, ben);
    const anaLive = await open(server.url, ana);
    expect(await anaLive.subscribe(chat.id)).toEqual({ ok: true });
    const stateOf = async (memberId: number) => (await presenceOf(ana, chat.id)).results.find((item) => item.memberId === memberId);
    expect(await stateOf(benId)).toEqual({ memberId: benId, state: 'offline', lastSeen: null });

    const benLive = await open(server.url, ben);
    const isBen = (state: string) => (event: { presence: { memberId: number; state: string }[] }) => event.presence.some((item) => item.memberId === benId && item.state === state);
    expect(await anaLive.next('presence', isBen('online'))).toEqual({ chatId: chat.id, presence: [{ memberId: benId, state: 'online', lastSeen: null }] });
    expect(await stateOf(benId)).toEqual({ memberId: benId, state: 'online', lastSeen: null });

    benLive.socket.emit('presence:away', { away: true });
    await anaLive.next('presence', isBen('away'));
    expect((await stateOf(benId))?.state).toBe('away');
    benLive.socket.emit('presence:away', { away: false });
    await anaLive.next('presence', isBen('online'), 10_000, anaLive.received.findIndex((item) => item.event === 'presence' && isBen('away')(item.payload)));

    // A second tab closing is no departure; the last one is, after the grace.
    const benSecond = await open(server.url, ben);
    benSecond.close();
    benLive.close();
    const offline = await anaLive.next('presence', isBen('offline'));
    expect(offline.presence[0].lastSeen).toEqual(expect.any(String));
    expect(await stateOf(benId)).toEqual({ memberId: benId, state: 'offline', lastSeen: offline.presence[0].lastSeen });

    // Hidden: offline without last seen, and coming back says nothing.
    expect((await privacy(ben, { showPresence: false })).body).toEqual({ readReceipts: true, showPresence: false });
    await anaLive.next('presence', (event) => event.presence.some((item: { memberId: number; lastSeen: string | null }) => item.memberId === benId && item.lastSeen === null));
    const mark = anaLive.received.length;
    await open(server.url, ben);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(anaLive.received.slice(mark).filter((item) => item.event === 'presence')).toEqual([]);
    expect(await stateOf(benId)).toEqual({ memberId: benId, state: 'offline', lastSeen: null });
    // Shown again: online at once.
    expect((await privacy(ben, { showPresence: true })).status).toBe(200);
    await anaLive.next('presence', isBen('online'), 10_000, mark);
  });
});

const redisUrl = process.env.REDIS_TEST_URL;
// Two processes need a database they can share: PostgreSQL (skipped on PGlite, by design). Redis
// database 7 of the test Redis: nothing of other suites' servers (their live streams, their presence).
describe.skipIf(!redisUrl || process.env.TEST_DATABASE !== 'postgres')('two servers, one Redis, one PostgreSQL (PostgreSQL pass only)', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    const shared = {
      REDIS_URL: `${redisUrl!.replace(/\/\d*$/, '')}/7`,
      TRANSLATION_PROVIDER: 'none',
      RATE_LIMIT_MESSAGES: '0',
      PRESENCE_OFFLINE_GRACE_SECONDS: '0.3',
      SECRET_KEY: 'a-secret-shared-by-both-servers-of-this-test',
    };
    first = await startServer(shared);
    second = await startServer({ ...shared, DATABASE_URL: first.config.databaseUrl! });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('presence and receipts made on one reach a socket on the other', async () => {
    const [ana, ben] = [await person(first, 'Ana'), await person(first, 'Ben')];
    const chat = await createChat(ana, { title: 'Across', languages: ['en'] });
    const benId = await addMember(ana, chat.id, ben);
    const message = await post(ana, chat.id, 'across processes');
    const anaLive = await open(first.url, ana);
    expect(await anaLive.subscribe(chat.id)).toEqual({ ok: true });
    // Ben's browser talks to the second server.
    const benThere = await open(second.url, ben);
    await anaLive.next('presence', (event) => event.presence.some((item: { memberId: number; state: string }) => item.memberId === benId && item.state === 'online'));
    expect((await presenceOf(ana, chat.id)).results.find((item) => item.memberId === benId)?.state).toBe('online');
    // His read, through the second server's API, reaches Ana on the first.
    const benOnSecond = { ...ben, client: new Client(second.url) };
    for (const [name, value] of ben.client.jar) benOnSecond.client.jar.set(name, value);
    expect((await read(benOnSecond, chat.id, message.id)).status).toBe(200);
    expect(await anaLive.next('receipts')).toMatchObject({ chatId: chat.id, receipts: [{ memberId: benId, lastReadMessage: message.id }] });
    benThere.close();
    await anaLive.next('presence', (event) => event.presence.some((item: { memberId: number; state: string }) => item.memberId === benId && item.state === 'offline'));
    expect((await presenceOf(ana, chat.id)).results.find((item) => item.memberId === benId)?.state).toBe('offline');
  });
});
