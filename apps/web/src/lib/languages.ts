// Language names for the 57 codes of the spec, from the browser's own CLDR data
// (Intl.DisplayNames): each in the interface language and in itself, for every picker.
import { LANGUAGES, type Language } from '@parla/contract/constants';

const cache = new Map<string, Intl.DisplayNames | null>();

function displayNames(uiLang: string): Intl.DisplayNames | null {
  if (!cache.has(uiLang)) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([uiLang], { type: 'language', fallback: 'code' });
    } catch {
      names = null;
    }
    cache.set(uiLang, names);
  }
  return cache.get(uiLang) ?? null;
}

/**
 * "Spanish" (in an English interface), "Español" (in a Spanish one); the code when unknown.
 * Some locales write language names in lower case ("español"): a label starts with a capital,
 * a name inside a sentence (`inSentence`) stays as the locale writes it.
 */
export function languageName(code: string, uiLang: string, options: { inSentence?: boolean } = {}): string {
  const name = displayNames(uiLang)?.of(code);
  if (!name || name === code) return code;
  return options.inSentence ? name : name.charAt(0).toLocaleUpperCase(uiLang) + name.slice(1);
}

let defaultLanguage: string | undefined;
/**
 * Whether the browser has language names written in `lang`. Without them Intl.DisplayNames falls
 * back to its default locale (Debian's Chromium has none in be, cy, gl, hy, is, mi, mk, ne).
 */
export function hasNamesIn(lang: string): boolean {
  defaultLanguage ??= new Intl.DisplayNames([], { type: 'language' }).resolvedOptions().locale.split('-')[0];
  const resolved = displayNames(lang)?.resolvedOptions().locale.split('-')[0];
  return resolved !== undefined && (resolved !== defaultLanguage || lang.split('-')[0] === resolved);
}

/**
 * The languages' own names where a browser has no names written in them (Debian's Chromium: be,
 * cy, gl, hy, is, mi, mk, ne; tl, which it names in Filipino): no one looks for their language
 * under its English name.
 */
const ENDONYMS: Readonly<Record<string, string>> = {
  be: 'Беларуская',
  cy: 'Cymraeg',
  gl: 'Galego',
  hy: 'Հայերեն',
  is: 'Íslenska',
  mi: 'Te reo Māori',
  mk: 'Македонски',
  ne: 'नेपाली',
  tl: 'Tagalog',
};

/** A language named in itself ("Deutsch", "日本語", "العربية"), so anyone can find their own. */
export const nativeName = (code: string): string => (hasNamesIn(code) ? languageName(code, code) : (ENDONYMS[code] ?? languageName(code, code)));

/** Its own name, or (neither the browser nor the table has one) its name in the interface language. */
const ownName = (code: string, name: string) => (hasNamesIn(code) || ENDONYMS[code] ? nativeName(code) : name);

export interface LanguageOption {
  code: Language;
  /** In the interface language. */
  name: string;
  /** In the language itself. */
  native: string;
}

/**
 * Every language with both names. Sorted by the name in the interface language, or by the native
 * name (`by: 'native'`, for choosing the interface language, where the reader may not read the
 * current one).
 */
export function languageOptions(uiLang: string, codes: readonly Language[] = LANGUAGES, by: 'name' | 'native' = 'name'): LanguageOption[] {
  const collator = new Intl.Collator(uiLang);
  return codes
    .map((code) => {
      const name = languageName(code, uiLang);
      return { code, name, native: ownName(code, name) };
    }).sort((a, b) => collator.compare(a[by], b[by]));
}

/** "Japanese · 日本語" in an English interface, "Español" alone in a Spanish one: for <option>s. */
export function languageLabel(code: string, uiLang: string): string {
  const name = languageName(code, uiLang);
  const native = ownName(code, name);
  return name === native ? name : `${name} · ${native}`;
}

/** Lower case without accents: "Español" → "espanol", "Français" → "francais"; other scripts unchanged. */
export const foldForSearch = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/**
 * Matches a search in either name (or the English one) or the code, ignoring case and accents:
 * "espanol", "Español", "spa" and "es" all find Spanish.
 */
export function matchesLanguage(option: { code: string; name: string; native?: string }, search: string): boolean {
  const wanted = foldForSearch(search.trim());
  if (!wanted) return true;
  if (option.code.startsWith(wanted)) return true;
  const names = [option.name, option.native ?? '', languageName(option.code, 'en')];
  return names.some((name) => foldForSearch(name).includes(wanted));
}
