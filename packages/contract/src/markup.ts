// The light markup of a message (product.md "Chats and messages", issue "chat basics"), read once
// for both apps: the web client renders it (never as HTML), the server keeps its code, links and
// mentions out of translation. Plain functions, no schemas: the chat route's chunk imports it.
//
//   ```a code block```   `inline code`   *bold*   _italic_   https://… http://… mailto:…
//   <@42>  a mention: member 42 of the chat, shown by their current nickname
//
// Code, links and mentions are atoms: nothing inside them is markup, and translation passes them
// through unchanged. Bold and italic wrap plain text on one line.

export type InlineNode =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'codeBlock'; text: string }
  | { type: 'mention'; memberId: number }
  | { type: 'link'; href: string; text: string }
  | { type: 'bold'; text: string }
  | { type: 'italic'; text: string };

/** An atom of the markup: the text it covers and what it is. */
export type Atom = Exclude<InlineNode, { type: 'text' } | { type: 'bold' } | { type: 'italic' }>;

/** How a mention is written in a message's content. */
export const mentionToken = (memberId: number) => `<@${memberId}>`;

// One pass finds every atom, leftmost first: a code block, inline code, a mention, a link.
const ATOMS = /```([\s\S]*?)```|`([^`\n]+)`|<@([1-9][0-9]{0,9})>|\b((?:https?:\/\/|mailto:)[^\s<>"`]+)/g;
/** Trailing punctuation is the sentence's, not the link's (a closing bracket only when unbalanced). */
function trimLink(url: string): string {
  let end = url.length;
  for (;;) {
    const last = url[end - 1];
    if (last === undefined) break;
    if ('.,;:!?\'"'.includes(last)) end -= 1;
    else if (last === ')' && count(url.slice(0, end), '(') < count(url.slice(0, end), ')')) end -= 1;
    else break;
  }
  return url.slice(0, end);
}
const count = (text: string, char: string) => text.split(char).length - 1;

/** Whether a link may be followed: http(s) with a host, or mailto with an address. Nothing else (never `javascript:`). */
export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname) return parsed.href;
    if (parsed.protocol === 'mailto:' && /^[^@\s]+@[^@\s]+$/.test(decodeURIComponent(parsed.pathname))) return parsed.href;
  } catch {
    // not a URL
  }
  return null;
}

/** The atoms of a text with where they are. */
export function findAtoms(text: string): { start: number; end: number; atom: Atom }[] {
  const found: { start: number; end: number; atom: Atom }[] = [];
  for (const match of text.matchAll(ATOMS)) {
    const start = match.index;
    const [whole, block, code, mention, link] = match;
    if (block !== undefined) found.push({ start, end: start + whole.length, atom: { type: 'codeBlock', text: block.replace(/^\n/, '').replace(/\n$/, '') } });
    else if (code !== undefined) found.push({ start, end: start + whole.length, atom: { type: 'code', text: code } });
    else if (mention !== undefined) {
      const memberId = Number(mention);
      if (memberId <= 2_147_483_647) found.push({ start, end: start + whole.length, atom: { type: 'mention', memberId } });
    } else if (link !== undefined) {
      const url = trimLink(link);
      const href = safeHref(url);
      if (href) found.push({ start, end: start + url.length, atom: { type: 'link', href, text: url } });
    }
  }
  return found;
}

// *bold* and _italic_: the marks hug the words (no space inside them) and stand apart from other
// words (not in the middle of snake_case or 2*3*4).
const EMPHASIS = /(?<![\p{L}\p{N}_*])(\*(?=\S)([^*\n]*?\S)\*|_(?=\S)([^_\n]*?\S)_)(?![\p{L}\p{N}_*])/gu;

function emphasis(text: string, into: InlineNode[]) {
  let at = 0;
  for (const match of text.matchAll(EMPHASIS)) {
    if (match.index > at) into.push({ type: 'text', text: text.slice(at, match.index) });
    const [whole, , bold, italic] = match;
    into.push(bold !== undefined ? { type: 'bold', text: bold } : { type: 'italic', text: italic! });
    at = match.index + whole.length;
  }
  if (at < text.length) into.push({ type: 'text', text: text.slice(at) });
}

/** A message's content as nodes to render. */
export function parseMarkup(text: string): InlineNode[] {
  const nodes: InlineNode[] = [];
  let at = 0;
  for (const { start, end, atom } of findAtoms(text)) {
    if (start > at) emphasis(text.slice(at, start), nodes);
    nodes.push(atom);
    at = end;
  }
  if (at < text.length) emphasis(text.slice(at), nodes);
  return nodes;
}

/** The members a text mentions, each once, in order. */
export function mentionedIds(text: string): number[] {
  // Most messages mention nobody: no scan for them.
  if (!text.includes('<@')) return [];
  const ids: number[] = [];
  for (const { atom } of findAtoms(text)) if (atom.type === 'mention' && !ids.includes(atom.memberId)) ids.push(atom.memberId);
  return ids;
}

/**
 * The text with its markup read as plain words (a preview, a notification, a screen reader's
 * announcement): mentions by name, code and links as written, the emphasis marks dropped.
 */
export function plainText(text: string, nameOf: (memberId: number) => string): string {
  return parseMarkup(text)
    .map((node) => (node.type === 'mention' ? `@${nameOf(node.memberId)}` : node.text))
    .join('');
}
