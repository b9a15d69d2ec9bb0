// The live-push client against a Socket.IO server that keeps dropped connections' state (as the
// product's does, apps/server/src/platform/realtime.ts): after a short drop the missed events arrive
// without a refetch; only a chat watched since the drop is refetched on its own.
import { describe, expect, it, vi } from 'vitest';
import type * as SocketClient from 'socket.io-client';
import { message } from './chat-fixtures';
import { until, useLiveServer } from './live-server';

const target = vi.hoisted(() => ({ url: '' }));
vi.mock('socket.io-client', async (importOriginal) => {
  const actual = await importOriginal<typeof SocketClient>();
  return { ...actual, io: (options: Parameters<typeof actual.io>[1]) => actual.io(target.url, { ...options, transports: ['websocket'] }) };
});

const subscriptions: number[] = [];
const io = useLiveServer(
  target,
  (socket) => {
    socket.on('chat:subscribe', ({ chatId }, ack) => {
      subscriptions.push(chatId);
      void socket.join(`chat:${chatId}`);
      ack({ ok: true });
    });
    socket.on('chat:unsubscribe', ({ chatId }) => void socket.leave(`chat:${chatId}`));
  },
  { connectionStateRecovery: { maxDisconnectionDuration: 60_000 } },
);

describe('catch-up after a short drop', () => {
  it('receives what it missed without a refetch, and refetches only a chat watched while away', async () => {
    const live = await import('../src/lib/live');
    const created: number[] = [];
    const resyncs: string[] = [];
    const stopListening = live.addLiveListener({
      'message:created': ({ message: item }) => created.push(item.id),
      resync: (_at, topic) => resyncs.push(topic ? `${topic.kind}:${topic.id}` : 'all'),
    });
    const stop = live.watchChat(7);
    await until(() => subscriptions.includes(7) && resyncs.includes('all'));
    io.to('chat:7').emit('message:created', { chatId: 7, message: message(11) });
    await until(() => created.includes(11));
    resyncs.length = 0;

    // The transport closes under the client; while it is away a message goes to the chat and the
    // reader opens another chat.
    const [socket] = [...io.of('/').sockets.values()];
    socket!.conn.close();
    await until(() => live.getLiveStatus() === 'reconnecting');
    io.to('chat:7').emit('message:created', { chatId: 7, message: message(12) });
    const stopOther = live.watchChat(9);
    await until(() => live.getLiveStatus() === 'connected' && subscriptions.includes(9), 10_000);
    await until(() => created.includes(12));
    await until(() => resyncs.includes('chat:9'));
    expect(resyncs).toEqual(['chat:9']);
    expect(created).toEqual([11, 12]);

    stopOther();
    stop();
    stopListening();
  });
});
