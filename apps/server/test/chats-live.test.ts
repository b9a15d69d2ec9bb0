// Live pushes of chats over Socket.IO: authentication, membership on subscribe and at once on
// removal, sessions checked again while connected, messages posted over the connection
// (`message:send`, as the POST posts them), events rendered for each reader, typing, and across
// two servers through one Redis.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageSendAck, MessageSendRequest } from '@parla/contract/live';
import { sessions } from '../src/platform/db/schema';
import { addMember, createChat, invite, person, post, send, setReading, type Person } from './chat-helpers';
import { signedIn, startServer, type TestServer } from './harness';
import { connect, drop, marker, positionOf, reconnect, type LiveClient } from './live-helpers';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

let standIn: StandIn;
let server: TestServer;
const opened: LiveClient[] = [];
beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  server = await startServer({ OPENAI_BASE_URL: standIn.baseUrl, RATE_LIMIT_MESSAGES: '0' });
});
afterAll(async () => {
  for (const client of opened) client.close();
  await server.close();
  await standIn.close();
});
const live = async (...args: Parameters<typeof connect>) => {
  const client = await connect(...args);
  opened.push(client);
  return client;
};

describe('the live endpoint', () => {
  it('refuses a socket without a session, with a forged token, or a cookie from another origin', async () => {
    const anonymous = await live(server.url, { cookie: '' }, { expectFailure: true });
    expect(anonymous.socket.connected).toBe(false);
    const forged = await live(server.url, { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.x' }, { expectFailure: true });
    expect(forged.socket.connected).toBe(false);
    const ana = await person(server);
    const good = await live(server.url, ana);
    expect(good.socket.connected).toBe(true);
    const byToken = await live(server.url, { token: ana.access });
    expect(byToken.socket.connected).toBe(true);
    const cookie = [...ana.client.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const crossSite = await live(server.url, { cookie, origin: 'https://evil.example' }, { expectFailure: true });
    expect(crossSite.socket.connected).toBe(false);
  });

  it('answers not_found to a subscribe by a stranger, and invalid to a malformed one', async () => {
    const ana = await person(server);
    const eve = await person(server);
    const chat = await createChat(ana);
    const socket = await live(server.url, eve);
    expect(await socket.subscribe(chat.id)).toEqual({ ok: false, error: 'not_found' });
    expect(await socket.socket.timeout(5000).emitWithAck('chat:subscribe', { chatId: 'x' as unknown as number })).toEqual({ ok: false, error: 'invalid' });
    await post(ana, chat.id, 'secret');
    const until = await marker(server, ana, eve, socket);
    expect(socket.received.slice(0, until).filter((r) => r.event.startsWith('message:'))).toEqual([]);
  });

  it('drops the sockets of a session that logs out', async () => {
    const ana = await person(server);
    const socket = await live(server.url, ana);
    const gone = new Promise<void>((resolve) => socket.socket.once('disconnect', () => resolve()));
    await ana.client.post('/api/accounts/logout/');
    await gone;
    expect(socket.socket.connected).toBe(false);
  });

  it('drops the sockets of a session ended by a password change elsewhere or by a refresh token used again', async () => {
    const ana = await person(server);
    const other = await signedIn(server, ana.email);
    const otherSocket = await live(server.url, { token: other.login.access });
    const ownSocket = await live(server.url, ana);
    const gone = new Promise<void>((resolve) => otherSocket.socket.once('disconnect', () => resolve()));
    const password = 'another-long-secret-9';
    expect((await send(ana, 'POST', '/api/accounts/password/change/', { newPassword1: password, newPassword2: password })).status).toBe(200);
    await gone;
    expect(ownSocket.socket.connected).toBe(true);

    // Two rotations later the first refresh token is a replay: the session ends, and its socket with it.
    const ben = await signedIn(server);
    const benSocket = await live(server.url, { token: ben.login.access });
    const api = server.client();
    const first = await api.post('/api/accounts/token/refresh/', { refresh: ben.login.refresh });
    expect((await api.post('/api/accounts/token/refresh/', { refresh: first.body.refresh })).status).toBe(200);
    const cut = new Promise<void>((resolve) => benSocket.socket.once('disconnect', () => resolve()));
    expect((await api.post('/api/accounts/token/refresh/', { refresh: ben.login.refresh })).status).toBe(401);
    await cut;
  });

  it('checks the sessions of open sockets again (every minute): one ended elsewhere loses its sockets, the others stay', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const anaSocket = await live(server.url, ana);
    const benSocket = await live(server.url, ben);
    const gone = new Promise<void>((resolve) => anaSocket.socket.once('disconnect', () => resolve()));
    // Ended in the database without telling the live server (as another process or an expiry would).
    await server.app.ctx.db.update(sessions).set({ revokedAt: new Date(), revokedReason: 'test' }).where(eq(sessions.userId, ana.userId));
    await server.app.ctx.realtime.checkSessions();
    await gone;
    expect(benSocket.socket.connected).toBe(true);
    expect(await benSocket.socket.timeout(5000).emitWithAck('chat:subscribe', { chatId: 1 })).toMatchObject({ ok: false });
  });
});

describe('posting over the live connection (message:send)', () => {
  const sendOver = (client: LiveClient, payload: unknown): Promise<MessageSendAck> => client.socket.timeout(5000).emitWithAck('message:send', payload as MessageSendRequest);
  /** The POST of the same body, for comparison: status and body. */
  const postOver = async (who: Person, chatId: number | string, body: unknown) => {
    const answer = await who.client.request('POST', `/api/chat/${chatId}/messages/`, { json: body, xsrf: true });
    return { status: answer.status, body: answer.body };
  };

  it('stores and pushes the message, answers what the POST answers, and a repeated clientId answers the stored message', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Socket posts', languages: ['en', 'es'] });
    const benMember = await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    const anaSocket = await live(server.url, ana);
    const benSocket = await live(server.url, ben);
    expect(await anaSocket.subscribe(chat.id)).toEqual({ ok: true });
    expect(await benSocket.subscribe(chat.id)).toEqual({ ok: true });

    const clientId = randomUUID();
    const answer = await sendOver(anaSocket, { chatId: chat.id, content: 'Sent over the socket', clientId });
    if (!answer.ok) throw new Error(JSON.stringify(answer));
    expect(answer.created).toBe(true);
    expect(answer.message).toMatchObject({ content: 'Sent over the socket', isMe: true, translation: 'none' });
    // The sender's view is the message as a read of it gives it; each reader gets it pushed.
    expect((await send(ana, 'GET', `/api/chat/${chat.id}/messages/${answer.message.id}/`)).body).toEqual(answer.message);
    expect((await benSocket.next('message:created', (p) => p.message.id === answer.message.id)).message).toMatchObject({ isMe: false, content: 'Sent over the socket' });
    expect((await benSocket.next('message:rendered', (p) => p.message.id === answer.message.id)).message.content).toBe('[es DEFAULT] Sent over the socket');
    await anaSocket.next('message:created', (p) => p.message.id === answer.message.id && p.message.isMe === true);

    const again = await sendOver(anaSocket, { chatId: chat.id, content: 'Sent over the socket', clientId });
    expect(again).toEqual({ ok: true, created: false, message: answer.message });
    // The same clientId by POST is the same message too.
    expect(await postOver(ana, chat.id, { content: 'Sent over the socket', clientId })).toEqual({ status: 200, body: answer.message });

    // A reply that mentions someone goes the longer way (its checks first), with the same outcome as a POST.
    const reply = await sendOver(anaSocket, { chatId: chat.id, content: `Right, <@${benMember}>`, replyTo: answer.message.id });
    if (!reply.ok) throw new Error(JSON.stringify(reply));
    expect(reply.message).toMatchObject({ replyTo: { id: answer.message.id }, mentions: [{ id: benMember }] });
    expect((await send(ana, 'GET', `/api/chat/${chat.id}/messages/${reply.message.id}/`)).body).toEqual(reply.message);
  });

  it('refuses what the POST refuses, with its status and error body', async () => {
    const ana = await person(server);
    const eve = await person(server);
    const ivy = await person(server);
    const chat = await createChat(ana);
    await invite(ana, chat.id, ivy.email);
    const anaSocket = await live(server.url, ana);
    const cases: [Person, number | string, Record<string, unknown>][] = [
      [ana, chat.id, { content: '' }],
      [ana, chat.id, { content: 'x'.repeat(5000) }],
      [ana, chat.id, { content: 'Hi', clientId: 'not-a-uuid' }],
      [ana, chat.id, { content: 42 }],
      [ana, chat.id, {}],
      [ana, chat.id, { content: 'Hi', replyTo: 999_999 }],
      [ana, chat.id, { content: 'Hi', attachments: [999_999] }],
      [ana, chat.id, { content: 'Hi <@999999>' }],
      [ana, 999_999, { content: 'Hi' }],
      [eve, chat.id, { content: 'Hi' }],
      [ivy, chat.id, { content: 'Hi' }],
    ];
    const sockets = new Map<Person, LiveClient>([[ana, anaSocket], [eve, await live(server.url, eve)], [ivy, await live(server.url, ivy)]]);
    for (const [who, chatId, body] of cases) {
      const overHttp = await postOver(who, chatId, body);
      expect(overHttp.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(await sendOver(sockets.get(who)!, { chatId, ...body }), JSON.stringify(body)).toEqual({ ok: false, status: overHttp.status, error: overHttp.body });
    }
    // No chat id, or one that names nothing: the POST's 404 for such a path.
    for (const payload of [null, 'x', [], { content: 'Hi' }, { chatId: 'x', content: 'Hi' }, { chatId: -1, content: 'Hi' }]) {
      expect(await sendOver(anaSocket, payload), JSON.stringify(payload)).toEqual({ ok: false, status: 404, error: { type: 'client_error', errors: [{ code: 'not_found', attr: null, detail: expect.any(String) }] } });
    }
    // Nothing of the above was stored.
    expect((await send(ana, 'GET', `/api/chat/${chat.id}/messages/`)).body.results).toEqual([]);
    // Without an acknowledgement nothing is posted, and the connection goes on.
    (anaSocket.socket as unknown as { emit(event: string, payload: unknown): void }).emit('message:send', { chatId: chat.id, content: 'Unheard' });
    expect(await sendOver(anaSocket, { chatId: chat.id, content: 'Heard' })).toMatchObject({ ok: true, created: true });
    expect((await send(ana, 'GET', `/api/chat/${chat.id}/messages/`)).body.results.map((m: { content: string }) => m.content)).toEqual(['Heard']);
  });

  it('writes posts that arrive together in one statement, each with its own outcome, order and id', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const eve = await person(server);
    const ivy = await person(server);
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben);
    await invite(ana, chat.id, ivy.email);
    const [anaSocket, benSocket, eveSocket, ivySocket] = await Promise.all([ana, ben, eve, ivy].map((who) => live(server.url, who)));
    const repeatedId = randomUUID();
    // All at once: the server takes them in the same few ticks, so they go in the same batches
    // (platform/db/group-commit.ts); a stranger's, an invitee's and a repeated clientId among them.
    const [anaAnswers, benAnswers, eve404, ivy404, first, second] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, (_, index) => sendOver(anaSocket!, { chatId: chat.id, content: `Ana ${index}` }))),
      Promise.all(Array.from({ length: 8 }, (_, index) => sendOver(benSocket!, { chatId: chat.id, content: `Ben ${index}` }))),
      sendOver(eveSocket!, { chatId: chat.id, content: 'Stranger' }),
      sendOver(ivySocket!, { chatId: chat.id, content: 'Invited only' }),
      sendOver(anaSocket!, { chatId: chat.id, content: 'Once', clientId: repeatedId }),
      sendOver(anaSocket!, { chatId: chat.id, content: 'Once', clientId: repeatedId }),
    ]);
    expect(eve404).toMatchObject({ ok: false, status: 404 });
    expect(ivy404).toMatchObject({ ok: false, status: 404 });
    // The same clientId twice: one message, both answers name it.
    if (!first.ok || !second.ok) throw new Error(JSON.stringify([first, second]));
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(second.message.id).toBe(first.message.id);
    const ids = (answers: MessageSendAck[]) => answers.map((answer) => (answer.ok && answer.created ? answer.message.id : NaN));
    // Each sender's messages have ids in the order they were sent, and the chat lists them so.
    for (const [answers, name] of [[anaAnswers, 'Ana'], [benAnswers, 'Ben']] as const) {
      const sent = ids(answers);
      expect(sent.every(Number.isInteger)).toBe(true);
      expect([...sent].sort((a, b) => a - b)).toEqual(sent);
      answers.forEach((answer, index) => expect(answer).toMatchObject({ message: { content: `${name} ${index}` } }));
    }
    const page = (await send(ana, 'GET', `/api/chat/${chat.id}/messages/?limit=50`)).body.results as { id: number; content: string }[];
    expect(page.map((message) => message.id).sort((a, b) => a - b)).toEqual([...ids(anaAnswers), ...ids(benAnswers), first.message.id].sort((a, b) => a - b));
    expect(page.map((message) => message.content)).not.toContain('Stranger');
    expect(page.map((message) => message.content)).not.toContain('Invited only');
    // Each sender's own newest message is read: Ben has Ana's later ones unread, none of his own.
    const listed = (await ben.client.get('/api/chat/')).body.results.find((item: { id: number }) => item.id === chat.id) as { unreadCount: number };
    const lastOfBen = Math.max(...ids(benAnswers));
    expect(listed.unreadCount).toBe(page.filter((message) => message.id > lastOfBen && !message.content.startsWith('Ben')).length);
    // The chat's activity time moved: it heads Ana's list.
    expect((await ana.client.get('/api/chat/')).body.results[0].id).toBe(chat.id);
  });

  it('keeps one sender’s order when each post arrives while the one before is still being written', async () => {
    const ana = await person(server);
    const chat = await createChat(ana);
    const anaSocket = (await live(server.url, ana))!;
    // A millisecond apart: not in one tick, so each finds the one before in flight and a place free.
    const answers: Promise<MessageSendAck>[] = [];
    for (let index = 0; index < 6; index++) {
      answers.push(sendOver(anaSocket, { chatId: chat.id, content: `In order ${index}` }));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const sent = (await Promise.all(answers)).map((answer) => (answer.ok ? answer.message.id : NaN));
    expect(sent.every(Number.isInteger)).toBe(true);
    expect([...sent].sort((a, b) => a - b)).toEqual(sent);
    const page = (await send(ana, 'GET', `/api/chat/${chat.id}/messages/?limit=10`)).body.results as { content: string }[];
    expect(page.map((message) => message.content).reverse()).toEqual(Array.from({ length: 6 }, (_, index) => `In order ${index}`));
  });

  it('keeps one sender’s order when a reply or a mention is followed at once by a plain post', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana);
    const benId = await addMember(ana, chat.id, ben);
    const anaSocket = (await live(server.url, ana))!;
    const first = await sendOver(anaSocket, { chatId: chat.id, content: 'To reply to' });
    if (!first.ok) throw new Error('the first post failed');
    // A reply and a mention take more statements than a plain post (checks first): sent at once, as an outbox does.
    const answers = [
      sendOver(anaSocket, { chatId: chat.id, content: 'A reply', replyTo: first.message.id }),
      sendOver(anaSocket, { chatId: chat.id, content: 'Plain after the reply' }),
      sendOver(anaSocket, { chatId: chat.id, content: `Hello <@${benId}>` }),
      sendOver(anaSocket, { chatId: chat.id, content: 'Plain after the mention' }),
    ];
    const sent = (await Promise.all(answers)).map((answer) => (answer.ok ? answer.message.id : NaN));
    expect(sent.every(Number.isInteger)).toBe(true);
    expect([...sent].sort((a, b) => a - b)).toEqual(sent);
    const page = (await send(ana, 'GET', `/api/chat/${chat.id}/messages/?limit=10`)).body.results as { content: string }[];
    expect(page.map((message) => message.content).reverse()).toEqual([
      'To reply to',
      'A reply',
      'Plain after the reply',
      `Hello <@${benId}>`,
      'Plain after the mention',
    ]);
  });

  it('counts against the same rate limit as the POST', async () => {
    const limited = await startServer({ RATE_LIMIT_MESSAGES: '2' });
    try {
      const ana = await person(limited);
      const chat = await createChat(ana);
      const socket = await connect(limited.url, ana);
      try {
        expect(await sendOver(socket, { chatId: chat.id, content: 'one' })).toMatchObject({ ok: true });
        expect((await postOver(ana, chat.id, { content: 'two' })).status).toBe(201);
        const refused = await sendOver(socket, { chatId: chat.id, content: 'three' });
        expect(refused).toMatchObject({ ok: false, status: 429, error: { type: 'client_error', errors: [{ code: 'throttled', attr: null }] } });
        const overHttp = await postOver(ana, chat.id, { content: 'three' });
        expect(overHttp.status).toBe(429);
      } finally {
        socket.close();
      }
    } finally {
      await limited.close();
    }
  });
});

describe('chat events', () => {
  it('delivers a message to every member rendered in their language, then its translation, edits and deletion', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Live', languages: ['en', 'es'] });
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    const anaSocket = await live(server.url, ana);
    const benSocket = await live(server.url, ben);
    expect(await anaSocket.subscribe(chat.id)).toEqual({ ok: true });
    expect(await benSocket.subscribe(chat.id)).toEqual({ ok: true });

    const message = await post(ana, chat.id, 'Good morning');
    const created = await benSocket.next('message:created', (p) => p.message.id === message.id);
    expect(created).toMatchObject({ chatId: chat.id, message: { content: 'Good morning', isMe: false, translation: 'pending' } });
    const rendered = await benSocket.next('message:rendered', (p) => p.message.id === message.id);
    expect(rendered.message).toMatchObject({ content: '[es DEFAULT] Good morning', language: 'es', translation: 'done' });
    const own = await anaSocket.next('message:created', (p) => p.message.id === message.id);
    expect(own.message).toMatchObject({ isMe: true, content: 'Good morning', translation: 'none' });
    // The sender's reading group needs no rendering: nothing more reaches her for it.
    expect(anaSocket.received.filter((r) => r.event === 'message:rendered')).toEqual([]);

    await send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${message.id}/`, { content: 'Good evening' });
    const edited = await benSocket.next('message:edited', (p) => p.message.id === message.id);
    expect(edited.message).toMatchObject({ edited: true, content: 'Good evening', translation: 'pending' });
    await benSocket.next('message:rendered', (p) => p.message.content === '[es DEFAULT] Good evening');

    await send(ana, 'DELETE', `/api/chat/${chat.id}/messages/${message.id}/`);
    expect(await benSocket.next('message:deleted')).toEqual({ chatId: chat.id, messageId: message.id });
  });

  it('renders each event once per (language, tone) group, not per member', async () => {
    const ana = await person(server);
    const chat = await createChat(ana, { title: 'Crowd', languages: ['en', 'es'] });
    const readers = await Promise.all(Array.from({ length: 6 }, () => person(server)));
    for (const [index, reader] of readers.entries()) {
      await addMember(ana, chat.id, reader);
      if (index % 2) await setReading(reader, chat.id, 'es');
    }
    const sockets = await Promise.all(readers.map((reader) => live(server.url, reader)));
    for (const socket of sockets) expect(await socket.subscribe(chat.id)).toEqual({ ok: true });
    const before = standIn.completions().length;
    const message = await post(ana, chat.id, 'Hello crowd');
    // Each Spanish reader gets the one Spanish rendering; English readers need none.
    for (const [index, socket] of sockets.entries()) {
      if (index % 2 === 0) continue;
      expect((await socket.next('message:rendered', (p) => p.message.id === message.id)).message.content).toBe('[es DEFAULT] Hello crowd');
    }
    for (const [index, socket] of sockets.entries()) {
      if (index % 2) continue;
      const until = await marker(server, ana, readers[index]!, socket);
      expect(socket.received.slice(0, until).filter((r) => r.event === 'message:rendered')).toEqual([]);
    }
    expect(standIn.completions().length - before).toBe(1);
  });

  it('sends a new message once to every group whose view is the same, and a reply to each group its own', async () => {
    const ana = await person(server);
    const chat = await createChat(ana, { title: 'Shared views', languages: ['en', 'es', 'fr'] });
    const readers = await Promise.all([0, 1, 2, 3].map(() => person(server)));
    const reading = [
      ['en', 'DEFAULT'],
      ['es', 'DEFAULT'],
      ['fr', 'DEFAULT'],
      ['es', 'FORMAL'],
    ] as const;
    for (const [index, reader] of readers.entries()) {
      await addMember(ana, chat.id, reader);
      await setReading(reader, chat.id, reading[index]![0], reading[index]![1]);
    }
    const sockets = (await Promise.all(readers.map((reader) => live(server.url, reader)))).map((socket) => socket!);
    for (const socket of sockets) expect(await socket.subscribe(chat.id)).toEqual({ ok: true });
    const first = await post(ana, chat.id, 'Shared hello');
    const created = await Promise.all(sockets.map((socket) => socket.next('message:created', (p) => p.message.id === first.id)));
    // Ana's own language needs no rendering; the three others wait for theirs: one view, the same for each.
    expect(created[0]!.message).toMatchObject({ content: 'Shared hello', translation: 'none', isMe: false });
    for (const other of created.slice(1)) expect(other).toEqual(created[1]);
    expect(created[1]!.message).toMatchObject({ content: 'Shared hello', translation: 'pending', language: 'en' });
    // A reply quotes the message as each group reads it (its own rendering, once it is done).
    for (const [index, socket] of sockets.entries()) if (index > 0) await socket.next('message:rendered', (p) => p.message.id === first.id);
    const reply = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'And a reply', replyTo: first.id });
    expect(reply.status).toBe(201);
    const replies = await Promise.all(sockets.map((socket) => socket.next('message:created', (p) => p.message.id === reply.body.id)));
    expect(replies.map((payload) => payload.message.replyTo?.content)).toEqual([
      'Shared hello',
      '[es DEFAULT] Shared hello',
      '[fr DEFAULT] Shared hello',
      '[es FORMAL] Shared hello',
    ]);
    // Each socket got each message once.
    for (const socket of sockets) {
      const ids = socket.received.filter((item) => item.event === 'message:created').map((item) => (item.payload as { message: { id: number } }).message.id);
      expect(ids).toEqual([first.id, reply.body.id]);
    }
  });

  it('cuts a removed member off at once, and moves a member who changes language to the new group', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const cy = await person(server);
    const chat = await createChat(ana, { title: 'Cut', languages: ['en', 'es'] });
    const benId = await addMember(ana, chat.id, ben);
    await addMember(ana, chat.id, cy);
    const benSocket = await live(server.url, ben);
    const cySocket = await live(server.url, cy);
    await benSocket.subscribe(chat.id);
    await cySocket.subscribe(chat.id);

    await setReading(cy, chat.id, 'es');
    await send(ana, 'DELETE', `/api/chat/${chat.id}/members/${benId}/`);
    expect(await benSocket.next('chat:removed')).toEqual({ chatId: chat.id });
    const mark = benSocket.received.length;
    const message = await post(ana, chat.id, 'After Ben left');
    await cySocket.next('message:rendered', (p) => p.message.id === message.id && p.message.content === '[es DEFAULT] After Ben left');
    const until = await marker(server, ana, ben, benSocket);
    expect(benSocket.received.slice(mark, until).filter((r) => r.event.startsWith('message:'))).toEqual([]);
    expect(await benSocket.subscribe(chat.id)).toEqual({ ok: false, error: 'not_found' });
  });

  it('catches a dropped connection up with what it missed, without a refetch', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const chat = await createChat(ana, { title: 'Catch-up', languages: ['en', 'es'] });
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    const benSocket = await live(server.url, ben);
    await benSocket.subscribe(chat.id);
    const first = await post(ana, chat.id, 'Before the drop');
    await benSocket.next('message:rendered', (p) => p.message.id === first.id);

    await drop(benSocket, server);
    const missed = await post(ana, chat.id, 'While Ben was away');
    await send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${first.id}/`, { content: 'Before the drop, edited' });
    const mark = benSocket.received.length;
    await reconnect(benSocket);
    expect(benSocket.socket.recovered).toBe(true);
    // Ben did not subscribe again: the events came back with the connection, in his language.
    const created = await benSocket.next('message:created', (p) => p.message.id === missed.id, 10_000, mark);
    expect(created.message.content).toBe('While Ben was away');
    await benSocket.next('message:rendered', (p) => p.message.id === missed.id && p.message.content === '[es DEFAULT] While Ben was away', 10_000, mark);
    await benSocket.next('message:edited', (p) => p.message.id === first.id, 10_000, mark);
    // And the subscription goes on.
    const after = await post(ana, chat.id, 'After the return');
    await benSocket.next('message:created', (p) => p.message.id === after.id, 10_000, mark);
  });

  it('starts a dropped connection afresh when its reader was removed or regrouped meanwhile', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const cy = await person(server);
    const chat = await createChat(ana, { title: 'No catch-up', languages: ['en', 'es'] });
    const benId = await addMember(ana, chat.id, ben);
    await addMember(ana, chat.id, cy);
    const benSocket = await live(server.url, ben);
    const cySocket = await live(server.url, cy);
    await benSocket.subscribe(chat.id);
    await cySocket.subscribe(chat.id);
    const first = await post(ana, chat.id, 'Hello');
    await benSocket.next('message:created', (p) => p.message.id === first.id);
    await cySocket.next('message:created', (p) => p.message.id === first.id);

    // Removed while away: no catch-up, and nothing of the chat after the removal.
    await drop(benSocket, server);
    await send(ana, 'DELETE', `/api/chat/${chat.id}/members/${benId}/`);
    await post(ana, chat.id, 'After Ben was removed');
    const mark = benSocket.received.length;
    await reconnect(benSocket);
    expect(benSocket.socket.recovered).toBe(false);
    const until = await marker(server, ana, ben, benSocket);
    expect(benSocket.received.slice(mark, until).filter((r) => r.event.startsWith('message:'))).toEqual([]);

    // Changed reading language in another tab while away: the replay would be in the old group's
    // language, so the connection starts afresh (and the client refetches).
    await drop(cySocket, server);
    await setReading(cy, chat.id, 'es');
    await reconnect(cySocket);
    expect(cySocket.socket.recovered).toBe(false);
  });

  it('counts what is unread over all chats, and a read in one tab reaches the reader’s other tabs', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const first = await createChat(ana, { title: 'Unread one', languages: ['en'] });
    const second = await createChat(ana, { title: 'Unread two', languages: ['en'] });
    await addMember(ana, first.id, ben);
    await addMember(ana, second.id, ben);
    const unread = async (who: typeof ben) => (await who.client.get('/api/chat/unread/')).body;
    expect(await unread(ben)).toEqual({ messages: 0, chats: 0, mentions: 0 });
    // (Posting in a chat reads it up to one's own message.)
    await post(ben, second.id, 'his own: never unread for him');
    await post(ana, first.id, 'one');
    const newest = await post(ana, first.id, 'two');
    await post(ana, second.id, 'three');
    expect(await unread(ben)).toEqual({ messages: 3, chats: 2, mentions: 0 });
    expect(await unread(ana)).toEqual({ messages: 0, chats: 0, mentions: 0 });

    // Ben reads the first chat in one tab; his other tab (not subscribed to it) hears of it.
    const otherTab = await live(server.url, ben);
    await send(ben, 'PATCH', `/api/chat/${first.id}/member/`, { lastReadMessage: newest.id });
    expect(await otherTab.next('chat:read')).toEqual({ chatId: first.id, lastReadMessage: newest.id });
    expect(await unread(ben)).toEqual({ messages: 1, chats: 1, mentions: 0 });
    // A stranger's summary is their own (nothing), and without a session there is none.
    expect(await unread(await person(server))).toEqual({ messages: 0, chats: 0, mentions: 0 });
    expect((await server.client().get('/api/chat/unread/')).status).toBe(401);
  });

  it('tells the other subscribers who is typing, not the typist', async () => {
    const ana = await person(server);
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana);
    const benMemberId = await addMember(ana, chat.id, ben);
    const anaSocket = await live(server.url, ana);
    const benSocket = await live(server.url, ben);
    await anaSocket.subscribe(chat.id);
    await benSocket.subscribe(chat.id);
    benSocket.socket.emit('chat:typing', { chatId: chat.id });
    expect(await anaSocket.next('typing')).toEqual({ chatId: chat.id, member: { id: benMemberId, nickName: 'Ben' } });
    const until = await marker(server, ana, ben, benSocket);
    expect(benSocket.received.slice(0, until).filter((r) => r.event === 'typing')).toEqual([]);
  });

  it('tells a person added to a chat at once, so their list shows it', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const chat = await createChat(ana, { title: 'Welcome', languages: ['en'] });
    const benSocket = await live(server.url, ben);
    await addMember(ana, chat.id, ben);
    expect((await benSocket.next('chat:updated')).chat).toMatchObject({ id: chat.id, title: 'Welcome', chatRole: 2003 });
  });

  it('sends chat changes with each reader’s role, and tells everyone when the chat is deleted', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben);
    const benSocket = await live(server.url, ben);
    await benSocket.subscribe(chat.id);
    await send(ana, 'PATCH', `/api/chat/${chat.id}/`, { title: 'Renamed' });
    expect((await benSocket.next('chat:updated')).chat).toMatchObject({ id: chat.id, title: 'Renamed', chatRole: 2003 });
    await send(ana, 'DELETE', `/api/chat/${chat.id}/`);
    expect(await benSocket.next('chat:removed')).toEqual({ chatId: chat.id });
  });
});

const redisUrl = process.env.REDIS_TEST_URL;
// Two processes need a database they can share: PostgreSQL (this suite is skipped on PGlite, by design).
describe.skipIf(!redisUrl || process.env.TEST_DATABASE !== 'postgres')('two servers, one Redis, one PostgreSQL (PostgreSQL pass only)', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    // One deployment: the same secret, database and Redis behind two server processes.
    const shared = { REDIS_URL: redisUrl!, TRANSLATION_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0', SECRET_KEY: 'a-secret-shared-by-both-servers-of-this-test' };
    first = await startServer(shared);
    second = await startServer({ ...shared, DATABASE_URL: first.config.databaseUrl! });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('a message posted through one reaches a socket on the other; a removal there cuts it off', async () => {
    const ana = await person(first);
    const ben = await person(first);
    const chat = await createChat(ana);
    const benId = await addMember(ana, chat.id, ben);
    // Ben's browser talks to the second server with the same session.
    const benThere = await live(second.url, ben);
    expect(await benThere.subscribe(chat.id)).toEqual({ ok: true });
    const message = await post(ana, chat.id, 'across processes');
    expect((await benThere.next('message:created')).message).toMatchObject({ id: message.id, content: 'across processes' });
    await send(ana, 'DELETE', `/api/chat/${chat.id}/members/${benId}/`);
    expect(await benThere.next('chat:removed')).toEqual({ chatId: chat.id });
    const mark = benThere.received.length;
    await post(ana, chat.id, 'after');
    const until = await marker(first, ana, ben, benThere);
    expect(benThere.received.slice(mark, until).filter((r) => r.event.startsWith('message:'))).toEqual([]);
  });

  it('a connection dropped on one comes back on the other with what it missed', async () => {
    const ana = await person(first);
    const ben = await person(first);
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben);
    const benHere = await live(first.url, ben);
    expect(await benHere.subscribe(chat.id)).toEqual({ ok: true });
    const before = await post(ana, chat.id, 'before');
    await benHere.next('message:created', (p) => p.message.id === before.id);
    const position = positionOf(benHere);
    await drop(benHere, first);
    const missed = await post(ana, chat.id, 'missed');
    // Ben's browser comes back through the other server (a load balancer's choice).
    const benThere = await live(second.url, ben, { resume: position });
    expect(benThere.socket.recovered).toBe(true);
    await benThere.next('message:created', (p) => p.message.id === missed.id);
    const after = await post(ana, chat.id, 'after');
    await benThere.next('message:created', (p) => p.message.id === after.id);
  });
});
