// The `fetch` the OpenAI SDK is given for the providers' servers: undici's request API on a
// keep-alive pool of its own, the whole answer read before it is handed over. Node's global fetch
// (the same undici under WHATWG streams and Request/Response objects) costs about 0.9 ms of CPU a
// request against 0.3-0.45 ms this way (a segment asks for up to ten: transcript, translation,
// eight voices). Bodies other than text or bytes (the transcription's multipart form) and
// anything this does not know go through the global fetch unchanged. Answers are never streamed
// here (no provider call asks for a stream). The JSON calls of a segment (its translation, its
// voices) skip the SDK altogether (`postAsSdk`): ~70 µs of CPU a request less again, and a
// voice's request and answer on the one thread were what spaced a segment's eight voices out.
import OpenAI from 'openai';
import { Agent, request } from 'undici';

/** A provider's answer read whole: its status, headers and body. */
export interface ProviderAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface ProviderFetch {
  fetch: typeof fetch;
  /**
   * A JSON POST on the same pool, without the SDK's Request and Response objects (a segment's
   * voices are eight such requests at once). Any status is answered; a connection failure is a
   * TypeError('fetch failed'), no answer within `timeoutMs` an AbortError, as with `fetch`.
   */
  postJson(url: string, body: unknown, options: { headers: Record<string, string>; timeoutMs: number }): Promise<ProviderAnswer>;
  close(): Promise<void>;
}

const abortError = () => new DOMException('This operation was aborted', 'AbortError');

function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  const plain: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    plain[name] = value;
  });
  return plain;
}

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

export function createProviderFetch(): ProviderFetch {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 32 });

  async function providerFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    const body = init.body;
    const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    if (input instanceof Request || !plainBody || (init.redirect !== undefined && init.redirect !== 'manual' && init.redirect !== 'follow')) return fetch(input, init);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw abortError();
    try {
      const answer = await request(input, {
        method: (init.method ?? 'GET') as 'GET',
        headers: plainHeaders(init.headers),
        body: body ?? null,
        ...(signal ? { signal } : {}),
        dispatcher: agent,
      });
      const data = await answer.body.arrayBuffer();
      const headers = headersOf(answer.headers);
      const empty = answer.statusCode === 204 || answer.statusCode === 304 || (init.method ?? 'GET').toUpperCase() === 'HEAD';
      return new Response(empty ? null : data, { status: answer.statusCode, headers });
    } catch (error) {
      // The SDK tells a timeout (its own abort) from a connection failure by the error's name.
      if (signal?.aborted) throw abortError();
      throw new TypeError('fetch failed', { cause: error });
    }
  }

  async function postJson(url: string, body: unknown, options: { headers: Record<string, string>; timeoutMs: number }): Promise<ProviderAnswer> {
    // The whole exchange within the time, as the SDK's timeout (a body sent slowly is not waited out).
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const answer = await request(url, {
        method: 'POST',
        headers: { ...options.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        dispatcher: agent,
        signal,
      });
      return { status: answer.statusCode, headers: headersOf(answer.headers), body: Buffer.from(await answer.body.arrayBuffer()) };
    } catch (error) {
      if (signal.aborted) throw abortError();
      throw new TypeError('fetch failed', { cause: error });
    }
  }

  return { fetch: providerFetch as typeof fetch, postJson, close: () => agent.close() };
}

/**
 * A JSON POST to `path` under the SDK client's base URL with its key, without the SDK (its request
 * and answer objects cost ~3 times the CPU of the request itself: a segment's eight voices, its
 * translation). Answers a 2xx; its errors are the SDK's: a status is an APIError of its class (a
 * 429's headers kept for its Retry-After, the message from the body's `error`), a timeout an
 * APIConnectionTimeoutError, a failed connection an APIConnectionError.
 */
export async function postAsSdk(client: OpenAI, transport: ProviderFetch, path: string, body: object, options: { timeoutMs: number; accept: string }): Promise<ProviderAnswer> {
  const answer = await transport
    .postJson(`${client.baseURL.replace(/\/+$/, '')}${path}`, body, { headers: { authorization: `Bearer ${client.apiKey}`, accept: options.accept }, timeoutMs: options.timeoutMs })
    .catch((error: unknown) => {
      throw error instanceof DOMException && error.name === 'AbortError' ? new OpenAI.APIConnectionTimeoutError() : new OpenAI.APIConnectionError({ cause: error as Error });
    });
  if (answer.status >= 200 && answer.status < 300) return answer;
  const text = answer.body.toString('utf8');
  let json: object | undefined;
  try {
    json = JSON.parse(text) as object;
  } catch {
    json = undefined;
  }
  throw OpenAI.APIError.generate(answer.status, json, json === undefined ? text || undefined : undefined, answer.headers);
}
