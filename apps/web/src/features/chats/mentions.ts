// Mentions as the reader writes them: `@NickName` in the composer and the message editor, stored
// as `<@memberId>` (packages/contract/src/markup.ts). Pure functions, tested on their own.
import type { MemberRef } from '@parla/contract/chat';
import { findAtoms, mentionToken, mentionedIds, plainText } from '@parla/contract/markup';

/** What may follow `@` while a mention is being typed: letters, digits and a few joiners (no spaces). */
const QUERY_CHAR = /[\p{L}\p{M}\p{N}_.'-]/u;
/** What may stand right before `@` for it to start a mention (not an e-mail address's `@`). */
const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const MAX_QUERY = 32;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every remembered `@NickName` of `text` as `<@id>`: longest names first (so `@Ana María` is not
 * taken for `@Ana`), only where the name stands on its own (not `bob@Ana`, not `@Anabel`), and
 * never inside code or a link.
 */
export function encodeMentions(text: string, names: readonly MemberRef[]): string {
  const byName = new Map<string, number>();
  for (const { id, nickName } of names) if (nickName) byName.set(nickName, id);
  if (byName.size === 0) return text;
  const alternatives = [...byName.keys()].sort((a, b) => b.length - a.length).map(escape);
  const pattern = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])@(${alternatives.join('|')})(?![\\p{L}\\p{M}\\p{N}_])`, 'gu');
  const replace = (part: string) => part.replace(pattern, (whole, name: string) => {
    const id = byName.get(name);
    return id === undefined ? whole : mentionToken(id);
  });
  // Code, links and mentions already stored are written as they are: only the text between them changes.
  let out = '';
  let at = 0;
  for (const { start, end } of findAtoms(text)) {
    out += replace(text.slice(at, start)) + text.slice(start, end);
    at = end;
  }
  return out + replace(text.slice(at));
}

/**
 * A stored text as its writer edits it: each `<@id>` as `@NickName` (the names `mentions` gives),
 * a mention of someone no longer in the chat as plain `@formerName` (it cannot be stored again).
 */
export function decodeMentions(content: string, mentions: readonly MemberRef[], formerName: string): string {
  let out = '';
  let at = 0;
  for (const { start, end, atom } of findAtoms(content)) {
    if (atom.type !== 'mention') continue;
    const name = mentions.find((member) => member.id === atom.memberId)?.nickName ?? formerName;
    out += `${content.slice(at, start)}@${name}`;
    at = end;
  }
  return out + content.slice(at);
}

/** The mention being typed at the caret: where its `@` is and the letters typed after it. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  let at = caret;
  while (at > 0 && caret - at <= MAX_QUERY && QUERY_CHAR.test(text[at - 1]!)) at -= 1;
  const start = at - 1;
  if (start < 0 || text[start] !== '@' || caret - at > MAX_QUERY) return null;
  const before = text[start - 1];
  if (before !== undefined && (WORD_CHAR.test(before) || before === '@' || before === '`' || before === '<')) return null;
  const query = text.slice(at, caret);
  // Letters after the `@` (a lone `@` or `@2` is not a mention being typed).
  if (!/^[\p{L}\p{M}]/u.test(query)) return null;
  return { start, query };
}

/** The text with the typed `@que` (from `start` to the caret) replaced by `@NickName `, and the caret after it. */
export function insertMention(text: string, start: number, caret: number, nickName: string): { text: string; caret: number } {
  const inserted = `@${nickName} `;
  const rest = text.slice(caret);
  // A space already follows: use it instead of adding another.
  const tail = rest.startsWith(' ') ? rest.slice(1) : rest;
  return { text: text.slice(0, start) + inserted + tail, caret: start + inserted.length };
}

/** The names picked while writing that the text still holds (what encodeMentions needs). */
export function namesInText(text: string, picked: readonly MemberRef[]): MemberRef[] {
  return picked.filter((member) => text.includes(`@${member.nickName}`));
}

/** A text's plain words with mentions by name (previews, quotes, announcements). */
export function plainWithNames(text: string, mentions: readonly MemberRef[], formerName: string): string {
  return plainText(text, (id) => mentions.find((member) => member.id === id)?.nickName ?? formerName);
}

/** Whether a text (a message's own, not its quote) mentions this member. */
export const mentionsMember = (text: string, memberId: number | undefined) => memberId !== undefined && mentionedIds(text).includes(memberId);
