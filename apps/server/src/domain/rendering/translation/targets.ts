// Which (language, tone) renderings a piece of text needs: decided here once, for chat messages,
// room segments and the translator itself.
import type { Language, Tone } from '@parla/contract/constants';
import type { TranslationProvider } from './provider';

export interface Target {
  language: string;
  tone: string;
}

/**
 * What a reader of `target` needs of a text written in `source`:
 * - `original`: the original as it is (their language, and no tone the provider can give);
 * - `rendering`: a rendering the provider can make (another language, or a tone it writes);
 * - `unreachable`: a rendering the provider cannot make (a missing pair): they get the original.
 */
export type TargetNeed = 'original' | 'rendering' | 'unreachable';

export type TargetProvider = Pick<TranslationProvider, 'supportsTone' | 'canTranslate'>;

export function targetNeed(provider: TargetProvider, source: string, target: Target): TargetNeed {
  if (target.language === source) return target.tone !== 'DEFAULT' && provider.supportsTone ? 'rendering' : 'original';
  return provider.canTranslate(source as Language, target.language as Language) ? 'rendering' : 'unreachable';
}

/** Whether a reader of `target` gets anything but the original as it is (a rendering, or word that none can be made). */
export const wantsRendering = (provider: TargetProvider, source: string, target: Target) => targetNeed(provider, source, target) !== 'original';

/** The targets among `targets` (each once) whose rendering the provider can make. */
export function renderTargets<T extends Target>(provider: TargetProvider, source: string, targets: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const target of targets) {
    const key = `${target.language}|${target.tone}`;
    if (!seen.has(key) && targetNeed(provider, source, target) === 'rendering') seen.set(key, target);
  }
  return [...seen.values()];
}

/** The tone really asked of the provider for a target (one that knows no tone writes the default). */
export const askedTone = (provider: Pick<TranslationProvider, 'supportsTone'>, tone: Tone): Tone => (provider.supportsTone ? tone : 'DEFAULT');
