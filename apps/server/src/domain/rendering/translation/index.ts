// The translator every feature uses: the configured provider (TRANSLATION_PROVIDER, `auto` by
// default) behind a cache of finished translations, so the same text to the same (language,
// tone, domain) costs no second provider call, and a provider that knows no tone is asked for
// each language once.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Language, Tone } from '@parla/contract/constants';
import { cleanText } from '@parla/contract/fields';

/** A rendering without spaces at its ends or runs of spaces between words (line breaks and indentation kept). */
export const tidySpaces = (text: string): string => text.replace(/(\S)[ \t]{2,}(?=\S)/g, '$1 ').replace(/^[ \t]+|[ \t]+$/g, '').replace(/[ \t]+\n/g, '\n');
import type { Config } from '../../../platform/config';
import { withFastRows } from '../../../platform/db/fast-rows';
import type { Db } from '../../../platform/db/index';
import { preparedSql } from '../../../platform/db/prepared-sql';
import { translationCache } from '../../../platform/db/schema';
import { createApertiumProvider } from './apertium';
import { createOpenAiTranslationProvider } from './openai';
import type { TranslationProvider, TranslationRequest, TranslationResult } from './provider';
import { askedTone, groupNeed } from '../reader-group';
import { applyGlossary } from './glossary';

export type { TranslationProvider, TranslationRequest, TranslationResult, TranslationTarget } from './provider';

/** Passes every text through untranslated (no provider configured or installed). */
export const noTranslation: TranslationProvider = {
  name: 'none',
  supportsTone: false,
  followsInstructions: false,
  canTranslate: () => false,
  translate: async (request) => request.targets.map(() => ({ state: 'none' as const })),
  health: async () => 'off',
  close: async () => undefined,
};

/** Picks the provider: `auto` is openai when configured, else Apertium when installed, else none. */
export async function createTranslationProvider(config: Config, log: FastifyBaseLogger): Promise<TranslationProvider> {
  const openAiConfigured = Boolean(config.openai.baseUrl || config.openai.apiKey);
  const choice = config.translationProvider === 'auto' ? (openAiConfigured ? 'openai' : 'apertium') : config.translationProvider;
  if (choice === 'openai') {
    return createOpenAiTranslationProvider({ apiKey: config.openai.apiKey, baseUrl: config.openai.baseUrl, model: config.openai.translationModel, log });
  }
  if (choice === 'apertium') {
    const apertium = await createApertiumProvider({ url: config.apertiumUrl, log });
    if (apertium) return apertium;
    const message = 'Apertium is not installed (apt-get install apertium-apy and its pairs) and APERTIUM_URL is unset: messages are not translated';
    if (config.translationProvider === 'apertium') log.error(message);
    else log.warn(message);
  }
  return noTranslation;
}

export interface Translator {
  readonly provider: TranslationProvider;
  /**
   * One result per target, in order. Targets the provider cannot reach, and tones it cannot
   * write in the source language, are `none`; finished translations come from the cache; the
   * rest in one provider call. Throws when that call fails (the caller's job retries); a target
   * the provider left out while it answered others is `retry` (the caller saves the others and
   * retries only it).
   */
  translate(request: TranslationRequest): Promise<TranslationResult[]>;
  /**
   * The same, answering as soon as the results are known: `cached` settles once the new
   * translations are in the cache (the caller awaits it before it is done; it rejects when the
   * write failed), so the caller's next steps need not wait for that write.
   */
  translateThen(request: TranslationRequest): Promise<{ results: TranslationResult[]; cached: Promise<void> }>;
  /** ok / degraded / off, cached for 15 s (GET /api/status/ asks often). */
  health(): Promise<'ok' | 'degraded' | 'off'>;
  close(): Promise<void>;
}

export function createTranslator(provider: TranslationProvider, db: Db, log?: FastifyBaseLogger): Translator {
  // The glossary's part is what of it the text holds ('' when nothing: the key of a text without a glossary).
  const keyOf = (request: TranslationRequest, language: Language, tone: Tone, glossaryKey: string) =>
    createHash('sha256')
      .update(JSON.stringify([provider.name, request.source, language, tone, request.domain ?? 'DEFAULT', request.text, ...(glossaryKey ? [glossaryKey] : [])]))
      .digest('base64url');
  let lastHealth: { at: number; value: Promise<'ok' | 'degraded' | 'off'> } | undefined;
  // Read and written on every translation's way (a message's, an utterance's): prepared once.
  const cacheRead = withFastRows(
    db
      .select({ key: translationCache.key, content: translationCache.content, renderedTone: translationCache.renderedTone })
      .from(translationCache)
      .where(sql`${translationCache.key} = any(${sql.placeholder('keys')}::text[])`)
      .prepare('translation_cache_read'),
  );
  const cacheWrite = preparedSql(
    db,
    'translation_cache_write',
    sql`insert into ${translationCache} (key, content, rendered_tone)
      select key, content, rendered_tone from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) as x(key text, content text, rendered_tone text)
      on conflict do nothing`,
  );

  async function translateThen(request: TranslationRequest): Promise<{ results: TranslationResult[]; cached: Promise<void> }> {
    const glossary = applyGlossary(request.text, request.source, request.glossary);
    // What is really asked of the provider for each target.
    const asked = request.targets.map((target) => {
      const tone = askedTone(provider, target.tone);
      const possible = groupNeed(provider, request.source, { language: target.language, tone }) === 'rendering';
      return { language: target.language, tone, possible, key: keyOf(request, target.language, tone, glossary.key) };
    });
    const keys = [...new Set(asked.filter((item) => item.possible).map((item) => item.key))];
    const found = new Map<string, { content: string; tone: Tone; missedTerms?: string[] }>();
    const cache = request.cache !== false;
    if (cache && keys.length) {
      const rows = await cacheRead.execute({ keys });
      for (const row of rows) found.set(row.key, { content: tidySpaces(row.content), tone: row.renderedTone as Tone });
    }
    let cached: Promise<void> = Promise.resolve();
    const missing = new Map<string, { language: Language; tone: Tone }>();
    const retry = new Map<string, string>();
    for (const item of asked) if (item.possible && !found.has(item.key)) missing.set(item.key, { language: item.language, tone: item.tone });
    if (missing.size) {
      const targets = [...missing.values()];
      // Code, links, mentions and the glossary's names and terms never reach the provider as
      // written: placeholders stand in for them (and a model is told the required renderings).
      const { results, restore, missed } = await glossary.translate(provider, request, targets);
      const fresh: { key: string; content: string; renderedTone: string }[] = [];
      [...missing.keys()].forEach((key, index) => {
        const result = results[index];
        if (result?.state === 'done') {
          // What a provider writes is not trusted: no control or bidi-override characters are
          // stored; and the spaces an engine leaves around words (Apertium: a leading space,
          // two between words) are not the writer's.
          const content = tidySpaces(restore(cleanText(result.content), targets[index]!.language));
          const missedTerms = missed[index] ?? [];
          found.set(key, { content, tone: result.tone, missedTerms });
          // A rendering that ignored the glossary twice is kept and marked, not cached: the same text is asked again next time.
          // (Partials are never cached: their words are not asked again.)
          if (missedTerms.length) log?.warn({ language: targets[index]!.language, missedTerms }, 'the translation ignored required glossary renderings twice: kept and marked');
          else if (cache) fresh.push({ key, content, renderedTone: result.tone });
        } else if (result?.state === 'retry') {
          retry.set(key, result.reason);
        }
      });
      if (fresh.length) cached = cacheWrite.execute({ rows: JSON.stringify(fresh.map((row) => ({ key: row.key, content: row.content, rendered_tone: row.renderedTone }))) }).then(() => undefined);
    }
    const results = asked.map((item): TranslationResult => {
      const hit = item.possible ? found.get(item.key) : undefined;
      if (hit) return { state: 'done', content: hit.content, tone: hit.tone, ...(hit.missedTerms?.length ? { missedTerms: hit.missedTerms } : {}) };
      const reason = item.possible ? retry.get(item.key) : undefined;
      return reason === undefined ? { state: 'none' } : { state: 'retry', reason };
    });
    return { results, cached };
  }

  return {
    provider,

    async translate(request) {
      const { results, cached } = await translateThen(request);
      await cached;
      return results;
    },

    translateThen,

    health() {
      if (!lastHealth || Date.now() - lastHealth.at > 15_000) lastHealth = { at: Date.now(), value: provider.health() };
      return lastHealth.value;
    },

    close: () => provider.close(),
  };
}
