// The server's message catalogues (apps/server/src/platform/locales/*.json) against English: the same
// keys, every {placeholder} kept, nothing left in English where the language is not English.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@parla/contract/constants';

const dir = new URL('../src/platform/locales/', import.meta.url);
type Catalogue = { messages: Record<string, string>; tones: Record<string, string> };
const load = (lang: string) => JSON.parse(readFileSync(new URL(`${lang}.json`, dir), 'utf8')) as Catalogue;
const english = load('en');
const files = readdirSync(dir).filter((file) => file.endsWith('.json')).map((file) => file.replace(/\.json$/, ''));
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
/** Words that are the same in many languages (names, codes, a few international words). */
const SAME_EVERYWHERE = new Set(['Formal', 'Informal', 'Parla', 'CSRF', 'OK', 'Normal', 'Casual', 'Analytical', 'Intim', 'Serios', 'Humoristic', 'Persuasive', 'Academic', 'Descriptive', 'Informative', 'Inspirational', 'Default',
  // The same words in Afrikaans, Dutch, German and Italian.
  '{sender} in {chat}', 'In {language}: {text}']);

describe('server message catalogues', () => {
  it('are named by the spec’s language codes', () => {
    for (const lang of files) expect(LANGUAGES as readonly string[]).toContain(lang);
  });

  it.each(files.filter((lang) => lang !== 'en'))('%s has exactly English’s keys, placeholders, and its own words', (lang) => {
    const catalogue = load(lang);
    expect(Object.keys(catalogue.messages).sort()).toEqual(Object.keys(english.messages).sort());
    expect(Object.keys(catalogue.tones).sort()).toEqual(Object.keys(english.tones).sort());
    for (const [key, text] of Object.entries(english.messages)) {
      const theirs = catalogue.messages[key]!;
      expect(placeholders(theirs), `${lang} ${key}`).toEqual(placeholders(text));
      expect(theirs.trim(), `${lang} ${key} is empty`).not.toBe('');
      if (theirs === text) expect(SAME_EVERYWHERE.has(text), `${lang} ${key} is left in English: ${text}`).toBe(true);
    }
    const untranslatedTones = Object.entries(english.tones).filter(([tone, label]) => catalogue.tones[tone] === label && !SAME_EVERYWHERE.has(label));
    expect(untranslatedTones, `${lang} tones left in English`).toEqual([]);
  });
});
