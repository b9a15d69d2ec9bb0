// Language names for the 57 codes of the spec, for every picker: in the interface language from
// the browser's own CLDR data (Intl.DisplayNames), in itself from a table (NATIVE_NAMES).
import { LANGUAGES, type Language } from '@parla/contract/constants';
import { mapInSlices } from './yield';

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

/**
 * Every language named in itself, as a table rather than asked of the browser: asking
 * Intl.DisplayNames for a language's own name loads that language's tables of names (the current
 * one, named on every page's language button, cost a page's first render 15-25 ms on a phone;
 * the 57 of a list, a long task). The names are those Chromium's CLDR data gives, first letter
 * capitalised; where Debian's Chromium has no names written in a language (be, cy, gl, hy, is, mi,
 * mk, ne) its endonym: no one looks for their language under its English name.
 */
const NATIVE_NAMES: Readonly<Record<Language, string>> = {
  af: 'Afrikaans', ar: 'العربية', az: 'Azərbaycan', be: 'Беларуская', bg: 'Български',
  bs: 'Bosanski', ca: 'Català', cs: 'Čeština', cy: 'Cymraeg', da: 'Dansk', de: 'Deutsch',
  el: 'Ελληνικά', en: 'English', es: 'Español', et: 'Eesti', fa: 'فارسی', fi: 'Suomi',
  fr: 'Français', gl: 'Galego', he: 'עברית', hi: 'हिन्दी', hr: 'Hrvatski', hu: 'Magyar',
  hy: 'Հայերեն', id: 'Indonesia', is: 'Íslenska', it: 'Italiano', ja: '日本語', kk: 'Қазақ тілі',
  kn: 'ಕನ್ನಡ', ko: '한국어', lt: 'Lietuvių', lv: 'Latviešu', mi: 'Te reo Māori', mk: 'Македонски',
  mr: 'मराठी', ms: 'Melayu', ne: 'नेपाली', nl: 'Nederlands', no: 'Norsk', pl: 'Polski',
  pt: 'Português', ro: 'Română', ru: 'Русский', sk: 'Slovenčina', sl: 'Slovenščina',
  sr: 'Српски', sv: 'Svenska', sw: 'Kiswahili', ta: 'தமிழ்', th: 'ไทย', tl: 'Filipino',
  tr: 'Türkçe', uk: 'Українська', ur: 'اردو', vi: 'Tiếng Việt', zh: '中文',
};

/** A language named in itself ("Deutsch", "日本語", "العربية"), so anyone can find their own. */
export const nativeName = (code: string): string => NATIVE_NAMES[code as Language] ?? languageName(code, code);

/** Its own name, or (a code outside the table) its name in the interface language. */
const ownName = (code: string, name: string) => NATIVE_NAMES[code as Language] ?? name;

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
  return sortOptions(codes.map((code) => languageOption(code, uiLang)), uiLang, by);
}

function languageOption(code: Language, uiLang: string): LanguageOption {
  const name = languageName(code, uiLang);
  return { code, name, native: ownName(code, name) };
}

function sortOptions(options: LanguageOption[], uiLang: string, by: 'name' | 'native'): LanguageOption[] {
  const collator = new Intl.Collator(uiLang);
  return options.sort((a, b) => collator.compare(a[by], b[by]));
}

/**
 * languageOptions a few languages at a time, each few in a task of its own (the browser builds a
 * table of names for each language it is asked about: 57 of them made a long task of their own on
 * a phone). Undefined when `cancelled()` said so before the end.
 */
export async function languageOptionsInSlices(
  uiLang: string,
  cancelled: () => boolean,
  codes: readonly Language[] = LANGUAGES,
  by: 'name' | 'native' = 'name',
): Promise<LanguageOption[] | undefined> {
  const options = await mapInSlices(codes, (code) => languageOption(code, uiLang), cancelled);
  return options && sortOptions(options, uiLang, by);
}

/** "Japanese · 日本語" in an English interface, "Español" alone in a Spanish one: for <option>s. */
export function languageLabel(code: string, uiLang: string): string {
  const name = languageName(code, uiLang);
  return optionLabel({ name, native: ownName(code, name) });
}

/** languageLabel of an option already named. */
export const optionLabel = ({ name, native }: { name: string; native: string }) => (name === native ? name : `${name} · ${native}`);

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
