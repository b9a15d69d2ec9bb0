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
  /** Protected only where this holds of the occurrence (its index in the whole text); everywhere without it. */
  where?: ((text: string, index: number) => boolean) | undefined;
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

/** The items by their term in lower case; where two share one, the one protected everywhere wins. */
function protectedByTerm(protect: readonly Protected[]): Map<string, Protected> {
  const byTerm = new Map<string, Protected>();
  for (const item of protect) {
    const key = item.term.trim().toLocaleLowerCase();
    const known = byTerm.get(key);
    if (!known || (known.where && !item.where)) byTerm.set(key, item);
  }
  return byTerm;
}

/** Whether an occurrence (`written`, at `index` of `text`) of an item's term is protected there. */
const holdsHere = (item: Protected, written: string, text: string, index: number) => (!item.exact || written === item.term.trim()) && (!item.where || item.where(text, index));

/** The items with an occurrence in `text` that is protected (atoms aside: a mention or a link holds its own), in one pass. */
export function heldIn(text: string, protect: readonly Protected[]): Protected[] {
  const pattern = termPattern(protect.map((item) => item.term));
  if (!pattern) return [];
  const byTerm = protectedByTerm(protect);
  const atoms = findAtoms(text);
  const held = new Set<Protected>();
  for (const match of text.matchAll(pattern)) {
    if (atoms.some((atom) => match.index < atom.end && match.index + match[0].length > atom.start)) continue;
    const item = byTerm.get(match[0].toLocaleLowerCase());
    if (item && holdsHere(item, match[0], text, match.index)) held.add(item);
  }
  return [...held];
}

/**
 * Where a person's name is a name (issue 31): a member chooses their own nickname, so protecting
 * it wherever the word appears let anyone named "not" strip every negation from the chat. A
 * name is protected as written (the placeholder the provider never translates):
 * - everywhere, when it cannot be an ordinary word: digits or other signs in it ("ana_88"), a
 *   capital inside it ("DeShawn"), or a capital first ("Hope", "Ana García": as names are
 *   written; a word so written starts a sentence at most, where a name often stands too);
 * - where the text capitalises a name written in lower case, past a sentence's start ("ana"
 *   in "I met Ana today");
 * - never when it is all capitals ("NOT" reads as emphasis) or a single word of a script
 *   without capitals (nothing tells the name from the word): a mention protects those.
 */
export function nameProtections(names: readonly string[]): Protected[] {
  const items: Protected[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name.length < 2) continue;
    const cased = /[\p{Lu}\p{Ll}]/u.test(name);
    const words = name.split(/\s+/u);
    if (/[^\p{L}\p{M}\s'’.-]/u.test(name)) items.push({ term: name, exact: true });
    else if (!cased) {
      if (words.length > 1) items.push({ term: name, exact: true });
    } else if (name === name.toLocaleUpperCase()) continue;
    else if (/^\p{Lu}/u.test(name) || words.some((word) => /.\p{Lu}/u.test(word))) items.push({ term: name, exact: true });
    else items.push({ term: name.replace(/^\p{Ll}/u, (first) => first.toLocaleUpperCase()), exact: true, where: (text, index) => !SENTENCE_START.test(text.slice(0, index)) });
  }
  return items;
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
  const byTerm = protectedByTerm(protect);
  const pattern = termPattern(protect.map((item) => item.term));
  const bracketsOnly = (plain: string) => plain.replace(/[⟦⟧]/g, (bracket) => hold(bracket));
  /** Plain text (at `offset` of the whole): the glossary's words and the typed brackets held, in the order they come. */
  const brackets = (plain: string, offset: number) => {
    if (!pattern) return bracketsOnly(plain);
    let result = '';
    let from = 0;
    for (const match of plain.matchAll(pattern)) {
      const item = byTerm.get(match[0].toLocaleLowerCase());
      if (!item || !holdsHere(item, match[0], text, offset + match.index)) continue;
      result += bracketsOnly(plain.slice(from, match.index)) + hold(match[0], item.as);
      from = match.index + match[0].length;
    }
    return result + bracketsOnly(plain.slice(from));
  };
  let out = '';
  let at = 0;
  for (const { start, end } of findAtoms(text)) {
    out += brackets(text.slice(at, start), at) + hold(text.slice(start, end));
    at = end;
  }
  out += brackets(text.slice(at), at);
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
