// What a translation provider is to the rest of the server: one call per source text for every
// (language, tone) it is asked for. Chats and rooms go through this, never through a provider's
// own API.
import type { Domain, Language, Tone } from '@parla/contract/constants';

export interface TranslationTarget {
  language: Language;
  tone: Tone;
}

export interface TranslationRequest {
  text: string;
  source: Language;
  /** Distinct (language, tone) pairs; the source language may appear with a tone other than DEFAULT. */
  targets: TranslationTarget[];
  /** The room's domain (vocabulary), when there is one. */
  domain?: Domain | undefined;
  /** The chat's or room's glossary (the translator shields and checks it; providers never see it whole). */
  glossary?: TranslationGlossary | undefined;
  /**
   * For a provider that follows instructions: terms found in the text that must be rendered so
   * in the given languages (the translator checks the answer and asks once more).
   */
  requiredTerms?: { term: string; renderings: Partial<Record<Language, string>> }[] | undefined;
  /**
   * Whether the translator's cache is looked up and written for this text (true unless said):
   * false for a text not expected to come again word for word (a long utterance).
   */
  cache?: boolean | undefined;
}

/** A glossary as translation uses it (domain/glossary/glossary.ts makes it from a chat's or room's entries). */
export interface TranslationGlossary {
  /** Members' names: never translated. */
  names: string[];
  /** Terms, each in its language: kept as written and/or rendered as required in some languages. */
  terms: { term: string; language: Language; keep: boolean; renderings: Partial<Record<Language, string>> }[];
}

/** One result per target, in the order of `request.targets`. */
export type TranslationResult =
  /** `tone`: the tone really applied (DEFAULT from a provider that knows no tone). */
  | { state: 'done'; content: string; tone: Tone; /** Glossary terms whose required rendering it left out (asked twice). */ missedTerms?: string[] }
  /** The provider cannot reach that language from the source (no pair, no chain). */
  | { state: 'none' }
  /**
   * Not translated this time while others were (a model left this target out of its answer):
   * the caller keeps the others and asks again for this one later (its job's retry).
   */
  | { state: 'retry'; reason: string };

export type ProviderName = 'openai' | 'apertium' | 'none';

export interface TranslationProvider {
  readonly name: ProviderName;
  /** Whether it can write a tone (an LLM can; Apertium cannot and renders DEFAULT). */
  readonly supportsTone: boolean;
  /** Whether it follows written instructions (a model: a glossary's required renderings go into its instruction). */
  readonly followsInstructions: boolean;
  /** Whether it could translate `source` into `target` at all (a pair or a chain exists). */
  canTranslate(source: Language, target: Language): boolean;
  /**
   * Translates `text` for every target in one provider call where the provider allows it (an
   * LLM: one request with structured output; Apertium: one request per distinct language).
   * Throws on a failure worth retrying (network, 5xx, a malformed answer), a RetryLater
   * (platform/jobs.ts) when the provider said how long to wait (429 with Retry-After); a target
   * missing from an otherwise good answer is a `retry` result.
   */
  translate(request: TranslationRequest): Promise<TranslationResult[]>;
  /** For GET /api/status/: ok when it answers, degraded when it does not, off for `none`. */
  health(): Promise<'ok' | 'degraded' | 'off'>;
  close(): Promise<void>;
}
