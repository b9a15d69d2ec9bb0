// Saying plainly what the server's translator cannot do (GET /api/translation/): which chosen
// languages it cannot translate between, and whether it writes tones.
import type { Language } from '@parla/contract/constants';
import type { TranslationInfo } from '@parla/contract/status';

/** Whether `from` reaches `to` (the same language always does). */
export function reaches(info: TranslationInfo, from: string, to: string): boolean {
  if (from === to) return true;
  if (info.provider === 'none') return false;
  if (info.reach === null) return true;
  return info.reach[from]?.includes(to as Language) ?? false;
}

/** The ordered pairs of `languages` the translator cannot translate (messages between them stay as written). */
export function unreachablePairs(info: TranslationInfo, languages: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (const from of languages) for (const to of languages) if (from !== to && !reaches(info, from, to)) pairs.push([from, to]);
  return pairs;
}

/** Whether the server transcribes speech in `language` (else it reaches listeners as audio only). */
export const transcribes = (info: TranslationInfo, language: string): boolean => info.transcribes == null || info.transcribes.includes(language as Language);

/** The translator's name as people know it; undefined when there is none (translation is off). */
export function providerName(info: TranslationInfo): string | undefined {
  switch (info.provider) {
    case 'apertium':
      return 'Apertium';
    case 'openai':
      return 'AI';
    case 'none':
      return undefined;
  }
}

/** The pairs said once each: both directions missing ("between a and b") or one ("from a to b"). */
export function groupPairs(pairs: readonly [string, string][]): { a: string; b: string; both: boolean }[] {
  const has = (from: string, to: string) => pairs.some(([x, y]) => x === from && y === to);
  const grouped: { a: string; b: string; both: boolean }[] = [];
  for (const [a, b] of pairs) {
    if (grouped.some((pair) => pair.both && ((pair.a === b && pair.b === a) || (pair.a === a && pair.b === b)))) continue;
    grouped.push({ a, b, both: has(b, a) });
  }
  return grouped;
}
