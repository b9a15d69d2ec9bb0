// The fetch the OpenAI SDK is given (platform/provider-fetch.ts), against a real local HTTP server:
// what the SDK reads of an answer (status, headers such as Retry-After, JSON and binary bodies)
// is what the global fetch would give; a timeout is an abort, a refused connection a fetch
// failure; a multipart body goes through the global fetch. Its JSON POST (a voice's request,
// without the SDK) answers the same way.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderFetch } from '../src/platform/provider-fetch';

const audio = Buffer.from([0x4f, 0x67, 0x67, 0x53, 0, 1, 2, 255]);
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
let server: http.Server;
let base: string;
const transport = createProviderFetch();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url === '/v1/audio/speech') {
        res.writeHead(200, { 'content-type': 'audio/ogg' }).end(audio);
      } else if (req.url === '/v1/busy') {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' }).end(JSON.stringify({ error: { message: 'slow down' } }));
      } else if (req.url === '/v1/slow') {
        setTimeout(() => res.writeHead(200).end('{}'), 2000);
      } else if (req.url === '/v1/empty') {
        res.writeHead(204).end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] }).end(JSON.stringify({ echo: Buffer.concat(chunks).toString('utf8') }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await transport.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('the providers’ fetch', () => {
  it('gives the SDK a binary answer as sent, with the request’s method, headers and JSON body', async () => {
    const client = new OpenAI({ apiKey: 'key-1', baseURL: `${base}/v1`, maxRetries: 0, fetch: transport.fetch });
    const answer = await client.audio.speech.create({ model: 'tts', voice: 'alloy', input: 'hola', response_format: 'opus' });
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(audio);
    const request = seen.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe('Bearer key-1');
    expect(JSON.parse(request.body.toString('utf8'))).toMatchObject({ model: 'tts', voice: 'alloy', input: 'hola', response_format: 'opus' });
  });

  it('keeps status and headers (a repeated one too), and JSON and empty bodies', async () => {
    const echoed = await transport.fetch(`${base}/v1/echo`, { method: 'POST', body: 'ñ and é', headers: { 'content-type': 'text/plain' } });
    expect(echoed.status).toBe(200);
    expect(echoed.headers.get('content-type')).toBe('application/json');
    expect(echoed.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await echoed.json()).toEqual({ echo: 'ñ and é' });
    const bytes = await transport.fetch(`${base}/v1/echo`, { method: 'POST', body: new Uint8Array([104, 105]) });
    expect(await bytes.json()).toEqual({ echo: 'hi' });
    const empty = await transport.fetch(`${base}/v1/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it('lets the SDK read a 429 with its Retry-After', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${base}/v1`, maxRetries: 0, fetch: transport.fetch });
    const failure = await client.get('/busy').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((failure as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('7');
  });

  it('ends in a timeout the SDK names as one, and a refused connection as a connection error', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${base}/v1`, maxRetries: 0, timeout: 300, fetch: transport.fetch });
    await expect(client.get('/slow')).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = new OpenAI({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0, fetch: transport.fetch });
    const error = await refused.get('/models').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(error).not.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it('posts JSON on its own pool without the SDK: any status answered with its headers and body, a timeout an abort, a refused connection a fetch failure', async () => {
    const spoken = await transport.postJson(`${base}/v1/audio/speech`, { input: 'hola', voice: 'nova' }, { headers: { authorization: 'Bearer key-2' }, timeoutMs: 5000 });
    expect(spoken.status).toBe(200);
    expect(spoken.headers.get('content-type')).toBe('audio/ogg');
    expect(spoken.body).toEqual(audio);
    const request = seen.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe('Bearer key-2');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body.toString('utf8'))).toEqual({ input: 'hola', voice: 'nova' });
    const busy = await transport.postJson(`${base}/v1/busy`, {}, { headers: {}, timeoutMs: 5000 });
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('7');
    expect(JSON.parse(busy.body.toString('utf8'))).toEqual({ error: { message: 'slow down' } });
    const slow = await transport.postJson(`${base}/v1/slow`, {}, { headers: {}, timeoutMs: 300 }).catch((error: unknown) => error);
    expect(slow).toBeInstanceOf(DOMException);
    expect((slow as DOMException).name).toBe('AbortError');
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await transport.postJson(`http://127.0.0.1:${port}/v1/audio/speech`, {}, { headers: {}, timeoutMs: 5000 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as TypeError).message).toBe('fetch failed');
  });

  it('sends a multipart form (a transcription’s upload) through the global fetch, whole', async () => {
    const form = new FormData();
    form.append('file', new Blob([audio], { type: 'audio/ogg' }), 'a.ogg');
    form.append('model', 'stt');
    const answer = await transport.fetch(`${base}/v1/echo`, { method: 'POST', body: form });
    expect(answer.status).toBe(200);
    const request = seen.at(-1)!;
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.body.includes(audio)).toBe(true);
    expect(request.body.toString('latin1')).toContain('name="model"');
  });
});
