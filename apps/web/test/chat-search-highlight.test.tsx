// The words a search matched, marked in a result's text: case-insensitively, overlapping words in
// one mark, only where a word stands on its own (but in scripts without spaces), as React nodes
// (a text that looks like HTML stays text); and the excerpt of a long text around the first match.
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { excerpt, highlight, matchRanges, matchesAny } from '../src/features/chats/highlight';

const html = (text: string, words: string[]) => render(<p>{highlight(text, words)}</p>).container.querySelector('p')!.innerHTML;

describe('highlight', () => {
  it('marks every occurrence, whatever its case', () => {
    expect(html('Meeting at ten. The MEETING moved; meeting!', ['meeting'])).toBe('<mark>Meeting</mark> at ten. The <mark>MEETING</mark> moved; <mark>meeting</mark>!');
    expect(html('¿La Reunión es mañana?', ['reunión', 'MAÑANA'])).toBe('¿La <mark>Reunión</mark> es <mark>mañana</mark>?');
  });

  it('leaves a text without a match as it is', () => {
    expect(highlight('nothing here', ['meeting'])).toEqual(['nothing here']);
    expect(highlight('', ['meeting'])).toEqual(['']);
    expect(highlight('blank words', ['', '  '])).toEqual(['blank words']);
  });

  it('never turns the text or the words into HTML', () => {
    const text = '<img src=x onerror="alert(1)"> meeting <b>bold</b>';
    const container = render(<p>{highlight(text, ['meeting', '<b>bold</b>'])}</p>).container;
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe(text);
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['meeting', '<b>bold</b>']);
  });

  it('takes the words literally (no pattern)', () => {
    expect(html('a.b and axb, (c) and c', ['a.b', '(c)'])).toBe('<mark>a.b</mark> and axb, <mark>(c)</mark> and c');
  });

  it('marks overlapping or touching words once', () => {
    expect(matchRanges('New York meeting', ['new york', 'york meeting'])).toEqual([[0, 16]]);
    expect(html('New York meeting', ['new york', 'york meeting'])).toBe('<mark>New York meeting</mark>');
    expect(html('ice-cream', ['ice', 'ice-cream', 'cream'])).toBe('<mark>ice-cream</mark>');
    // A word that overlaps itself (in a script without spaces, where it needs no gap).
    expect(html('はははと', ['はは'])).toBe('<mark>ははは</mark>と');
    expect(html('aaa aa', ['aa'])).toBe('aaa <mark>aa</mark>');
  });

  it('marks a word only where it stands on its own, but in scripts written without spaces', () => {
    expect(html('meet the meeting', ['meet'])).toBe('<mark>meet</mark> the meeting');
    expect(html('e-mail me', ['mail'])).toBe('e-<mark>mail</mark> me');
    expect(html('@Ana said', ['@Ana'])).toBe('<mark>@Ana</mark> said');
    expect(html('明日の会議は十時です', ['会議'])).toBe('明日の<mark>会議</mark>は十時です');
  });

  it('keeps letters outside the basic plane whole', () => {
    expect(html('𝒜𝒜 and 𝒜', ['𝒜'])).toBe('𝒜𝒜 and <mark>𝒜</mark>');
    expect(html('😀😀', ['😀'])).toBe('<mark>😀😀</mark>');
  });

  it('tells whether a text holds any of the words', () => {
    expect(matchesAny('The meeting moved', ['reunión', 'MEETING'])).toBe(true);
    expect(matchesAny('La reunión', ['meeting'])).toBe(false);
  });
});

describe('excerpt', () => {
  it('keeps a short text whole, its white space folded', () => {
    expect(excerpt('  one\n\ntwo   three ', ['two'])).toBe('one two three');
  });

  it('cuts a long text around the first match, at spaces, saying so', () => {
    const words = Array.from({ length: 100 }, (_, index) => `word${index}`);
    const text = words.join(' ');
    const cut = excerpt(text, ['word60'], 80);
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).toContain('word60');
    expect(cut.length).toBeLessThanOrEqual(82);
    // Whole words at both ends.
    expect(cut.slice(1, -1).split(' ').every((word) => words.includes(word))).toBe(true);
    expect(excerpt(text, ['word1'], 80).startsWith('word0 word1')).toBe(true);
    expect(excerpt(text, ['absent'], 80).startsWith('word0')).toBe(true);
  });
});
