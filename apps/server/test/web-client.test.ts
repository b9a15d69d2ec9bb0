// The web client's files over real HTTP: precompressed variants chosen by Accept-Encoding, cache
// headers, and index.html (compressed too) for client routes. node:http is used rather than
// fetch, which would add its own Accept-Encoding and decompress the body.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

const NOT_FOUND = { type: 'client_error', errors: [{ code: 'not_found', attr: null, detail: 'Not found.' }] };
const IMMUTABLE = 'public, max-age=31536000, immutable';

const INDEX_HTML = `<!doctype html><html><head><title>Parla</title><script type="module" src="/assets/app-abc123.js"></script></head><body>${'<div id="root"></div>'.repeat(20)}</body></html>`;
const APP_JS = `export const greeting = ${JSON.stringify('hello '.repeat(200))};\n`;
const FILES: Record<string, string> = {
  'index.html': INDEX_HTML,
  'assets/app-abc123.js': APP_JS,
  'sw.js': `self.addEventListener('install', () => self.skipWaiting()); ${'// padding '.repeat(50)}`,
  'workbox-1a2b3c4d.js': `self.workbox = {}; ${'// padding '.repeat(50)}`,
  'manifest.webmanifest': JSON.stringify({ name: 'Parla', short_name: 'Parla', description: 'x'.repeat(200) }),
  'locales/en/translation.json': JSON.stringify({ hello: 'Hello', padding: 'y'.repeat(200) }),
  // As apps/web/vite.config.ts (routePreloads) writes it.
  'route-preloads.json': JSON.stringify([
    { pattern: '^/signin$', signedIn: false, scripts: ['/assets/sign-in-page-a1.js', '/assets/forms-b2.js'], styles: ['/assets/dialog-c3.css'] },
    { pattern: '^/chat/\\d+$', signedIn: true, scripts: ['/assets/protected-shell-d4.js', '/assets/chat-page-e5.js'], styles: [] },
    { pattern: '^/room/(\\d+)$', signedIn: true, scripts: ['/assets/room-page-f6.js'], styles: [], data: ['/api/chat/unread/', '/api/rooms/$1/segments/?limit=50&offset=0'] },
  ]),
};

let dist: string;
let server: TestServer;

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'parla-web-dist-'));
  for (const [name, content] of Object.entries(FILES)) {
    const file = path.join(dist, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    await writeFile(`${file}.br`, brotliCompressSync(content));
    await writeFile(`${file}.gz`, gzipSync(content));
  }
  server = await startServer({ WEB_DIST_DIR: dist }, { smtp: false });
});
afterAll(async () => {
  await server.close();
  await rm(dist, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly these headers; the body as it came over the wire. */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${url}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body decoded according to its Content-Encoding. */
function decoded(answer: Raw): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return gunzipSync(answer.body).toString();
  expect(encoding).toBeUndefined();
  return answer.body.toString();
}

const varies = (answer: Raw) =>
  String(answer.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((token) => token.trim())
    .includes('accept-encoding');

describe('precompressed files', () => {
  it.each([
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
  ])('Accept-Encoding "%s" gets %s', async (accept, encoding) => {
    const answer = await get('/assets/app-abc123.js', { 'accept-encoding': accept });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(APP_JS.length);
    expect(decoded(answer)).toBe(APP_JS);
    expect(varies(answer)).toBe(true);
  });

  it.each([
    ['no Accept-Encoding', {}],
    ['Accept-Encoding "identity"', { 'accept-encoding': 'identity' }],
    ['an encoding without variants', { 'accept-encoding': 'zstd' }],
  ])('%s gets the file as is', async (_label, headers: Record<string, string>) => {
    const answer = await get('/assets/app-abc123.js', headers);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString()).toBe(APP_JS);
    expect(varies(answer)).toBe(true);
  });
});

describe('translation preload', () => {
  it('announces the interface translation of the asked language with every page, not with assets', async () => {
    for (const url of ['/', '/chat/12']) {
      const german = await get(url, { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
      expect(german.headers.link).toBe('</locales/de/translation.json>; rel=preload; as=fetch; crossorigin=anonymous');
      expect(String(german.headers.vary)).toMatch(/Accept-Language/);
      expect((await get(url, {})).headers.link).toBe('</locales/en/translation.json>; rel=preload; as=fetch; crossorigin=anonymous');
    }
    expect((await get('/assets/app-abc123.js', { 'accept-language': 'de' })).headers.link).toBeUndefined();
  });
});

describe('page chunk preloads', () => {
  const TRANSLATION = '</locales/en/translation.json>; rel=preload; as=fetch; crossorigin=anonymous';
  it('announces the chunks of the page asked for, as the visitor will see it (signed in or not)', async () => {
    expect((await get('/signin')).headers.link).toBe(
      `${TRANSLATION}, </assets/sign-in-page-a1.js>; rel=modulepreload; crossorigin, </assets/forms-b2.js>; rel=modulepreload; crossorigin, </assets/dialog-c3.css>; rel=preload; as=style`,
    );
    const session = { cookie: 'access_token=x' };
    expect((await get('/chat/12', session)).headers.link).toBe(
      `${TRANSLATION}, </assets/protected-shell-d4.js>; rel=modulepreload; crossorigin, </assets/chat-page-e5.js>; rel=modulepreload; crossorigin`,
    );
    expect(String((await get('/chat/12', session)).headers.vary)).toMatch(/Cookie/);
    // A visitor without a session is sent to sign in: the chat's chunks would be wasted on them,
    // and a signed-in one is sent home from the sign-in page.
    expect((await get('/chat/12')).headers.link).toBe(TRANSLATION);
    expect((await get('/signin', session)).headers.link).toBe(TRANSLATION);
    expect((await get('/chat/12/extra')).headers.link).toBe(TRANSLATION);
  });
});

describe('API answer preloads', () => {
  const TRANSLATION = '</locales/en/translation.json>; rel=preload; as=fetch; crossorigin=anonymous';
  const ROOM_PAGE = '</assets/room-page-f6.js>; rel=modulepreload; crossorigin';
  /** An access token's shape with this `exp` (the signature is not looked at for preloads). */
  const token = (exp: number) => `e30.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.c2ln`;
  const now = () => Math.floor(Date.now() / 1000);

  it("announces the page's first API answers, its ids filled in, fetched with the session's cookies", async () => {
    expect((await get('/room/42', { cookie: `access_token=${token(now() + 300)}` })).headers.link).toBe(
      `${TRANSLATION}, ${ROOM_PAGE}, </api/chat/unread/>; rel=preload; as=fetch; crossorigin=use-credentials, </api/rooms/42/segments/?limit=50&offset=0>; rel=preload; as=fetch; crossorigin=use-credentials`,
    );
  });

  it('does not when the session is about to end (the client refreshes it first) or its token is unreadable', async () => {
    for (const access of [token(now() + 10), token(now() - 60), 'x', 'a.b.c']) {
      expect((await get('/room/42', { cookie: `access_token=${access}` })).headers.link).toBe(`${TRANSLATION}, ${ROOM_PAGE}`);
    }
  });

  it('does not preload the translations a client says it holds', async () => {
    expect((await get('/signin', { cookie: 'translations_cached=en' })).headers.link).toBe(
      '</assets/sign-in-page-a1.js>; rel=modulepreload; crossorigin, </assets/forms-b2.js>; rel=modulepreload; crossorigin, </assets/dialog-c3.css>; rel=preload; as=style',
    );
    expect((await get('/password/reset', { cookie: 'translations_cached=en' })).headers.link).toBeUndefined();
  });
});

describe('cache headers', () => {
  it('keeps hashed assets for a year', async () => {
    const variants: Record<string, string>[] = [{ 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }, {}];
    for (const headers of variants) {
      const answer = await get('/assets/app-abc123.js', headers);
      expect(answer.headers['cache-control']).toBe(IMMUTABLE);
    }
  });

  it.each(['/', '/index.html', '/sw.js', '/workbox-1a2b3c4d.js', '/manifest.webmanifest', '/locales/en/translation.json'])(
    'makes %s revalidate',
    async (url) => {
      const variants: Record<string, string>[] = [{ 'accept-encoding': 'br' }, {}];
      for (const headers of variants) {
        const answer = await get(url, headers);
        expect(answer.status).toBe(200);
        expect(answer.headers['cache-control']).toBe('no-cache');
      }
    },
  );

  it('answers a revalidation of index.html with 304', async () => {
    const first = await get('/', { 'accept-encoding': 'br' });
    expect(first.headers.etag).toBeTruthy();
    const again = await get('/', { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
  });
});

describe('client routes', () => {
  it.each([
    ['/signin', 'br', 'br'],
    ['/room/1', 'gzip, deflate, br', 'br'],
    ['/signin?access=%2Frooms', 'gzip', 'gzip'],
    ['/password/reset/MQ/abc', undefined, undefined],
  ])('%s gets index.html (Accept-Encoding %s, sent as %s)', async (url, accept, encoding) => {
    const answer = await get(url, accept ? { 'accept-encoding': accept } : {});
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(varies(answer)).toBe(true);
    expect(decoded(answer)).toBe(INDEX_HTML);
  });

  it('answers a missing asset with the JSON 404, not the page', async () => {
    for (const url of ['/assets/x.js', '/missing.css']) {
      const answer = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body.toString())).toEqual(NOT_FOUND);
    }
  });

  it('answers an unknown /api or /media path with the JSON 404', async () => {
    for (const url of ['/api/nothing/here/', '/api', '/media/nothing.png']) {
      const answer = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body.toString())).toEqual(NOT_FOUND);
    }
  });

  it('still serves the API', async () => {
    const answer = await get('/api/status/', { 'accept-encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(decoded(answer))).toMatchObject({ status: 'ok' });
  });
});

describe('security headers by kind of answer', () => {
  it('sends the document policy with pages, and only nosniff and CORP with scripts', async () => {
    const page = await get('/signin', { 'accept-encoding': 'br' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    const script = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' });
    expect(script.status).toBe(200);
    expect(script.headers['content-security-policy']).toBeUndefined();
    expect(script.headers['x-frame-options']).toBeUndefined();
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});
