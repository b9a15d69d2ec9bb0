// Translation by any OpenAI-compatible chat model (OpenAI, Azure, Groq, vLLM, Ollama, LocalAI...):
// one request per source text for all its (language, tone) targets, answered as structured JSON.
import OpenAI from 'openai';
import type { Language, Tone } from '@parla/contract/constants';
import type { TranslationProvider, TranslationRequest, TranslationResult } from './provider';

const languageName = new Intl.DisplayNames(['en'], { type: 'language' });
const nameOf = (code: Language) => `${languageName.of(code) ?? code} (${code})`;

/** What each tone asks of the writer; DEFAULT keeps the sender's own register. */
const TONE_GUIDE: Record<Tone, string> = {
  DEFAULT: "keep the sender's own register",
  ACADEMIC: 'precise, scholarly',
  APPRECIATIVE: 'warm and thankful',
  ANALYTICAL: 'logical and exact',
  CASUAL: 'relaxed, everyday',
  CHEERFUL: 'upbeat and bright',
  DESCRIPTIVE: 'vivid and detailed',
  FORMAL: 'polite and formal (formal address where the language has it)',
  FRIENDLY: 'kind and approachable',
  HUMOROUS: 'light and witty, without changing the facts',
  INFORMATIVE: 'clear and factual',
  INSPIRATIONAL: 'encouraging and uplifting',
  INTIMATE: 'close and personal',
  PERSUASIVE: 'convincing',
  SERIOUS: 'earnest and sober',
};

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
  ];
  if (request.domain && request.domain !== 'DEFAULT') {
    lines.push(`The conversation is about ${request.domain.toLowerCase().replace(/_/g, ' ')}: use that field's usual terms.`);
  }
  lines.push('Targets (language code, tone, what the tone means):');
  for (const target of request.targets) lines.push(`- ${target.language} (${nameOf(target.language)}), ${target.tone}: ${TONE_GUIDE[target.tone]}`);
  lines.push('Answer with JSON: {"translations": [{"language": code, "tone": TONE, "text": the rendering}, ...]}, one entry per target.');
  return lines.join('\n');
}

export function createOpenAiTranslationProvider(options: { apiKey: string | undefined; baseUrl: string | undefined; model: string; timeoutMs?: number }): TranslationProvider {
  const client = new OpenAI({
    apiKey: options.apiKey ?? 'not-needed',
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    // The job queue retries with back-off; the SDK's own retries would only delay that.
    maxRetries: 0,
    timeout: options.timeoutMs ?? 60_000,
  });

  return {
    name: 'openai',
    supportsTone: true,
    canTranslate: () => true,

    async translate(request): Promise<TranslationResult[]> {
      if (request.targets.length === 0) return [];
      const completion = await client.chat.completions.create({
        model: options.model,
        temperature: 0.2,
        messages: [
          { role: 'system', content: instructionFor(request) },
          { role: 'user', content: request.text },
        ],
        response_format: { type: 'json_schema', json_schema: { name: 'translations', strict: true, schema: RESPONSE_SCHEMA } },
      });
      const content = completion.choices[0]?.message.content;
      if (!content) throw new Error('the model answered no content');
      const parsed = JSON.parse(content) as { translations?: { language?: unknown; tone?: unknown; text?: unknown }[] };
      const found = new Map<string, string>();
      for (const item of parsed.translations ?? []) {
        if (typeof item.language === 'string' && typeof item.tone === 'string' && typeof item.text === 'string') {
          found.set(`${item.language}|${item.tone}`, item.text);
        }
      }
      return request.targets.map((target) => {
        const text = found.get(`${target.language}|${target.tone}`);
        // A missing target is a malformed answer: the job is retried.
        if (text === undefined) throw new Error(`the model left out ${target.language} ${target.tone}`);
        return { state: 'done', content: text, tone: target.tone };
      });
    },

    async health() {
      try {
        await client.models.list({ timeout: 3000 });
        return 'ok';
      } catch {
        return 'degraded';
      }
    },

    async close() {},
  };
}
