import { describe, expect, it } from 'vitest';
import { findAtoms, mentionedIds, parseMarkup, plainText, safeHref } from './markup';

describe('parseMarkup', () => {
  it('reads code blocks, inline code, mentions, links and emphasis; nothing inside code is markup', () => {
    expect(parseMarkup('Hi <@12>, *see* _this_: `a *b*` and\n```\nx = <@3>\n```')).toEqual([
      { type: 'text', text: 'Hi ' },
      { type: 'mention', memberId: 12 },
      { type: 'text', text: ', ' },
      { type: 'bold', text: 'see' },
      { type: 'text', text: ' ' },
      { type: 'italic', text: 'this' },
      { type: 'text', text: ': ' },
      { type: 'code', text: 'a *b*' },
      { type: 'text', text: ' and\n' },
      { type: 'codeBlock', text: 'x = <@3>' },
    ]);
  });

  it('keeps a sentence’s punctuation out of a link, and a balanced bracket in', () => {
    expect(parseMarkup('Go to https://example.com/a_(b). Now!')).toEqual([
      { type: 'text', text: 'Go to ' },
      { type: 'link', href: 'https://example.com/a_(b)', text: 'https://example.com/a_(b)' },
      { type: 'text', text: '. Now!' },
    ]);
    expect(parseMarkup('(see https://example.com/x)')[1]).toEqual({ type: 'link', href: 'https://example.com/x', text: 'https://example.com/x' });
  });

  it('links only http, https and mailto', () => {
    for (const text of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<b>', 'vbscript:x', 'file:///etc/passwd', 'ftp://example.com']) {
      expect(parseMarkup(text).some((node) => node.type === 'link'), text).toBe(false);
    }
    expect(safeHref('mailto:ana@example.com')).toBe('mailto:ana@example.com');
    expect(safeHref('mailto:nobody')).toBeNull();
    expect(safeHref('https://')).toBeNull();
  });

  it('takes no emphasis from words: snake_case, 2*3*4, a lone star', () => {
    for (const text of ['snake_case_name', '2*3*4', 'a * b', '* not bold*']) {
      expect(parseMarkup(text), text).toEqual([{ type: 'text', text }]);
    }
  });
});

describe('mentions', () => {
  it('lists each member once, ignores mentions in code and ids past int4', () => {
    expect(mentionedIds('<@2> <@3> <@2> `<@4>` <@99999999999>')).toEqual([2, 3]);
    expect(findAtoms('<@0>')).toEqual([]);
  });

  it('reads as plain words with names', () => {
    expect(plainText('Hi <@2>, run `npm start` *now*', (id) => (id === 2 ? 'Ben' : '?'))).toBe('Hi @Ben, run npm start now');
  });
});
