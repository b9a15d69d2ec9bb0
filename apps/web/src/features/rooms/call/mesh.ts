// A call without a media server: every participant connects to every other directly (WebRTC),
// signalled over the live connection (apps/server/src/features/rooms/mesh.ts). Whoever enters
// offers to everyone already there; the others answer. Each connection carries the microphone and
// the camera both ways (a side without one only receives), and a small data channel on which each
// side says whether its microphone and camera are on (a track switched off still flows, silent or
// black). A peer who leaves, is removed or whose connection goes is closed at once.
import type { CallPeer, CallSignal, ServerToClientEvents } from '@parla/contract/live';
import { addLiveListener, joinCall, leaveCall, sendCallSignal } from '../../../lib/live';

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
    this.status = 'joining';
    this.onChange();
    const answer = await joinCall(this.roomId);
    if (this.closed) return;
    if (!answer.ok) {
      this.status = answer.error === 'full' ? 'full' : answer.error === 'not_live' ? 'notLive' : 'failed';
      return this.onChange();
    }
    this.self = answer.self;
    this.iceServers = answer.iceServers;
    this.status = 'connected';
    this.onChange();
    // The newcomer offers to everyone already there.
    for (const peer of answer.peers) void this.offer(this.connect(peer));
  }

  /** After the live connection came back: the others were told this tab left; enter afresh. */
  async rejoin(): Promise<void> {
    for (const id of [...this.peers.keys()]) this.close(id);
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
    leaveCall(this.roomId);
    for (const id of [...this.peers.keys()]) this.close(id);
  }

  private connect(other: CallPeer): Peer {
    this.close(other.participantId);
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    // Negotiated on both sides with the same id: no signal of its own.
    const channel = pc.createDataChannel('state', { negotiated: true, id: 0 });
    const peer: Peer = { ...other, pc, channel, early: [], stream: new MediaStream(), microphone: true, camera: false, connection: pc.connectionState };
    this.peers.set(other.participantId, peer);
    pc.onicecandidate = ({ candidate }) => {
      if (candidate) void this.signal(peer, { type: 'candidate', candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex });
    };
    pc.ontrack = ({ track }) => {
      // A new stream object, so the screen sees the change.
      peer.stream = new MediaStream([...peer.stream.getTracks().filter((old) => old.kind !== track.kind), track]);
      this.onChange();
    };
    pc.onconnectionstatechange = () => {
      peer.connection = pc.connectionState;
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

  private async offer(peer: Peer) {
    try {
      this.attachLocal(peer.pc, true);
      await peer.pc.setLocalDescription(await peer.pc.createOffer());
      await this.signal(peer, { type: 'offer', sdp: peer.pc.localDescription?.sdp ?? '' });
    } catch {
      peer.connection = 'failed';
      this.onChange();
    }
  }

  private async onSignal({ roomId, from, signal }: Event<'call:signal'>) {
    if (roomId !== this.roomId || this.closed) return;
    let peer = this.peers.get(from);
    try {
      if (signal.type === 'offer') {
        // An offer from someone new (their peer-joined may not have come first) or a renegotiation.
        if (!peer || peer.pc.signalingState === 'closed') peer = this.connect({ participantId: from, alias: peer?.alias ?? '' });
        await peer.pc.setRemoteDescription({ type: 'offer', sdp: signal.sdp });
        this.attachLocal(peer.pc, false);
        await peer.pc.setLocalDescription(await peer.pc.createAnswer());
        await this.signal(peer, { type: 'answer', sdp: peer.pc.localDescription?.sdp ?? '' });
        await this.flushCandidates(peer);
      } else if (signal.type === 'answer') {
        if (!peer || peer.pc.signalingState !== 'have-local-offer') return;
        await peer.pc.setRemoteDescription({ type: 'answer', sdp: signal.sdp });
        await this.flushCandidates(peer);
      } else if (signal.type === 'candidate' && peer) {
        const candidate: RTCIceCandidateInit = { candidate: signal.candidate, sdpMid: signal.sdpMid ?? null, sdpMLineIndex: signal.sdpMLineIndex ?? null };
        if (peer.pc.remoteDescription) await peer.pc.addIceCandidate(candidate);
        else peer.early.push(candidate);
      }
    } catch {
      if (peer) {
        peer.connection = 'failed';
        this.onChange();
      }
    }
  }

  private async flushCandidates(peer: Peer) {
    const early = peer.early.splice(0);
    for (const candidate of early) await peer.pc.addIceCandidate(candidate).catch(() => undefined);
  }

  private onPeerJoined({ roomId, peer }: Event<'call:peer-joined'>) {
    if (roomId !== this.roomId || this.closed) return;
    // They will offer; the connection waits for it (with their name already known).
    const known = this.peers.get(peer.participantId);
    if (known && known.pc.signalingState !== 'closed') this.close(peer.participantId);
    this.connect(peer);
    this.onPresence({ kind: 'joined', alias: peer.alias });
  }

  private onPeerLeft({ roomId, participantId }: Event<'call:peer-left'>) {
    if (roomId !== this.roomId) return;
    const peer = this.peers.get(participantId);
    if (!peer) return;
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
    peer.channel.close();
    peer.pc.close();
    for (const track of peer.stream.getTracks()) track.stop();
    this.onChange();
  }

  private tell(peer: Peer) {
    if (peer.channel.readyState === 'open') peer.channel.send(JSON.stringify(this.media));
  }

  private async signal(peer: Peer, signal: CallSignal) {
    if (this.closed || !this.peers.has(peer.participantId)) return;
    await sendCallSignal(this.roomId, peer.participantId, signal);
  }
}
