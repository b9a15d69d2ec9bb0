// A call without a media server: every participant connects to every other directly (WebRTC),
// signalled over the live connection (apps/server/src/features/rooms/mesh.ts). Whoever enters
// offers to everyone already there; the others answer. Each connection carries the microphone and
// the camera both ways (a side without one only receives), and a small data channel on which each
// side says whether its microphone and camera are on (a track switched off still flows, silent or
// black). A peer who leaves or is removed is closed at once.
//
// On a slow machine (issue 37) a call must survive hiccups without tearing down what works: media
// flows between the browsers, not through the server, so when the live connection drops and comes
// back, this tab returns to the call under the same `instance` and keeps every peer connection
// still alive (the server kept its place and told nobody); a connection whose network path failed
// is mended by an ICE restart from the side that offered it, retried while it stays down; offers
// and answers are sent again once the live connection is back. Each peer connection has a name
// (`connection` in its signals) so a late answer or candidate of a replaced one is ignored.
import type { CallPeer, CallSignal, ServerToClientEvents } from '@parla/contract/live';
import { addLiveListener, joinCall, leaveCall, liveConnected, sendCallSignal } from '../../../lib/live';

export type MeshStatus = 'joining' | 'connected' | 'full' | 'notLive' | 'failed' | 'ended' | 'removed' | 'elsewhere';

/** What the screen shows of one other person in the call. */
export interface MeshPeer {
  participantId: number;
  alias: string;
  /** Their microphone and camera as they arrive (empty until the connection is up). */
  stream: MediaStream;
  microphone: boolean;
  camera: boolean;
  connection: RTCPeerConnectionState;
}

interface Peer extends MeshPeer {
  pc: RTCPeerConnection;
  channel: RTCDataChannel;
  /** Candidates that came before the other side's description. */
  early: RTCIceCandidateInit[];
  /** This connection's name, shared by both sides (the offerer's choice). */
  connectionId: string;
  /** Whether this side offered it (and so mends it with ICE restarts). */
  offerer: boolean;
  /** The pending ICE restart, while the connection is down. */
  mending?: ReturnType<typeof setTimeout> | undefined;
  restarts: number;
  /** Told they dropped while this connection still carried their media: kept until it fails. */
  lost: boolean;
}

/** How long a connection may stay "disconnected" before an ICE restart (it often comes back by itself). */
const MEND_AFTER_MS = 3_000;
/** Between ICE restarts while the connection stays down. */
const MEND_EVERY_MS = 8_000;
/** ICE restarts at most per outage: past them the connection shows as failed. */
const MEND_TRIES = 8;
/** Tries to enter the call when the server does not answer in time. */
const JOIN_TRIES = 4;
/** Offers and answers are sent again this many times when the live connection is down. */
const SIGNAL_TRIES = 4;

/** A random name (the tab's call, a peer connection). */
export function callToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * What to do with the peers this tab holds, on entering the call again: a return keeps the
 * connections that carry media now to people still there; otherwise (the others were told this tab left,
 * or dropped it) every connection starts afresh. The newcomer offers to whoever it has no
 * connection with.
 */
export function reconcile(
  held: readonly { participantId: number; connection: RTCPeerConnectionState }[],
  present: readonly CallPeer[],
  resumed: boolean,
): { keep: number[]; close: number[]; offer: number[] } {
  const there = new Set(present.map((peer) => peer.participantId));
  // Only a connection carrying media now is kept: one still being made, or down, starts afresh.
  const alive = (state: RTCPeerConnectionState) => state === 'connected';
  const keep = resumed ? held.filter((peer) => there.has(peer.participantId) && alive(peer.connection)).map((peer) => peer.participantId) : [];
  const kept = new Set(keep);
  return {
    keep,
    close: held.filter((peer) => !kept.has(peer.participantId)).map((peer) => peer.participantId),
    offer: present.filter((peer) => !kept.has(peer.participantId)).map((peer) => peer.participantId),
  };
}

type Event<K extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[K]>[0];

export class MeshCall {
  status: MeshStatus = 'joining';
  self: CallPeer | null = null;
  private readonly peers = new Map<number, Peer>();
  private iceServers: RTCIceServer[] = [];
  private media = { microphone: true, camera: false };
  private stopListening: (() => void) | null = null;
  private closed = false;
  /** This tab's call, the same across returns (see callJoinSchema). */
  private readonly instance = callToken();
  private readonly onPageHide = () => leaveCall(this.roomId);

  constructor(
    private readonly roomId: number,
    /** The own microphone and camera (either may be missing; null: none at all, receive only). */
    private readonly local: MediaStream | null,
    private readonly onChange: () => void,
    /** Someone entered or left (for the screen's notices). */
    private readonly onPresence: (change: { kind: 'joined' | 'left'; alias: string }) => void = () => undefined,
  ) {}

  /** The others, in the order they came. */
  get others(): MeshPeer[] {
    return [...this.peers.values()].map(({ participantId, alias, stream, microphone, camera, connection }) => ({ participantId, alias, stream, microphone, camera, connection }));
  }

  async join(): Promise<void> {
    this.stopListening ??= addLiveListener({
      'call:peer-joined': (event) => this.onPeerJoined(event),
      'call:peer-left': (event) => this.onPeerLeft(event),
      'call:signal': (event) => void this.onSignal(event),
      'call:ended': (event) => this.onEnded(event),
    });
    // A closed tab leaves at once rather than after the grace kept for a dropped connection.
    window.addEventListener('pagehide', this.onPageHide);
    if (this.status !== 'connected') {
      this.status = 'joining';
      this.onChange();
    }
    let answer = await joinCall(this.roomId, this.instance);
    // No answer in time (a starved server): the connections held go on carrying media while
    // this asks again; only a refusal ends them.
    for (let attempt = 1; !answer.ok && answer.error === 'throttled' && attempt < JOIN_TRIES && !this.closed; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 2_000 * attempt));
      if (this.closed) return;
      answer = await joinCall(this.roomId, this.instance);
    }
    if (this.closed) return;
    if (!answer.ok) {
      for (const id of [...this.peers.keys()]) this.close(id);
      this.status = answer.error === 'full' ? 'full' : answer.error === 'not_live' ? 'notLive' : 'failed';
      return this.onChange();
    }
    this.self = answer.self;
    this.iceServers = answer.iceServers;
    this.status = 'connected';
    const plan = reconcile(
      [...this.peers.values()].map(({ participantId, pc }) => ({ participantId, connection: pc.connectionState })),
      answer.peers,
      answer.resumed,
    );
    for (const id of plan.close) this.close(id);
    for (const peer of answer.peers) {
      const held = this.peers.get(peer.participantId);
      if (held) held.alias = peer.alias || held.alias;
    }
    this.onChange();
    // The newcomer offers to everyone it holds no working connection with.
    for (const peer of answer.peers) if (plan.offer.includes(peer.participantId)) void this.offer(this.connect(peer, callToken(), true));
  }

  /** After the live connection came back: enter again, keeping what still works (see reconcile). */
  async rejoin(): Promise<void> {
    await this.join();
  }

  /** Microphone and camera on or off (the tracks keep flowing, silent or black; the others are told). */
  setMedia(media: { microphone: boolean; camera: boolean }) {
    this.media = media;
    for (const track of this.local?.getAudioTracks() ?? []) track.enabled = media.microphone;
    for (const track of this.local?.getVideoTracks() ?? []) track.enabled = media.camera;
    for (const peer of this.peers.values()) this.tell(peer);
  }

  leave() {
    if (this.closed) return;
    this.closed = true;
    this.stopListening?.();
    window.removeEventListener('pagehide', this.onPageHide);
    leaveCall(this.roomId);
    for (const id of [...this.peers.keys()]) this.close(id);
  }

  private connect(other: CallPeer, connectionId: string, offerer: boolean): Peer {
    this.close(other.participantId);
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    // Negotiated on both sides with the same id: no signal of its own.
    const channel = pc.createDataChannel('state', { negotiated: true, id: 0 });
    const peer: Peer = {
      ...other,
      pc,
      channel,
      early: [],
      stream: new MediaStream(),
      microphone: true,
      camera: false,
      connection: pc.connectionState,
      connectionId,
      offerer,
      restarts: 0,
      lost: false,
    };
    this.peers.set(other.participantId, peer);
    pc.onicecandidate = ({ candidate }) => {
      if (candidate) void this.signal(peer, { type: 'candidate', candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex, connection: peer.connectionId });
    };
    pc.ontrack = ({ track }) => {
      // A new stream object, so the screen sees the change.
      peer.stream = new MediaStream([...peer.stream.getTracks().filter((old) => old.kind !== track.kind), track]);
      this.onChange();
    };
    pc.onconnectionstatechange = () => {
      peer.connection = pc.connectionState;
      this.watch(peer);
      this.onChange();
    };
    channel.onopen = () => this.tell(peer);
    channel.onmessage = ({ data }) => {
      try {
        const state = JSON.parse(String(data)) as { microphone?: unknown; camera?: unknown };
        peer.microphone = state.microphone === true;
        peer.camera = state.camera === true;
        this.onChange();
      } catch {
        // Not ours: ignored.
      }
    };
    this.onChange();
    return peer;
  }

  /** Both kinds of media on the connection: sent when this side has them, received anyway. */
  private attachLocal(pc: RTCPeerConnection, offering: boolean) {
    for (const kind of ['audio', 'video'] as const) {
      const track = kind === 'audio' ? this.local?.getAudioTracks()[0] : this.local?.getVideoTracks()[0];
      if (offering) {
        pc.addTransceiver(track ?? kind, track && this.local ? { direction: 'sendrecv', streams: [this.local] } : { direction: 'recvonly' });
        continue;
      }
      const transceiver = pc.getTransceivers().find((item) => item.receiver.track.kind === kind && item.currentDirection !== 'stopped');
      if (!transceiver || !track) continue;
      void transceiver.sender.replaceTrack(track);
      transceiver.direction = 'sendrecv';
    }
  }

  private async offer(peer: Peer, iceRestart = false) {
    try {
      if (!iceRestart) this.attachLocal(peer.pc, true);
      else peer.pc.restartIce();
      await peer.pc.setLocalDescription(await peer.pc.createOffer(iceRestart ? { iceRestart: true } : undefined));
      await this.signal(peer, { type: 'offer', sdp: peer.pc.localDescription?.sdp ?? '', connection: peer.connectionId });
    } catch {
      if (this.peers.get(peer.participantId) !== peer) return;
      peer.connection = 'failed';
      this.onChange();
    }
  }

  /**
   * A connection that went down is mended by the side that offered it: an ICE restart after a
   * short wait ("disconnected" often passes by itself) or at once when it failed, again while it
   * stays down, a bounded number of times.
   */
  private watch(peer: Peer) {
    const state = peer.pc.connectionState;
    // Someone told to have dropped whose media stopped now: gone.
    if (peer.lost && (state === 'failed' || state === 'closed' || state === 'disconnected')) {
      this.close(peer.participantId);
      this.onPresence({ kind: 'left', alias: peer.alias });
      return;
    }
    if (state === 'connected') {
      clearTimeout(peer.mending);
      peer.mending = undefined;
      peer.restarts = 0;
      return;
    }
    if (!peer.offerer || peer.mending || (state !== 'disconnected' && state !== 'failed')) return;
    peer.mending = setTimeout(() => this.mend(peer), state === 'failed' ? 0 : MEND_AFTER_MS);
  }

  private mend(peer: Peer) {
    peer.mending = undefined;
    if (this.closed || this.peers.get(peer.participantId) !== peer) return;
    const state = peer.pc.connectionState;
    if (state === 'connected' || state === 'closed' || peer.restarts >= MEND_TRIES) return;
    peer.restarts += 1;
    void this.offer(peer, true);
    // Still down by the next look: again.
    peer.mending = setTimeout(() => this.mend(peer), MEND_EVERY_MS);
  }

  private async onSignal({ roomId, from, signal }: Event<'call:signal'>) {
    if (roomId !== this.roomId || this.closed) return;
    let peer = this.peers.get(from);
    // A signal of a connection that was replaced since: nothing to do with the current one.
    // (A connection made on hearing they joined is not named yet: their offer names it.)
    const stale = !!peer && !!signal.connection && peer.connectionId !== '' && signal.connection !== peer.connectionId;
    try {
      if (signal.type === 'offer') {
        // An offer from someone new (their peer-joined may not have come first), for a new
        // connection in place of the old one, or a renegotiation (an ICE restart) of this one.
        // Both offered a new connection at once: the lower participant id's offer wins.
        if (peer && stale && peer.offerer && peer.pc.signalingState === 'have-local-offer' && (this.self?.participantId ?? 0) < from) return;
        if (!peer || peer.pc.signalingState === 'closed' || stale) {
          peer = this.connect({ participantId: from, alias: peer?.alias ?? '' }, signal.connection ?? callToken(), false);
        }
        if (peer.connectionId === '') peer.connectionId = signal.connection ?? callToken();
        if (peer.pc.signalingState === 'have-local-offer') {
          // Both sides offered at once: the one who did not offer this connection gives way.
          if (peer.offerer) return;
          await peer.pc.setLocalDescription({ type: 'rollback' });
        }
        await peer.pc.setRemoteDescription({ type: 'offer', sdp: signal.sdp });
        this.attachLocal(peer.pc, false);
        await peer.pc.setLocalDescription(await peer.pc.createAnswer());
        await this.signal(peer, { type: 'answer', sdp: peer.pc.localDescription?.sdp ?? '', connection: peer.connectionId });
        await this.flushCandidates(peer);
      } else if (signal.type === 'answer') {
        if (!peer || stale || peer.pc.signalingState !== 'have-local-offer') return;
        await peer.pc.setRemoteDescription({ type: 'answer', sdp: signal.sdp });
        await this.flushCandidates(peer);
      } else if (signal.type === 'candidate' && peer && !stale) {
        const candidate: RTCIceCandidateInit = { candidate: signal.candidate, sdpMid: signal.sdpMid ?? null, sdpMLineIndex: signal.sdpMLineIndex ?? null };
        if (peer.pc.remoteDescription) await peer.pc.addIceCandidate(candidate);
        else peer.early.push(candidate);
      }
    } catch {
      if (peer && this.peers.get(from) === peer) {
        peer.connection = 'failed';
        this.watch(peer);
        this.onChange();
      }
    }
  }

  private async flushCandidates(peer: Peer) {
    const early = peer.early.splice(0);
    for (const candidate of early) await peer.pc.addIceCandidate(candidate).catch(() => undefined);
  }

  private onPeerJoined({ roomId, peer, returning }: Event<'call:peer-joined'>) {
    if (roomId !== this.roomId || this.closed) return;
    const known = this.peers.get(peer.participantId);
    // Back after being told they dropped, and their media never stopped here: nothing changed.
    if (returning && known?.pc.connectionState === 'connected') {
      known.lost = false;
      return;
    }
    if (known && known.pc.signalingState !== 'closed') this.close(peer.participantId);
    this.onPresence({ kind: 'joined', alias: peer.alias });
    // Returning, they may believe they still hold a connection to this tab: offer a new one (on
    // a clash with theirs, see onSignal). A newcomer offers; the connection waits for it, named
    // by that offer.
    if (returning) void this.offer(this.connect(peer, callToken(), true));
    else this.connect(peer, '', false);
  }

  private onPeerLeft({ roomId, participantId, dropped }: Event<'call:peer-left'>) {
    if (roomId !== this.roomId) return;
    const peer = this.peers.get(participantId);
    if (!peer) return;
    // Their live connection went, but their media still comes (a slow server, not a lost
    // network): kept until it stops, or they are back.
    if (dropped && peer.pc.connectionState === 'connected') {
      peer.lost = true;
      return;
    }
    this.close(participantId);
    this.onPresence({ kind: 'left', alias: peer.alias });
  }

  private onEnded({ roomId, reason }: Event<'call:ended'>) {
    if (roomId !== this.roomId) return;
    for (const id of [...this.peers.keys()]) this.close(id);
    this.status = reason;
    this.onChange();
  }

  private close(participantId: number) {
    const peer = this.peers.get(participantId);
    if (!peer) return;
    this.peers.delete(participantId);
    clearTimeout(peer.mending);
    peer.channel.close();
    peer.pc.close();
    for (const track of peer.stream.getTracks()) track.stop();
    this.onChange();
  }

  private tell(peer: Peer) {
    if (peer.channel.readyState === 'open') peer.channel.send(JSON.stringify(this.media));
  }

  /**
   * Sends a signal to a peer. Offers and answers are sent again when the live connection was down
   * (a candidate lost is made up for by the next ICE restart).
   */
  private async signal(peer: Peer, signal: CallSignal) {
    const tries = signal.type === 'candidate' ? 1 : SIGNAL_TRIES;
    for (let attempt = 1; attempt <= tries; attempt++) {
      if (this.closed || this.peers.get(peer.participantId) !== peer) return;
      const answer = await sendCallSignal(this.roomId, peer.participantId, signal);
      if (answer.ok || answer.error === 'invalid' || attempt === tries) return;
      // Down, refused while this tab is back in the call, or unanswered: wait for the connection.
      await liveConnected(10_000);
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}
