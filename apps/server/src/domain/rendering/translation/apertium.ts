// Apertium as a translation provider: the APY at APERTIUM_URL, or else Debian's apertium-apy
// started here (apertium-embedded.ts: on a free loopback port, stopped with us). Languages are
// reached by a pair of APY's /listPairs or a chain of them (APY's /translateChain; the routes are
// apertium-pairs.ts'); everything else is `none`. Apertium knows no tone: every result is DEFAULT.
import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '@parla/contract/constants';
import { ApertiumError, TRANSLATE_TIMEOUT_MS, callApy, listPairs } from './apertium-client';
import { DEBIAN_MODES_DIR, startEmbeddedApy, type EmbeddedApy } from './apertium-embedded';
import { PairGraph } from './apertium-pairs';
import type { TranslationProvider, TranslationRequest, TranslationResult } from './provider';

export { ApertiumError, DEBIAN_MODES_DIR };

export interface ApertiumOptions {
  /** An APY to use (APERTIUM_URL); without it, Debian's apertium-apy is started when installed. */
  url?: string | undefined;
  log: FastifyBaseLogger;
  /** Pairs directory of the embedded APY. */
  modesDir?: string | undefined;
  /** Longest wait for the embedded APY's first answer. */
  startTimeoutMs?: number | undefined;
}

export interface ApertiumProvider extends TranslationProvider {
  readonly name: 'apertium';
  /** Where APY answers: the embedded one's loopback address, or APERTIUM_URL. */
  readonly url: string;
  /** The embedded APY's process id while it runs (undefined with APERTIUM_URL). */
  readonly pid: number | undefined;
  /** Milliseconds the embedded APY took from its start to its first /listPairs answer. */
  readonly startupMs: number | undefined;
  /** The Apertium codes `source` → `target` goes through (2 codes: a direct pair), if any. */
  route(source: Language, target: Language): readonly string[] | undefined;
}

// --- text in and out ------------------------------------------------------------------------
//
// APY gets the text as HTML (its default format): each non-blank line a <p>, so Apertium ends a
// sentence at every line break and keeps the lines; the user's own `*`, `@` and `#` travel as
// empty tags, so the ones left in the answer are Apertium's marks (unknown, untranslated,
// ungenerated word) and are removed.

const KEEP: Readonly<Record<string, string>> = { '*': '<k0/>', '@': '<k1/>', '#': '<k2/>' };
const RESTORE: Readonly<Record<string, string>> = { '<k0/>': '*', '<k1/>': '@', '<k2/>': '#' };
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function toApertiumHtml(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!/\S/.test(line)) return line;
      const escaped = line
        .replace(/[&<>*@#]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : (KEEP[c] ?? c)))
        // A protected piece's placeholder (protect.ts) travels as an empty tag: formatting to Apertium.
        .replace(/⟦(\d+)⟧/g, '<x$1/>');
      return `<p>${escaped}</p>`;
    })
    .join('\n');
}

export function fromApertiumHtml(html: string): string {
  return html
    .replace(/(?<!&)[*@#]/g, '')
    .replace(/<\/?p>/g, '')
    .replace(/<k[012]\/>/g, (tag) => RESTORE[tag] ?? '')
    .replace(/<x(\d+)\/>/g, '⟦$1⟧')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
      if (name.startsWith('#')) {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    });
}

// --- the provider ---------------------------------------------------------------------------

/**
 * The Apertium provider, or undefined when there is no APY: neither APERTIUM_URL nor Debian's
 * apertium-apy (with pairs), or the embedded one would not start (logged).
 */
export async function createApertiumProvider(options: ApertiumOptions): Promise<ApertiumProvider | undefined> {
  const { log } = options;
  const remoteUrl = options.url?.replace(/\/+$/, '');
  let embedded: EmbeddedApy | undefined;
  let graph: PairGraph | undefined;
  const apyUrl = () => embedded?.url ?? remoteUrl!;

  const loadGraph = async () => {
    const url = apyUrl();
    const fresh = new PairGraph(await listPairs(url));
    if (!graph || graph.signature !== fresh.signature) {
      graph = fresh;
      log.info({ pairs: fresh.size, url }, 'apertium pairs loaded');
    }
  };

  if (remoteUrl) {
    await loadGraph().catch((error: unknown) => log.warn({ err: error, url: remoteUrl }, 'Apertium APY does not answer yet; its pairs are read on first use'));
  } else {
    embedded = await startEmbeddedApy({
      log,
      modesDir: options.modesDir ?? DEBIAN_MODES_DIR,
      startTimeoutMs: options.startTimeoutMs ?? 30_000,
      onRestart: loadGraph,
    });
    if (!embedded) return undefined;
    try {
      await loadGraph();
    } catch (error) {
      log.warn({ err: error }, 'apertium pairs could not be read');
      await embedded.close();
      return undefined;
    }
  }

  const routeOf = (source: Language, target: Language) => graph?.route(source, target) ?? undefined;

  const translateInto = async (text: string, source: Language, target: Language): Promise<TranslationResult> => {
    if (target === source || !/\S/.test(text)) return { state: 'done', content: text, tone: 'DEFAULT' };
    const route = routeOf(source, target);
    if (!route) return { state: 'none' };
    const common = { q: toApertiumHtml(text), markUnknown: 'yes', deformat: 'html', reformat: 'html-noent' };
    const [from, to] = route as [string, string];
    let json: unknown;
    try {
      json =
        route.length === 2
          ? await callApy(apyUrl(), '/translate', { ...common, langpair: `${from}|${to}` }, TRANSLATE_TIMEOUT_MS)
          : await callApy(apyUrl(), '/translateChain', { ...common, langpairs: route.join('|') }, TRANSLATE_TIMEOUT_MS);
    } catch (error) {
      // A pair APY no longer has: read its pairs again before the retry.
      if (error instanceof ApertiumError && error.status !== undefined && error.status < 500) graph = undefined;
      throw error;
    }
    const translated = (json as { responseData?: { translatedText?: unknown } }).responseData?.translatedText;
    if (typeof translated !== 'string') throw new ApertiumError('Apertium APY answered without translatedText');
    return { state: 'done', content: fromApertiumHtml(translated), tone: 'DEFAULT' };
  };

  return {
    name: 'apertium',
    supportsTone: false,
    followsInstructions: false,
    get url() {
      return apyUrl();
    },
    get pid() {
      return embedded?.pid;
    },
    get startupMs() {
      return embedded?.startupMs;
    },
    route(source, target) {
      if (source === target) return undefined;
      return routeOf(source, target) ?? undefined;
    },
    canTranslate(source, target) {
      if (source === target) return true;
      // Pairs not read yet (an APERTIUM_URL that did not answer): let translate() find out.
      if (!graph) return true;
      return graph.route(source, target) !== null;
    },
    async translate(request: TranslationRequest): Promise<TranslationResult[]> {
      if (!graph) await loadGraph();
      const byLanguage = new Map<Language, Promise<TranslationResult>>();
      for (const { language } of request.targets) {
        if (!byLanguage.has(language)) byLanguage.set(language, translateInto(request.text, request.source, language));
      }
      const settled = new Map<Language, TranslationResult>();
      await Promise.all([...byLanguage].map(async ([language, result]) => settled.set(language, await result)));
      return request.targets.map(({ language }) => settled.get(language)!);
    },
    async health() {
      try {
        await loadGraph();
        return 'ok';
      } catch {
        return 'degraded';
      }
    },
    async close() {
      await embedded?.close();
    },
  };
}
