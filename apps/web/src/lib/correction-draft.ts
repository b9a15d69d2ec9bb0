// A reader's correction turned into a glossary term in one step: what the correction changed in
// the machine's text is the rendering it asks for; the term is the original's word that the
// machine left as it was (an untranslated "standup") or, failing that, left for the editor to write.
import type { Language } from '@parla/contract/constants';

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const bare = (word: string) => word.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
const same = (a: string, b: string) => bare(a).toLocaleLowerCase() === bare(b).toLocaleLowerCase();

/** The part of `machine` the correction replaced, and what replaced it (words, edges trimmed of punctuation). */
export function changedSpan(machine: string, corrected: string): { removed: string; added: string } {
  const before = words(machine);
  const after = words(corrected);
  let start = 0;
  while (start < before.length && start < after.length && same(before[start]!, after[start]!)) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && same(before[before.length - 1 - end]!, after[after.length - 1 - end]!)) end++;
  const join = (list: string[]) => bare(list.join(' '));
  return { removed: join(before.slice(start, before.length - end)), added: join(after.slice(start, after.length - end)) };
}

/**
 * A draft entry from a correction: the rendering in the reader's language is what the correction
 * put in; the term is those of the removed words that the original holds as they were (the
 * machine left them untranslated), else empty for the editor to fill in. A draft: the editor
 * trims it (an article that came along) before adding it.
 */
export function correctionDraft(input: { original: string; originalLanguage: Language; machine: string; corrected: string; readerLanguage: Language }) {
  const { removed, added } = changedSpan(input.machine, input.corrected);
  const inOriginal = new Set(words(input.original).map((word) => bare(word).toLocaleLowerCase()));
  // The removed words the machine left as the original wrote them ("del standup": "standup").
  const untranslated = words(removed).filter((word) => inOriginal.has(bare(word).toLocaleLowerCase()));
  return {
    term: untranslated.map(bare).join(' '),
    language: input.originalLanguage,
    renderings: added ? [{ language: input.readerLanguage, text: added }] : [],
  };
}
