// Server-side messages (error details, e-mails, tone labels) in the spec's languages, chosen by
// Accept-Language. One JSON file per language in ./locales: `messages` (with `{name}`
// placeholders) and `tones`. English is the source and the fallback; a missing key of another
// language falls back to English (the locale check test keeps them complete).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language, type Tone } from '@parla/contract/constants';
import english from './locales/en.json' with { type: 'json' };
import { serverPaths } from './paths';

export type MessageKey = keyof typeof english.messages;
type Catalogue = { messages: Record<MessageKey, string>; tones: Record<Tone, string> };

const localesDir = serverPaths.locales;

function loadCatalogues(): Partial<Record<Language, Partial<Catalogue>>> {
  const found: Partial<Record<Language, Partial<Catalogue>>> = {};
  for (const file of readdirSync(localesDir)) {
    const lang = file.replace(/\.json$/, '');
    if (!file.endsWith('.json') || !(LANGUAGES as readonly string[]).includes(lang)) continue;
    found[lang as Language] = JSON.parse(readFileSync(path.join(localesDir, file), 'utf8')) as Partial<Catalogue>;
  }
  return found;
}

const catalogues = loadCatalogues();
const en = english as Catalogue;
export const SERVER_LANGUAGES = Object.keys(catalogues) as Language[];

type Params = Record<string, string | number>;

function interpolate(template: string, params: Params = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function translate(lang: Language, key: MessageKey, params?: Params): string {
  return interpolate(catalogues[lang]?.messages?.[key] ?? en.messages[key], params);
}

export function toneLabel(lang: Language, tone: Tone): string {
  return catalogues[lang]?.tones?.[tone] ?? en.tones[tone];
}

/** Picks the best language we have messages for from an Accept-Language header. */
export function negotiateLanguage(header: string | undefined): Language {
  if (!header) return FALLBACK_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { base: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.base && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { base } of ranked) {
    // Norwegian Bokmål and Nynorsk tags (nb, nn) read our `no`.
    const lang = base === 'nb' || base === 'nn' ? 'no' : base;
    if ((SERVER_LANGUAGES as string[]).includes(lang)) return lang as Language;
  }
  return FALLBACK_LANGUAGE;
}
