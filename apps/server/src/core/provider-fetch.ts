// The `fetch` the OpenAI SDK is given for the providers' servers: undici's request API on a
// keep-alive pool of its own, the whole answer read before it is handed over. Node's global fetch
// (the same undici under WHATWG streams and Request/Response objects) costs about 0.9 ms of CPU a
// request against 0.3-0.45 ms this way (a segment asks for up to ten: transcript, translation,
// eight voices). Bodies other than text or bytes (the transcription's multipart form) and
// anything this does not know go through the global fetch unchanged. Answers are never streamed
// here (no provider call asks for a stream).
import { Agent, request } from 'undici';

export interface ProviderFetch {
  fetch: typeof fetch;
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
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
      }
      const empty = answer.statusCode === 204 || answer.statusCode === 304 || (init.method ?? 'GET').toUpperCase() === 'HEAD';
      return new Response(empty ? null : data, { status: answer.statusCode, headers });
    } catch (error) {
      // The SDK tells a timeout (its own abort) from a connection failure by the error's name.
      if (signal?.aborted) throw abortError();
      throw new TypeError('fetch failed', { cause: error });
    }
  }

  return { fetch: providerFetch as typeof fetch, close: () => agent.close() };
}
