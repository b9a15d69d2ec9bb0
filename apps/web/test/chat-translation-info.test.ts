import { describe, expect, it } from 'vitest';
import type { TranslationInfo } from '@parla/contract/status';
import { groupPairs, providerName, reaches, unreachablePairs } from '../src/lib/translation-info';

const apertium: TranslationInfo = { provider: 'apertium', supportsTone: false, reach: { en: ['es', 'ca'], es: ['en', 'ca'], ca: ['es'] } };

describe('what the translator reaches', () => {
  it('lists the pairs of chosen languages it cannot translate, in each direction', () => {
    expect(unreachablePairs(apertium, ['en', 'es'])).toEqual([]);
    expect(unreachablePairs(apertium, ['en', 'ja'])).toEqual([
      ['en', 'ja'],
      ['ja', 'en'],
    ]);
    expect(unreachablePairs(apertium, ['en', 'ca'])).toEqual([['ca', 'en']]);
    expect(reaches(apertium, 'ja', 'ja')).toBe(true);
  });

  it('an LLM reaches every language; no translator reaches none', () => {
    expect(unreachablePairs({ provider: 'openai', supportsTone: true, reach: null }, ['en', 'ja', 'mi'])).toEqual([]);
    const none: TranslationInfo = { provider: 'none', supportsTone: false, reach: {} };
    expect(unreachablePairs(none, ['en', 'es'])).toHaveLength(2);
    expect(providerName(none)).toBeUndefined();
    expect(providerName(apertium)).toBe('Apertium');
  });

  it('says each pair once: both directions together, one direction alone', () => {
    expect(groupPairs(unreachablePairs(apertium, ['en', 'ja', 'ca']))).toEqual([
      { a: 'en', b: 'ja', both: true },
      { a: 'ja', b: 'ca', both: true },
      { a: 'ca', b: 'en', both: false },
    ]);
  });
});
