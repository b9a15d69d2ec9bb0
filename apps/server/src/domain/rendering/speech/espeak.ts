// Synthesis by Debian's espeak-ng (formant synthesis: robotic but clear, every language offline):
// the text on stdin, WAV on stdout piped straight into opusenc, Ogg Opus out. The male and female
// voices are espeak-ng's `+m3` and `+f3` variants of each language's voice.
import type { Language } from '@parla/contract/constants';
import { wavToOggOpus } from './audio';
import { startProcess, which } from '../../../platform/process';
import type { SynthesisProvider, SynthesisResult } from './provider';

/**
 * The espeak-ng 1.51 voice (Debian 12) for each of our languages; null where none is usable.
 * Checked with `espeak-ng --voices` and by reading each language's own name in its own script
 * with `espeak-ng -x` (test/speech.test.ts): no voice falls back to English letter names.
 * - no: Norwegian Bokmål (`nb`); en: US English; fr: France; pt: Portugal; es: Spain.
 * - zh: `cmn-latn-pinyin`. Plain `cmn` reads some characters as pinyin spelled out in English
 *   (文 → "wen two").
 * - gl (no Galician voice): Spanish. Galician is written with Spanish conventions (ch, ll, ñ,
 *   z/ce/ci, every vowel full, s always /s/), which the Spanish voice reads right; the Portuguese
 *   voice reduces unstressed vowels, makes every final s /ʃ/ and ch /ʃ/. Only x (/ʃ/) comes out
 *   as /ks/ or /s/.
 * - tl (no Tagalog voice): Indonesian, a related language whose spelling reads Tagalog's almost
 *   letter for letter (ng as /ŋ/, five plain vowels); only `mga` (/maŋa/) comes out as /mga/.
 *   Spanish would spell out ng and mga.
 * - ja: none. espeak-ng reads only kana: every kanji is spoken as the English words "Chinese
 *   letter", and written Japanese is full of kanji.
 */
export const ESPEAK_VOICES: Readonly<Record<Language, string | null>> = {
  af: 'af', ar: 'ar', az: 'az', be: 'be', bg: 'bg', bs: 'bs', ca: 'ca', cs: 'cs', cy: 'cy',
  da: 'da', de: 'de', el: 'el', en: 'en-us', es: 'es', et: 'et', fa: 'fa', fi: 'fi', fr: 'fr-fr',
  gl: 'es', he: 'he', hi: 'hi', hr: 'hr', hu: 'hu', hy: 'hy', id: 'id', is: 'is', it: 'it',
  ja: null, kk: 'kk', kn: 'kn', ko: 'ko', lt: 'lt', lv: 'lv', mi: 'mi', mk: 'mk', mr: 'mr',
  ms: 'ms', ne: 'ne', nl: 'nl', no: 'nb', pl: 'pl', pt: 'pt', ro: 'ro', ru: 'ru', sk: 'sk',
  sl: 'sl', sr: 'sr', sv: 'sv', sw: 'sw', ta: 'ta', th: 'th', tl: 'id', tr: 'tr', uk: 'uk',
  ur: 'ur', vi: 'vi', zh: 'cmn-latn-pinyin',
};

/** Languages spoken by a voice of another language (documented above). */
export const ESPEAK_BORROWED_VOICES: readonly Language[] = ['gl', 'tl'];

export const ESPEAK_VARIANTS = { male: 'm3', female: 'f3' } as const;

/** espeak-ng's `-v` argument for a language and voice, or null when the language has none. */
export function espeakVoice(language: Language, voice: 'male' | 'female'): string | null {
  const base = ESPEAK_VOICES[language];
  return base ? `${base}+${ESPEAK_VARIANTS[voice]}` : null;
}

export interface EspeakOptions {
  /** Words per minute (espeak-ng's default is 175). */
  wordsPerMinute?: number | undefined;
}

/** What of espeak-ng and opusenc is missing on this machine (empty when they can run). */
export function missingEspeak(): string[] {
  return ['espeak-ng', 'opusenc'].filter((command) => !which(command));
}

export function createEspeakProvider(options: EspeakOptions = {}): SynthesisProvider & { readonly name: 'espeak' } {
  const speed = String(options.wordsPerMinute ?? 175);

  return {
    name: 'espeak',
    // espeak-ng and opusenc are processes: three utterances' worth keep two cores busy.
    voicesAtOnce: 3,

    canSpeak: (language: Language) => ESPEAK_VOICES[language] !== null,

    async synthesize(text: string, language: Language, voice: 'male' | 'female'): Promise<SynthesisResult> {
      const name = espeakVoice(language, voice);
      if (!name || !/[\p{L}\p{N}]/u.test(text)) return { state: 'none' };
      // About 1 s per 100 characters on this machine (espeak-ng and opusenc side by side), with
      // room for a busy one: 10,000 characters (8.5 minutes of speech) get 65 s.
      const timeoutMs = 15_000 + text.length * 5;
      // Text on stdin (-b 1: UTF-8) and no markup (no -m): nothing in it is an option or a tag.
      const espeak = startProcess('espeak-ng', ['-b', '1', '-v', name, '-s', speed, '--stdout'], {
        input: Buffer.from(text, 'utf8'),
        timeoutMs,
        pipeStdout: true,
      });
      const wav = espeak.child.stdout!;
      // espeak-ng failing ends opusenc's input at once (see startProcess).
      espeak.done.catch((error: unknown) => wav.destroy(error as Error));
      const encoded = wavToOggOpus(wav, timeoutMs);
      const [spoken] = await Promise.all([encoded, espeak.done]);
      return { state: 'done', audio: spoken };
    },

    async health() {
      return missingEspeak().length === 0 ? 'ok' : 'degraded';
    },

    async close() {},
  };
}
