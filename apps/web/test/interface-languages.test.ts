// The interface's languages: which one a visitor gets, English for what a language lacks, numbers
// in texts, the names and search of the pickers, and the Intl formats of lib/format.
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { LANGUAGES } from '@parla/contract/constants';
import { INTERFACE_LANGUAGES, applyDocumentLanguage, interfaceLanguageOf, numberFormatter, pickLanguage } from '../src/lib/i18n';
import { dayOf, formatDay, formatList, formatNumber, formatPercent, formatTime, formatWhen } from '../src/lib/format';
import { foldForSearch, languageLabel, languageName, languageOptions, matchesLanguage, nativeName } from '../src/lib/languages';

describe('interface language', () => {
  it('offers all 57 languages of the spec', () => {
    expect([...INTERFACE_LANGUAGES].sort()).toEqual([...LANGUAGES].sort());
    expect(INTERFACE_LANGUAGES).toHaveLength(57);
  });

  it('keeps a stored choice, else takes the first browser language it speaks, else English', () => {
    expect(pickLanguage('ar', ['ja-JP'])).toBe('ar');
    expect(pickLanguage('', ['xx-YY', 'ja-JP', 'en-US'])).toBe('ja');
    expect(pickLanguage('klingon', ['pt-BR'])).toBe('pt');
    expect(pickLanguage('', ['zh-Hant-TW'])).toBe('zh');
    expect(pickLanguage('', ['xx', 'yy-ZZ'])).toBe('en');
    expect(pickLanguage('', [])).toBe('en');
  });

  it('reads old and more precise codes as ours', () => {
    expect(interfaceLanguageOf('nb-NO')).toBe('no');
    expect(interfaceLanguageOf('nn')).toBe('no');
    expect(interfaceLanguageOf('iw')).toBe('he');
    expect(interfaceLanguageOf('fil-PH')).toBe('tl');
    expect(interfaceLanguageOf('in')).toBe('id');
    expect(interfaceLanguageOf('de_CH')).toBe('de');
    expect(interfaceLanguageOf('gsw')).toBeUndefined();
  });

  it('sets lang and dir of the page: right to left for ar, fa, he and ur only', () => {
    for (const lang of ['ar', 'fa', 'he', 'ur']) {
      applyDocumentLanguage(lang);
      expect(document.documentElement.lang).toBe(lang);
      expect(document.documentElement.dir).toBe('rtl');
    }
    for (const lang of ['en', 'ja', 'hi', 'yi']) {
      applyDocumentLanguage(lang);
      expect(document.documentElement.dir).toBe('ltr');
    }
  });

  it('says in English what a language lacks, and writes numbers in texts its way', async () => {
    const instance = i18next.createInstance();
    await instance.use(numberFormatter).init({
      lng: 'ar',
      fallbackLng: 'en',
      interpolation: { escapeValue: false, alwaysFormat: true },
      resources: {
        en: { translation: { hello: 'Hello', onlyEnglish: 'Only in English', members_one: '{{count}} member', members_other: '{{count}} members' } },
        ar: { translation: { hello: 'مرحبا', members_other: '{{count}} عضو', members_few: '{{count}} أعضاء' } },
      },
    });
    expect(instance.t('hello')).toBe('مرحبا');
    expect(instance.t('onlyEnglish')).toBe('Only in English');
    expect(instance.t('members', { count: 5 })).toBe(`${new Intl.NumberFormat('ar').format(5)} أعضاء`);
    await instance.changeLanguage('de');
    expect(instance.t('members', { count: 1234 })).toBe('1.234 members');
    expect(instance.t('hello', { name: 'x' })).toBe('Hello');
  });
});

describe('language names', () => {
  it('names a language in the interface language and in itself', () => {
    expect(languageName('ja', 'en')).toBe('Japanese');
    expect(languageName('es', 'es')).toBe('Español');
    expect(languageName('es', 'es', { inSentence: true })).toBe('español');
    expect(nativeName('ja')).toBe('日本語');
    expect(nativeName('ar')).toBe('العربية');
    expect(languageLabel('de', 'en')).toBe('German · Deutsch');
    expect(languageLabel('es', 'es')).toBe('Español');
  });

  it('names in itself a language the browser has no names in (Debian Chromium: be, cy, gl, hy, is, mi, mk, ne)', async () => {
    const Real = Intl.DisplayNames;
    const missing = ['be', 'cy', 'gl', 'hy', 'is', 'mi', 'mk', 'ne'];
    // As such a browser answers: names asked in those languages come in its default one.
    class WithoutSome extends Real {
      constructor(locales: string | string[] | undefined, options: Intl.DisplayNamesOptions) {
        const asked = [locales ?? []].flat()[0];
        super(asked && missing.includes(asked) ? ['en-US'] : locales, options);
      }
    }
    Object.defineProperty(Intl, 'DisplayNames', { value: WithoutSome, configurable: true, writable: true });
    try {
      vi.resetModules();
      const fresh = await import('../src/lib/languages');
      expect(fresh.nativeName('mk')).toBe('Македонски');
      expect(fresh.languageLabel('cy', 'en')).toBe('Welsh · Cymraeg');
      expect(fresh.languageOptions('en').find((option) => option.code === 'ne')).toMatchObject({ name: 'Nepali', native: 'नेपाली' });
      for (const code of missing) expect(fresh.nativeName(code), code).not.toBe(fresh.languageName(code, 'en'));
    } finally {
      Object.defineProperty(Intl, 'DisplayNames', { value: Real, configurable: true, writable: true });
    }
  });

  it('lists all 57 with both names, by the interface name or by the native one', () => {
    const byName = languageOptions('en');
    expect(byName).toHaveLength(57);
    expect(byName[0]).toEqual({ code: 'af', name: 'Afrikaans', native: 'Afrikaans' });
    expect(byName.find((option) => option.code === 'hy')).toMatchObject({ name: 'Armenian', native: 'Հայերեն' });
    const byNative = languageOptions('en', LANGUAGES, 'native').map((option) => option.native);
    expect(byNative.indexOf('Deutsch')).toBeLessThan(byNative.indexOf('Español'));
  });

  it('finds a language by either name or its code, ignoring case and accents', () => {
    const spanish = { code: 'es', name: 'Spanish', native: 'Español' };
    for (const search of ['espanol', 'ESPAÑ', 'span', 'es', ' Spanish ', '']) expect(matchesLanguage(spanish, search), search).toBe(true);
    expect(matchesLanguage(spanish, 'deutsch')).toBe(false);
    // In a Japanese interface the English name still finds it, and the Japanese one too.
    const german = { code: 'de', name: languageName('de', 'ja'), native: 'Deutsch' };
    expect(matchesLanguage(german, 'german')).toBe(true);
    expect(matchesLanguage(german, 'ドイツ')).toBe(true);
    expect(foldForSearch('Français Čeština')).toBe('francais cestina');
    // Marks of other scripts are letters there, not accents: kept.
    expect(foldForSearch('हिन्दी')).toBe('हिन्दी'.normalize('NFD'));
  });
});

describe('formats', () => {
  const at = (iso: string) => new Date(iso).toISOString();
  it('writes times, days and numbers the interface language’s way', () => {
    const noon = at('2026-03-18T12:05:00');
    expect(formatTime(noon, 'en')).toBe(new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(new Date(noon)));
    expect(formatTime(noon, 'de')).toBe('12:05');
    expect(formatNumber(1234.5, 'de')).toBe('1.234,5');
    expect(formatPercent(0.42, 'en')).toBe('42%');
    expect(formatPercent(0.42, 'de')).toBe('42\u00a0%');
    expect(formatList(['A', 'B', 'C'], 'en')).toBe('A, B, and C');
    expect(formatList(['A', 'B', 'C'], 'es')).toBe('A, B y C');
  });

  it('says today and yesterday with Intl.RelativeTimeFormat, and the date before that', () => {
    const now = new Date('2026-03-18T15:00:00').getTime();
    const today = dayOf(at('2026-03-18T09:00:00'), now);
    const yesterday = dayOf(at('2026-03-17T23:30:00'), now);
    const older = dayOf(at('2026-03-10T10:00:00'), now);
    expect([today.daysAgo, yesterday.daysAgo, older.daysAgo]).toEqual([0, 1, 8]);
    expect(formatDay(today.key, 'en', now)).toBe('Today');
    expect(formatDay(yesterday.key, 'es', now)).toBe('Ayer');
    expect(formatDay(yesterday.key, 'ja', now)).toBe('昨日');
    expect(formatDay(older.key, 'en', now)).toBe('Tuesday, March 10');
    expect(formatWhen(at('2026-03-16T10:00:00'), 'en', now)).toBe('Mon');
    expect(formatWhen(at('2025-12-01T10:00:00'), 'en', now)).toBe('Dec 1, 2025');
  });
});
