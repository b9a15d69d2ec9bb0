// What speech providers are to the rest of the server (live rooms): audio checked by content,
// transcription of one utterance, and synthesis of one text in a voice.
import type { Language } from '@parla/contract/constants';

/** An uploaded utterance, checked by its content (never by its name or declared type). */
export interface Utterance {
  data: Buffer;
  format: 'wav' | 'ogg' | 'webm' | 'mp4';
  durationSeconds: number;
}

export type TranscriptionResult = { state: 'done'; text: string } | { state: 'none' };

/**
 * The utterance itself cannot be transcribed: it does not decode, or it makes a decoder or the
 * recogniser run past their limits. Trying again would fail the same way (and hold up everyone
 * else's utterances meanwhile), so the caller settles it as failed at once.
 */
export class UnusableUtteranceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnusableUtteranceError';
  }
}

export interface TranscriptionProvider {
  readonly name: 'openai' | 'pocketsphinx' | 'none';
  /** Whether it can transcribe speech in `language` at all (pocketsphinx: US English only). */
  canTranscribe(language: Language): boolean;
  /**
   * Throws UnusableUtteranceError when the utterance itself is at fault (not worth retrying), any
   * other error on a failure worth retrying (network, 5xx, a crashed or missing process).
   */
  transcribe(utterance: Utterance, language: Language): Promise<TranscriptionResult>;
  health(): Promise<'ok' | 'degraded' | 'off'>;
  close(): Promise<void>;
}

export interface SpokenAudio {
  data: Buffer;
  /** What every browser plays: Ogg Opus or MP3, never raw WAV. */
  contentType: 'audio/ogg' | 'audio/mpeg';
  extension: 'ogg' | 'mp3';
  durationSeconds: number;
}

export type SynthesisResult = { state: 'done'; audio: SpokenAudio } | { state: 'none' };

export interface SynthesisProvider {
  readonly name: 'openai' | 'espeak' | 'none';
  /**
   * Voices worth making at once for one utterance: a local engine is a process each (as many as
   * the cores can run), a server a request each (its own capacity is the limit).
   */
  readonly voicesAtOnce: number;
  canSpeak(language: Language): boolean;
  /** Throws on a failure worth retrying. */
  synthesize(text: string, language: Language, voice: 'male' | 'female'): Promise<SynthesisResult>;
  health(): Promise<'ok' | 'degraded' | 'off'>;
  close(): Promise<void>;
}
