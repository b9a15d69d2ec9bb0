// The words a search matched, marked in a text (search results): pure functions, tested on their
// own. The text is split into strings and <mark> elements, never turned into HTML.
import type { ReactNode } from 'react';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Ends, or starts, with a letter, mark or digit (what words are made of). */
const ENDS_WORD = /[\p{L}\p{M}\p{N}]$/u;
const STARTS_WORD = /^[\p{L}\p{M}\p{N}]/u;
/** Scripts written without spaces between words: a word of theirs may stand anywhere in a run of letters. */
const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

export type Range = readonly [start: number, end: number];

/**
 * Where `words` occur in `text`, case-insensitively: sorted ranges, those that overlap or touch
 * merged into one. A word counts only where it stands on its own ("meet" is not marked inside
 * "meeting", which the server would have named itself), unless it is written in a script without
 * spaces.
 */
export function matchRanges(text: string, words: readonly string[]): Range[] {
  const found: Range[] = [];
  for (const raw of words) {
    const word = raw.trim();
    if (!word) continue;
    const bounded = !SPACELESS.test(word);
    const edgeStart = STARTS_WORD.test(word);
    const edgeEnd = ENDS_WORD.test(word);
    const pattern = new RegExp(escape(word), 'giu');
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const start = match.index;
      const end = start + match[0].length;
      // The next search starts one character on: occurrences of the same word may overlap ("aa" in "aaa").
      pattern.lastIndex = start + (text.codePointAt(start)! > 0xffff ? 2 : 1);
      if (bounded && ((edgeStart && ENDS_WORD.test(text.slice(Math.max(0, start - 2), start))) || (edgeEnd && STARTS_WORD.test(text.slice(end, end + 2))))) continue;
      found.push([start, end]);
    }
  }
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const [start, end] of found) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Whether any of `words` occurs in `text` (as matchRanges finds them). */
export const matchesAny = (text: string, words: readonly string[]) => matchRanges(text, words).length > 0;

/** The text as React nodes: the occurrences of `words` in <mark>, the rest as plain strings. */
export function highlight(text: string, words: readonly string[]): ReactNode[] {
  const nodes: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of matchRanges(text, words)) {
    if (start > at) nodes.push(text.slice(at, start));
    nodes.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length || nodes.length === 0) nodes.push(text.slice(at));
  return nodes;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The part of a long text to show in a result: its white space folded to single spaces and, when
 * longer than `max`, a window around the first matched word (cut at spaces where it can be),
 * with "…" where something was left out.
 */
export function excerpt(text: string, words: readonly string[], max = 200): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  if (flat.length <= max) return flat;
  const first = matchRanges(flat, words)[0];
  let start = first ? Math.max(0, Math.min(first[0] - Math.floor(max / 4), flat.length - max)) : 0;
  if (start > 0 && first) {
    // Start at a word: after the first space between here and the match.
    const space = flat.indexOf(' ', start);
    if (space !== -1 && space < first[0]) start = space + 1;
  }
  let end = Math.min(flat.length, start + max);
  if (end < flat.length) {
    // End after a whole word, if one ends between the match and here.
    const space = flat.lastIndexOf(' ', end);
    if (space > (first ? first[1] : start)) end = space;
  }
  if (start > 0 && isLowSurrogate(flat.charCodeAt(start))) start += 1;
  if (end < flat.length && isHighSurrogate(flat.charCodeAt(end - 1))) end -= 1;
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}
