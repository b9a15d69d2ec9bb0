// The live-push client against a real Socket.IO server on loopback: subscribes the watched
// chats, delivers their events, subscribes again after the connection comes back and asks the
// pages to refetch (resync), reports a refused chat, and lets go when nothing is watched.
import { describe, expect, it, vi } from 'vitest';
import type * as SocketClient from 'socket.io-client';
import { useTokenStore } from '../src/lib/stores';
import { until, useLiveServer, type TestServerSocket } from './live-server';
import { chat, message } from './chat-fixtures';

const target = vi.hoisted(() => ({ url: '' }));
// The client connects to its own origin; here that is the test server.
vi.mock('socket.io-client', async (importOriginal) => {
  const actual = await importOriginal<typeof SocketClient>();
  return { ...actual, io: (options: Parameters<typeof actual.io>[1]) => actual.io(target.url, { ...options, transports: ['websocket'] }) };
});

const subscriptions: number[] = [];
const sockets: TestServerSocket[] = [];
const typing: number[] = [];
/** Chats the server refuses (the reader is not a member). */
const refusedChats = new Set<number>([404]);

const io = useLiveServer(target, (socket) => {
  sockets.push(socket);
  socket.on('chat:subscribe', ({ chatId }, ack) => {
    subscriptions.push(chatId);
    if (refusedChats.has(chatId)) return ack({ ok: false, error: 'not_found' });
    void socket.join(`chat:${chatId}`);
    ack({ ok: true });
  });
  socket.on('chat:unsubscribe', ({ chatId }) => void socket.leave(`chat:${chatId}`));
  socket.on('chat:typing', ({ chatId }) => typing.push(chatId));
  socket.on('message:send', ({ chatId, content }, ack) => ack({ ok: true, created: true, message: message(100 + chatId, { content, isMe: true }) }));
});

describe('live pushes', () => {
  it('subscribes a watched chat, delivers its events, re-subscribes and resyncs after a reconnect', async () => {
    const live = await import('../src/lib/live');
    const created: number[] = [];
    const resyncs: number[] = [];
    const chatResyncs: number[] = [];
    const stopListening = live.addLiveListener({
      'message:created': ({ message: item }) => created.push(item.id),
      resync: (at, topic) => (topic === undefined ? resyncs.push(at) : chatResyncs.push(topic.id)),
    });
    // No connection yet: a message is not posted on it (the caller posts it over HTTP).
    expect(live.sendMessage({ chatId: 7, content: 'Before' })).toBeUndefined();
    const stop = live.watchChat(7);
    await until(() => subscriptions.includes(7) && resyncs.length === 1);
    expect(live.getLiveStatus()).toBe('connected');

    io.to('chat:7').emit('message:created', { chatId: 7, message: message(11) });
    await until(() => created.includes(11));

    live.sendTyping(7);
    await until(() => typing.includes(7));

    // A message posted on the connection gets the server's answer.
    expect(await live.sendMessage({ chatId: 7, content: 'Over the socket', clientId: 'c-7' })).toMatchObject({ ok: true, message: { id: 107, content: 'Over the socket' } });

    // A chat watched while connected is subscribed at once and resynced on its own.
    const stopOther = live.watchChat(9);
    await until(() => subscriptions.includes(9) && chatResyncs.includes(9));
    expect(resyncs).toHaveLength(1);
    stopOther();

    // The server drops the connection: the client comes back, subscribes again and resyncs.
    subscriptions.length = 0;
    sockets.at(-1)!.disconnect(true);
    await until(() => subscriptions.includes(7) && resyncs.length === 2, 10_000);
    io.to('chat:7').emit('message:created', { chatId: 7, message: message(12) });
    await until(() => created.includes(12));
    expect(created).toEqual([11, 12]);

    stop();
    stopListening();
  });

  it('comes back after the connection drops under it (network gone, server restarted), not only after a server disconnect', async () => {
    const live = await import('../src/lib/live');
    const resyncs: number[] = [];
    const stopListening = live.addLiveListener({ resync: (at, topic) => topic === undefined && resyncs.push(at) });
    const stop = live.watchChat(21);
    await until(() => subscriptions.includes(21) && live.getLiveStatus() === 'connected');
    const before = resyncs.length;
    subscriptions.length = 0;
    // The transport closes without a word from the server ("transport close" for the client).
    sockets.at(-1)!.conn.close();
    await until(() => live.getLiveStatus() === 'reconnecting');
    await until(() => subscriptions.includes(21) && resyncs.length === before + 1, 10_000);
    expect(live.getLiveStatus()).toBe('connected');
    stop();
    stopListening();
  });

  it('holds the connection without watching a chat: the reader’s own events (a new invitation) and deletions arrive', async () => {
    const live = await import('../src/lib/live');
    const invited: string[] = [];
    const deleted: number[][] = [];
    const stopListening = live.addLiveListener({
      'chat:updated': ({ chat: item }) => invited.push(`${item.id}:${item.memberState}`),
      'messages:deleted': ({ messageIds }) => deleted.push(messageIds),
    });
    const before = subscriptions.length;
    const release = live.holdConnection();
    await until(() => live.getLiveStatus() === 'connected');
    const { lastMessage: _last, unreadCount: _unread, ...groupChat } = chat(31, { memberState: 'invited' });
    // The server tells the user's own room (every socket of theirs) of the invitation.
    sockets.at(-1)!.emit('chat:updated', { chat: groupChat });
    sockets.at(-1)!.emit('messages:deleted', { chatId: 7, messageIds: [11, 12] });
    await until(() => invited.length === 1 && deleted.length === 1);
    expect(invited).toEqual(['31:invited']);
    expect(deleted).toEqual([[11, 12]]);
    // Nothing was subscribed for it.
    expect(subscriptions.length).toBe(before);
    release();
    // Released twice: counted once.
    release();
    stopListening();
  });

  it('reports a chat the server refuses', async () => {
    const live = await import('../src/lib/live');
    const refused: number[] = [];
    const stopListening = live.addLiveListener({ refused: (topic) => refused.push(topic.id) });
    const stop = live.watchChat(404);
    await until(() => refused.includes(404));
    stop();
    stopListening();
  });

  it('closes the socket when the session ends', async () => {
    const live = await import('../src/lib/live');
    const stop = live.watchChat(8);
    await until(() => live.getLiveStatus() === 'connected' && subscriptions.includes(8));
    useTokenStore.getState().clear();
    await until(() => live.getLiveStatus() === 'idle');
    await until(() => sockets.every((socket) => socket.disconnected));
    stop();
  });

  it('waits longer between attempts, from about 1 s up to 30 s', async () => {
    const { retryDelay } = await import('../src/lib/live');
    expect([0, 1, 2, 5, 10].map((attempt) => retryDelay(attempt, () => 0.5))).toEqual([1000, 2000, 4000, 30000, 30000]);
    expect(retryDelay(0, () => 0)).toBe(750);
    expect(retryDelay(0, () => 1)).toBe(1250);
  });
});
