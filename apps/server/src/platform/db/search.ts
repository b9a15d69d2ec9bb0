// Full-text search across languages (issue "reach and find"): each text is indexed with the
// PostgreSQL text-search configuration of its own language (stemming and stop words: "meetings"
// finds "meeting", "reuniones" finds "reunión"), `simple` (words as written) where PostgreSQL has
// none. The same table is in the database as the function parla_ts_config (migration
// 0009_search.sql), which the stored documents (`search_vector` columns) are made with.

/** Our languages that PostgreSQL 15 (and PGlite) can stem; every other one is `simple`. */
export const TS_CONFIGS: Readonly<Record<string, string>> = {
  ar: 'arabic',
  ca: 'catalan',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  fi: 'finnish',
  fr: 'french',
  hi: 'hindi',
  hu: 'hungarian',
  hy: 'armenian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  nl: 'dutch',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
};

/** Every configuration a text may be indexed with. */
export const SEARCH_CONFIGS: readonly string[] = [...new Set([...Object.values(TS_CONFIGS), 'simple'])];

export const tsConfigOf = (language: string): string => TS_CONFIGS[language] ?? 'simple';
