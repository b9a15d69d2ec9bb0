// The speech providers of live rooms, chosen by configuration: STT_PROVIDER (auto, openai,
// pocketsphinx, none) and TTS_PROVIDER (auto, openai, espeak, none). `auto` is the
// OpenAI-compatible server when OPENAI_BASE_URL or OPENAI_API_KEY is set, else the offline one
// when it is installed (Debian's pocketsphinx and espeak-ng, which `npm start` installs), else
// none: utterances keep their audio untranscribed, listeners read instead of hearing.
import type { FastifyBaseLogger } from 'fastify';
import { cleanText } from '@parla/contract/fields';
import { createEspeakProvider, missingEspeak } from './espeak';
import { createOpenAiSynthesisProvider, createOpenAiTranscriptionProvider } from './openai';
import { createOpenAiRealtimeStream } from './openai-realtime';
import { createPocketsphinxProvider, missingPocketsphinx } from './pocketsphinx';
import type { SynthesisProvider, TranscriptionProvider } from './provider';
import { createPocketsphinxStream, missingPocketsphinxStream } from './pocketsphinx-stream';
import type { StreamingTranscriber } from './streaming';

export type { SpokenAudio, SynthesisProvider, SynthesisResult, TranscriptionProvider, TranscriptionResult, Utterance } from './provider';
export { inspectUtterance } from './audio';

export type SpeechHealth = 'ok' | 'degraded' | 'off';

export interface SpeechOptions {
  sttProvider: 'auto' | 'openai' | 'pocketsphinx' | 'none';
  ttsProvider: 'auto' | 'openai' | 'espeak' | 'none';
  openai: {
    apiKey: string | undefined;
    baseUrl: string | undefined;
    /** STT_MODEL */
    sttModel: string;
    /** STT_REALTIME_MODEL (STT_MODEL by default): the model of the realtime transcription. */
    sttRealtimeModel?: string | undefined;
    /** TTS_MODEL */
    ttsModel: string;
    /** TTS_VOICE_MALE, TTS_VOICE_FEMALE */
    ttsVoiceMale: string;
    ttsVoiceFemale: string;
    /** What the server is asked to answer (default opus: Ogg Opus). */
    ttsFormat?: 'opus' | 'mp3' | undefined;
    timeoutMs?: number | undefined;
  };
  /**
   * Recognition while people speak (see streaming.ts): auto where the transcriber can
   * (pocketsphinx), realtime through the OpenAI-compatible server's realtime transcription, off.
   */
  streaming?: 'auto' | 'realtime' | 'off' | undefined;
  /** Speakers recognised while they speak at once (default 6). */
  streamsMax?: number | undefined;
  /** pocketsphinx recognisers at once (default 1). */
  pocketsphinxConcurrency?: number | undefined;
}

export interface Speech {
  transcription: TranscriptionProvider;
  /** Recognition while people speak, or null: speakers upload utterances cut at pauses. */
  streaming: StreamingTranscriber | null;
  synthesis: SynthesisProvider;
  /** For GET /api/status/: off when neither is configured, degraded when one does not answer; cached 15 s. */
  health(): Promise<SpeechHealth>;
  close(): Promise<void>;
}

/** Keeps every utterance's audio untranscribed (no provider configured or installed). */
export const noTranscription: TranscriptionProvider = {
  name: 'none',
  canTranscribe: () => false,
  transcribe: async () => ({ state: 'none' }),
  health: async () => 'off',
  close: async () => undefined,
};

/** Listeners read and hear nothing (no provider configured or installed). */
export const noSynthesis: SynthesisProvider = {
  name: 'none',
  voicesAtOnce: 1,
  canSpeak: () => false,
  synthesize: async () => ({ state: 'none' }),
  health: async () => 'off',
  close: async () => undefined,
};

function chooseTranscription(options: SpeechOptions, openAiConfigured: boolean, log: FastifyBaseLogger): TranscriptionProvider {
  const choice = options.sttProvider === 'auto' ? (openAiConfigured ? 'openai' : 'pocketsphinx') : options.sttProvider;
  if (choice === 'openai') {
    return createOpenAiTranscriptionProvider({ apiKey: options.openai.apiKey, baseUrl: options.openai.baseUrl, model: options.openai.sttModel, timeoutMs: options.openai.timeoutMs });
  }
  if (choice === 'pocketsphinx') {
    const missing = missingPocketsphinx();
    if (missing.length === 0) return createPocketsphinxProvider({ concurrency: options.pocketsphinxConcurrency });
    const message = `pocketsphinx is not usable (missing ${missing.join(', ')}; apt-get install pocketsphinx pocketsphinx-en-us ffmpeg): utterances are not transcribed`;
    if (options.sttProvider === 'pocketsphinx') log.error(message);
    else log.warn(message);
  }
  return noTranscription;
}

function chooseSynthesis(options: SpeechOptions, openAiConfigured: boolean, log: FastifyBaseLogger): SynthesisProvider {
  const choice = options.ttsProvider === 'auto' ? (openAiConfigured ? 'openai' : 'espeak') : options.ttsProvider;
  if (choice === 'openai') {
    return createOpenAiSynthesisProvider({
      apiKey: options.openai.apiKey,
      baseUrl: options.openai.baseUrl,
      model: options.openai.ttsModel,
      voices: { male: options.openai.ttsVoiceMale, female: options.openai.ttsVoiceFemale },
      format: options.openai.ttsFormat,
      timeoutMs: options.openai.timeoutMs,
    });
  }
  if (choice === 'espeak') {
    const missing = missingEspeak();
    if (missing.length === 0) return createEspeakProvider();
    const message = `espeak-ng is not usable (missing ${missing.join(', ')}; apt-get install espeak-ng opus-tools): translations are not spoken`;
    if (options.ttsProvider === 'espeak') log.error(message);
    else log.warn(message);
  }
  return noSynthesis;
}

/**
 * Recognition while people speak: the OpenAI-compatible server's realtime transcription when asked
 * for (STT_STREAMING=realtime); else pocketsphinx's own decoder per speaker when pocketsphinx
 * transcribes and Debian's python3-pocketsphinx is there; none for a server that only transcribes
 * whole utterances (/v1/audio/transcriptions): its speakers upload at pauses, as before.
 */
function chooseStreaming(options: SpeechOptions, transcription: TranscriptionProvider, openAiConfigured: boolean, log: FastifyBaseLogger): StreamingTranscriber | null {
  if (options.streaming === 'realtime') {
    if (openAiConfigured) {
      return createOpenAiRealtimeStream({
        apiKey: options.openai.apiKey,
        baseUrl: options.openai.baseUrl,
        model: options.openai.sttRealtimeModel ?? options.openai.sttModel,
        maxRunning: options.streamsMax,
      });
    }
    log.error('STT_STREAMING=realtime needs an OpenAI-compatible server (OPENAI_BASE_URL or OPENAI_API_KEY): speech is recognised after each pause');
    return null;
  }
  if (options.streaming === 'off' || transcription.name !== 'pocketsphinx') return null;
  const missing = missingPocketsphinxStream();
  if (missing.length === 0) return createPocketsphinxStream({ maxRunning: options.streamsMax });
  log.warn(`speech is recognised after each pause, not while it is spoken (missing ${missing.join(', ')}; apt-get install python3-pocketsphinx)`);
  return null;
}

/** A transcriber whose text is fit to store: a provider's control or bidi-override characters are removed. */
function cleaned(provider: TranscriptionProvider): TranscriptionProvider {
  return {
    ...provider,
    canTranscribe: (language) => provider.canTranscribe(language),
    async transcribe(utterance, language) {
      const result = await provider.transcribe(utterance, language);
      return result.state === 'done' ? { ...result, text: cleanText(result.text) } : result;
    },
    health: () => provider.health(),
    close: () => provider.close(),
  };
}

export function createSpeech(options: SpeechOptions, log: FastifyBaseLogger): Speech {
  const openAiConfigured = Boolean(options.openai.baseUrl || options.openai.apiKey);
  const transcription = cleaned(chooseTranscription(options, openAiConfigured, log));
  const synthesis = chooseSynthesis(options, openAiConfigured, log);
  const streaming = chooseStreaming(options, transcription, openAiConfigured, log);
  log.info({ transcription: transcription.name, streaming: streaming?.name ?? 'none', synthesis: synthesis.name }, 'speech providers');
  let last: { at: number; value: Promise<SpeechHealth> } | undefined;

  const measure = async (): Promise<SpeechHealth> => {
    const states = await Promise.all([transcription.health(), synthesis.health()]);
    if (states.every((state) => state === 'off')) return 'off';
    return states.includes('degraded') ? 'degraded' : 'ok';
  };

  return {
    transcription,
    streaming,
    synthesis,
    health() {
      if (!last || Date.now() - last.at > 15_000) last = { at: Date.now(), value: measure() };
      return last.value;
    },
    async close() {
      await Promise.all([transcription.close(), synthesis.close(), streaming?.close()]);
    },
  };
}
