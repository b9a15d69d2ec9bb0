// A chat's or room's glossary applied to one text (issue 19). Only what the text holds counts:
// the names and terms found in it (whole words, any case) make the cache key's glossary part, so
// a change to the glossary applies to new texts at once and leaves texts it does not touch cached.
// - Names, and terms kept as they are, become placeholders put back as written (or as the
//   target's required rendering of a kept term): no provider can translate them.
// - A term with a required rendering: for Apertium (no instructions) a placeholder put back as
//   that rendering in each language that has one; for a model, a line of its instruction, the
//   answer checked, and asked once more for the targets that ignored it (then kept, and marked).
import type { Language } from '@parla/contract/constants';
import type { TranslationGlossary, TranslationProvider, TranslationRequest, TranslationResult, TranslationTarget } from './provider';
import { heldIn, nameProtections, shield, termPattern, type Protected, type Shielded } from './protect';

type Term = TranslationGlossary['terms'][number];

export interface AppliedGlossary {
  /** What of the glossary the text holds, for the cache key ('' for nothing). */
  key: string;
  /** Translates `targets` with the glossary applied: results in order, renderings restored. */
  translate(
    provider: TranslationProvider,
    request: TranslationRequest,
    targets: TranslationTarget[],
  ): Promise<{ results: TranslationResult[]; restore: (content: string, language: Language) => string; missed: string[][] }>;
}

const lower = (text: string) => text.toLocaleLowerCase();

/** The names and terms `text` holds as whole words (as written there), found in one pass (the longest where they overlap). */
const wordsIn = (text: string, candidates: readonly string[]): Set<string> => {
  const pattern = termPattern(candidates);
  return new Set(pattern ? [...text.matchAll(pattern)].map((match) => match[0]) : []);
};

/** Whether a rendering uses the required text (any case). */
export const follows = (content: string, required: string) => lower(content).includes(lower(required));

export function applyGlossary(text: string, source: Language, glossary: TranslationGlossary | undefined): AppliedGlossary {
  const ownTerms = (glossary?.terms ?? []).filter((term) => term.language === source);
  const foundLower = new Set([...wordsIn(text, ownTerms.map((term) => term.term))].map(lower));
  // A name counts only where it is a name (protect.ts nameProtections: "Hope" is a name, "hope"
  // and "not" are words); a term in any case.
  const nameItems: Protected[] = heldIn(text, nameProtections(glossary?.names ?? []));
  const terms = ownTerms.filter((term) => foundLower.has(lower(term.term.trim())));
  const key = nameItems.length || terms.length ? JSON.stringify([nameItems.map((item) => item.term).sort(), terms.map((t) => [lower(t.term), t.keep, t.renderings])]) : '';

  /** For targets of `language` without instructions: every name, kept term and term required there is a placeholder. */
  const protectFor = (language: Language): Protected[] => [
    ...nameItems,
    ...terms.filter((t) => t.keep || t.renderings[language] !== undefined).map((t) => ({ term: t.term, as: (lang: string) => t.renderings[lang as Language] })),
  ];

  return {
    key,
    async translate(provider, request, targets) {
      if (!provider.followsInstructions) {
        // One provider call per language (Apertium translates language by language anyway), each
        // with the placeholders that language needs.
        const languages = [...new Set(targets.map((target) => target.language))];
        const shields = new Map<Language, Shielded>(languages.map((language) => [language, shield(request.text, protectFor(language))]));
        const results: TranslationResult[] = new Array(targets.length);
        await Promise.all(
          languages.map(async (language) => {
            const indexes = targets.map((target, index) => (target.language === language ? index : -1)).filter((index) => index >= 0);
            const answer = await provider.translate({ ...request, text: shields.get(language)!.text, targets: indexes.map((index) => targets[index]!) });
            indexes.forEach((index, at) => (results[index] = answer[at] ?? { state: 'retry', reason: 'no answer' }));
          }),
        );
        return { results, restore: (content, language) => shields.get(language)!.restore(content, language), missed: targets.map(() => []) };
      }
      // A model: names and kept terms as placeholders, required renderings in the instruction.
      const shielded = shield(request.text, [...nameItems, ...terms.filter((t) => t.keep).map((t): Protected => ({ term: t.term, as: (lang) => t.renderings[lang as Language] }))]);
      const required = terms.filter((t) => !t.keep && Object.keys(t.renderings).length > 0);
      const ask = (asked: TranslationTarget[]) =>
        provider.translate({ ...request, text: shielded.text, targets: asked, ...(required.length ? { requiredTerms: required.map(({ term, renderings }) => ({ term, renderings })) } : {}) });
      const restore = (content: string, language: Language) => shielded.restore(content, language);
      const misses = (result: TranslationResult | undefined, target: TranslationTarget) =>
        result?.state === 'done' ? required.filter((t: Term) => t.renderings[target.language] !== undefined && !follows(restore(result.content, target.language), t.renderings[target.language]!)) : [];
      const results = await ask(targets);
      const again = targets.map((target, index) => (misses(results[index], target).length ? index : -1)).filter((index) => index >= 0);
      const missed: string[][] = targets.map(() => []);
      if (again.length) {
        // Asked once more for the targets that ignored a required rendering; a second miss is kept, and marked.
        const second = await ask(again.map((index) => targets[index]!));
        again.forEach((index, at) => {
          const target = targets[index]!;
          const retried = second[at];
          if (retried?.state === 'done' && misses(retried, target).length === 0) results[index] = retried;
          else missed[index] = misses(results[index], target).map((t) => t.term);
        });
      }
      return { results, restore, missed };
    },
  };
}

/** Whether a text in `source` holds a name or a term of the glossary (so that the glossary changes its translation). */
export const glossaryTouches = (text: string, source: Language, glossary: TranslationGlossary) => applyGlossary(text, source, glossary).key !== '';
