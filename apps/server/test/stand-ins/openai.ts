// A stand-in for an OpenAI-compatible server, for tests only: the product talks to it through
// the official SDK exactly as it would to OpenAI, vLLM or Ollama. Chat completions "translate"
// by tagging the text with the target (`[es FORMAL] Hello`), read from the instruction the
// product wrote; transcriptions answer a text the test sets ("hello from the stand-in" by
// default); speech answers half a second of silence as a valid Ogg Opus or MP3 body. Every request
// is recorded (an uploaded file as its name, type and size); failures can be ordered.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  path: string;
  body: unknown;
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
  /** Speech requests so far; `body` is the JSON the SDK sent (model, voice, input, response_format). */
  speeches(): RecordedRequest[];
  /** What transcriptions answer from now on (undefined: the default "hello from the stand-in"). */
  transcriptFor(text: string | undefined): void;
  /** The next `count` requests answer 500. */
  failNext(count: number): void;
  /** Every request answers 500 until called with false. */
  failAlways(on: boolean): void;
  /** Answers wait this long (to hold translations pending). */
  delay(ms: number): void;
  /** Appended to every translation from now on (what a careless model might write). */
  translationSuffix(text: string): void;
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

export async function startOpenAiStandIn(): Promise<StandIn> {
  const requests: RecordedRequest[] = [];
  let failures = 0;
  let failing = false;
  let wait = 0;
  let transcript: string | undefined;
  let suffix = '';
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const path = (request.url ?? '').split('?')[0] ?? '';
      requests.push({ path, body });
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
      if (failing || failures > 0) {
        failures = Math.max(0, failures - 1);
        return send(500, { error: { message: 'stand-in failure', type: 'server_error' } });
      }
      if (request.method === 'GET' && path === '/v1/models') return send(200, { object: 'list', data: [{ id: 'stand-in', object: 'model' }] });
      if (request.method === 'POST' && path === '/v1/chat/completions') {
        const messages = (body as { messages?: { role: string; content: string }[] }).messages ?? [];
        const instruction = messages.find((m) => m.role === 'system')?.content ?? '';
        const text = messages.find((m) => m.role === 'user')?.content ?? '';
        const translations = instruction
          .split('\n')
          .map((line) => TARGET_LINE.exec(line))
          .filter((match): match is RegExpExecArray => match !== null)
          .map(([, language, tone]) => ({ language, tone, text: `[${language} ${tone}] ${text}${suffix}` }));
        return send(200, {
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'stand-in',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify({ translations }) } }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        });
      }
      if (request.method === 'POST' && path === '/v1/audio/transcriptions') {
        const upload = body as TranscriptionBody;
        if (!upload.file?.size) return send(400, { error: { message: 'no file', type: 'invalid_request_error' } });
        return send(200, { text: transcript ?? DEFAULT_TRANSCRIPT });
      }
      if (request.method === 'POST' && path === '/v1/audio/speech') {
        const format = (body as { response_format?: string }).response_format ?? 'mp3';
        if (format !== 'opus' && format !== 'mp3') return send(400, { error: { message: `stand-in speaks opus or mp3, not ${format}`, type: 'invalid_request_error' } });
        response.writeHead(200, { 'content-type': format === 'opus' ? 'audio/ogg' : 'audio/mpeg' });
        return response.end(format === 'opus' ? SILENT_OGG_OPUS : SILENT_MP3);
      }
      return send(404, { error: { message: `no ${request.method} ${path}`, type: 'invalid_request_error' } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    completions: () => requests.filter((r) => r.path === '/v1/chat/completions'),
    transcriptions: () => requests.filter((r) => r.path === '/v1/audio/transcriptions'),
    speeches: () => requests.filter((r) => r.path === '/v1/audio/speech'),
    transcriptFor: (text) => {
      transcript = text;
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
