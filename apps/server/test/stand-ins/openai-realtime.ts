// The realtime transcription of the OpenAI stand-in (tests and benches only): OpenAI's Realtime
// API in its transcription shape at `/v1/realtime?intent=transcription`, as a WebSocket on the
// stand-in's own port. It does what such a server does with the events it is sent:
//   - session.update: the session must be `type: transcription` with `audio/pcm` at 24 kHz (else an
//     `error` event, as OpenAI answers a wrong shape); answered `session.updated`;
//   - input_audio_buffer.append: base64 PCM, judged by an energy detector on 20 ms windows (the
//     server VAD): `speech_started` at the first loud window (less the prefix padding), and
//     `speech_stopped` + `committed` after `silence_duration_ms` of quiet;
//   - while the speech goes on, the words of the utterance's script as transcript deltas, each once
//     the audio has reached its end; after the commit, the rest and `completed` with the whole text;
//   - input_audio_buffer.commit: ends the utterance now, or `input_audio_buffer_commit_empty`.
// What each utterance "says" is its script: the text the test or bench set for it (`RealtimeScript`),
// a word every 300 ms of speech unless the script says when each word ends.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

export interface RealtimeScript {
  text: string;
  /** When each word ends, in ms from the utterance's speech start (a word every 300 ms by default). */
  wordEndsMs?: number[];
}

export interface RealtimeSession {
  /** The `session` of the last session.update. */
  config: unknown;
  /** ms of audio appended. */
  audioMs: number;
  /** Utterances transcribed (`completed`), in order. */
  transcripts: string[];
  /** Events the client sent, by type (audio apart). */
  events: string[];
  closed: boolean;
}

export interface RealtimeStandIn {
  sessions: RealtimeSession[];
  /** What the next utterances say; undefined: the stand-in's default transcript. Called at each speech start. */
  script(next: ((utterance: number) => RealtimeScript) | undefined): void;
  /** Upgrades answer this status (e.g. 401, 404 for a server without realtime) until called with undefined. */
  refuseUpgrades(status: number | undefined): void;
  /** Transcripts are completed this much later than the commit. */
  delay(ms: number): void;
  /** Drops every session now (a server going away). */
  dropAll(): void;
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

const RATE = 24_000;
const WINDOW = (RATE * 20) / 1000;
/** An amplitude over this (of 32768) in a window is speech: server VAD's 0.5 threshold, roughly. */
const LOUD = 600;
const WORD_MS = 300;

export function createRealtimeStandIn(defaultText: () => string): RealtimeStandIn {
  const sessions: RealtimeSession[] = [];
  const wss = new WebSocketServer({ noServer: true });
  let scriptOf: ((utterance: number) => RealtimeScript) | undefined;
  let refused: number | undefined;
  let completeAfter = 0;
  let utterances = 0;
  let eventCount = 0;

  wss.on('connection', (ws: WebSocket) => {
    const session: RealtimeSession = { config: undefined, audioMs: 0, transcripts: [], events: [], closed: false };
    sessions.push(session);
    const send = (event: Record<string, unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event_id: `event_${++eventCount}`, ...event }));
    };
    const error = (code: string, message: string) => send({ type: 'error', error: { type: 'invalid_request_error', code, message } });
    let silenceMs = 500;
    let paddingMs = 300;
    let configured = false;
    let samples = 0;
    let pending = Buffer.alloc(0);
    let item = 0;
    let quietMs = 0;
    let current: { id: string; startMs: number; words: string[]; ends: number[]; sent: number; text: string } | undefined;

    const ms = () => (samples / RATE) * 1000;
    const finish = (endMs: number) => {
      const utterance = current!;
      current = undefined;
      quietMs = 0;
      send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: Math.round(endMs), item_id: utterance.id });
      send({ type: 'input_audio_buffer.committed', item_id: utterance.id, previous_item_id: null });
      const rest = utterance.words.slice(utterance.sent);
      const complete = () => {
        if (rest.length) send({ type: 'conversation.item.input_audio_transcription.delta', item_id: utterance.id, content_index: 0, delta: `${utterance.sent ? ' ' : ''}${rest.join(' ')}` });
        send({ type: 'conversation.item.input_audio_transcription.completed', item_id: utterance.id, content_index: 0, transcript: utterance.text });
        session.transcripts.push(utterance.text);
      };
      if (completeAfter) setTimeout(complete, completeAfter);
      else complete();
    };

    send({ type: 'session.created', session: { type: 'transcription', id: `sess_${sessions.length}` } });
    ws.on('message', (data, binary) => {
      if (binary) return error('invalid_event', 'events are JSON text');
      let event: { type?: string; audio?: string; session?: Record<string, unknown> };
      try {
        event = JSON.parse(String(data)) as typeof event;
      } catch {
        return error('invalid_json', 'not JSON');
      }
      if (event.type !== 'input_audio_buffer.append') session.events.push(String(event.type));
      if (event.type === 'session.update') {
        const config = event.session as { type?: string; audio?: { input?: { format?: { type?: string; rate?: number }; turn_detection?: { silence_duration_ms?: number; prefix_padding_ms?: number } } } } | undefined;
        const format = config?.audio?.input?.format;
        if (config?.type !== 'transcription') return error('invalid_value', "session.type must be 'transcription' on this endpoint");
        if (format?.type !== 'audio/pcm' || format.rate !== RATE) return error('invalid_value', 'audio.input.format must be audio/pcm at 24000 Hz');
        session.config = config;
        silenceMs = config.audio?.input?.turn_detection?.silence_duration_ms ?? silenceMs;
        paddingMs = config.audio?.input?.turn_detection?.prefix_padding_ms ?? paddingMs;
        configured = true;
        return send({ type: 'session.updated', session: config });
      }
      if (!configured) return error('session_not_configured', 'send session.update first');
      if (event.type === 'input_audio_buffer.append') {
        if (typeof event.audio !== 'string') return error('invalid_value', 'audio must be base64');
        const pcm = Buffer.from(event.audio, 'base64');
        if (pcm.length % 2) return error('invalid_value', 'audio must be 16-bit samples');
        session.audioMs += pcm.length / 48;
        pending = Buffer.concat([pending, pcm]);
        while (pending.length >= WINDOW * 2) {
          let peak = 0;
          for (let at = 0; at < WINDOW * 2; at += 2) peak = Math.max(peak, Math.abs(pending.readInt16LE(at)));
          pending = pending.subarray(WINDOW * 2);
          samples += WINDOW;
          const loud = peak > LOUD;
          if (!current && loud) {
            const script = scriptOf?.(utterances) ?? { text: defaultText() };
            utterances++;
            const words = script.text.split(/\s+/).filter(Boolean);
            const startMs = Math.max(0, ms() - 20);
            current = { id: `item_${sessions.length}_${++item}`, startMs, words, ends: script.wordEndsMs ?? words.map((_, index) => (index + 1) * WORD_MS), sent: 0, text: script.text };
            send({ type: 'input_audio_buffer.speech_started', audio_start_ms: Math.round(Math.max(0, startMs - paddingMs)), item_id: current.id });
          }
          if (!current) continue;
          quietMs = loud ? 0 : quietMs + 20;
          // The words whose end the audio has reached, as one delta (the last word held back until the end).
          const heard = current.ends.filter((end) => end <= ms() - current!.startMs).length;
          const upTo = Math.min(heard, current.words.length - 1);
          if (upTo > current.sent) {
            send({ type: 'conversation.item.input_audio_transcription.delta', item_id: current.id, content_index: 0, delta: `${current.sent ? ' ' : ''}${current.words.slice(current.sent, upTo).join(' ')}` });
            current.sent = upTo;
          }
          if (quietMs >= silenceMs) finish(ms() - quietMs);
        }
        return;
      }
      if (event.type === 'input_audio_buffer.commit') {
        if (!current) return error('input_audio_buffer_commit_empty', 'buffer too small: no speech since the last commit');
        return finish(ms());
      }
      if (event.type === 'input_audio_buffer.clear') {
        current = undefined;
        return send({ type: 'input_audio_buffer.cleared' });
      }
      return error('invalid_event', `unknown event ${String(event.type)}`);
    });
    ws.on('close', () => void (session.closed = true));
  });

  return {
    sessions,
    script: (next) => {
      scriptOf = next;
      utterances = 0;
    },
    refuseUpgrades: (status) => void (refused = status),
    delay: (ms) => void (completeAfter = ms),
    dropAll: () => {
      for (const client of wss.clients) client.terminate();
    },
    handleUpgrade(request, socket, head) {
      const path = (request.url ?? '').split('?')[0];
      if (path !== '/v1/realtime' || refused) {
        const status = path !== '/v1/realtime' ? 404 : refused!;
        socket.end(`HTTP/1.1 ${status} Refused\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    },
    close: () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
