// What translation must not touch (issue "chat basics"): code, links and mentions (markup.ts) are
// taken out of the text before any provider sees it and put back into every rendering. The
// provider sees a placeholder ⟦n⟧ in their place (Apertium: an empty tag, which it carries
// through as formatting; a model: told to keep them). A placeholder the provider dropped is
// not lost: its piece is added at the end of the rendering.
import { findAtoms } from '@parla/contract/markup';

export const PLACEHOLDER = /⟦(\d+)⟧/g;

export interface Shielded {
  /** The text with ⟦n⟧ in place of each protected piece. */
  text: string;
  /** The protected pieces, by n. */
  pieces: string[];
  /** A rendering of `text` with its pieces put back. */
  restore(rendering: string): string;
}

/**
 * Shields a text's atoms. The brackets ⟦ ⟧ a writer typed are pieces too, so every bracket the
 * provider sees is a placeholder's.
 */
export function shield(text: string): Shielded {
  const pieces: string[] = [];
  const hold = (piece: string) => `⟦${pieces.push(piece) - 1}⟧`;
  const brackets = (plain: string) => plain.replace(/[⟦⟧]/g, hold);
  let out = '';
  let at = 0;
  for (const { start, end } of findAtoms(text)) {
    out += brackets(text.slice(at, start)) + hold(text.slice(start, end));
    at = end;
  }
  out += brackets(text.slice(at));
  return {
    text: out,
    pieces,
    restore(rendering) {
      if (pieces.length === 0) return rendering;
      const used = new Set<number>();
      const restored = rendering.replace(PLACEHOLDER, (whole, n: string) => {
        const index = Number(n);
        const piece = pieces[index];
        if (piece === undefined || used.has(index)) return '';
        used.add(index);
        return piece;
      });
      const lost = pieces.filter((piece, index) => !used.has(index) && piece !== '⟦' && piece !== '⟧');
      return lost.length ? `${restored.trimEnd()} ${lost.join(' ')}` : restored;
    },
  };
}
