// Interface translations: three namespaces per language from /locales/{lng}/{ns}.json, cached in
// localStorage for an hour (not in development) under the build id of the locale files
// (__LOCALES_BUILD__, a hash set by vite.config.ts), retried as the spec says (section 4).
import i18next, { type FormatterModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { COOKIES, FALLBACK_LANGUAGE, LANGUAGES, RTL_LANGUAGES, TRANSLATION_NAMESPACES, type Language } from '@parla/contract/constants';
import { useLangStore } from './stores';
import { CachedHttpBackend, type CachedHttpOptions } from './translation-backend';

export const i18n = i18next.createInstance();

/** The interface speaks every language of the spec; a key a language lacks is said in English. */
export const INTERFACE_LANGUAGES: readonly Language[] = LANGUAGES;

/** Browser tags that name one of our languages by another code (old or more precise ones). */
const TAG_ALIASES: Record<string, Language> = { nb: 'no', nn: 'no', iw: 'he', in: 'id', fil: 'tl', zsm: 'ms' };

const isInterfaceLanguage = (code: string): code is Language => (INTERFACE_LANGUAGES as readonly string[]).includes(code);

/** Our language for a browser tag ("pt-BR" → pt, "nb-NO" → no, "zh-Hant-TW" → zh), if we have it. */
export function interfaceLanguageOf(tag: string): Language | undefined {
  const base = tag.toLowerCase().split(/[-_]/)[0] ?? '';
  const code = TAG_ALIASES[base] ?? base;
  return isInterfaceLanguage(code) ? code : undefined;
}

export const LOAD_OPTIONS = {
  maxRetries: 5,
  retryTimeout: 350,
  maxParallelReads: 10,
} as const;

export const CACHE_MS = import.meta.env.DEV ? 0 : 60 * 60 * 1000;

/** The stored choice, else the first of the browser's languages we speak, else English. */
export function pickLanguage(stored: string | undefined = useLangStore.getState().currentLang, browser: readonly string[] = navigator.languages ?? [navigator.language]): Language {
  if (stored && isInterfaceLanguage(stored)) return stored;
  for (const tag of browser) {
    const found = interfaceLanguageOf(tag);
    if (found) return found;
  }
  return FALLBACK_LANGUAGE;
}

export function backendOptions(
  loadPath = '/locales/{{lng}}/{{ns}}.json',
  expirationTime = CACHE_MS,
  build = __LOCALES_BUILD__,
): CachedHttpOptions {
  return { loadPath, expirationTime, prefix: 'i18n_', build, cachedCookie: { name: COOKIES.translationsCached, namespace: 'translation' } };
}

export { CachedHttpBackend };

/** Whether a language is written right to left (ar, fa, he, ur). */
export const isRtl = (lang: string) => (RTL_LANGUAGES as readonly string[]).includes(lang);

/** `lang` and `dir` of the page follow the interface language (set at start and on every change). */
export function applyDocumentLanguage(lang: string) {
  document.documentElement.lang = lang;
  document.documentElement.dir = isRtl(lang) ? 'rtl' : 'ltr';
}

/** Numbers in interpolated strings ("{{count}} members") are written the language's way (١٢, ۱۲, 1.234). */
const numberFormats = new Map<string, Intl.NumberFormat>();
export const numberFormatter: FormatterModule = {
  type: 'formatter',
  init: () => undefined,
  add: () => undefined,
  addCached: () => undefined,
  format(value: unknown, _format, lng) {
    if (typeof value !== 'number' || !lng) return value as string;
    let found = numberFormats.get(lng);
    if (!found) {
      found = new Intl.NumberFormat(lng);
      numberFormats.set(lng, found);
    }
    return found.format(value);
  },
};

export async function initI18n(): Promise<void> {
  const lng = pickLanguage();
  useLangStore.getState().setLang(lng);
  applyDocumentLanguage(lng);
  // Before React re-renders for a new language, the page's direction is already the new one.
  i18n.on('languageChanged', (changed) => {
    if (isInterfaceLanguage(changed)) applyDocumentLanguage(changed);
  });
  await i18n
    .use(CachedHttpBackend)
    .use(numberFormatter)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: [...TRANSLATION_NAMESPACES],
      defaultNS: 'translation',
      interpolation: { escapeValue: false, alwaysFormat: true },
      backend: backendOptions(),
      ...LOAD_OPTIONS,
    });
}

export async function changeLanguage(lang: Language): Promise<void> {
  await i18n.changeLanguage(lang);
  useLangStore.getState().setLang(lang);
  applyDocumentLanguage(lang);
}
