// The reader group (domain/rendering/reader-group.ts): one key, one equality and one "needs a
// rendering?" rule for chats, rooms and the translator.
import { describe, expect, it } from 'vitest';
import {
  distinctGroups,
  groupKey,
  groupNeed,
  groupsToRender,
  listenerGroup,
  needsVoice,
  readerGroup,
  sameText,
  sameVoice,
  textKey,
  type TargetProvider,
} from '../src/domain/rendering/reader-group';

/** A provider's abilities as the rule reads them: English↔Spanish only, with or without tones. */
const abilities = (supportsTone: boolean): TargetProvider => ({
  supportsTone,
  canTranslate: (source, target) => (source === 'en' && target === 'es') || (source === 'es' && target === 'en'),
});

describe('reader groups', () => {
  it('keys a reader group by language and tone, a listener group by its voice too', () => {
    expect(groupKey({ language: 'es', tone: 'FORMAL' })).toBe('es:FORMAL');
    expect(groupKey({ language: 'es', tone: 'FORMAL', male: true })).toBe('es:FORMAL:m');
    expect(groupKey({ language: 'es', tone: 'FORMAL', male: false })).toBe('es:FORMAL:f');
    // Listeners of either voice read the same text.
    expect(textKey({ language: 'es', tone: 'FORMAL', male: true } as never)).toBe(textKey({ language: 'es', tone: 'FORMAL' }));
  });

  it('compares texts and voices, and takes the group out of a larger row', () => {
    const row = { language: 'fr', tone: 'CASUAL', male: true, state: 'done', content: 'salut' };
    expect(sameText(row, { language: 'fr', tone: 'CASUAL' })).toBe(true);
    expect(sameText(row, { language: 'fr', tone: 'FORMAL' })).toBe(false);
    expect(sameVoice(row, { language: 'fr', tone: 'CASUAL', male: false })).toBe(false);
    expect(sameVoice(row, { language: 'fr', tone: 'CASUAL', male: true })).toBe(true);
    expect(readerGroup(row)).toEqual({ language: 'fr', tone: 'CASUAL' });
    // The participant's row calls the voice `maleVoice`; the group calls it `male`.
    expect(listenerGroup({ language: 'fr', tone: 'CASUAL', maleVoice: false, alias: 'Ana' } as never)).toEqual({ language: 'fr', tone: 'CASUAL', male: false });
  });

  it('keeps each group once, the first of equal ones, by its own key or the one given', () => {
    const a = { language: 'es', tone: 'DEFAULT', male: true };
    const b = { language: 'es', tone: 'DEFAULT', male: false };
    const c = { language: 'es', tone: 'DEFAULT', male: true };
    expect(distinctGroups([a, b, c])).toEqual([a, b]);
    expect(distinctGroups([a, b, c])[0]).toBe(a);
    expect(distinctGroups([a, b, c], textKey)).toEqual([a]);
  });

  it('says what a group needs of a text: the original, a rendering, or one that cannot be made', () => {
    const withoutTones = abilities(false);
    const withTones = abilities(true);
    expect(groupNeed(withoutTones, 'en', { language: 'en', tone: 'DEFAULT' })).toBe('original');
    // A tone of one's own language is a rendering only for a provider that writes tones.
    expect(groupNeed(withoutTones, 'en', { language: 'en', tone: 'FORMAL' })).toBe('original');
    expect(groupNeed(withTones, 'en', { language: 'en', tone: 'FORMAL' })).toBe('rendering');
    expect(groupNeed(withoutTones, 'en', { language: 'es', tone: 'DEFAULT' })).toBe('rendering');
    expect(groupNeed(withoutTones, 'en', { language: 'de', tone: 'DEFAULT' })).toBe('unreachable');
  });

  it('asks for each text once, only those the provider can make; voices only for another language', () => {
    const groups = [
      { language: 'es', tone: 'DEFAULT', male: true },
      { language: 'es', tone: 'DEFAULT', male: false },
      { language: 'en', tone: 'DEFAULT', male: true },
      { language: 'de', tone: 'DEFAULT', male: true },
    ];
    expect(groupsToRender(abilities(false), 'en', groups)).toEqual([groups[0]]);
    expect(groups.filter((group) => needsVoice('en', group))).toEqual([groups[0], groups[1], groups[3]]);
  });
});
