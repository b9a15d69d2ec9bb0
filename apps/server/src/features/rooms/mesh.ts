// The call without a media server: participants of a Live room connect to each other directly
// (a WebRTC mesh) and this relays what they must tell each other to connect (offers, answers,
// network candidates), only between people in the same call. Who is in a call is the sockets in
// its socket room `call:{roomId}`; each participant's tabs in the call are in
// `call:{roomId}:{participantId}`, where signals for them go. The newcomer offers to everyone
// already there. Entering needs a joined participant of a Live room and a free place (MESH.maxPeers);
// removal, leaving the room, ending and deleting it take people out at once, and everyone else is
// told to close their connection to them. Rooms of other processes are reached through the live
// adapter (Redis), like every push.
import { MESH, ROOM_STATE } from '@parla/contract/constants';
import { callSignalRequestSchema, roomRefSchema, type CallIceServer, type CallJoinAck, type CallPeer, type CallSignalAck } from '@parla/contract/live';
import type { LiveSocket, Realtime } from '../../core/realtime';
import type { RoomsRepository } from './repository';
import { iceServersFor, type TurnConfig } from './turn';

const callRoom = (roomId: number) => `call:${roomId}`;
const peerRoom = (roomId: number, participantId: number) => `call:${roomId}:${participantId}`;
const CALL_ROOM = /^call:(\d+)$/;

declare module '../../core/realtime' {
  interface SocketData {
    /** The calls this socket is in, by room id. */
    calls?: Record<number, CallPeer>;
  }
}

export function createMesh(realtime: Realtime, repo: RoomsRepository, options: { iceServers: CallIceServer[]; turn?: TurnConfig | undefined; maxPeers?: number }) {
  const { io } = realtime;
  const maxPeers = options.maxPeers ?? MESH.maxPeers;

  /** Takes one socket out of a call and tells the others (when it was the participant's last tab there). */
  async function leave(socket: Pick<LiveSocket, 'data' | 'leave'> & { rooms: Set<string> }, roomId: number) {
    const peer = socket.data.calls?.[roomId];
    if (!peer) return;
    delete socket.data.calls![roomId];
    void socket.leave(callRoom(roomId));
    void socket.leave(peerRoom(roomId, peer.participantId));
    const stillThere = (await io.in(peerRoom(roomId, peer.participantId)).fetchSockets()).length > 0;
    if (!stillThere) io.to(callRoom(roomId)).emit('call:peer-left', { roomId, participantId: peer.participantId });
  }

  async function join(socket: LiveSocket, payload: unknown): Promise<CallJoinAck> {
    const parsed = roomRefSchema.safeParse(payload);
    if (!parsed.success) return { ok: false, error: 'invalid' };
    const { roomId } = parsed.data;
    const found = await repo.findParticipation(roomId, socket.data.userId);
    if (!found?.participant.joinedAt) return { ok: false, error: 'not_found' };
    if (found.room.state !== ROOM_STATE.LIVE) return { ok: false, error: 'not_live' };
    const self: CallPeer = { participantId: found.participant.id, alias: found.participant.alias };
    const inCall = await io.in(callRoom(roomId)).fetchSockets();
    const peers = new Map<number, CallPeer>();
    for (const other of inCall) {
      const peer = other.data.calls?.[roomId];
      if (peer && peer.participantId !== self.participantId) peers.set(peer.participantId, peer);
    }
    if (peers.size >= maxPeers) return { ok: false, error: 'full' };
    // One tab of a participant in a call: one joined before (another tab, another device) is let
    // go, and the others drop their connection to it before the newcomer offers.
    const replaced = inCall.filter((other) => other.id !== socket.id && other.data.calls?.[roomId]?.participantId === self.participantId);
    for (const other of replaced) {
      other.emit('call:ended', { roomId, reason: 'elsewhere' });
      other.leave(callRoom(roomId));
      other.leave(peerRoom(roomId, self.participantId));
      delete other.data.calls?.[roomId];
    }
    if (replaced.length) io.to(callRoom(roomId)).emit('call:peer-left', { roomId, participantId: self.participantId });
    socket.data.calls = { ...socket.data.calls, [roomId]: self };
    // Told before the newcomer is in the room, so it does not hear of itself.
    io.to(callRoom(roomId)).emit('call:peer-joined', { roomId, peer: self });
    void socket.join([callRoom(roomId), peerRoom(roomId, self.participantId)]);
    // A TURN credential of their own, only now that they are in the call.
    return { ok: true, self, peers: [...peers.values()], iceServers: iceServersFor(options.iceServers, options.turn, self.participantId), maxPeers };
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
    // A connection that came back (core/realtime.ts) enters calls again by asking: the others
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
        // Its rooms are left right after this event: the others are told once it is gone.
        if (peer) setImmediate(() => void tellIfGone(roomId, peer.participantId));
      }
    });
  });

  async function tellIfGone(roomId: number, participantId: number) {
    if ((await io.in(peerRoom(roomId, participantId)).fetchSockets()).length === 0) {
      io.to(callRoom(roomId)).emit('call:peer-left', { roomId, participantId });
    }
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
    if (participantIds !== 'all') for (const participantId of gone) io.to(callRoom(roomId)).emit('call:peer-left', { roomId, participantId });
  }

  return {
    /** These participants are out of the room (removed, left): out of its call at once, everyone else told. */
    expel: (roomId: number, participantIds: readonly number[]) => takeOut(roomId, participantIds, 'removed'),
    /** The call is over (the room ended or was deleted): everyone out. */
    end: (roomId: number) => takeOut(roomId, 'all', 'ended'),
  };
}

export type Mesh = ReturnType<typeof createMesh>;
