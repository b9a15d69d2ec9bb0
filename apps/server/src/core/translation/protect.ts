// What translation must not touch (issue "chat basics"): code, links and mentions (markup.ts) are
// taken out of the text before any provider sees it and put back into every rendering. The
// provider sees a placeholder ⟦n⟧ in their place (Apertium: an empty tag, which it carries
// through as formatting; a model: told to keep them). A placeholder the provider dropped is
// not lost: its piece is added at the end of the rendering.
// A glossary's protected words (issue 19: members' names, terms kept as they are, terms with a
// required rendering in the target's language) are placeholders too, found as whole words
// whatever their case; each is put back as the rendering the target's language requires, or as
// written.
import { findAtoms } from '@parla/contract/markup';

export const PLACEHOLDER = /⟦(\d+)⟧/g;

export interface Shielded {
  /** The text with ⟦n⟧ in place of each protected piece. */
  text: string;
  /** The protected pieces, by n (as written in the text). */
  pieces: string[];
  /** A rendering of `text` in `language` with its pieces put back (a glossary's as that language requires). */
  restore(rendering: string, language?: string): string;
}

/** A word or phrase a glossary protects: found whole, any case; `as` gives what stands for it in a language (undefined: as written). */
export interface Protected {
  term: string;
  /** Found only as written (a name: "Hope", not the word "hope"); else in any case. */
  exact?: boolean;
  as?: ((language: string) => string | undefined) | undefined;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A rendering's text before a placeholder that starts a sentence: nothing, or a line break or . ! ? …, then spaces and opening marks. */
const SENTENCE_START = /(?:^|[.!?…\n])[\s¿¡"'«“‘([]*$/u;
/** Written with a capital first (a sentence's start in the original, most often). */
const CAPITALISED = /^\p{Lu}/u;

/** A pattern finding any of `terms` as whole words (longest first), or null for none. */
export function termPattern(terms: readonly string[]): RegExp | null {
  const usable = [...new Set(terms.map((term) => term.trim()).filter((term) => term.length >= 2))].sort((a, b) => b.length - a.length);
  if (usable.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${usable.map(escape).join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}

/**
 * Shields a text's atoms. The brackets ⟦ ⟧ a writer typed are pieces too, so every bracket the
 * provider sees is a placeholder's.
 */
export function shield(text: string, protect: readonly Protected[] = []): Shielded {
  const pieces: string[] = [];
  const renderAs: (Protected['as'] | undefined)[] = [];
  const hold = (piece: string, as?: Protected['as']) => {
    renderAs.push(as);
    return `⟦${pieces.push(piece) - 1}⟧`;
  };
  const byTerm = new Map(protect.map((item) => [item.term.trim().toLocaleLowerCase(), item]));
  const pattern = termPattern(protect.map((item) => item.term));
  const bracketsOnly = (plain: string) => plain.replace(/[⟦⟧]/g, (bracket) => hold(bracket));
  /** Plain text: the glossary's words and the typed brackets held, in the order they come. */
  const brackets = (plain: string) => {
    if (!pattern) return bracketsOnly(plain);
    let result = '';
    let from = 0;
    for (const match of plain.matchAll(pattern)) {
      const item = byTerm.get(match[0].toLocaleLowerCase());
      if (!item || (item.exact && match[0] !== item.term.trim())) continue;
      result += bracketsOnly(plain.slice(from, match.index)) + hold(match[0], item.as);
      from = match.index + match[0].length;
    }
    return result + bracketsOnly(plain.slice(from));
  };
  let out = '';
  let at = 0;
  for (const { start, end } of findAtoms(text)) {
    out += brackets(text.slice(at, start)) + hold(text.slice(start, end));
    at = end;
  }
  out += brackets(text.slice(at));
  /** Placeholders the writer followed by a word in lower case ("Mark approved"). */
  const beforeLower = new Set([...out.matchAll(/⟦(\d+)⟧\s+\p{Ll}/gu)].map((match) => match[1]!));
  return {
    text: out,
    pieces,
    restore(given, language) {
      if (pieces.length === 0) return given;
      // An engine takes a placeholder at a sentence's start for no word and capitalises the next
      // one ("Mark Aprobó"): in lower case again where the writer wrote it so (not in German,
      // whose nouns keep their capital).
      const rendering =
        language === 'de'
          ? given
          : given.replace(/⟦(\d+)⟧(\s+)(\p{Lu})(?!\p{Lu})/gu, (whole, n: string, space: string, first: string, offset: number) =>
              beforeLower.has(n) && SENTENCE_START.test(given.slice(0, offset)) ? `⟦${n}⟧${space}${first.toLocaleLowerCase()}` : whole,
            );
      const used = new Set<number>();
      const shown = (index: number) => (language === undefined ? undefined : renderAs[index]?.(language)) ?? pieces[index]!;
      const restored = rendering.replace(PLACEHOLDER, (whole, n: string, offset: number) => {
        const index = Number(n);
        if (pieces[index] === undefined || used.has(index)) return '';
        used.add(index);
        const text = shown(index);
        // A rendering put in place of a word the writer capitalised ("Standup is at nine") starts
        // with a capital where it starts a sentence of the translation (not where it moved inside one).
        if (text !== pieces[index] && CAPITALISED.test(pieces[index]!) && SENTENCE_START.test(rendering.slice(0, offset))) {
          return text.replace(/^\p{Ll}/u, (first) => first.toLocaleUpperCase());
        }
        return text;
      });
      const lost = pieces.map((_, index) => index).filter((index) => !used.has(index) && pieces[index] !== '⟦' && pieces[index] !== '⟧').map(shown);
      return lost.length ? `${restored.trimEnd()} ${lost.join(' ')}` : restored;
    },
  };
}
