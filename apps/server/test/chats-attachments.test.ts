// Pictures and files in chats (issue 18): uploaded by content (pictures re-encoded with a
// thumbnail, programs refused, decompression bombs refused), attached to a message, shown to every
// member and to nobody else.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, person, send, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { messageAttachments } from '../src/platform/db/schema';

const upload = (who: Person, chatId: number, data: Buffer, name: string, type = 'application/octet-stream') => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  return who.client.request('POST', `/api/chat/${chatId}/attachments/`, { form, xsrf: true });
};
const fetchBytes = async (who: Person, url: string) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${who.access}` } });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    disposition: response.headers.get('content-disposition'),
    cache: response.headers.get('cache-control'),
    policy: response.headers.get('content-security-policy'),
    body: Buffer.from(await response.arrayBuffer()),
  };
};

describe('attachments', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRANSLATION_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0' });
  });
  afterAll(() => server.close());

  it('a picture is re-encoded with a thumbnail, sent with a caption, seen by the other member and by no stranger', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const stranger = await person(server, 'Zed');
    const chat = await createChat(ana, { title: 'Photos', languages: ['en'] });
    await addMember(ana, chat.id, ben);
    const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 40, b: 40 } } }).jpeg().toBuffer();
    const uploaded = await upload(ana, chat.id, jpeg, 'beach.jpg', 'image/jpeg');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    // The name given is kept; the file is the WebP it was re-encoded to (issue 37: renamed unannounced before).
    expect(uploaded.body).toMatchObject({ kind: 'image', name: 'beach.jpg', contentType: 'image/webp', width: 1200, height: 800 });
    expect(uploaded.body.thumbnailUrl).toMatch(/\/attachments\/\d+\/thumbnail$/);

    // Before it is sent, only the uploader can fetch it.
    expect((await fetchBytes(ana, uploaded.body.url)).status).toBe(200);
    expect((await fetchBytes(ben, uploaded.body.url)).status).toBe(404);

    const posted = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'Look!', attachments: [uploaded.body.id] });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.body.attachments).toEqual([uploaded.body]);
    const seen = (await ben.client.get(`/api/chat/${chat.id}/messages/${posted.body.id}/`)).body;
    expect(seen.attachments).toEqual([uploaded.body]);

    const file = await fetchBytes(ben, uploaded.body.url);
    expect(file.status).toBe(200);
    expect(file.type).toBe('image/webp');
    expect(file.disposition).toBe("inline; filename*=UTF-8''beach.webp");
    // Members' files are never kept by a shared cache (issue 31, 7: the static plugin's `public` won).
    expect(file.cache).toBe('private, max-age=31536000, immutable');
    expect(file.policy).toBe("default-src 'none'; sandbox");
    expect((await sharp(file.body).metadata()).format).toBe('webp');
    const thumbnail = await fetchBytes(ben, uploaded.body.thumbnailUrl);
    expect((await sharp(thumbnail.body).metadata()).width).toBe(480);
    expect((await fetchBytes(stranger, uploaded.body.url)).status).toBe(404);
    expect((await fetchBytes(stranger, uploaded.body.thumbnailUrl)).status).toBe(404);

    // Sent once: it cannot be attached again.
    const again = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'Again', attachments: [uploaded.body.id] });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].attr).toBe('attachments');
    // Deleting the message takes the picture with it.
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/messages/${posted.body.id}/`)).status).toBe(204);
    expect((await fetchBytes(ana, uploaded.body.url)).status).toBe(404);
  });

  it('a document is kept as sent; a PDF is shown by the browser, sandboxed, other files are downloads; a message of only files has an empty caption', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Docs', languages: ['en'] });
    await addMember(ana, chat.id, ben);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const uploaded = await upload(ana, chat.id, pdf, '../../etc/Plan final.pdf');
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ kind: 'file', name: 'Plan final.pdf', contentType: 'application/pdf', size: pdf.length, thumbnailUrl: null });
    const posted = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: '', attachments: [uploaded.body.id] });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ content: '', translation: 'none' });
    const file = await fetchBytes(ben, uploaded.body.url);
    expect(file.body.equals(pdf)).toBe(true);
    // Shown in the browser's own PDF viewer (issue 37, 7), under the same sandbox.
    expect(file.disposition).toMatch(/^inline; filename\*=UTF-8''Plan%20final\.pdf$/);
    // Its stored type, its own sandbox and private caching (issue 31, 7: octet-stream, the page's CSP and `public` before).
    expect(file.type).toBe('application/pdf');
    expect(file.policy).toBe("default-src 'none'; sandbox");
    expect(file.cache).toBe('private, max-age=31536000, immutable');
    // Any other file is saved, never shown.
    const notes = await upload(ana, chat.id, Buffer.from('Agenda: budget, hiring\n'), 'notes.txt');
    expect(notes.status).toBe(201);
    await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: '', attachments: [notes.body.id] });
    const saved = await fetchBytes(ben, notes.body.url);
    expect(saved.disposition).toBe("attachment; filename*=UTF-8''notes.txt");
    expect(saved.type).toBe('application/octet-stream');
    expect(saved.policy).toBe("default-src 'none'; sandbox");
    // Neither words nor files: the caption is required.
    const empty = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ code: 'blank', attr: 'content', detail: 'This field is required.' }]);
  });

  it('refuses programs, scripts, decompression bombs, files over 10 MB and someone else’s upload; strangers cannot upload', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const stranger = await person(server, 'Zed');
    const chat = await createChat(ana, { title: 'Checks', languages: ['en'] });
    await addMember(ana, chat.id, ben);
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)]);
    for (const [data, name] of [
      [exe, 'holiday.jpg'],
      [Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(100)]), 'notes.txt'],
      [Buffer.from('#!/bin/sh\nrm -rf /\n'), 'readme.txt'],
    ] as const) {
      const refused = await upload(ana, chat.id, data, name);
      expect(refused.status, name).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ attr: 'file', code: 'invalid_file' });
    }
    // A PNG that claims 10,000 × 10,000 pixels (100 megapixels) in a few kilobytes.
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(1_000_000);
    const refusedBomb = await upload(ana, chat.id, bomb, 'bomb.png', 'image/png');
    expect(refusedBomb.status).toBe(400);
    expect(refusedBomb.body.errors[0]).toMatchObject({ attr: 'file', code: 'image_too_large', detail: 'The picture is larger than 40 megapixels.' });
    // Issue 31 (2): under the 40 MP cap, but far more pixels than its few bytes should hold (6,300 × 6,300
    // in a small PNG took seconds of CPU): refused before decoding.
    const dense = await sharp({ create: { width: 6300, height: 6300, channels: 3, background: { r: 255, g: 255, b: 255 } } }).png({ compressionLevel: 9 }).toBuffer();
    expect(dense.length).toBeLessThan(400_000);
    const refusedDense = await upload(ana, chat.id, dense, 'white.png', 'image/png');
    expect(refusedDense.status).toBe(400);
    expect(refusedDense.body.errors[0]).toMatchObject({ attr: 'file', code: 'image_too_large' });
    expect(refusedDense.body.errors[0].detail).toMatch(/more pixels than a file of its size/);
    const tooLarge = await upload(ana, chat.id, Buffer.alloc(10 * 1024 * 1024 + 1, 7), 'big.bin');
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.errors[0]).toMatchObject({ attr: 'file', code: 'file_too_large' });

    const bens = await upload(ben, chat.id, Buffer.from('hello'), 'hello.txt');
    expect(bens.status).toBe(201);
    const stolen = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'Mine?', attachments: [bens.body.id] });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors[0]).toMatchObject({ attr: 'attachments' });
    expect((await upload(stranger, chat.id, Buffer.from('x'), 'x.txt')).status).toBe(404);
    expect((await ana.client.request('POST', `/api/chat/${chat.id}/attachments/`, { json: {}, xsrf: true })).status).toBe(400);
  });
});

describe('uploads never sent', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRANSLATION_PROVIDER: 'none', HOUSEKEEPING_INTERVAL_SECONDS: '1' });
  });
  afterAll(() => server.close());

  it('are deleted, rows and files, UNSENT_UPLOAD_MINUTES after their upload; those sent and recent ones stay', async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana, { title: 'Drafts', languages: ['en'] });
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#22aa66' } }).png().toBuffer();
    const forgotten = (await upload(ana, chat.id, png, 'old.png', 'image/png')).body;
    const sent = (await upload(ana, chat.id, png, 'sent.png', 'image/png')).body;
    const recent = (await upload(ana, chat.id, png, 'new.png', 'image/png')).body;
    expect((await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: '', attachments: [sent.id] })).status).toBe(201);
    // The forgotten one and the sent one were uploaded over 30 minutes ago (issue 31, 3: a day before).
    await server.app.ctx.db.update(messageAttachments).set({ createdAt: new Date(Date.now() - 31 * 60_000) }).where(inArray(messageAttachments.id, [forgotten.id, sent.id]));
    const folder = path.join(server.dataDir, 'private', 'attachments', String(chat.id));
    const before = (await readdir(folder)).length;
    for (let tries = 0; tries < 50 && (await fetchBytes(ana, forgotten.url)).status !== 404; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetchBytes(ana, forgotten.url)).status).toBe(404);
    expect((await fetchBytes(ana, sent.url)).status).toBe(200);
    expect((await fetchBytes(ana, recent.url)).status).toBe(200);
    // Its picture and thumbnail are gone from the disk too.
    expect((await readdir(folder)).length).toBe(before - 2);
  });

  it('go with a member removed for good, sent or not', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Team', languages: ['en'] });
    const benMember = await addMember(ana, chat.id, ben);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#aa2266' } }).png().toBuffer();
    const kept = (await upload(ana, chat.id, png, 'ana.png', 'image/png')).body;
    expect((await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'Mine', attachments: [kept.id] })).status).toBe(201);
    const benSent = (await upload(ben, chat.id, png, 'ben.png', 'image/png')).body;
    expect((await send(ben, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'Mine too', attachments: [benSent.id] })).status).toBe(201);
    await upload(ben, chat.id, png, 'draft.png', 'image/png');
    const folder = path.join(server.dataDir, 'private', 'attachments', String(chat.id));
    expect(await readdir(folder)).toHaveLength(6);
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/members/${benMember}/?permanent=true`)).status).toBe(204);
    // Ana's picture and thumbnail stay; Ben's four files are gone.
    expect(await readdir(folder)).toHaveLength(2);
    expect((await fetchBytes(ana, kept.url)).status).toBe(200);
  });

  // Issue 31 (2): decoding is bounded per person (pixels a minute) besides per file.
  it('refuses a person’s pictures past their pixels of the minute with 429, and takes others’ still', async () => {
    const budget = await startServer({ TRANSLATION_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0', RATE_LIMIT_PICTURE_MEGAPIXELS: '5' });
    try {
      const ana = await person(budget, 'Ana');
      const ben = await person(budget, 'Ben');
      const chat = await createChat(ana, { title: 'Photos', languages: ['en'] });
      await addMember(ana, chat.id, ben);
      const photo = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toBuffer();
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await upload(ana, chat.id, photo, `p${i}.jpg`, 'image/jpeg')).status);
      expect(statuses).toEqual([201, 201, 429]);
      expect((await upload(ben, chat.id, photo, 'b.jpg', 'image/jpeg')).status).toBe(201);
    } finally {
      await budget.close();
    }
  });

  // Issue 31 (3): uploads never sent were kept a day, without any bound on how much.
  it('refuses files past the person’s unsent, the chat’s and the person’s quotas with a clear error, and stores nothing then', async () => {
    const quota = await startServer({ TRANSLATION_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0', STORAGE_PENDING_MB: '1', STORAGE_CHAT_MB: '2', STORAGE_PERSON_MB: '3' });
    try {
      const ana = await person(quota, 'Ana');
      const file = (n: number) => Buffer.alloc(700 * 1024, n);
      const first = await createChat(ana, { title: 'One', languages: ['en'] });
      const sendWith = async (chatId: number, id: number) => expect((await send(ana, 'POST', `/api/chat/${chatId}/messages/`, { content: '', attachments: [id] })).status).toBe(201);
      // Unsent: 1 MB at most, whatever the chat.
      const waiting = await upload(ana, first.id, file(1), 'a.bin');
      expect(waiting.status).toBe(201);
      const refused = await upload(ana, first.id, file(2), 'b.bin');
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ attr: 'file', code: 'quota_exceeded' });
      expect(refused.body.errors[0].detail).toMatch(/waiting to be sent/);
      // Sent, it no longer waits.
      await sendWith(first.id, waiting.body.id);
      const second = await upload(ana, first.id, file(3), 'c.bin');
      expect(second.status).toBe(201);
      await sendWith(first.id, second.body.id);
      // The chat holds 2 MB at most.
      const chatFull = await upload(ana, first.id, file(4), 'd.bin');
      expect(chatFull.status).toBe(400);
      expect(chatFull.body.errors[0].detail).toMatch(/files of this chat/);
      // Another chat: the person holds 3 MB at most, in all their chats (and rooms).
      const other = await createChat(ana, { title: 'Two', languages: ['en'] });
      for (const n of [5, 6]) {
        const stored = await upload(ana, other.id, file(n), `${n}.bin`);
        expect(stored.status).toBe(201);
        await sendWith(other.id, stored.body.id);
      }
      const personFull = await upload(ana, other.id, file(8), 'e.bin');
      expect(personFull.status).toBe(400);
      expect(personFull.body.errors[0].detail).toMatch(/Your files in chats and rooms/);
      const rows = await quota.app.ctx.db.select({ id: messageAttachments.id }).from(messageAttachments).where(inArray(messageAttachments.chatId, [first.id, other.id]));
      expect(rows).toHaveLength(4);
    } finally {
      await quota.close();
    }
  });
});

