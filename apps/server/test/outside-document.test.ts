// What the OpenAPI document does not describe, so the bad-input guard never generates: methods
// outside it, content and transfer encodings, a Content-Length that disagrees with the body,
// duplicated headers, Range requests on audio and media, the /media/ files, the web client's
// fallback, and the live endpoint (payloads of the wrong shape, missing acknowledgements, unknown
// events, huge ids, oversized frames). Never a 5xx or a crash; every JSON 4xx in the standard
// body; and after each, a positive check that the server still serves.
import { createConnection } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { LIVE_PATH } from '@parla/contract/constants';
import { errorBodySchema } from '@parla/contract/errors';
import { problemOf } from './fuzz/verdict';
import { send as sendRaw } from './fuzz/http';
import { createChat, person, post, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect, marker } from './live-helpers';
import { createRoom, setState, toneWav, upload, uploadForm } from './room-helpers';

let server: TestServer;
let ana: Person;
let chatId: number;
let audioPath: string;
beforeAll(async () => {
  server = await startServer({ TRANSLATION_PROVIDER: 'none', STT_PROVIDER: 'none', TTS_PROVIDER: 'none' });
  ana = await person(server, 'Ana');
  chatId = (await createChat(ana)).id;
  await post(ana, chatId, 'hello');
  const room = await createRoom(ana);
  await setState(ana, room.id, 3002);
  audioPath = new URL((await upload(ana, room.id, uploadForm(toneWav(1)))).body.audioFile).pathname;
});
afterAll(() => server.close());

const cookieOf = (who: Person) => [...who.client.jar].map(([k, v]) => `${k}=${v}`).join('; ');

/** One HTTP/1.1 exchange written byte for byte on a fresh connection: the first answer's status, headers and body. */
function rawExchange(bytes: Buffer | string, timeoutMs = 5000): Promise<{ status: number; headers: Record<string, string>; body: string } | undefined> {
  const url = new URL(server.url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = createConnection({ host: url.hostname, port: Number(url.port) }, () => socket.end(bytes));
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
      if (!match) return resolve(undefined);
      const headers: Record<string, string> = {};
      for (const line of match[2]!.split('\r\n')) {
        const index = line.indexOf(':');
        headers[line.slice(0, index).toLowerCase()] = line.slice(index + 1).trim();
      }
      let body = match[3]!;
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = body.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, '$1').replace(/\r\n/g, '');
      else if (headers['content-length']) body = body.slice(0, Number(headers['content-length']));
      resolve({ status: Number(match[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8') });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      finish();
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', finish);
    socket.on('error', finish);
  });
}

/** An answer judged as the guard judges one: no 5xx, standard 4xx bodies. */
function judge(answer: { status: number; headers: Record<string, string | string[] | undefined>; body: string } | undefined, what: string) {
  expect(answer, `${what}: no answer`).toBeDefined();
  expect(problemOf({ answer: { status: answer!.status, headers: answer!.headers, body: answer!.body } }), `${what}: ${answer!.status} ${answer!.body.slice(0, 200)}`).toBeUndefined();
}

/** The positive check after each shape: the server still answers a signed-in read. */
async function stillServes() {
  expect((await ana.client.get(`/api/chat/${chatId}/messages/`)).status).toBe(200);
}

describe('methods the document does not list', () => {
  it('answer 404 or 405 in the standard body on every kind of path; unknown verbs are refused by the parser', async () => {
    const paths = ['/api/chat/', `/api/chat/${chatId}/`, '/api/accounts/user/', '/api/status/', '/media/avatars/x.webp', '/api/nothing/', '/signin'];
    // CONNECT asks for a tunnel: Node's server closes such a connection without an answer (no proxy here).
    expect(await rawExchange(`CONNECT /api/chat/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).toBeUndefined();
    for (const method of ['OPTIONS', 'TRACE', 'PROPFIND', 'LINK', 'PURGE']) {
      for (const target of paths) {
        const answer = await rawExchange(`${method} ${target} HTTP/1.1\r\nHost: x\r\nCookie: ${cookieOf(ana)}\r\nConnection: close\r\n\r\n`);
        judge(answer, `${method} ${target}`);
        if (answer!.status === 405) expect(answer!.headers['allow'], `${method} ${target}`).toBeTruthy();
      }
    }
    for (const method of ['GUARD', 'get', 'G3T', 'POSTX']) {
      judge(await rawExchange(`${method} /api/chat/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`), method);
    }
    await stillServes();
  });
});

describe('bodies in encodings the server does not read', () => {
  const body = JSON.stringify({ title: 'Encoded' });
  const request = (headers: string, payload: Buffer | string) =>
    rawExchange(Buffer.concat([Buffer.from(`POST /api/chat/ HTTP/1.1\r\nHost: x\r\nCookie: ${cookieOf(ana)}\r\nX-XSRF-TOKEN: ${ana.client.cookie('XSRF-TOKEN')}\r\nContent-Type: application/json\r\n${headers}Connection: close\r\n\r\n`, 'latin1'), Buffer.isBuffer(payload) ? payload : Buffer.from(payload)]));

  it('Content-Encoding gzip, br, unknown: refused or read plainly, never a 5xx', async () => {
    const gz = gzipSync(body);
    for (const [label, headers, payload] of [
      ['gzip body', `Content-Encoding: gzip\r\nContent-Length: ${gz.length}\r\n`, gz],
      ['plain body labelled gzip', `Content-Encoding: gzip\r\nContent-Length: ${body.length}\r\n`, body],
      ['br', `Content-Encoding: br\r\nContent-Length: ${body.length}\r\n`, body],
      ['unknown coding', `Content-Encoding: x-guard\r\nContent-Length: ${body.length}\r\n`, body],
      ['two codings', `Content-Encoding: gzip, identity\r\nContent-Length: ${body.length}\r\n`, body],
    ] as [string, string, Buffer | string][]) {
      judge(await request(headers, payload), label);
    }
    await stillServes();
  });

  it('chunked bodies, well-formed or not, and a Content-Length that disagrees with the body', async () => {
    const chunked = (parts: string) => request('Transfer-Encoding: chunked\r\n', parts);
    const answer = await chunked(`${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    expect(answer?.status).toBe(201);
    for (const [label, parts] of [
      ['chunk size not hex', `zz\r\n${body}\r\n0\r\n\r\n`],
      ['chunk longer than said', `2\r\n${body}\r\n0\r\n\r\n`],
      ['no last chunk', `${body.length.toString(16)}\r\n${body}\r\n`],
      ['huge chunk size', `ffffffffffffffff\r\n${body}\r\n0\r\n\r\n`],
    ]) {
      const refused = await chunked(parts!);
      // A body that never ends gets no answer (the connection is ours to close); any answer is judged.
      if (refused) judge(refused, label!);
    }
    judge(await request(`Transfer-Encoding: chunked\r\nContent-Length: ${body.length}\r\n`, `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`), 'chunked and Content-Length');
    judge(await request(`Content-Length: 5\r\n`, body), 'Content-Length shorter than the body');
    judge(await request(`Content-Length: ${body.length}\r\nContent-Length: ${body.length + 1}\r\n`, body), 'two different Content-Lengths');
    judge(await request(`Content-Length: -1\r\n`, body), 'negative Content-Length');
    await stillServes();
  });
});

describe('duplicated headers', () => {
  it('two Content-Types, two Authorizations, two Cookies, two Hosts: a clear answer, never a 5xx', async () => {
    const body = JSON.stringify({ title: 'Twice' });
    const base = (extra: string) =>
      rawExchange(`POST /api/chat/ HTTP/1.1\r\n${extra}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    judge(await base(`Host: x\r\nCookie: ${cookieOf(ana)}\r\nX-XSRF-TOKEN: ${ana.client.cookie('XSRF-TOKEN')}\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\n`), 'two Content-Types');
    judge(await base(`Host: x\r\nAuthorization: Bearer ${ana.access}\r\nAuthorization: Bearer guard\r\nContent-Type: application/json\r\n`), 'two Authorizations');
    judge(await base(`Host: x\r\nCookie: ${cookieOf(ana)}\r\nCookie: access_token=guard\r\nX-XSRF-TOKEN: ${ana.client.cookie('XSRF-TOKEN')}\r\nContent-Type: application/json\r\n`), 'two Cookies');
    judge(await base(`Host: x\r\nHost: y\r\nCookie: ${cookieOf(ana)}\r\nContent-Type: application/json\r\n`), 'two Hosts');
    judge(await base(`Host: x\r\nAccept-Language: es\r\nAccept-Language: de\r\nAuthorization: Bearer ${ana.access}\r\nContent-Type: application/json\r\n`), 'two Accept-Languages');
    await stillServes();
  });
});

describe('Range requests', () => {
  it('on a room recording: 206 for a satisfiable range, 416 for one past the end, 200 for nonsense, never a 5xx', async () => {
    const get = (range: string) => sendRaw(new URL(server.url), { method: 'GET', path: audioPath, headers: { cookie: cookieOf(ana), range }, body: undefined }, 10_000);
    expect((await get('bytes=0-9')).answer).toMatchObject({ status: 206 });
    expect((await get('bytes=0-9')).answer?.headers['content-range']).toMatch(/^bytes 0-9\/\d+$/);
    expect((await get('bytes=999999999-')).answer?.status).toBe(416);
    for (const range of ['bytes=-5', 'bytes=abc', 'bytes=5-1', 'bytes=0-1,3-4,0-1', `bytes=${'0-1,'.repeat(500)}0-1`, 'items=0-1', 'bytes=99999999999999999999-', '']) {
      const answer = (await get(range)).answer;
      expect(answer, range).toBeDefined();
      expect(answer!.status, range).toBeLessThan(500);
    }
    // A stranger gets nothing, ranged or not.
    const stranger = await person(server);
    const refused = await sendRaw(new URL(server.url), { method: 'GET', path: audioPath, headers: { cookie: cookieOf(stranger), range: 'bytes=0-9' }, body: undefined }, 10_000);
    expect(refused.answer?.status).toBe(404);
    judge(refused.answer, 'stranger');
  });

  it('on a /media/ file', async () => {
    await mkdir(path.join(server.dataDir, 'media', 'avatars'), { recursive: true });
    await writeFile(path.join(server.dataDir, 'media', 'avatars', 'guard.webp'), Buffer.alloc(100, 1));
    const get = (range: string) => sendRaw(new URL(server.url), { method: 'GET', path: '/media/avatars/guard.webp', headers: { range }, body: undefined }, 10_000);
    expect((await get('bytes=0-9')).answer?.status).toBe(206);
    expect((await get('bytes=500-')).answer?.status).toBe(416);
    for (const range of ['bytes=-5', 'bytes=abc', 'bytes=0-1,3-4']) expect((await get(range)).answer!.status, range).toBeLessThan(500);
  });
});

describe('/media/ and the web client fallback', () => {
  it('serve no file outside the media folder, whatever the path says', async () => {
    for (const target of [
      '/media/../secret.key',
      '/media/%2e%2e/secret.key',
      '/media/avatars/..%2f..%2fsecret.key',
      '/media/..%5csecret.key',
      '/media/%00',
      '/media/private/rooms/1/x.wav',
      '/media/avatars/%c0%ae%c0%ae/secret.key',
      `/media/${'a/'.repeat(500)}x`,
    ]) {
      const answer = (await sendRaw(new URL(server.url), { method: 'GET', path: target, headers: {}, body: undefined }, 10_000)).answer;
      expect(answer, target).toBeDefined();
      expect(answer!.status, target).toBeGreaterThanOrEqual(400);
      expect(answer!.status, target).toBeLessThan(500);
      expect(answer!.body, target).not.toContain(server.config.secretKey);
    }
    for (const method of ['POST', 'PUT', 'DELETE']) judge((await sendRaw(new URL(server.url), { method, path: '/media/avatars/guard.webp', headers: {}, body: undefined }, 10_000)).answer, `${method} /media/`);
    for (const [method, target] of [
      ['GET', '/some/client/route'],
      ['POST', '/chat/1'],
      ['GET', '/index.html/../secret.key'],
      ['DELETE', '/'],
    ] as const) {
      judge((await sendRaw(new URL(server.url), { method, path: target, headers: { accept: 'text/html' }, body: undefined }, 10_000)).answer, `${method} ${target}`);
    }
  });
});

describe('the live endpoint', () => {
  it('answers payloads of the wrong shape as invalid, ignores unknown events and missing acknowledgements, and keeps serving', async () => {
    const ben = await person(server, 'Ben');
    const live = await connect(server.url, ana);
    try {
      for (const payload of [null, [], 'x', 42, { chatId: null }, { chatId: '1' }, { chatId: 2 ** 53 }, { chatId: -1 }, { chatId: 1.5 }, { chatId: 'x'.repeat(10_000) }, { chatId: chatId, extra: { deep: [[[[[]]]]] } }]) {
        const answer = await live.socket.timeout(5000).emitWithAck('chat:subscribe', payload as never);
        expect(answer, JSON.stringify(payload).slice(0, 60)).toMatchObject({ ok: expect.any(Boolean) });
        if (!(payload && typeof payload === 'object' && 'chatId' in payload && payload.chatId === chatId)) expect(answer).toEqual({ ok: false, error: 'invalid' });
      }
      // A message posted over the connection (message:send) answers bad payloads as the POST answers
      // bad requests: a 4xx with the standard error body, never a 5xx, nothing stored.
      const deep = { a: [[[[[]]]]] };
      for (const payload of [
        null,
        [],
        'x',
        42,
        { chatId: null },
        { chatId: 2 ** 53, content: 'x' },
        { chatId: 'x'.repeat(10_000), content: 'x' },
        { chatId, content: null },
        { chatId, content: deep },
        { chatId, content: 'x'.repeat(10_000) },
        { chatId, content: '\u0000' },
        { chatId, content: 'x', clientId: deep },
        { chatId, content: 'x', replyTo: -1 },
        { chatId, content: 'x', replyTo: 2 ** 31 },
        { chatId, content: 'x', attachments: 'x' },
        { chatId, content: 'x', attachments: [1, 1] },
        { chatId, content: 'x', attachments: Array.from({ length: 1000 }, (_, index) => index + 1) },
      ]) {
        const answer = (await live.socket.timeout(5000).emitWithAck('message:send', payload as never)) as { ok: boolean; status?: number; error?: unknown };
        const shown = JSON.stringify(payload).slice(0, 60);
        expect(answer.ok, shown).toBe(false);
        expect(answer.status, shown).toBeGreaterThanOrEqual(400);
        expect(answer.status, shown).toBeLessThan(500);
        expect(errorBodySchema.safeParse(answer.error).success, shown).toBe(true);
      }
      // No acknowledgement asked for, events nobody listens to, arguments in excess: nothing breaks.
      const raw = live.socket as unknown as Socket;
      raw.emit('message:send', { chatId, content: 'no ack' });
      raw.emit('message:send');
      raw.emit('chat:subscribe', { chatId });
      raw.emit('chat:subscribe');
      raw.emit('guard:unknown', { any: 'thing' }, () => undefined);
      raw.emit('room:subscribe', null, null, null);
      raw.emit('chat:typing', { chatId: 2 ** 31 });
      raw.emit('__proto__', {});
      raw.emit('constructor', {});
      expect(await live.subscribe(chatId)).toEqual({ ok: true });
      await marker(server, ben, ana, live);
      expect(live.socket.connected).toBe(true);
    } finally {
      live.close();
    }
  });

  it('closes a connection that sends an oversized frame, and no other', async () => {
    const bystander = await connect(server.url, ana);
    const cookie = cookieOf(ana);
    const big = io(server.url, { path: LIVE_PATH, transports: ['websocket'], reconnection: false, extraHeaders: { cookie } });
    try {
      await new Promise<void>((resolve, reject) => {
        big.once('connect', () => resolve());
        big.once('connect_error', reject);
      });
      const closed = new Promise<string>((resolve) => big.once('disconnect', (reason) => resolve(reason)));
      big.emit('chat:subscribe', { chatId, padding: 'x'.repeat(200 * 1024) });
      expect(await closed).toMatch(/transport (close|error)/);
      expect(await bystander.subscribe(chatId)).toEqual({ ok: true });
      await stillServes();
    } finally {
      big.close();
      bystander.close();
    }
  });
});
