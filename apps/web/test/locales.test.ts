// @vitest-environment node
// Every interface language file against English, per namespace: the same keys (plural keys in the
// language's own CLDR categories), every {{variable}} of English kept, and no value left in
// English where the language is not English (but for names and codes).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, TRANSLATION_NAMESPACES } from '@parla/contract/constants';

const root = new URL('../public/locales/', import.meta.url);
type Tree = { [key: string]: string | Tree };
const load = (lang: string, ns: string) => JSON.parse(readFileSync(new URL(`${lang}/${ns}.json`, root), 'utf8')) as Tree;
const flatten = (tree: Tree, prefix = ''): Map<string, string> => {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
};
const PLURAL = /_(zero|one|two|few|many|other)$/;
const variables = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();
/** Values that may stay as in English: names, codes, units, words shared across languages. */
const SAME_ALLOWED = /^(Parla|OK|E-?mail|Email|PNG|JPEG|WebP|GIF|WAV|Ogg|WebM|LiveKit|Apertium|URL|ID|\.txt|\.srt|SRT|TXT|Chat|Chats|Online|Offline|Status|Admin|Normal|Formal|Informal|Audio|Video|Mute|Zoom|Live|Start|Stop|Team|Avatar|\d+|[\W\d_]+|[\W\d_]*\{\{[\w.]+\}\}.*)$/i;

/**
 * Keys whose value is rightly the same as English in one language (a shared word, not a
 * forgotten translation); each language lists its own.
 */
const SAME_KEYS: Record<string, string[]> = {
  es: ['rooms.domains.DEFAULT', 'rooms.domains.MARKETING', 'rooms.segment.originalIn', 'chats.originalIn'],
  id: ['chats.edit'],
  tl: [
    'nav.home', 'nav.profile', 'profile.title', 'rooms.domains.MARKETING', 'rooms.domains.REAL_ESTATE',
    'rooms.participants.role', 'chats.members.role', 'rooms.transcript.title', 'form:password', 'privacy.title',
  ],
  cy: ['call.camera'],
  de: ['rooms.domains.MARKETING'],
  nl: ['rooms.domains.MARKETING', 'call.camera', 'zod:types.object', 'privacy.title'],
  da: ['rooms.settings.tone', 'chats.settings.tone', 'chats.send', 'profile.sessionTitle', 'invitations.badge'],
  sv: ['profile.sessionTitle', 'zod:types.string'],
  no: ['rooms.settings.tone', 'chats.settings.tone', 'chats.send'],
  lv: ['rooms.domains.SPORTS'],
  fr: ['rooms.domains.MARKETING', 'rooms.participants.title', 'chats.messages', 'zod:types.date', 'invitations.badge', 'profile.notificationsTitle'],
  it: ['nav.home', 'rooms.domains.MARKETING', 'form:password', 'privacy.title'],
  pt: ['rooms.domains.MARKETING'],
  ca: ['rooms.domains.DEFAULT', 'rooms.domains.ART', 'rooms.participants.title', 'zod:types.string'],
  ro: ['rooms.domains.DEFAULT', 'rooms.domains.MARKETING', 'zod:types.string'],
  hu: ['rooms.domains.MARKETING'],
  bs: ['rooms.domains.MARKETING', 'rooms.segment.originalIn', 'chats.originalIn'],
  hr: ['rooms.domains.MARKETING'],
  sl: ['rooms.domains.FINANCE'],
  cs: ['rooms.domains.FINANCE', 'rooms.domains.MARKETING', 'rooms.participants.role', 'chats.members.role'],
  sk: ['rooms.domains.MARKETING'],
  pl: ['rooms.domains.MARKETING'],
};

const languages = readdirSync(root).filter((name) => name !== 'en');

describe('interface language files', () => {
  it('exist only for the spec’s language codes', () => {
    for (const lang of languages) expect(LANGUAGES as readonly string[]).toContain(lang);
  });

  it('exist for every one of the spec’s language codes, in every namespace', () => {
    const missing = LANGUAGES.flatMap((lang) =>
      TRANSLATION_NAMESPACES.filter((ns) => !existsSync(new URL(`${lang}/${ns}.json`, root))).map((ns) => `${lang}/${ns}`),
    );
    expect(missing).toEqual([]);
  });

  for (const lang of languages) {
    describe(lang, () => {
      const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      for (const ns of TRANSLATION_NAMESPACES) {
        it(`${ns}: English's keys (plurals in ${categories.join('/')}), variables kept, translated`, () => {
          const english = flatten(load('en', ns));
          const theirs = flatten(load(lang, ns));
          const expected = new Set<string>();
          for (const key of english.keys()) {
            if (PLURAL.test(key)) for (const category of categories) expected.add(key.replace(PLURAL, `_${category}`));
            else expected.add(key);
          }
          const missing = [...expected].filter((key) => !theirs.has(key));
          const extra = [...theirs.keys()].filter((key) => !expected.has(key));
          expect({ missing, extra }).toEqual({ missing: [], extra: [] });
          const leftInEnglish: string[] = [];
          for (const [key, value] of theirs) {
            const source = english.get(key) ?? english.get(key.replace(PLURAL, '_other')) ?? '';
            expect(variables(value), `${lang}/${ns} ${key}`).toEqual(variables(source));
            if (value === source && !SAME_ALLOWED.test(value.trim()) && !SAME_KEYS[lang]?.includes(`${ns === 'translation' ? '' : `${ns}:`}${key}`)) {
              leftInEnglish.push(`${key}: ${value}`);
            }
          }
          expect(leftInEnglish, `${lang}/${ns} values left in English`).toEqual([]);
        });
      }
    });
  }
});
