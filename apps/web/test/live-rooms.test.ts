// watchRoom against a real Socket.IO server on loopback: a watched room is subscribed with
// `room:subscribe`, its segment, state and participant events arrive, a room watched while
// connected is resynced on its own, a refused one is reported, and unwatching unsubscribes.
import { describe, expect, it, vi } from 'vitest';
import type * as SocketClient from 'socket.io-client';
import { ROOM_ROLE, ROOM_STATE } from '@parla/contract/constants';
import { until, useLiveServer } from './live-server';
import { at, segment } from './room-fixtures';

const target = vi.hoisted(() => ({ url: '' }));
vi.mock('socket.io-client', async (importOriginal) => {
  const actual = await importOriginal<typeof SocketClient>();
  return { ...actual, io: (options: Parameters<typeof actual.io>[1]) => actual.io(target.url, { ...options, transports: ['websocket'] }) };
});

const subscribed: number[] = [];
const unsubscribed: number[] = [];
const io = useLiveServer(target, (socket) => {
  socket.on('room:subscribe', ({ roomId }, ack) => {
    subscribed.push(roomId);
    if (roomId === 404) return ack({ ok: false, error: 'not_found' });
    void socket.join(`room:${roomId}`);
    ack({ ok: true });
  });
  socket.on('room:unsubscribe', ({ roomId }) => {
    unsubscribed.push(roomId);
    void socket.leave(`room:${roomId}`);
  });
});

describe('watching rooms', () => {
  it('subscribes a watched room and delivers its events', async () => {
    const live = await import('../src/lib/live');
    const segments: number[] = [];
    const states: number[] = [];
    const changed: number[] = [];
    const removed: number[][] = [];
    const roomResyncs: number[] = [];
    const stopListening = live.addLiveListener({
      'segment:created': ({ segment: item }) => segments.push(item.id),
      'segment:rendered': ({ segment: item }) => segments.push(item.id),
      'room:updated': ({ room }) => states.push(room.state),
      'participants:changed': ({ roomId }) => changed.push(roomId),
      'segments:deleted': ({ segmentIds }) => removed.push(segmentIds),
      resync: (_at, topic) => topic?.kind === 'room' && roomResyncs.push(topic.id),
    });
    const stop = live.watchRoom(5);
    await until(() => subscribed.includes(5) && live.getLiveStatus() === 'connected');

    io.to('room:5').emit('segment:created', { roomId: 5, segment: segment(1) });
    io.to('room:5').emit('segment:rendered', { roomId: 5, segment: segment(1) });
    io.to('room:5').emit('room:updated', {
      room: { id: 5, title: 'Meeting', description: null, languages: ['en', 'es'], domain: 'DEFAULT', created: at(0), modified: at(1), state: ROOM_STATE.LIVE, roomRole: ROOM_ROLE.MEMBER, memberState: 'joined', invitedBy: null },
    });
    io.to('room:5').emit('participants:changed', { roomId: 5 });
    io.to('room:5').emit('segments:deleted', { roomId: 5, segmentIds: [1] });
    await until(() => segments.length === 2 && states.length === 1 && changed.length === 1 && removed.length === 1);
    expect(removed).toEqual([[1]]);
    expect(segments).toEqual([1, 1]);
    expect(states).toEqual([ROOM_STATE.LIVE]);

    // Another room watched while connected is subscribed at once and resynced on its own.
    const stopOther = live.watchRoom(6);
    await until(() => subscribed.includes(6) && roomResyncs.includes(6));

    // Unwatched: unsubscribed after the grace.
    stopOther();
    await until(() => unsubscribed.includes(6), 5000);
    stop();
    stopListening();
  });

  it('reports a room the server refuses', async () => {
    const live = await import('../src/lib/live');
    const refused: number[] = [];
    const stopListening = live.addLiveListener({ refused: (topic) => topic.kind === 'room' && refused.push(topic.id) });
    const stop = live.watchRoom(404);
    await until(() => refused.includes(404));
    stop();
    stopListening();
  });
});
