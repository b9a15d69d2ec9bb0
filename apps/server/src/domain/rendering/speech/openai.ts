// Speech through any OpenAI-compatible server (OpenAI, Azure, Groq, vLLM, LocalAI, speaches...):
// /v1/audio/transcriptions for what a speaker said, /v1/audio/speech for each listener's voice.
// The SDK does not retry: the server's jobs do, with back-off, and no sooner than a 429's
// Retry-After asks (a RetryLater). A voice is stored only when it is sound: Ogg Opus or MP3 that
// plays for a moment at least, or WAV (a server that ignores response_format), made Ogg Opus here;
// anything else (an empty stream, an error page with 200) fails the try.
import OpenAI, { toFile } from 'openai';
import { createProviderFetch, postAsSdk } from '../../../platform/provider-fetch';
import type { Language } from '@parla/contract/constants';
import { withRetryAfter } from '../translation/openai';
import { describeSpokenAudio, detectFormat, id3v2Length, parseWav, wavToOggOpus } from './audio';
import type { SynthesisProvider, SynthesisResult, TranscriptionProvider, TranscriptionResult, Utterance } from './provider';

export interface OpenAiSpeechOptions {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  timeoutMs?: number | undefined;
}

export interface OpenAiTranscriptionOptions extends OpenAiSpeechOptions {
  /** STT_MODEL, e.g. whisper-1, gpt-4o-mini-transcribe, Systran/faster-whisper-small. */
  model: string;
}

export interface OpenAiSynthesisOptions extends OpenAiSpeechOptions {
  /** TTS_MODEL, e.g. tts-1, gpt-4o-mini-tts. */
  model: string;
  /** The server's voice names for the listeners' male and female voices (TTS_VOICE_MALE / _FEMALE). */
  voices: { male: string; female: string };
  /** What the server is asked to answer: Ogg Opus (smaller) or MP3 (what every server has). */
  format?: 'opus' | 'mp3' | undefined;
}

/** OpenAI's limit on one speech request's input. */
export const SPEECH_INPUT_MAX = 4096;

/** Pieces of at most `max` characters, cut after sentences, else at spaces, else anywhere. */
export function splitForSpeech(text: string, max = SPEECH_INPUT_MAX): string[] {
  const pieces: string[] = [];
  let current = '';
  const words = text.split(/(?<=[.!?;:。！？；\n])\s*/u).flatMap((sentence) => {
    if (sentence.length <= max) return [sentence];
    const parts: string[] = [];
    for (const word of sentence.split(/(?<=\s)/u)) {
      for (let at = 0; at < word.length; at += max) parts.push(word.slice(at, at + max));
    }
    return parts;
  });
  for (const word of words) {
    const joined = current && !/\s$/u.test(current) ? `${current} ${word}` : current + word;
    if (joined.length <= max) current = joined;
    else {
      if (current.trim()) pieces.push(current.trim());
      current = word;
    }
  }
  if (current.trim()) pieces.push(current.trim());
  return pieces;
}

/** The shortest voice taken as sound: less is an empty stream (headers, no audio). */
const SPOKEN_MIN_SECONDS = 0.05;

/** MP3 parts as one stream: their frames one after the other, ID3 tags of later parts left out. */
function joinMp3(parts: Buffer[]): Buffer {
  return Buffer.concat(parts.map((part, index) => (index === 0 ? part : part.subarray(id3v2Length(part)))));
}

const CONTENT_TYPES: Record<Utterance['format'], string> = { wav: 'audio/wav', ogg: 'audio/ogg', webm: 'audio/webm', mp4: 'audio/mp4' };

function clientFor(options: OpenAiSpeechOptions) {
  const transport = createProviderFetch();
  const client = new OpenAI({
    fetch: transport.fetch,
    apiKey: options.apiKey ?? 'not-needed',
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    maxRetries: 0,
    timeout: options.timeoutMs ?? 60_000,
  });
  return { client, transport, close: transport.close };
}

async function modelsAnswer(client: OpenAI): Promise<'ok' | 'degraded'> {
  try {
    await client.models.list({ timeout: 3000 });
    return 'ok';
  } catch {
    return 'degraded';
  }
}

export function createOpenAiTranscriptionProvider(options: OpenAiTranscriptionOptions): TranscriptionProvider & { readonly name: 'openai' } {
  const { client, close } = clientFor(options);
  return {
    name: 'openai',
    canTranscribe: () => true,

    async transcribe(utterance: Utterance, language: Language): Promise<TranscriptionResult> {
      const file = await toFile(utterance.data, `utterance.${utterance.format}`, { type: CONTENT_TYPES[utterance.format] });
      // The speaker's language is known: given as a hint, it spares detection and its mistakes.
      const result = await client.audio.transcriptions.create({ file, model: options.model, language, response_format: 'json' }).catch((error: unknown) => {
        throw withRetryAfter(error);
      });
      if (typeof result.text !== 'string') throw new Error('the transcription answer has no text');
      return { state: 'done', text: result.text.trim() };
    },

    health: () => modelsAnswer(client),
    close,
  };
}

export function createOpenAiSynthesisProvider(options: OpenAiSynthesisOptions): SynthesisProvider & { readonly name: 'openai' } {
  const { client, transport, close } = clientFor(options);
  const format = options.format ?? 'opus';
  return {
    name: 'openai',
    // A request each: a segment's voices (one per listening group) go out together.
    voicesAtOnce: 8,
    canSpeak: () => true,

    async synthesize(text: string, _language: Language, voice: 'male' | 'female'): Promise<SynthesisResult> {
      if (!/[\p{L}\p{N}]/u.test(text)) return { state: 'none' };
      const speak = async (input: string, as: 'opus' | 'mp3') => {
        const answer = await postAsSdk(client, transport, '/audio/speech', { model: options.model, voice: options.voices[voice], input, response_format: as }, { timeoutMs: options.timeoutMs ?? 60_000, accept: 'application/octet-stream' }).catch((error: unknown) => {
          throw withRetryAfter(error);
        });
        return answer.body;
      };
      const pieces = splitForSpeech(text);
      // A text over the server's limit is spoken in pieces, as MP3: MP3 parts join into one stream
      // that every browser plays, Ogg Opus parts would make a chained Ogg that Chromium does not.
      const body = pieces.length === 1 ? await speak(text, format) : joinMp3(await Promise.all(pieces.map((piece) => speak(piece, 'mp3'))));
      // A server that ignores response_format and answers WAV: what browsers get is Ogg Opus.
      const audio = detectFormat(body) === 'wav' && parseWav(body) ? await wavToOggOpus(body) : describeSpokenAudio(body);
      // Anything but Ogg Opus, MP3 or WAV is a malformed answer: the job tries again, then marks it failed.
      if (!audio) throw new Error(`the speech answer is neither Ogg Opus nor MP3 nor WAV (asked for ${format}; ${body.length} bytes)`);
      if (!(audio.durationSeconds >= SPOKEN_MIN_SECONDS)) throw new Error(`the speech answer holds no sound (${audio.durationSeconds} s of ${audio.contentType})`);
      return { state: 'done', audio };
    },

    health: () => modelsAnswer(client),
    close,
  };
}
