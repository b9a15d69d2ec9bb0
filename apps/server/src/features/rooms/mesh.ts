// The call without a media server: participants of a Live room connect to each other directly
// (a WebRTC mesh) and this relays what they must tell each other to connect (offers, answers,
// network candidates), only between people in the same call. Who is in a call is the sockets in
// its socket room `call:{roomId}`; each participant's tabs in the call are in
// `call:{roomId}:{participantId}`, where signals for them go. The newcomer offers to everyone
// already there. Entering needs a joined participant of a Live room and a free place (MESH.maxPeers);
// removal, leaving the room, ending and deleting it take people out at once, and everyone else is
// told to close their connection to them. A dropped live connection is different: media flows
// between the browsers, not through here, so its participant keeps their place for
// MESH.rejoinGraceMs and, back with the same `instance` (the tab's call), returns without anyone
// being told they left or came (issue 37: a slow machine's hiccup tore working calls down). Rooms
// of other processes are reached through the live adapter (Redis), like every push; a return that
// lands on another process is entered as a newcomer.
import { MESH, type RoomState } from '@parla/contract/constants';
import { callOpen } from '@parla/contract/policies';
import { callJoinSchema, callSignalRequestSchema, roomRefSchema, type CallIceServer, type CallJoinAck, type CallPeer, type CallSignalAck } from '@parla/contract/live';
import type { LiveSocket, Realtime } from '../../platform/realtime';
import type { RoomsRepository } from './repository';
import { iceServersFor, type TurnConfig } from './turn';

const callRoom = (roomId: number) => `call:${roomId}`;
const peerRoom = (roomId: number, participantId: number) => `call:${roomId}:${participantId}`;
const CALL_ROOM = /^call:(\d+)$/;
/** How long after the others were told someone dropped the same tab still returns (see `away`). */
const RETURN_WINDOW_MS = 2 * 60_000;

/** One tab in a call: who it is, and the name of its call (see callJoinSchema). */
interface InCall extends CallPeer {
  instance?: string | undefined;
}

declare module '../../platform/realtime' {
  interface SocketData {
    /** The calls this socket is in, by room id. */
    calls?: Record<number, InCall>;
  }
}

export function createMesh(realtime: Realtime, repo: RoomsRepository, options: { iceServers: CallIceServer[]; turn?: TurnConfig | undefined; maxPeers?: number; rejoinGraceMs?: number }) {
  const { io } = realtime;
  const maxPeers = options.maxPeers ?? MESH.maxPeers;
  const graceMs = options.rejoinGraceMs ?? MESH.rejoinGraceMs;
  /**
   * Participants whose connection dropped, by `roomId:participantId`: their place is kept for the
   * grace, then the others are told they dropped (and may keep a connection still carrying media
   * until it fails); the same tab back within RETURN_WINDOW_MS after that is announced as
   * returning, so those connections stay.
   */
  const away = new Map<string, { instance: string | undefined; timer: NodeJS.Timeout; told: boolean }>();
  const awayKey = (roomId: number, participantId: number) => `${roomId}:${participantId}`;
  const peerOf = (peer: InCall): CallPeer => ({ participantId: peer.participantId, alias: peer.alias });

  /** Takes one socket out of a call and tells the others (when it was the participant's last tab there). */
  async function leave(socket: Pick<LiveSocket, 'data' | 'leave'> & { rooms: Set<string> }, roomId: number) {
    const peer = socket.data.calls?.[roomId];
    if (!peer) return;
    delete socket.data.calls![roomId];
    forget(roomId, peer.participantId);
    void socket.leave(callRoom(roomId));
    void socket.leave(peerRoom(roomId, peer.participantId));
    const stillThere = (await io.in(peerRoom(roomId, peer.participantId)).fetchSockets()).length > 0;
    if (!stillThere) io.to(callRoom(roomId)).emit('call:peer-left', { roomId, participantId: peer.participantId });
  }

  async function join(socket: LiveSocket, payload: unknown): Promise<CallJoinAck> {
    const parsed = callJoinSchema.safeParse(payload);
    if (!parsed.success) return { ok: false, error: 'invalid' };
    const { roomId, instance } = parsed.data;
    const found = await repo.findParticipation(roomId, socket.data.userId);
    if (!found?.participant.joinedAt) return { ok: false, error: 'not_found' };
    if (!callOpen(found.room.state as RoomState)) return { ok: false, error: 'not_live' };
    const self: InCall = { participantId: found.participant.id, alias: found.participant.alias, instance };
    const inCall = await io.in(callRoom(roomId)).fetchSockets();
    const peers = new Map<number, CallPeer>();
    for (const other of inCall) {
      const peer = other.data.calls?.[roomId];
      if (peer && peer.participantId !== self.participantId) peers.set(peer.participantId, peerOf(peer));
    }
    if (peers.size >= maxPeers) return { ok: false, error: 'full' };
    // Another socket of this participant in the call: the same tab's (its connection dropped and
    // the server has not noticed yet) is simply let go; another tab's or device's is told the call
    // went elsewhere, and the others drop their connection to it before the newcomer offers.
    const replaced = inCall.filter((other) => other.id !== socket.id && other.data.calls?.[roomId]?.participantId === self.participantId);
    const sameTab = (other: (typeof replaced)[number]) => instance !== undefined && other.data.calls?.[roomId]?.instance === instance;
    const pending = away.get(awayKey(roomId, self.participantId));
    const returning = instance !== undefined && (pending?.instance === instance || (replaced.length > 0 && replaced.every(sameTab)));
    forget(roomId, self.participantId);
    for (const other of replaced) {
      if (!sameTab(other)) other.emit('call:ended', { roomId, reason: 'elsewhere' });
      other.leave(callRoom(roomId));
      other.leave(peerRoom(roomId, self.participantId));
      delete other.data.calls?.[roomId];
    }
    socket.data.calls = { ...socket.data.calls, [roomId]: self };
    // Told before the newcomer is in the room, so it does not hear of itself.
    if (!returning) {
      if (replaced.length || pending) io.to(callRoom(roomId)).emit('call:peer-left', { roomId, participantId: self.participantId });
      io.to(callRoom(roomId)).emit('call:peer-joined', { roomId, peer: peerOf(self) });
    } else if (pending?.told) {
      io.to(callRoom(roomId)).emit('call:peer-joined', { roomId, peer: peerOf(self), returning: true });
    }
    void socket.join([callRoom(roomId), peerRoom(roomId, self.participantId)]);
    // A TURN credential of their own, only now that they are in the call.
    return { ok: true, self: peerOf(self), peers: [...peers.values()], iceServers: iceServersFor(options.iceServers, options.turn, self.participantId), maxPeers, resumed: returning };
  }

  function signal(socket: LiveSocket, payload: unknown): CallSignalAck {
    const parsed = callSignalRequestSchema.safeParse(payload);
    if (!parsed.success) return { ok: false, error: 'invalid' };
    const { roomId, to, signal: message } = parsed.data;
    const self = socket.data.calls?.[roomId];
    // Only someone in the call signals, and only to someone else in it (a peer not there gets nothing).
    if (!self || !socket.rooms.has(callRoom(roomId)) || to === self.participantId) return { ok: false, error: 'not_found' };
    io.to(peerRoom(roomId, to)).emit('call:signal', { roomId, from: self.participantId, signal: message });
    return { ok: true };
  }

  realtime.onConnection((socket) => {
    // A connection that came back (platform/realtime.ts) enters calls again by asking: the others
    // were told it left, and its peer connections start afresh.
    if (socket.recovered) {
      for (const name of [...socket.rooms]) if (name.startsWith('call:')) void socket.leave(name);
      socket.data.calls = {};
    }
    socket.on('call:join', (payload, ack) => {
      const answer = typeof ack === 'function' ? ack : () => undefined;
      join(socket, payload).then(answer, () => answer({ ok: false, error: 'not_found' }));
    });
    socket.on('call:signal', (payload, ack) => {
      const answer = signal(socket, payload);
      if (typeof ack === 'function') ack(answer);
    });
    socket.on('call:leave', (payload) => {
      const parsed = roomRefSchema.safeParse(payload);
      if (parsed.success) void leave(socket, parsed.data.roomId);
    });
    socket.on('disconnecting', () => {
      for (const name of socket.rooms) {
        const match = CALL_ROOM.exec(name);
        if (!match) continue;
        const roomId = Number(match[1]);
        const peer = socket.data.calls?.[roomId];
        if (!peer) continue;
        // Its place is kept for a while: the others are told only if it is not back by then.
        const key = awayKey(roomId, peer.participantId);
        clearTimeout(away.get(key)?.timer);
        const timer = setTimeout(() => {
          const entry = away.get(key);
          if (!entry) return;
          entry.told = true;
          entry.timer = setTimeout(() => away.delete(key), RETURN_WINDOW_MS);
          entry.timer.unref();
          void tellIfGone(roomId, peer.participantId);
        }, graceMs);
        timer.unref();
        away.set(key, { instance: peer.instance, timer, told: false });
      }
    });
  });

  async function tellIfGone(roomId: number, participantId: number) {
    if ((await io.in(peerRoom(roomId, participantId)).fetchSockets()).length === 0) {
      io.to(callRoom(roomId)).emit('call:peer-left', { roomId, participantId, dropped: true });
    }
  }

  /** Forgets a participant's kept place (they left, were removed, or the call ended). */
  function forget(roomId: number, participantId: number) {
    const pending = away.get(awayKey(roomId, participantId));
    if (!pending) return;
    clearTimeout(pending.timer);
    away.delete(awayKey(roomId, participantId));
  }

  /** Takes these sockets out of a call, telling each why. */
  async function takeOut(roomId: number, participantIds: readonly number[] | 'all', reason: 'ended' | 'removed') {
    const rooms = participantIds === 'all' ? [callRoom(roomId)] : participantIds.map((id) => peerRoom(roomId, id));
    if (!rooms.length) return;
    const sockets = await io.in(rooms).fetchSockets();
    const gone = new Set<number>();
    for (const socket of sockets) {
      const peer = socket.data.calls?.[roomId];
      socket.emit('call:ended', { roomId, reason });
      socket.leave(callRoom(roomId));
      if (peer) {
        socket.leave(peerRoom(roomId, peer.participantId));
        gone.add(peer.participantId);
        delete socket.data.calls?.[roomId];
      }
    }
    // Everyone named is told of, in the call now or not: someone whose connection had dropped (their
    // place kept, or the others told only that they dropped) may still send media to the others.
    for (const key of [...away.keys()]) {
      const [room, participant] = key.split(':').map(Number) as [number, number];
      if (room === roomId && (participantIds === 'all' || participantIds.includes(participant))) forget(room, participant);
    }
    if (participantIds !== 'all') for (const participantId of new Set([...gone, ...participantIds])) io.to(callRoom(roomId)).emit('call:peer-left', { roomId, participantId });
  }

  return {
    /** These participants are out of the room (removed, left): out of its call at once, everyone else told. */
    expel: (roomId: number, participantIds: readonly number[]) => takeOut(roomId, participantIds, 'removed'),
    /** The call is over (the room ended or was deleted): everyone out. */
    end: (roomId: number) => takeOut(roomId, 'all', 'ended'),
  };
}

export type Mesh = ReturnType<typeof createMesh>;
