// Dates, times, numbers and relative days, written the interface language's way through Intl
// (digits, calendars' month and weekday names, 12/24-hour clocks). Every function takes the
// language last and defaults to the current interface language.
import { i18n } from './i18n';
import { languageName } from './languages';
import { yieldToBrowser } from './yield';

const current = () => i18n.language || 'en';

type Formatter = Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.ListFormat;
const cache = new Map<string, Formatter>();
function cached<T extends Formatter>(key: string, make: () => T): T {
  let found = cache.get(key) as T | undefined;
  if (!found) {
    found = make();
    cache.set(key, found);
  }
  return found;
}
const dateFormat = (lang: string, options: Intl.DateTimeFormatOptions) => cached(`d|${lang}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(lang, options));

const DAY_MS = 86_400_000;
const startOfDay = (time: number) => {
  const date = new Date(time);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
};
/** Whole days between the day of `time` and today (0 today, 1 yesterday). */
const daysAgo = (time: number, now: number) => Math.round((startOfDay(now) - startOfDay(time)) / DAY_MS);

/** "14:05" (or "2:05 PM", "١٤:٠٥"), the time of a message. */
export const formatTime = (iso: string, lang = current()) => dateFormat(lang, { hour: 'numeric', minute: '2-digit' }).format(new Date(iso));

/** The chat list's "when": the time today, the weekday this week, else the date. */
export function formatWhen(iso: string, lang = current(), now = Date.now()): string {
  const time = Date.parse(iso);
  const days = daysAgo(time, now);
  if (days <= 0) return formatTime(iso, lang);
  if (days < 7) return dateFormat(lang, { weekday: 'short' }).format(time);
  const sameYear = new Date(time).getFullYear() === new Date(now).getFullYear();
  return dateFormat(lang, { day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) }).format(time);
}

/** The day a run of messages belongs to (its midnight) and how many days ago it was. */
export function dayOf(iso: string, now = Date.now()): { key: number; daysAgo: number } {
  const key = startOfDay(Date.parse(iso));
  return { key, daysAgo: daysAgo(key, now) };
}

/** A day separator: "Today", "Yesterday" (Intl.RelativeTimeFormat), else "Thursday 20 November". */
export function formatDay(key: number, lang = current(), now = Date.now()): string {
  const days = daysAgo(key, now);
  if (days === 0 || days === 1) {
    const relative = formatRelativeDays(-days, lang);
    return relative.charAt(0).toLocaleUpperCase(lang) + relative.slice(1);
  }
  return dateFormat(lang, { weekday: 'long', day: 'numeric', month: 'long' }).format(key);
}

/** "today", "yesterday", "3 days ago", "in 2 days": a count of days from today. */
export const formatRelativeDays = (days: number, lang = current()) =>
  cached(`r|${lang}`, () => new Intl.RelativeTimeFormat(lang, { numeric: 'auto' })).format(days, 'day');

/** "14:05:12" today, "20 Nov, 14:05" another day: when a segment was said. */
export function formatSaidAt(iso: string, lang = current(), now = Date.now()): string {
  const time = Date.parse(iso);
  if (daysAgo(time, now) === 0) return dateFormat(lang, { hour: 'numeric', minute: '2-digit', second: '2-digit' }).format(time);
  return dateFormat(lang, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }).format(time);
}

/** "20 Nov 2026": the day something was created. */
export const formatDate = (iso: string, lang = current()) => dateFormat(lang, { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));

/** "1,234", "1.234", "١٬٢٣٤". */
export const formatNumber = (value: number, lang = current()) => cached(`n|${lang}`, () => new Intl.NumberFormat(lang)).format(value);

/** A share from 0 to 1 as a percentage: "42%", "42 %", "٪٤٢". */
export const formatPercent = (share: number, lang = current()) =>
  cached(`p|${lang}`, () => new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 })).format(share);

/** "English, Arabic, and Japanese", "英語、アラビア語、日本語": a list the language's way. */
export const formatList = (items: readonly string[], lang = current()) => cached(`l|${lang}`, () => new Intl.ListFormat(lang, { type: 'conjunction' })).format(items);

/**
 * A tab's first use of each kind of Intl formatter loads the language's data for it (5-25 ms each
 * on a phone): done before the first render, each in a task of its own, instead of adding up in
 * that render's one task. The formatters made here are those format.ts keeps; the others (plural
 * rules for i18next, language names) only warm the browser's data.
 */
export async function prepareFormats(lang = current()): Promise<void> {
  const now = new Date().toISOString();
  const steps = [
    () => new Intl.PluralRules(lang).select(1),
    () => formatNumber(1, lang),
    () => formatTime(now, lang),
    () => formatRelativeDays(0, lang),
    () => languageName(lang, lang),
  ];
  for (const step of steps) {
    await yieldToBrowser();
    step();
  }
}
