// Code, links and mentions are kept out of translation (core/translation/protect.ts).
import { describe, expect, it } from 'vitest';
import { fromApertiumHtml, toApertiumHtml } from '../src/core/translation/apertium';
import { shield } from '../src/core/translation/protect';

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

  it('travels through Apertium’s HTML as empty tags', () => {
    const html = toApertiumHtml('Ask ⟦0⟧ now');
    expect(html).toBe('<p>Ask <x0/> now</p>');
    expect(fromApertiumHtml('<p>Pregunta <x0/> ahora</p>')).toBe('Pregunta ⟦0⟧ ahora');
  });
});
