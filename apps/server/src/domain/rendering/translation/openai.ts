// Translation by any OpenAI-compatible chat model (OpenAI, Azure, Groq, vLLM, Ollama, LocalAI...):
// one request per source text for all its (language, tone) targets, answered as structured JSON.
// Servers and models answer less neatly than the schema says, and the answer is read as follows:
// - JSON in a ```json fence or with words around it: the object is read out of it;
// - an answer cut at the length limit (finish_reason `length`): not trusted; the targets are asked
//   for again in two halves (a shorter answer each), and a single target cut is a failed try;
// - a target left out: the others are kept, that one is a `retry` result; entries for targets
//   nobody asked for are ignored; languages and tones are matched without regard to case or region
//   (`ES-es`, `formal`);
// - 429 (or 503) with Retry-After: a RetryLater, so the job waits that long;
// - a server that refuses `response_format: json_schema` (400): json_object, then the instruction
//   alone, remembered for the provider's life once a plainer format answered.
import OpenAI from 'openai';
import { createProviderFetch, postAsSdk } from '../../../platform/provider-fetch';
import type { FastifyBaseLogger } from 'fastify';
import { LANGUAGES, TONE_MEANINGS, type Language } from '@parla/contract/constants';
import { RetryLater } from '../../../platform/jobs';
import type { TranslationProvider, TranslationRequest, TranslationResult, TranslationTarget } from './provider';
import { textKey } from '../reader-group';

const languageName = new Intl.DisplayNames(['en'], { type: 'language' });
const nameOf = (code: Language) => `${languageName.of(code) ?? code} (${code})`;


const RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    translations: {
      type: 'array',
      items: {
        type: 'object',
        properties: { language: { type: 'string' }, tone: { type: 'string' }, text: { type: 'string' } },
        required: ['language', 'tone', 'text'],
        additionalProperties: false,
      },
    },
  },
  required: ['translations'],
  additionalProperties: false,
} as const;

export function instructionFor(request: TranslationRequest): string {
  const lines = [
    'You translate messages of a multilingual group chat. Each reader gets the message in their own language and tone.',
    `The message is written in ${nameOf(request.source)}.`,
    'Render it once for each target below. Keep the meaning, names, numbers, emoji, links and line breaks; translate naturally, as a native speaker would write it; do not add explanations.',
    'When a target language is the source language, rewrite the message in the requested tone only.',
    'Placeholders like ⟦0⟧ stand for names, code and links: keep each one exactly once, unchanged, where it belongs in the sentence.',
  ];
  if (request.requiredTerms?.length) {
    lines.push('Glossary of this conversation: wherever a term below appears, write exactly the rendering given for the target language (adapting only the words around it):');
    for (const { term, renderings } of request.requiredTerms) {
      for (const target of request.targets) {
        const rendering = renderings[target.language];
        if (rendering !== undefined) lines.push(`- "${term}" → ${target.language}: "${rendering}"`);
      }
    }
  }
  if (request.domain && request.domain !== 'DEFAULT') {
    lines.push(`The conversation is about ${request.domain.toLowerCase().replace(/_/g, ' ')}: use that field's usual terms.`);
  }
  lines.push('Targets (language code, tone, what the tone means):');
  for (const target of request.targets) lines.push(`- ${target.language} (${nameOf(target.language)}), ${target.tone}: ${TONE_MEANINGS[target.tone]}`);
  lines.push('Answer with JSON: {"translations": [{"language": code, "tone": TONE, "text": the rendering}, ...]}, one entry per target, and nothing else.');
  return lines.join('\n');
}

// --- what the server answered -------------------------------------------------------------------

/** Seconds a 429 or 503 asks to wait (`retry-after-ms`, `retry-after` as seconds or a date); undefined without one. */
export function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms > 0) return ms / 1000;
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/**
 * An error of the OpenAI-compatible server as the job queue should see it: a 429 or 503 that says
 * how long to wait becomes a RetryLater (platform/jobs.ts), anything else is left as it is.
 */
export function withRetryAfter(error: unknown): unknown {
  if (error instanceof OpenAI.APIError && (error.status === 429 || error.status === 503)) {
    const seconds = retryAfterSeconds(error.headers);
    if (seconds !== undefined) return new RetryLater(error.message, seconds, { cause: error });
  }
  return error;
}

/**
 * Whether the server may have refused the answer format asked for: a 400 or 422 that names it, or
 * a JSON one the SDK found no message in (vLLM's `{"object": "error", "message": ...}` at the top).
 * The next format is then tried, and remembered only if it answers.
 */
export function refusesResponseFormat(error: unknown): boolean {
  if (!(error instanceof OpenAI.APIError) || (error.status !== 400 && error.status !== 422)) return false;
  const said = `${error.message} ${JSON.stringify(error.error ?? null)}`;
  return /response_format|json_schema|json_object|structured output|guided|grammar/i.test(said) || /status code \(no body\)/.test(error.message);
}

/** Where the `{` at `start` is closed (strings and their escapes skipped), or -1. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return at;
  }
  return -1;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The entries of an answer: `{"translations": [...]}`, or the bare array. */
function entriesOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  const translations = value && typeof value === 'object' ? (value as { translations?: unknown }).translations : undefined;
  return Array.isArray(translations) ? translations : undefined;
}

/**
 * The answer's entries: the whole content as JSON, else the first complete object in it that has
 * them (inside a ```json fence, or with words before and after). Undefined when there is none:
 * not JSON at all, or cut before the object closed.
 */
export function readAnswer(content: string): unknown[] | undefined {
  const whole = entriesOf(parsed(content.trim()));
  if (whole) return whole;
  let tried = 0;
  for (let start = content.indexOf('{'); start !== -1 && tried < 50; start = content.indexOf('{', start + 1), tried++) {
    const end = closingBrace(content, start);
    if (end === -1) continue;
    const found = entriesOf(parsed(content.slice(start, end + 1)));
    if (found) return found;
  }
  return undefined;
}

const OUR_LANGUAGES = new Set<string>(LANGUAGES);
/** `es`, `ES`, `es-ES`, `es_419` → `es`; anything else as written. */
const languageCode = (value: string) => {
  const primary = value.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return OUR_LANGUAGES.has(primary) ? primary : value;
};

/** The texts of the answer for the targets asked for (the first of each), by `language|TONE`. */
function textsFor(entries: unknown[], targets: TranslationTarget[]): Map<string, string> {
  const wanted = new Set(targets.map(textKey));
  const found = new Map<string, string>();
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    const { language, tone, text } = entry as Record<string, unknown>;
    if (typeof language !== 'string' || typeof tone !== 'string' || typeof text !== 'string' || !text.trim()) continue;
    const key = textKey({ language: languageCode(language), tone: tone.trim().toUpperCase() });
    if (wanted.has(key) && !found.has(key)) found.set(key, text);
  }
  return found;
}

/** How the answer's shape is asked for, strictest first; a server that refuses one gets the next. */
const RESPONSE_FORMATS = ['json_schema', 'json_object', 'none'] as const;
type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

function responseFormat(format: ResponseFormat) {
  if (format === 'json_schema') return { response_format: { type: 'json_schema' as const, json_schema: { name: 'translations', strict: true, schema: RESPONSE_SCHEMA } } };
  if (format === 'json_object') return { response_format: { type: 'json_object' as const } };
  return {};
}

/** A chat completion as the server wrote it (the SDK does not check its shape either); not JSON is a failed try. */
function completionOf(body: Buffer): Partial<OpenAI.ChatCompletion> {
  try {
    return JSON.parse(body.toString('utf8')) as Partial<OpenAI.ChatCompletion>;
  } catch {
    throw new Error(`the translation server answered no JSON (${body.length} bytes)`);
  }
}

export function createOpenAiTranslationProvider(options: {
  apiKey: string | undefined;
  baseUrl: string | undefined;
  model: string;
  timeoutMs?: number;
  log?: FastifyBaseLogger | undefined;
}): TranslationProvider {
  const transport = createProviderFetch();
  const timeoutMs = options.timeoutMs ?? 60_000;
  const client = new OpenAI({
    fetch: transport.fetch,
    apiKey: options.apiKey ?? 'not-needed',
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    // The job queue retries with back-off; the SDK's own retries would only delay that.
    maxRetries: 0,
    timeout: timeoutMs,
  });
  /** The strictest format this server has not refused (json_schema until it does). */
  let format: ResponseFormat = 'json_schema';

  /** One chat completion, in the strictest format the server takes. */
  async function complete(request: TranslationRequest) {
    const messages = [
      { role: 'system' as const, content: instructionFor(request) },
      { role: 'user' as const, content: request.text },
    ];
    for (let index = RESPONSE_FORMATS.indexOf(format); ; index++) {
      const current = RESPONSE_FORMATS[index]!;
      try {
        const answer = await postAsSdk(client, transport, '/chat/completions', { model: options.model, temperature: 0.2, messages, ...responseFormat(current) }, { timeoutMs, accept: 'application/json' });
        const completion = completionOf(answer.body);
        if (RESPONSE_FORMATS.indexOf(current) > RESPONSE_FORMATS.indexOf(format)) {
          options.log?.warn({ refused: format, now: current }, 'the translation server refused response_format: asking with a plainer format from now on');
          format = current;
        }
        return completion;
      } catch (error) {
        if (index + 1 < RESPONSE_FORMATS.length && refusesResponseFormat(error)) continue;
        throw withRetryAfter(error);
      }
    }
  }

  /** The targets in one request; an answer cut at the length limit is asked for again in halves. */
  async function translateSome(request: TranslationRequest): Promise<TranslationResult[]> {
    const { targets } = request;
    const choice = (await complete(request)).choices?.[0];
    if (choice?.finish_reason === 'length') {
      // Nothing in a cut answer is trusted (a complete-looking text may be cut too). Fewer targets
      // make a shorter answer; one target cut is a failed try.
      if (targets.length === 1) throw new Error(`the answer for ${targets[0]!.language} ${targets[0]!.tone} was cut at the model's length limit`);
      const half = Math.ceil(targets.length / 2);
      const parts = await Promise.all([translateSome({ ...request, targets: targets.slice(0, half) }), translateSome({ ...request, targets: targets.slice(half) })]);
      return parts.flat();
    }
    const content = choice?.message?.content;
    if (!content) throw new Error('the model answered no content');
    const entries = readAnswer(content);
    if (!entries) throw new Error('the model answered no complete JSON object of translations');
    const found = textsFor(entries, targets);
    if (found.size === 0) throw new Error('the model answered none of the targets');
    return targets.map((target): TranslationResult => {
      const text = found.get(textKey(target));
      return text === undefined ? { state: 'retry', reason: `the model left out ${target.language} ${target.tone}` } : { state: 'done', content: text, tone: target.tone };
    });
  }

  return {
    name: 'openai',
    supportsTone: true,
    followsInstructions: true,
    canTranslate: () => true,

    async translate(request): Promise<TranslationResult[]> {
      if (request.targets.length === 0) return [];
      return translateSome(request);
    },

    async health() {
      try {
        await client.models.list({ timeout: 3000 });
        return 'ok';
      } catch {
        return 'degraded';
      }
    },

    close: transport.close,
  };
}
