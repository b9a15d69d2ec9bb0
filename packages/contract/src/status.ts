// GET /api/status/ and GET /api/speech/tones/.
import * as z from 'zod/mini';
import { languageField, toneField } from './fields';

export const PART_STATES = ['ok', 'degraded', 'off'] as const;
const partState = z.enum(PART_STATES);

export const statusResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: partState,
  realtime: partState,
  translation: partState,
  speech: partState,
});
export type StatusResponse = z.infer<typeof statusResponseSchema>;

export const toneOptionSchema = z.object({ value: toneField, label: z.string() });
export type ToneOption = z.infer<typeof toneOptionSchema>;
export const toneListSchema = z.array(toneOptionSchema);

/**
 * GET /api/translation/ (beyond the spec): what the server's translation provider can do, so the
 * client can say it plainly (a language it cannot reach, a tone it cannot write).
 */
export const TRANSLATION_PROVIDERS = ['openai', 'apertium', 'none'] as const;
export const translationInfoSchema = z.object({
  provider: z.enum(TRANSLATION_PROVIDERS),
  /** False: every reader gets the plain translation (tone DEFAULT), whatever tone they chose. */
  supportsTone: z.boolean(),
  /**
   * For each source language, the languages it can be translated into; null when every language
   * reaches every other (an LLM). A language absent as a key reaches none.
   */
  reach: z.nullable(z.record(z.string(), z.array(languageField))),
  /**
   * The languages the server can transcribe (offline speech: US English only); null when it
   * transcribes every language. Speech in another language reaches listeners as audio only.
   */
  transcribes: z.optional(z.nullable(z.array(languageField))),
});
export type TranslationInfo = z.infer<typeof translationInfoSchema>;
