// The OpenAI-compatible stand-in (apps/server/test/stand-ins/openai.ts) running in the bench's own
// process, timed and told apart per utterance, without changing it:
//   - every request it serves is timed from its headers to the end of its answer ("provider
//     time") through node's HTTP diagnostics channels, on the bench's clock (performance.now());
//   - each request is tied to an utterance by a key found in its body: the uploaded WAV carries it
//     (in its first samples), the transcript the stand-in answers carries it on, and so do the texts to
//     translate and to speak;
//   - the transcript is made per utterance (`transcriptOf(key)`): the stand-in answers one set
//     text, which the bench sets for each transcription request at the moment the stand-in records
//     it, just before it answers (same tick when it answers at once). Distinct texts keep the
//     server's translation cache from answering in the provider's place.
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RecordedRequest, StandIn, TranscriptionBody } from '../../apps/server/test/stand-ins/openai';

export type ProviderKind = 'transcription' | 'translation' | 'speech' | 'other';

export interface ProviderCall {
  kind: ProviderKind;
  key: string | undefined;
  /** performance.now() at the request's headers and at the end of the answer. */
  start: number;
  end: number;
  status: number;
}

export interface StandInClock {
  calls: ProviderCall[];
  /** The calls of one utterance, by start. */
  of(key: string): ProviderCall[];
  stop(): void;
}

const KINDS: Record<string, ProviderKind> = {
  '/v1/audio/transcriptions': 'transcription',
  '/v1/chat/completions': 'translation',
  '/v1/audio/speech': 'speech',
};

export function clockStandIn(standIn: StandIn, options: { key: RegExp; transcriptOf: (key: string | undefined) => string }): StandInClock {
  const port = Number(new URL(standIn.url).port);
  const calls: ProviderCall[] = [];
  const byKey = new Map<string, ProviderCall[]>();
  const findKey = (text: string) => options.key.exec(text)?.[0];

  const onStart = (message: unknown) => {
    const { request, response, server } = message as { request: IncomingMessage; response: ServerResponse; server: Server };
    const address = server.address();
    if (typeof address !== 'object' || address?.port !== port) return;
    const start = performance.now();
    const chunks: Buffer[] = [];
    // Sees every chunk the stand-in reads (its async iterator reads; 'data' follows the reads).
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.once('finish', () => {
      const end = performance.now();
      const kind = KINDS[(request.url ?? '').split('?')[0] ?? ''] ?? 'other';
      const key = findKey(Buffer.concat(chunks).toString('latin1'));
      const call: ProviderCall = { kind, key, start, end, status: response.statusCode };
      calls.push(call);
      if (key) {
        const list = byKey.get(key) ?? [];
        list.push(call);
        byKey.set(key, list);
      }
    });
  };
  diagnostics.subscribe('http.server.request.start', onStart);

  // The stand-in records a request once its body is read, then answers; a transcription's answer
  // is the text set now.
  const requests = standIn.requests;
  const push = requests.push.bind(requests);
  requests.push = (...items: RecordedRequest[]) => {
    for (const item of items) {
      if (item.path !== '/v1/audio/transcriptions') continue;
      const file = (item.body as TranscriptionBody).file;
      standIn.transcriptFor(options.transcriptOf(file ? findKey(file.data.toString('latin1')) : undefined));
    }
    return push(...items);
  };

  return {
    calls,
    of: (key) => [...(byKey.get(key) ?? [])].sort((a, b) => a.start - b.start),
    stop() {
      diagnostics.unsubscribe('http.server.request.start', onStart);
      requests.push = push;
    },
  };
}
