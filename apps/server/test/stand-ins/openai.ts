// A stand-in for an OpenAI-compatible server, for tests only: the product talks to it through
// the official SDK exactly as it would to OpenAI, vLLM or Ollama. Chat completions "translate"
// by tagging the text with the target (`[es FORMAL] Hello`), read from the instruction the
// product wrote; transcriptions answer a text the test sets ("hello from the stand-in" by
// default); speech answers half a second of silence as a valid Ogg Opus or MP3 body. Every request
// is recorded (an uploaded file as its name, type and size, and when it came); failures can be
// ordered, and so can the ways real servers misbehave (`misbehave`): answers in a ```json fence or
// with words around them, cut by the length limit, targets left out or nobody asked for, 429 with
// Retry-After, no support for `response_format`, speech bodies that are not what was asked.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRealtimeStandIn, type RealtimeStandIn } from './openai-realtime';

export interface RecordedRequest {
  path: string;
  body: unknown;
  /** Date.now() when it arrived. */
  at: number;
}

/** The endpoints a misbehaviour applies to. */
export type Endpoint = 'completions' | 'transcriptions' | 'speech';

/** A way an OpenAI-compatible server answers badly. */
export type Misbehaviour =
  /** Any endpoint: this status, with a Retry-After header when given, and an OpenAI-style error body. */
  | { kind: 'status'; status: number; retryAfter?: string }
  /** Completions: the JSON object inside a ```json fence. */
  | { kind: 'fenced' }
  /** Completions: the JSON object with words before and after it. */
  | { kind: 'chatty' }
  /** Completions: the JSON cut off part way (finish_reason `length` by default, as when the model ran out of tokens). */
  | { kind: 'truncated'; finishReason?: 'length' | 'stop' }
  /** Completions: complete JSON, but every text cut short and finish_reason `length`. */
  | { kind: 'cut-short' }
  /** Completions: cut off (finish_reason `length`) when asked for more than `targets` targets, else well (give it `times: Infinity`). */
  | { kind: 'too-long-over'; targets: number }
  /** Completions: every target but those of `language` (and `tone`, when given). */
  | { kind: 'leave-out'; language: string; tone?: string }
  /** Completions: entries nobody asked for around the right ones (another language, a null, a number for a text). */
  | { kind: 'extras' }
  /** Completions: languages written as regional tags in capitals (`ES-ES`), tones in lower case. */
  | { kind: 'loose-labels' }
  /** Speech: this body with status 200. */
  | { kind: 'body'; contentType: string; body: Buffer }
  /** Completions: the glossary's required renderings in the instruction are not followed. */
  | { kind: 'ignore-glossary' };

export interface MisbehaviourOptions {
  /** How many matching requests it applies to (1 by default; Infinity: until `reset`). */
  times?: number;
  /**
   * Which requests: a string found in the request's text (a completion's message, the text to
   * speak), or a test of the recorded request. Every request of the endpoint without it.
   */
  when?: string | ((request: RecordedRequest) => boolean);
}

export interface StandIn {
  url: string;
  /** Base URL for OPENAI_BASE_URL (…/v1). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Chat completion requests so far. */
  completions(): RecordedRequest[];
  /** Transcription requests so far; `body` is a TranscriptionBody. */
  transcriptions(): RecordedRequest[];
  /** The user message (the text to translate) of a recorded completion request. */
  textOf(request: RecordedRequest): string;
  /** The `- xx (...), TONE:` target lines of a recorded completion request, as `xx TONE`. */
  targetsOf(request: RecordedRequest): string[];
  /** Speech requests so far; `body` is the JSON the SDK sent (model, voice, input, response_format). */
  speeches(): RecordedRequest[];
  /**
   * What transcriptions answer from now on (undefined: the default "hello from the stand-in");
   * with `when`, only for the uploads it picks (e.g. by size), ahead of the default.
   */
  transcriptFor(text: string | undefined, when?: (upload: TranscriptionBody) => boolean): void;
  /** The next `count` requests answer 500. */
  failNext(count: number): void;
  /** Every request answers 500 until called with false. */
  failAlways(on: boolean): void;
  /** Answers wait this long (to hold translations pending). */
  delay(ms: number): void;
  /** Appended to every translation from now on (what a careless model might write). */
  translationSuffix(text: string): void;
  /** Answers matching requests of `endpoint` badly (the first matching rule applies). */
  misbehave(endpoint: Endpoint, how: Misbehaviour, options?: MisbehaviourOptions): void;
  /**
   * Chat completions asking for one of these `response_format` types answer 400, as servers
   * without structured output do: `openai` style (`{"error": {"message"...}}`, mentioning
   * response_format) or `vllm` style (`{"object": "error", "message"...}` at the top, which the
   * SDK does not read). Without any response_format the stand-in writes its JSON in a ```json
   * fence, as chat models without a format often do.
   */
  refuseResponseFormats(types: string[], style?: 'openai' | 'vllm'): void;
  /** Forgets every misbehaviour and refused format. */
  reset(): void;
  /** The realtime transcription at /v1/realtime (openai-realtime.ts). */
  realtime: RealtimeStandIn;
  close(): Promise<void>;
}

/** How a multipart transcription request is recorded. */
export interface TranscriptionBody {
  model: string | undefined;
  language: string | undefined;
  response_format: string | undefined;
  file: { name: string; type: string; size: number; data: Buffer } | undefined;
}

export const DEFAULT_TRANSCRIPT = 'hello from the stand-in';

const TARGET_LINE = /^- ([a-z]{2}) \(.*\), ([A-Z_]+):/;

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const contentType = request.headers['content-type'] ?? '';
  if (contentType.startsWith('multipart/form-data')) {
    // undici's own multipart parser, through the fetch Response.
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    const file = form.get('file');
    const body: TranscriptionBody = {
      model: field('model'),
      language: field('language'),
      response_format: field('response_format'),
      file: file && typeof file !== 'string' ? { name: file.name, type: file.type, size: file.size, data: Buffer.from(await file.arrayBuffer()) } : undefined,
    };
    return body;
  }
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// --- half a second of silence, as the bodies /v1/audio/speech answers -------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let crc = n << 24;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  return crc >>> 0;
});

function oggPage(packets: Buffer[], granule: bigint, flags: number, sequence: number): Buffer {
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(0x5057a1d, 14);
  header.writeUInt32LE(sequence, 18);
  const lacing = packets.flatMap((packet) => [...Array<number>(Math.floor(packet.length / 255)).fill(255), packet.length % 255]);
  header[26] = lacing.length;
  const page = Buffer.concat([header, Buffer.from(lacing), ...packets]);
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  page.writeUInt32LE(crc, 22);
  return page;
}

/** Ogg Opus, mono, `frames` × 20 ms of libopus's silent CELT frame (F8 FF FE). */
function silentOggOpus(frames: number): Buffer {
  const preSkip = 312;
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(48_000, 12);
  const vendor = Buffer.from('parla stand-in');
  const tags = Buffer.alloc(16 + vendor.length);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  const audio = Array.from({ length: frames }, () => Buffer.from([0xf8, 0xff, 0xfe]));
  return Buffer.concat([
    oggPage([head], 0n, 0x02, 0),
    oggPage([tags], 0n, 0, 1),
    oggPage(audio, BigInt(preSkip + frames * 960), 0x04, 2),
  ]);
}

/** MPEG-1 Layer III, 48 kHz mono 32 kbit/s: `frames` × 24 ms of empty frames. */
function silentMp3(frames: number): Buffer {
  const frame = Buffer.alloc(96);
  frame.writeUInt32BE(0xfffb14c0, 0);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** Half a second each. */
export const SILENT_OGG_OPUS = silentOggOpus(25);
export const SILENT_MP3 = silentMp3(21);
/** A well-formed Ogg Opus stream with its headers and no sound at all (0 s). */
export const EMPTY_OGG_OPUS = silentOggOpus(0);

const messagesOf = (body: unknown) => (body as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [];
const instructionOf = (body: unknown) => messagesOf(body).find((m) => m.role === 'system')?.content ?? '';
const userTextOf = (body: unknown) => messagesOf(body).find((m) => m.role === 'user')?.content ?? '';
const targetLines = (body: unknown) =>
  instructionOf(body)
    .split('\n')
    .map((line) => TARGET_LINE.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, language, tone]) => ({ language: language!, tone: tone! }));

const GLOSSARY_LINE = /^- "(.+)" → ([a-z]{2,3}): "(.+)"$/;
/** The glossary lines of an instruction (`- "standup" → es: "reunión diaria"`). */
const glossaryLines = (body: unknown) =>
  instructionOf(body)
    .split('\n')
    .map((line) => GLOSSARY_LINE.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, term, language, rendering]) => ({ term: term!, language: language!, rendering: rendering! }));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text a misbehaviour's `when` string is looked for in. */
function searchableText(path: string, body: unknown): string {
  if (path === '/v1/chat/completions') return userTextOf(body);
  if (path === '/v1/audio/speech') return String((body as { input?: unknown }).input ?? '');
  return '';
}

const ENDPOINT_PATHS: Record<Endpoint, string> = {
  completions: '/v1/chat/completions',
  transcriptions: '/v1/audio/transcriptions',
  speech: '/v1/audio/speech',
};

interface Rule {
  path: string;
  how: Misbehaviour;
  left: number;
  when: MisbehaviourOptions['when'];
}

export async function startOpenAiStandIn(): Promise<StandIn> {
  const requests: RecordedRequest[] = [];
  let failures = 0;
  let failing = false;
  let wait = 0;
  let transcript: string | undefined;
  const transcripts: { text: string | undefined; when: (upload: TranscriptionBody) => boolean }[] = [];
  let suffix = '';
  let rules: Rule[] = [];
  let refused: { types: string[]; style: 'openai' | 'vllm' } = { types: [], style: 'openai' };

  /** The first rule for this request still in force, used up by one. */
  function ruleFor(recorded: RecordedRequest): Misbehaviour | undefined {
    const rule = rules.find((candidate) => {
      if (candidate.path !== recorded.path || candidate.left <= 0) return false;
      if (candidate.when === undefined) return true;
      if (typeof candidate.when === 'string') return searchableText(recorded.path, recorded.body).includes(candidate.when);
      return candidate.when(recorded);
    });
    if (!rule) return undefined;
    rule.left -= 1;
    return rule.how;
  }

  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const path = (request.url ?? '').split('?')[0] ?? '';
      const recorded: RecordedRequest = { path, body, at: Date.now() };
      requests.push(recorded);
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify(payload));
      };
      if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
      if (failing || failures > 0) {
        failures = Math.max(0, failures - 1);
        return send(500, { error: { message: 'stand-in failure', type: 'server_error' } });
      }
      if (request.method === 'GET' && path === '/v1/models') return send(200, { object: 'list', data: [{ id: 'stand-in', object: 'model' }] });
      const how = request.method === 'POST' ? ruleFor(recorded) : undefined;
      if (how?.kind === 'status') {
        const headers: Record<string, string> = how.retryAfter === undefined ? {} : { 'retry-after': how.retryAfter };
        const type = how.status === 429 ? 'rate_limit_exceeded' : how.status >= 500 ? 'server_error' : 'invalid_request_error';
        return send(how.status, { error: { message: `stand-in answers ${how.status}`, type } }, headers);
      }
      if (request.method === 'POST' && path === '/v1/chat/completions') {
        const format = (body as { response_format?: { type?: string } }).response_format?.type;
        if (format && refused.types.includes(format)) {
          const message = `response_format type '${format}' is not supported by this server`;
          return refused.style === 'vllm'
            ? send(400, { object: 'error', message, type: 'BadRequestError', param: null, code: 400 })
            : send(400, { error: { message, type: 'invalid_request_error', param: 'response_format', code: null } });
        }
        const text = userTextOf(body);
        const targets = targetLines(body);
        // A glossary in the instruction is followed (each term written as required for the
        // target), as a model mostly does, unless told to ignore it ('ignore-glossary').
        const required = how?.kind === 'ignore-glossary' ? [] : glossaryLines(body);
        const followed = (language: string) =>
          required.filter((line) => line.language === language).reduce((out, line) => out.replace(new RegExp(escapeRegExp(line.term), 'gi'), line.rendering), text);
        const rendering = (language: string, tone: string) => `[${language} ${tone}] ${followed(language)}${suffix}`;
        let translations: unknown[] = targets.map(({ language, tone }) => ({ language, tone, text: rendering(language, tone) }));
        let finishReason = 'stop';
        let content: string | undefined;
        switch (how?.kind) {
          case 'leave-out':
            translations = targets
              .filter(({ language, tone }) => !(language === how.language && (how.tone === undefined || tone === how.tone)))
              .map(({ language, tone }) => ({ language, tone, text: rendering(language, tone) }));
            break;
          case 'extras':
            translations = [
              null,
              { language: targets[0]?.language, tone: targets[0]?.tone, text: 42 },
              ...translations,
              { language: 'it', tone: 'DEFAULT', text: `[it DEFAULT] ${text}` },
              'and one more',
            ];
            break;
          case 'loose-labels':
            translations = targets.map(({ language, tone }) => ({ language: `${language}-${language}`.toUpperCase(), tone: tone.toLowerCase(), text: rendering(language, tone) }));
            break;
          case 'cut-short':
            translations = targets.map(({ language, tone }) => {
              const full = rendering(language, tone);
              return { language, tone, text: full.slice(0, Math.ceil(full.length / 2)) };
            });
            finishReason = 'length';
            break;
          default:
            break;
        }
        const json = JSON.stringify({ translations });
        const cut = () => json.slice(0, Math.floor(json.length * 0.6));
        if (how?.kind === 'fenced') content = `\`\`\`json\n${JSON.stringify({ translations }, null, 2)}\n\`\`\``;
        else if (how?.kind === 'chatty') content = `Sure! Here are the translations you asked for:\n${json}\nLet me know if you need anything else.`;
        else if (how?.kind === 'truncated') {
          content = cut();
          finishReason = how.finishReason ?? 'length';
        } else if (how?.kind === 'too-long-over' && targets.length > how.targets) {
          content = cut();
          finishReason = 'length';
        } else if (!format) content = `\`\`\`json\n${json}\n\`\`\``;
        else content = json;
        return send(200, {
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'stand-in',
          choices: [{ index: 0, finish_reason: finishReason, message: { role: 'assistant', content } }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        });
      }
      if (request.method === 'POST' && path === '/v1/audio/transcriptions') {
        const upload = body as TranscriptionBody;
        if (!upload.file?.size) return send(400, { error: { message: 'no file', type: 'invalid_request_error' } });
        const picked = transcripts.find((item) => item.when(upload));
        return send(200, { text: (picked ? picked.text : transcript) ?? DEFAULT_TRANSCRIPT });
      }
      if (request.method === 'POST' && path === '/v1/audio/speech') {
        const format = (body as { response_format?: string }).response_format ?? 'mp3';
        if (format !== 'opus' && format !== 'mp3') return send(400, { error: { message: `stand-in speaks opus or mp3, not ${format}`, type: 'invalid_request_error' } });
        if (how?.kind === 'body') {
          response.writeHead(200, { 'content-type': how.contentType });
          return response.end(how.body);
        }
        response.writeHead(200, { 'content-type': format === 'opus' ? 'audio/ogg' : 'audio/mpeg' });
        return response.end(format === 'opus' ? SILENT_OGG_OPUS : SILENT_MP3);
      }
      return send(404, { error: { message: `no ${request.method} ${path}`, type: 'invalid_request_error' } });
    })().catch(() => {
      // The caller went away mid-request (a server process killed by a test): nothing to answer.
      response.destroy();
    });
  });
  const realtime = createRealtimeStandIn(() => transcript ?? DEFAULT_TRANSCRIPT);
  server.on('upgrade', (request, socket, head) => realtime.handleUpgrade(request, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    completions: () => requests.filter((r) => r.path === '/v1/chat/completions'),
    transcriptions: () => requests.filter((r) => r.path === '/v1/audio/transcriptions'),
    speeches: () => requests.filter((r) => r.path === '/v1/audio/speech'),
    textOf: (recorded) => userTextOf(recorded.body),
    targetsOf: (recorded) => targetLines(recorded.body).map(({ language, tone }) => `${language} ${tone}`),
    transcriptFor: (text, when) => {
      if (when) transcripts.push({ text, when });
      else transcript = text;
    },
    failNext: (count) => {
      failures = count;
    },
    failAlways: (on) => {
      failing = on;
    },
    delay: (ms) => {
      wait = ms;
    },
    translationSuffix: (text) => {
      suffix = text;
    },
    misbehave: (endpoint, how, options = {}) => {
      rules.push({ path: ENDPOINT_PATHS[endpoint], how, left: options.times ?? 1, when: options.when });
    },
    refuseResponseFormats: (types, style = 'openai') => {
      refused = { types, style };
    },
    reset: () => {
      rules = [];
      refused = { types: [], style: 'openai' };
      transcripts.length = 0;
    },
    realtime,
    close: () =>
      new Promise<void>((resolve) => {
        realtime.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
