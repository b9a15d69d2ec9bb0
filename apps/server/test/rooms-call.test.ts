// The call without a media server: participants of a Live room enter its mesh over the live
// connection and the server relays their WebRTC signals only between people in the call; removal,
// leaving, ending and a dropped connection take people out and tell the others; a mesh has a size.
// A dropped connection keeps its place for CALL_REJOIN_GRACE_SECONDS (1 s here): the same tab back
// in time returns quietly (issue 37), else the others are told it left.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_STATE, MESH } from '@parla/contract/constants';
import type { CallJoinAck, CallSignalAck } from '@parla/contract/live';
import { person, send, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { addParticipant, createRoom, setState } from './room-helpers';

let server: TestServer;
const opened: LiveClient[] = [];
beforeAll(async () => {
  server = await startServer({ TRANSLATION_PROVIDER: 'none', ICE_SERVERS: '[{"urls":"stun:stun.example.org:3478"}]', CALL_REJOIN_GRACE_SECONDS: '1' });
});
afterAll(async () => {
  for (const client of opened) client.close();
  await server.close();
});

const live = async (who: Person) => {
  const client = await connect(server.url, who);
  opened.push(client);
  return client;
};
const join = (client: LiveClient, roomId: number, instance?: string): Promise<CallJoinAck> =>
  client.socket.timeout(5000).emitWithAck('call:join', instance ? { roomId, instance } : { roomId });
const signal = (client: LiveClient, roomId: number, to: number, sdp = 'v=0 offer'): Promise<CallSignalAck> =>
  client.socket.timeout(5000).emitWithAck('call:signal', { roomId, to, signal: { type: 'offer', sdp } });

/** A Live room of `people` (the first is its owner), each with a live connection. */
async function liveRoom(count: number) {
  const people = await Promise.all(Array.from({ length: count }, (_, index) => person(server, `Caller ${index + 1}`)));
  const room = await createRoom(people[0]!);
  for (const other of people.slice(1)) await addParticipant(people[0]!, room.id, other);
  await setState(people[0]!, room.id, ROOM_STATE.LIVE);
  const sockets = await Promise.all(people.map((who) => live(who)));
  return { people, roomId: room.id, sockets };
}

function joined(answer: CallJoinAck) {
  if (!answer.ok) throw new Error(`call:join refused: ${answer.error}`);
  return answer;
}

describe('a mesh call', () => {
  it('lets participants of a Live room in, tells who is there, and relays signals between them only', async () => {
    const { roomId, sockets } = await liveRoom(2);
    const [ana, ben] = sockets as [LiveClient, LiveClient];
    const anaIn = joined(await join(ana, roomId));
    expect(anaIn.peers).toEqual([]);
    expect(anaIn.iceServers).toEqual([{ urls: 'stun:stun.example.org:3478' }]);
    expect(anaIn.maxPeers).toBe(MESH.maxPeers);
    expect(anaIn.resumed).toBe(false);
    const benIn = joined(await join(ben, roomId));
    expect(benIn.peers).toEqual([anaIn.self]);
    expect(await ana.next('call:peer-joined')).toEqual({ roomId, peer: benIn.self });
    // Ben, the newcomer, offers; Ana answers.
    expect(await signal(ben, roomId, anaIn.self.participantId, 'v=0 from Ben')).toEqual({ ok: true });
    expect(await ana.next('call:signal')).toEqual({ roomId, from: benIn.self.participantId, signal: { type: 'offer', sdp: 'v=0 from Ben' } });
    const candidate = { type: 'candidate', candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    expect(await ana.socket.timeout(5000).emitWithAck('call:signal', { roomId, to: benIn.self.participantId, signal: candidate as never })).toEqual({ ok: true });
    expect(await ben.next('call:signal')).toEqual({ roomId, from: anaIn.self.participantId, signal: candidate });
    // Ben never hears of himself.
    expect(ben.received.filter((item) => item.event === 'call:peer-joined')).toEqual([]);
  });

  it('refuses a stranger, a room that is not Live, bad signals, and a full mesh', async () => {
    const { people, roomId, sockets } = await liveRoom(2);
    const [ana] = sockets as [LiveClient];
    const anaIn = joined(await join(ana, roomId));
    const stranger = await live(await person(server, 'Stranger'));
    expect(await join(stranger, roomId)).toEqual({ ok: false, error: 'not_found' });
    expect(await signal(stranger, roomId, anaIn.self.participantId)).toEqual({ ok: false, error: 'not_found' });
    // Someone in the room but not in the call may not signal either.
    expect(await signal(sockets[1]!, roomId, anaIn.self.participantId)).toEqual({ ok: false, error: 'not_found' });
    for (const bad of [{}, { roomId }, { roomId, to: 1, signal: { type: 'offer', sdp: '' } }, { roomId, to: 1, signal: { type: 'offer', sdp: 'x'.repeat(MESH.sdpMax + 1) } }]) {
      expect(await ana.socket.timeout(5000).emitWithAck('call:signal', bad as never)).toEqual({ ok: false, error: 'invalid' });
    }
    expect(await ana.socket.timeout(5000).emitWithAck('call:join', { roomId: 'x' } as never)).toEqual({ ok: false, error: 'invalid' });
    expect(ana.received.filter((item) => item.event === 'call:signal')).toEqual([]);

    const quiet = await createRoom(people[0]!, { title: 'Not yet', languages: ['en'] });
    expect(await join(ana, quiet.id)).toEqual({ ok: false, error: 'not_live' });

    const full = await liveRoom(MESH.maxPeers + 1);
    for (const client of full.sockets.slice(0, MESH.maxPeers)) joined(await join(client, full.roomId));
    expect(await join(full.sockets[MESH.maxPeers]!, full.roomId)).toEqual({ ok: false, error: 'full' });
  });

  it('takes a removed participant out at once and tells the others; ending the room ends the call', async () => {
    const { people, roomId, sockets } = await liveRoom(3);
    const [ana, ben, cy] = sockets as [LiveClient, LiveClient, LiveClient];
    joined(await join(ana, roomId));
    const benIn = joined(await join(ben, roomId));
    const cyIn = joined(await join(cy, roomId));
    expect(cyIn.peers.map((peer) => peer.participantId).sort()).toEqual([benIn.peers[0]!.participantId, benIn.self.participantId].sort());

    const removed = await send(people[0]!, 'DELETE', `/api/rooms/${roomId}/participants/${benIn.self.participantId}/`);
    expect(removed.status).toBe(204);
    expect(await ben.next('call:ended')).toEqual({ roomId, reason: 'removed' });
    expect(await ana.next('call:peer-left')).toEqual({ roomId, participantId: benIn.self.participantId });
    expect(await cy.next('call:peer-left')).toEqual({ roomId, participantId: benIn.self.participantId });
    expect(await signal(ben, roomId, cyIn.self.participantId)).toEqual({ ok: false, error: 'not_found' });

    // Cy's connection goes: Ana is told.
    cy.close();
    expect(await ana.next('call:peer-left', (event) => event.participantId === cyIn.self.participantId)).toEqual({ roomId, participantId: cyIn.self.participantId, dropped: true });

    await setState(people[0]!, roomId, ROOM_STATE.END);
    expect(await ana.next('call:ended')).toEqual({ roomId, reason: 'ended' });
    expect(await signal(ana, roomId, benIn.self.participantId)).toEqual({ ok: false, error: 'not_found' });
  });

  it('keeps one tab of a participant in the call: a second one takes over', async () => {
    const { people, roomId, sockets } = await liveRoom(2);
    const [ana, ben] = sockets as [LiveClient, LiveClient];
    const anaIn = joined(await join(ana, roomId));
    joined(await join(ben, roomId));
    const benAgain = await live(people[1]!);
    const mark = ana.received.length;
    const again = joined(await join(benAgain, roomId));
    expect(again.peers).toEqual([anaIn.self]);
    expect(await ben.next('call:ended')).toEqual({ roomId, reason: 'elsewhere' });
    // Ana drops the old connection to Ben and gets the new one's offer.
    expect(await ana.next('call:peer-left', () => true, 5000, mark)).toEqual({ roomId, participantId: again.self.participantId });
    expect(await ana.next('call:peer-joined', () => true, 5000, mark)).toEqual({ roomId, peer: again.self });
    expect(await signal(ben, roomId, anaIn.self.participantId)).toEqual({ ok: false, error: 'not_found' });
    expect(await signal(benAgain, roomId, anaIn.self.participantId)).toEqual({ ok: true });
  });

  it('keeps the place of a dropped connection: the same tab back in time returns quietly; gone for good, the others are told', async () => {
    const { people, roomId, sockets } = await liveRoom(3);
    const [ana, ben, cy] = sockets as [LiveClient, LiveClient, LiveClient];
    const anaIn = joined(await join(ana, roomId, 'ana-tab-0001'));
    const benIn = joined(await join(ben, roomId, 'ben-tab-0001'));
    const cyIn = joined(await join(cy, roomId, 'cy-tab-00001'));

    // Ben's connection drops, and comes back at once (a new socket, as after a hiccup): nobody
    // hears he left or came, and he is told he returned.
    const mark = ana.received.length;
    ben.close();
    const benBack = await live(people[1]!);
    const returned = joined(await join(benBack, roomId, 'ben-tab-0001'));
    expect(returned.resumed).toBe(true);
    expect(returned.peers.map((peer) => peer.participantId).sort()).toEqual([anaIn.self.participantId, cyIn.self.participantId].sort());
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const told = ana.received.slice(mark).filter((item) => item.event === 'call:peer-left' || item.event === 'call:peer-joined');
    expect(told).toEqual([]);
    expect(await signal(benBack, roomId, anaIn.self.participantId)).toEqual({ ok: true });

    // The same tab whose old socket the server still holds (it has not noticed the drop): the old one is let go, quietly.
    const benAgain = await live(people[1]!);
    expect(joined(await join(benAgain, roomId, 'ben-tab-0001')).resumed).toBe(true);
    expect(benBack.received.filter((item) => item.event === 'call:ended')).toEqual([]);
    expect(await signal(benBack, roomId, anaIn.self.participantId)).toEqual({ ok: false, error: 'not_found' });

    // Another tab (another instance) is a newcomer: the others drop the old connection and expect its offer.
    const mark2 = ana.received.length;
    const benOther = await live(people[1]!);
    expect(joined(await join(benOther, roomId, 'ben-tab-0002')).resumed).toBe(false);
    expect(await ana.next('call:peer-left', () => true, 5000, mark2)).toEqual({ roomId, participantId: benIn.self.participantId });
    expect(await ana.next('call:peer-joined', () => true, 5000, mark2)).toEqual({ roomId, peer: benIn.self });
    expect(await benAgain.next('call:ended')).toEqual({ roomId, reason: 'elsewhere' });

    // Back after the grace: the others were told he dropped; the same tab returns, announced as
    // returning (a connection still carrying his media stays); another tab is a newcomer.
    const mark3 = ana.received.length;
    benOther.close();
    expect(await ana.next('call:peer-left', () => true, 5000, mark3)).toEqual({ roomId, participantId: benIn.self.participantId, dropped: true });
    const late = await live(people[1]!);
    expect(joined(await join(late, roomId, 'ben-tab-0002')).resumed).toBe(true);
    expect(await ana.next('call:peer-joined', () => true, 5000, mark3)).toEqual({ roomId, peer: benIn.self, returning: true });
    const mark3b = ana.received.length;
    late.close();
    expect(await ana.next('call:peer-left', () => true, 5000, mark3b)).toEqual({ roomId, participantId: benIn.self.participantId, dropped: true });
    const fresh = await live(people[1]!);
    expect(joined(await join(fresh, roomId, 'ben-tab-0003')).resumed).toBe(false);
    expect(await ana.next('call:peer-joined', () => true, 5000, mark3b)).toEqual({ roomId, peer: benIn.self });

    // Removed while his connection is down: the others are told at once, not after the grace.
    const mark4 = ana.received.length;
    fresh.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const removedAt = Date.now();
    expect((await send(people[0]!, 'DELETE', `/api/rooms/${roomId}/participants/${benIn.self.participantId}/`)).status).toBe(204);
    expect(await ana.next('call:peer-left', () => true, 5000, mark4)).toEqual({ roomId, participantId: benIn.self.participantId });
    expect(Date.now() - removedAt).toBeLessThan(900);
    expect(cy.received.filter((item) => item.event === 'call:ended')).toEqual([]);

    // Cy drops and is told of as dropped (the others may keep a connection still carrying her
    // media); removed after that, she is told of again as gone, so that connection closes too.
    const mark5 = ana.received.length;
    cy.close();
    expect(await ana.next('call:peer-left', () => true, 5000, mark5)).toEqual({ roomId, participantId: cyIn.self.participantId, dropped: true });
    expect((await send(people[0]!, 'DELETE', `/api/rooms/${roomId}/participants/${cyIn.self.participantId}/`)).status).toBe(204);
    expect(await ana.next('call:peer-left', (event) => !event.dropped, 5000, mark5)).toEqual({ roomId, participantId: cyIn.self.participantId });
  });
});
