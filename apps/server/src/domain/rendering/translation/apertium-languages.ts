// Our 57 languages (ISO 639-1) as Apertium names them in APY's /listPairs: ISO 639-3 codes, and
// for some targets a variant (`hbs_SR`). One table, read by the Apertium provider only.
import type { Language } from '@parla/contract/constants';

export interface ApertiumLanguage {
  /** Codes the language may have in /listPairs, best first (as source and as target). */
  codes: readonly string[];
  /** Target-only variants tried before `codes` (APY lists e.g. `eng-hbs_SR` beside `eng-hbs`). */
  variants?: readonly string[];
}

/**
 * Every language of the contract. Apertium's own codes where they differ from the plain ISO 639-3
 * one: Serbian, Croatian and Bosnian are one Apertium language (`hbs`) with a variant per standard;
 * Norwegian is Bokmål first (`nob`), then Nynorsk; Malay is `zlm` (Apertium's ind-zlm), then the
 * macro-language `msa`. Codes Debian 12 has no pair for are still listed, for an APY reached
 * through APERTIUM_URL that has more.
 */
export const APERTIUM_LANGUAGES: Readonly<Record<Language, ApertiumLanguage>> = {
  af: { codes: ['afr'] },
  ar: { codes: ['ara'] },
  az: { codes: ['aze'] },
  be: { codes: ['bel'] },
  bg: { codes: ['bul'] },
  bs: { codes: ['hbs', 'bos'], variants: ['hbs_BS'] },
  ca: { codes: ['cat'] },
  cs: { codes: ['ces'] },
  cy: { codes: ['cym'] },
  da: { codes: ['dan'] },
  de: { codes: ['deu'] },
  el: { codes: ['ell'] },
  en: { codes: ['eng'] },
  es: { codes: ['spa'] },
  et: { codes: ['est'] },
  fa: { codes: ['fas', 'pes'] },
  fi: { codes: ['fin'] },
  fr: { codes: ['fra'] },
  gl: { codes: ['glg'] },
  he: { codes: ['heb'] },
  hi: { codes: ['hin'] },
  hr: { codes: ['hbs', 'hrv'], variants: ['hbs_HR'] },
  hu: { codes: ['hun'] },
  hy: { codes: ['hye'] },
  id: { codes: ['ind'] },
  is: { codes: ['isl'] },
  it: { codes: ['ita'] },
  ja: { codes: ['jpn'] },
  kk: { codes: ['kaz'] },
  kn: { codes: ['kan'] },
  ko: { codes: ['kor'] },
  lt: { codes: ['lit'] },
  lv: { codes: ['lav', 'lvs'] },
  mi: { codes: ['mri'] },
  mk: { codes: ['mkd'] },
  mr: { codes: ['mar'] },
  ms: { codes: ['zlm', 'msa', 'zsm'] },
  ne: { codes: ['nep'] },
  nl: { codes: ['nld'] },
  no: { codes: ['nob', 'nno', 'nor'] },
  pl: { codes: ['pol'] },
  pt: { codes: ['por'] },
  ro: { codes: ['ron'] },
  ru: { codes: ['rus'] },
  sk: { codes: ['slk'] },
  sl: { codes: ['slv'] },
  sr: { codes: ['hbs', 'srp'], variants: ['hbs_SR'] },
  sv: { codes: ['swe'] },
  sw: { codes: ['swa', 'swh'] },
  ta: { codes: ['tam'] },
  th: { codes: ['tha'] },
  tl: { codes: ['tgl'] },
  tr: { codes: ['tur'] },
  uk: { codes: ['ukr'] },
  ur: { codes: ['urd'] },
  vi: { codes: ['vie'] },
  zh: { codes: ['zho', 'cmn'] },
};

/**
 * Directions of Debian 12's data that translate almost nothing (measured with one plain sentence:
 * every word came back marked unknown or ungenerated), left out of the pair graph as if absent.
 * `source>target`, the target without its variant.
 */
export const UNUSABLE_APERTIUM_PAIRS: ReadonlySet<string> = new Set(['eng>hbs', 'mkd>hbs']);

/** Pivots tried first when two chains are equally short (the best-kept pairs go through them). */
export const APERTIUM_PIVOTS: readonly string[] = ['eng', 'spa', 'cat'];

/** Longest chain used, in pairs: every further hop costs quality. */
export const APERTIUM_MAX_CHAIN = 3;
