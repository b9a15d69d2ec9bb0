// Interface translations: three namespaces per language from /locales/{lng}/{ns}.json, cached in
// localStorage for an hour (not in development), retried as the spec says (section 4).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGES, RTL_LANGUAGES, TRANSLATION_NAMESPACES, type Language } from '@parla/contract/constants';
import { useLangStore } from './stores';
import { CachedHttpBackend, type CachedHttpOptions } from './translation-backend';

export const i18n = i18next.createInstance();

/** Languages whose interface files exist (all 57 come with the interface-languages work). */
export const INTERFACE_LANGUAGES: readonly Language[] = ['en', 'es'];

export const LOAD_OPTIONS = {
  maxRetries: 5,
  retryTimeout: 350,
  maxParallelReads: 10,
} as const;

export const CACHE_MS = import.meta.env.DEV ? 0 : 60 * 60 * 1000;

function pickLanguage(): Language {
  const stored = useLangStore.getState().currentLang;
  if ((INTERFACE_LANGUAGES as readonly string[]).includes(stored)) return stored as Language;
  for (const tag of navigator.languages ?? []) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if ((INTERFACE_LANGUAGES as readonly string[]).includes(base)) return base as Language;
  }
  return FALLBACK_LANGUAGE;
}

export function backendOptions(loadPath = '/locales/{{lng}}/{{ns}}.json', expirationTime = CACHE_MS): CachedHttpOptions {
  return { loadPath, expirationTime, prefix: 'i18n_' };
}

export { CachedHttpBackend };

export function applyDocumentLanguage(lang: string) {
  document.documentElement.lang = lang;
  document.documentElement.dir = (RTL_LANGUAGES as readonly string[]).includes(lang) ? 'rtl' : 'ltr';
}

export async function initI18n(): Promise<void> {
  const lng = pickLanguage();
  useLangStore.getState().setLang(lng);
  applyDocumentLanguage(lng);
  await i18n
    .use(CachedHttpBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: [...TRANSLATION_NAMESPACES],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      backend: backendOptions(),
      ...LOAD_OPTIONS,
    });
}

export async function changeLanguage(lang: Language): Promise<void> {
  await i18n.changeLanguage(lang);
  useLangStore.getState().setLang(lang);
  applyDocumentLanguage(lang);
}
