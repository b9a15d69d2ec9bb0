// Recognition while people speak (issue 33): a speaker's audio is fed to a long-lived recogniser as
// it is captured, which tells the words so far (partials) and where each utterance ends. The
// embedded default is pocketsphinx (pocketsphinx-stream.ts), an OpenAI-compatible server with a
// realtime transcription endpoint the other; a provider with neither leaves speakers on uploads
// (the utterance cut at a pause in the browser, as before).
import type { Language } from '@parla/contract/constants';

/** What a stream's audio is: 16 kHz mono signed 16-bit little-endian samples. */
export const STREAM_SAMPLE_RATE = 16_000;
export const STREAM_BYTES_PER_MS = (STREAM_SAMPLE_RATE * 2) / 1000;

export interface RecognitionEvents {
  /** The words so far of the utterance being spoken (the tail may still change). */
  partial(text: string): void;
  /**
   * An utterance ended (the recogniser heard the pause, or `endUtterance`): its words, and where it
   * lies in the stream (ms from the stream's first sample).
   */
  final(text: string, fromMs: number, toMs: number): void;
  /** The recogniser stopped (its process died, its server went away): the stream cannot go on. */
  failed(error: Error): void;
}

export interface Recognition {
  /** Audio captured since the last write (see STREAM_SAMPLE_RATE). */
  write(pcm: Buffer): void;
  /**
   * The speaker's client heard the utterance end (or the speaker muted): finish it now. Resolves
   * once the recogniser got there (after its `final`, if the utterance held anything).
   */
  endUtterance(): Promise<void>;
  /** Audio written and not yet recognised, in ms: how far the recogniser is behind the speaker. */
  readonly behindMs: number;
  close(): Promise<void>;
}

export interface StreamingTranscriber {
  readonly name: 'pocketsphinx' | 'openai-realtime';
  canStream(language: Language): boolean;
  /** A recogniser for one speaker, or null when as many run as this machine may (the speaker uploads instead). */
  open(language: Language, events: RecognitionEvents): Promise<Recognition | null>;
  /** Recognisers running now. */
  readonly running: number;
  close(): Promise<void>;
}

/** A stream's samples as a WAV file (the stored recording of a streamed utterance). */
export function streamWav(pcm: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(STREAM_SAMPLE_RATE, 24);
  header.writeUInt32LE(STREAM_SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}
