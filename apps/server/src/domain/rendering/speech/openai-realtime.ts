// Recognition while people speak through an OpenAI-compatible server's realtime transcription
// (OpenAI's Realtime API in its transcription shape, which Speaches, LocalAI and vLLM serve too):
// one WebSocket per speaker to `{OPENAI_BASE_URL}/realtime?intent=transcription`, the speaker's
// audio appended as it comes (resampled to the 24 kHz the API takes), the server's own voice
// activity detection ending each utterance, its transcript deltas the partials and its completed
// transcript the final. Chosen by STT_STREAMING=realtime: a server that only has
// /v1/audio/transcriptions cannot do this, and speakers upload at pauses there (STT_STREAMING=auto).
//
// Client events sent: session.update, input_audio_buffer.append, input_audio_buffer.commit.
// Server events read: session.created/updated, input_audio_buffer.speech_started/speech_stopped/
// committed, conversation.item.input_audio_transcription.delta/completed/failed, error.
import WebSocket from 'ws';
import type { Language } from '@parla/contract/constants';
import { STREAM_BYTES_PER_MS, STREAM_SAMPLE_RATE, type Recognition, type RecognitionEvents, type StreamingTranscriber } from './streaming';

/** The sample rate the Realtime API takes PCM at. */
export const REALTIME_SAMPLE_RATE = 24_000;

export interface OpenAiRealtimeOptions {
  apiKey: string | undefined;
  /** OPENAI_BASE_URL (…/v1); OpenAI's own by default. */
  baseUrl: string | undefined;
  /** STT_REALTIME_MODEL, e.g. gpt-4o-transcribe, gpt-realtime-whisper. */
  model: string;
  /** Sessions at once (STT_STREAMS_MAX): each is a paid stream on a hosted server. */
  maxRunning?: number | undefined;
  /** The pause that ends an utterance (server VAD's silence_duration_ms). */
  silenceMs?: number | undefined;
  /** How long to wait for the session to open and be configured. */
  connectTimeoutMs?: number | undefined;
}

/** The realtime URL of an OpenAI-compatible base URL (http → ws). */
export function realtimeUrl(baseUrl: string | undefined): string {
  const base = (baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  return `${base.replace(/^http/, 'ws')}/realtime?intent=transcription`;
}

/**
 * 16 kHz samples as 24 kHz ones, by linear interpolation, across calls (each output sample lies
 * 2/3 of an input sample after the last).
 */
export function createResampler(): (pcm: Buffer) => Buffer {
  let previous = 0;
  /** Position of the next output sample, in input samples, relative to the first sample of the next chunk (-1 is `previous`). */
  let position = 0;
  const step = STREAM_SAMPLE_RATE / REALTIME_SAMPLE_RATE;
  return (pcm) => {
    const count = Math.floor(pcm.length / 2);
    if (count === 0) return Buffer.alloc(0);
    const sample = (index: number) => (index < 0 ? previous : pcm.readInt16LE(index * 2));
    const out: number[] = [];
    while (position <= count - 1) {
      const left = Math.floor(position);
      const fraction = position - left;
      const value = sample(left) * (1 - fraction) + (fraction > 0 ? sample(left + 1) * fraction : 0);
      out.push(Math.max(-32768, Math.min(32767, Math.round(value))));
      position += step;
    }
    previous = sample(count - 1);
    position -= count;
    const buffer = Buffer.alloc(out.length * 2);
    out.forEach((value, index) => buffer.writeInt16LE(value, index * 2));
    return buffer;
  };
}

interface ServerEvent {
  type?: string;
  item_id?: string;
  audio_start_ms?: number;
  audio_end_ms?: number;
  delta?: string;
  transcript?: string;
  error?: { message?: string; code?: string | null; type?: string };
}

interface Item {
  fromMs: number;
  toMs: number | undefined;
  text: string;
}

export function createOpenAiRealtimeStream(options: OpenAiRealtimeOptions): StreamingTranscriber & { readonly name: 'openai-realtime' } {
  const maxRunning = Math.max(1, options.maxRunning ?? 6);
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const running = new Set<WebSocket>();
  const url = realtimeUrl(options.baseUrl);

  async function start(language: Language, events: RecognitionEvents): Promise<Recognition> {
    const socket = new WebSocket(url, {
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      handshakeTimeout: connectTimeoutMs,
      maxPayload: 1 << 20,
    });
    running.add(socket);
    const items = new Map<string, Item>();
    /** The item being spoken (speech started, not stopped). */
    let speaking: string | undefined;
    /** The item the partials are of: the newest one not completed. */
    let latest: string | undefined;
    let writtenMs = 0;
    let closedByUs = false;
    let ended = false;
    /** Those waiting for the utterance asked to end, until the next completed (or an error). */
    let waiting: (() => void)[] = [];
    const release = () => {
      for (const done of waiting.splice(0)) done();
    };
    const resample = createResampler();

    const fail = (error: Error) => {
      if (ended) return;
      ended = true;
      running.delete(socket);
      release();
      events.failed(error);
    };

    const configured = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the realtime transcription session did not open in ${connectTimeoutMs} ms`)), connectTimeoutMs);
      socket.once('open', () => {
        socket.send(
          JSON.stringify({
            type: 'session.update',
            session: {
              type: 'transcription',
              audio: {
                input: {
                  format: { type: 'audio/pcm', rate: REALTIME_SAMPLE_RATE },
                  transcription: { model: options.model, language },
                  turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: options.silenceMs ?? 500 },
                },
              },
            },
          }),
        );
      });
      socket.on('message', (data, binary) => {
        if (binary) return;
        let event: ServerEvent;
        try {
          event = JSON.parse(String(data)) as ServerEvent;
        } catch {
          return;
        }
        if (event.type === 'session.updated') {
          clearTimeout(timer);
          resolve();
        } else if (event.type === 'error' && !ended && socket.readyState === socket.OPEN) {
          // Before the session is configured, an error is the session refused (model, shape, key).
          clearTimeout(timer);
          reject(new Error(`the realtime transcription server refused the session: ${event.error?.message ?? 'error'}`));
        }
        handle(event);
      });
      socket.once('unexpected-response', (_request, response) => {
        clearTimeout(timer);
        reject(new Error(`the realtime transcription server answered ${response.statusCode} to the upgrade`));
        socket.terminate();
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    let ready = false;
    socket.on('error', () => undefined);
    socket.on('close', (code, reason) => {
      running.delete(socket);
      if (!closedByUs && ready) fail(new Error(`the realtime transcription server closed the session (${code}${reason.length ? ` ${String(reason)}` : ''})`));
      release();
    });

    function handle(event: ServerEvent) {
      if (ended) return;
      const id = event.item_id;
      switch (event.type) {
        case 'input_audio_buffer.speech_started':
          if (!id) return;
          items.set(id, { fromMs: event.audio_start_ms ?? writtenMs, toMs: undefined, text: '' });
          speaking = id;
          latest = id;
          return;
        case 'input_audio_buffer.speech_stopped': {
          const item = id ? items.get(id) : undefined;
          if (item) item.toMs = event.audio_end_ms ?? writtenMs;
          if (speaking === id) speaking = undefined;
          return;
        }
        case 'input_audio_buffer.committed': {
          // Committed by us (endUtterance) with no speech_stopped: it ends where the audio did.
          if (!id) return;
          const item = items.get(id) ?? { fromMs: 0, toMs: writtenMs, text: '' };
          item.toMs ??= writtenMs;
          items.set(id, item);
          if (speaking === id) speaking = undefined;
          latest ??= id;
          return;
        }
        case 'conversation.item.input_audio_transcription.delta': {
          const item = id ? items.get(id) : undefined;
          if (!item || typeof event.delta !== 'string') return;
          item.text += event.delta;
          if (id === latest) events.partial(item.text.trim());
          return;
        }
        case 'conversation.item.input_audio_transcription.completed':
        case 'conversation.item.input_audio_transcription.failed': {
          const item = id ? items.get(id) : undefined;
          if (!id || !item) return;
          items.delete(id);
          if (latest === id) latest = speaking;
          // A failed transcription keeps nothing to store: its partial is dropped (said to the log by the caller).
          const text = event.type.endsWith('completed') && typeof event.transcript === 'string' ? event.transcript.trim() : '';
          events.final(text, item.fromMs, item.toMs ?? writtenMs);
          if (!speaking) release();
          return;
        }
        case 'error':
          // e.g. input_audio_buffer_commit_empty: nothing was left to end.
          release();
          return;
        default:
          return;
      }
    }

    try {
      await configured;
    } catch (error) {
      closedByUs = true;
      running.delete(socket);
      socket.terminate();
      throw error;
    }
    ready = true;

    return {
      write(pcm) {
        if (ended || pcm.length === 0 || socket.readyState !== socket.OPEN) return;
        writtenMs += pcm.length / STREAM_BYTES_PER_MS;
        socket.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: resample(pcm).toString('base64') }));
      },
      endUtterance() {
        if (ended || socket.readyState !== socket.OPEN) return Promise.resolve();
        // Nothing being said nor being transcribed: nothing to wait for.
        if (!speaking && items.size === 0) return Promise.resolve();
        return new Promise<void>((resolve) => {
          // Bounded: a server that never answers the commit does not hold the stream's end.
          const timer = setTimeout(resolve, 10_000);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
          if (speaking) socket.send(JSON.stringify({ type: 'input_audio_buffer.commit' }));
        });
      },
      get behindMs() {
        // Audio past the end of the oldest utterance still being transcribed.
        let oldest = Infinity;
        for (const item of items.values()) if (item.toMs !== undefined) oldest = Math.min(oldest, item.toMs);
        return oldest === Infinity ? 0 : Math.max(0, writtenMs - oldest);
      },
      async close() {
        if (ended) return;
        ended = true;
        closedByUs = true;
        running.delete(socket);
        release();
        if (socket.readyState === socket.OPEN) socket.close(1000);
        else socket.terminate();
        waiting = [];
      },
    };
  }

  return {
    name: 'openai-realtime',
    canStream: () => true,
    get running() {
      return running.size;
    },
    async open(language, events) {
      if (running.size >= maxRunning) return null;
      return start(language, events);
    },
    async close() {
      for (const socket of running) socket.terminate();
      running.clear();
    },
  };
}
