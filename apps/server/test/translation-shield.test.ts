// Code, links and mentions are kept out of translation (domain/rendering/translation/protect.ts).
import { describe, expect, it } from 'vitest';
import { fromApertiumHtml, toApertiumHtml } from '../src/domain/rendering/translation/apertium';
import { applyGlossary } from '../src/domain/rendering/translation/glossary';
import { nameProtections, shield } from '../src/domain/rendering/translation/protect';

describe('shield', () => {
  it('replaces atoms by numbered placeholders and puts them back', () => {
    const shielded = shield('Ask <@4> about `npm start` at https://example.com/x.');
    expect(shielded.text).toBe('Ask ⟦0⟧ about ⟦1⟧ at ⟦2⟧.');
    expect(shielded.restore('Pregunta a ⟦0⟧ sobre ⟦1⟧ en ⟦2⟧.')).toBe('Pregunta a <@4> sobre `npm start` en https://example.com/x.');
  });

  it('loses nothing: a dropped placeholder’s piece goes at the end, a repeated or invented one is removed', () => {
    const shielded = shield('Hi <@4> and <@5>');
    expect(shielded.restore('Hola ⟦1⟧ ⟦1⟧ ⟦7⟧')).toBe('Hola <@5> <@4>');
  });

  it('shields brackets the writer typed, so every bracket the provider sees is a placeholder', () => {
    const shielded = shield('Keep ⟦0⟧ as typed');
    expect(shielded.text).toBe('Keep ⟦0⟧0⟦1⟧ as typed');
    expect(shielded.restore(shielded.text)).toBe('Keep ⟦0⟧ as typed');
  });

  it('puts a required rendering in place of a word the writer capitalised with a capital where it starts a sentence, and only there', () => {
    const standup = { term: 'standup', as: (language: string) => (language === 'es' ? 'reunión diaria' : undefined) };
    const name = { term: 'Hope', exact: true };
    const shielded = shield('Standup at nine. Hope skips the Standup. standup later! STANDUP?', [standup, name]);
    expect(shielded.text).toBe('⟦0⟧ at nine. ⟦1⟧ skips the ⟦2⟧. ⟦3⟧ later! ⟦4⟧?');
    // Apertium's answer (a sentence-start placeholder, one inside a sentence, one after ¿).
    expect(shielded.restore('⟦0⟧ Es a las nueve. ⟦1⟧ se salta la ⟦2⟧. ¡⟦3⟧ luego! ¿⟦4⟧?', 'es')).toBe(
      'Reunión diaria es a las nueve. Hope se salta la reunión diaria. ¡reunión diaria luego! ¿Reunión diaria?',
    );
    // Moved inside a sentence: as the glossary writes it; no rendering for the language: as the writer did.
    expect(shield('Standup at nine.', [standup]).restore('A las nueve, ⟦0⟧.', 'es')).toBe('A las nueve, reunión diaria.');
    expect(shielded.restore('⟦0⟧ um neun. ⟦1⟧ ⟦2⟧ ⟦3⟧ ⟦4⟧', 'de')).toBe('Standup um neun. Hope Standup standup STANDUP');
  });

  it('gives the word after a sentence-start name back its lower case where the writer had it (not in German)', () => {
    const names = [{ term: 'Mark', exact: true }, { term: 'Faith', exact: true }];
    const shielded = shield('Mark approved it. Faith and Mark Twain wrote. Mark.', names);
    expect(shielded.text).toBe('⟦0⟧ approved it. ⟦1⟧ and ⟦2⟧ Twain wrote. ⟦3⟧.');
    // Apertium capitalises what follows a sentence-start placeholder.
    expect(shielded.restore('⟦0⟧ Aprobado él. ⟦1⟧ Y ⟦2⟧ Twain escribió. ⟦3⟧.', 'es')).toBe('Mark aprobado él. Faith y Mark Twain escribió. Mark.');
    expect(shielded.restore('⟦0⟧ Genehmigte es. ⟦1⟧ Und ⟦2⟧ Twain schrieben. ⟦3⟧.', 'de')).toBe('Mark Genehmigte es. Faith Und Mark Twain schrieben. Mark.');
  });

  it('travels through Apertium’s HTML as empty tags', () => {
    const html = toApertiumHtml('Ask ⟦0⟧ now');
    expect(html).toBe('<p>Ask <x0/> now</p>');
    expect(fromApertiumHtml('<p>Pregunta <x0/> ahora</p>')).toBe('Pregunta ⟦0⟧ ahora');
  });
});

// Issue 31 (1): a member named "not" turned "we will not pay" into "we will pay" for every reader.
describe('names protected where they are names', () => {
  const held = (text: string, names: string[]) => shield(text, nameProtections(names)).pieces;
  it('leaves a name that is an ordinary lower-case word alone wherever the text writes it so', () => {
    expect(held('I do not agree with the plan, we will not pay.', ['not'])).toEqual([]);
    expect(held('Not now. We will not pay.', ['not'])).toEqual([]);
    // All capitals reads as emphasis, not as a name.
    expect(held('I do NOT agree.', ['NOT'])).toEqual([]);
    // A single word of a script without capitals cannot be told from the word.
    expect(held('لا أوافق على الخطة', ['لا'])).toEqual([]);
  });
  it('protects a capitalised name as written, a lower-case one where the text capitalises it past a sentence’s start, and one no word can be', () => {
    expect(held('Dawn and Hope will join. I hope so.', ['Dawn', 'Hope'])).toEqual(['Dawn', 'Hope']);
    expect(held('I met Ana today. Ana said ana is fine.', ['ana'])).toEqual(['Ana']);
    expect(held('Ask ana_88 and DeShawn, or r2d2.', ['ana_88', 'DeShawn', 'r2d2'])).toEqual(['ana_88', 'DeShawn', 'r2d2']);
    expect(held('Ana García said so, and so did Ana.', ['Ana García', 'Ana'])).toEqual(['Ana García', 'Ana']);
  });
  it('keeps such a name out of the glossary’s cache key where it protects nothing', () => {
    const glossary = { names: ['not'], terms: [] };
    expect(applyGlossary('We will not pay.', 'en', glossary).key).toBe('');
    expect(applyGlossary('Ask Hope.', 'en', { names: ['Hope'], terms: [] }).key).not.toBe('');
  });
});

