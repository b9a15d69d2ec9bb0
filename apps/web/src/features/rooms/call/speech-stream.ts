// Live interpreting from the speaker's side (issue 33): while the server recognises speech as it is
// spoken (SPEECH_STREAM), the microphone's frames (16 kHz, from the voice activity detector) go to
// it on a WebSocket of their own while the person speaks, with the moment before speech was heard
// (so the first words are not lost), and the detector's end of each utterance. Where the server
// cannot (another language, no recogniser, all busy) or the stream is down, `ready` is false and
// the caller uploads each utterance as before. A dropped stream is opened again, doubling its wait.
import { SPEECH_STREAM, type SpeechStreamServerMessage } from '@parla/contract/interpreting';

/** Frames kept from before speech was heard (the detector's 32 ms frames: about half a second). */
const LEAD_FRAMES = 16;
/** Frames sent together (about 130 ms). */
const BATCH_FRAMES = 4;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;

export type StreamState = 'connecting' | 'ready' | 'unavailable' | 'closed';

/** Float samples in [-1, 1] as 16-bit little-endian PCM. */
export function toPcm16(frames: readonly Float32Array[]): ArrayBuffer {
  const length = frames.reduce((sum, frame) => sum + frame.length, 0);
  const view = new DataView(new ArrayBuffer(length * 2));
  let offset = 0;
  for (const frame of frames) {
    for (const sample of frame) {
      const clamped = Math.max(-1, Math.min(1, sample));
      view.setInt16(offset, clamped < 0 ? clamped * 0x8000 : clamped * 0x7fff, true);
      offset += 2;
    }
  }
  return view.buffer;
}

export interface SpeechStreamEvents {
  state?(state: StreamState): void;
  /** How far the server's recogniser is behind this speaker (ms; 0 once it caught up). */
  behind?(ms: number): void;
  /** A refusal the server explained (quota, pace): shown to the speaker. */
  error?(code: string, message: string): void;
}

export interface SpeechStream {
  readonly state: StreamState;
  /** Every frame the detector processed (speaking or not). */
  frame(samples: Float32Array): void;
  /** The detector heard speech start: the frames before it go first. */
  speechStart(): void;
  /** The detector heard the utterance end (`misfire`: it was not speech). Returns false when the stream could not take it (upload it instead). */
  speechEnd(misfire?: boolean): boolean;
  close(): void;
}

export function openSpeechStream(roomId: number, prepare: () => Promise<unknown>, events: SpeechStreamEvents = {}): SpeechStream {
  let socket: WebSocket | null = null;
  let state: StreamState = 'connecting';
  let closed = false;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let speaking = false;
  /** This utterance goes to the stream (it was ready when the utterance began). */
  let streamingThis = false;
  const lead: Float32Array[] = [];
  let batch: Float32Array[] = [];

  const setState = (next: StreamState) => {
    if (state === next) return;
    state = next;
    events.state?.(next);
  };

  async function connect() {
    if (closed) return;
    setState('connecting');
    // The handshake carries the access cookie: refreshed first when due.
    await prepare().catch(() => undefined);
    if (closed) return;
    const url = `${location.origin.replace(/^http/, 'ws')}${SPEECH_STREAM.path.replace('{roomId}', String(roomId))}`;
    const opened = new WebSocket(url);
    opened.binaryType = 'arraybuffer';
    socket = opened;
    opened.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      let message: SpeechStreamServerMessage;
      try {
        message = JSON.parse(event.data) as SpeechStreamServerMessage;
      } catch {
        return;
      }
      if (message.type === 'ready') {
        attempt = 0;
        // An utterance under way when the stream came (back) is uploaded whole instead (streamingThis stays false).
        setState('ready');
      } else if (message.type === 'unavailable') {
        setState('unavailable');
      } else if (message.type === 'behind') {
        events.behind?.(message.ms);
      } else if (message.type === 'error') {
        events.error?.(message.code, message.message);
      }
    };
    opened.onclose = (event) => {
      if (socket === opened) socket = null;
      if (closed) return;
      // Refused for good (not a participant, not Live, not allowed, no recogniser here): uploads take over.
      if (state === 'unavailable' || (event.code >= 4400 && event.code < 4500 && event.code !== 4429)) return setState('unavailable');
      setState('closed');
      const wait = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** attempt++);
      retry = setTimeout(() => void connect(), wait * (0.75 + Math.random() * 0.5));
    };
  }

  const ready = () => state === 'ready' && socket?.readyState === WebSocket.OPEN;
  const flush = () => {
    if (batch.length && ready()) socket!.send(toPcm16(batch));
    batch = [];
  };

  void connect();
  return {
    get state() {
      return state;
    },
    frame(samples) {
      if (!speaking) {
        lead.push(samples);
        if (lead.length > LEAD_FRAMES) lead.shift();
        return;
      }
      if (!streamingThis) return;
      batch.push(samples);
      if (batch.length >= BATCH_FRAMES) flush();
    },
    speechStart() {
      speaking = true;
      streamingThis = ready();
      batch = streamingThis ? lead.splice(0) : [];
      lead.length = 0;
      flush();
    },
    speechEnd(misfire = false) {
      speaking = false;
      // Streamed whole only if the stream stayed up all along (a drop midway: it is uploaded too, so nothing is lost).
      const whole = streamingThis && ready();
      flush();
      if (streamingThis && ready()) socket!.send(JSON.stringify({ type: misfire ? 'misfire' : 'end' }));
      streamingThis = false;
      return whole;
    },
    close() {
      closed = true;
      clearTimeout(retry);
      socket?.close(1000);
      socket = null;
    },
  };
}
