// Stored files in an S3-compatible bucket (S3_BUCKET): s3rver, an S3 stand-in on loopback (S3 is a
// paid outside service), holds what the server stores. Avatars, chat attachments and room
// recordings go to the bucket, nothing to DATA_DIR; the checked routes answer members with a
// redirect to a signed, expiring URL that serves the bytes with the right type and disposition,
// strangers still get 404; deleting a chat deletes its objects; the pages' CSP lets the bucket's
// origin in.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, person, send } from './chat-helpers';
import { freePort, startServer, type TestServer } from './harness';
import { createRoom, setState, toneWav, upload, uploadForm } from './room-helpers';

const BUCKET = 'parla-files';

describe('files in an S3-compatible bucket', () => {
  let server: TestServer;
  let s3: S3rver;
  let directory: string;
  let endpoint: string;
  let client: S3Client;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'parla-s3-'));
    const port = await freePort();
    s3 = new S3rver({ port, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
    await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
    client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    server = await startServer({
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      TRANSLATION_PROVIDER: 'none',
      STT_PROVIDER: 'none',
      TTS_PROVIDER: 'none',
    });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
    await rm(directory, { recursive: true, force: true });
  });

  const keysUnder = async (prefix: string) => ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map((item) => item.Key!);
  /** A checked route's answer: a redirect to the bucket, followed as a browser would. */
  async function followed(who: { client: { get: (url: string) => Promise<{ status: number; headers: Headers }> } }, url: string) {
    const answer = await who.client.get(url);
    expect(answer.status).toBe(302);
    const location = answer.headers.get('location')!;
    expect(location.startsWith(`${endpoint}/${BUCKET}/private/`)).toBe(true);
    expect(location).toMatch(/X-Amz-Expires=300/);
    return fetch(location);
  }

  it('keeps an avatar in the bucket and serves it at /media/ through a signed URL', async () => {
    const ana = await person(server, 'Ana');
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const form = new FormData();
    form.append('avatarImage', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
    const saved = await ana.client.request('PATCH', '/api/accounts/user/', { form, xsrf: true });
    expect(saved.status).toBe(200);
    const url = saved.body.avatarImage as string;
    expect(url.startsWith(`${server.url}/media/avatars/`)).toBe(true);
    const key = url.slice(`${server.url}/media/`.length);
    expect(await keysUnder('media/avatars/')).toContain(`media/${key}`);
    const redirect = await fetch(url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const image = await fetch(redirect.headers.get('location')!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });
    // Nothing on the server's own disk.
    expect(await readdir(path.join(server.dataDir, 'media')).catch(() => [])).toEqual([]);
  });

  it('serves attachments to members by signed URL, 404 to strangers, and deletes them with the chat', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const stranger = await person(server, 'Zed');
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'Plan.pdf');
    const uploaded = await ana.client.request('POST', `/api/chat/${chat.id}/attachments/`, { form, xsrf: true });
    expect(uploaded.status).toBe(201);
    const posted = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'The plan', attachments: [uploaded.body.id] });
    expect(posted.status).toBe(201);
    const fileUrl = `/api/chat/${chat.id}/attachments/${uploaded.body.id}/file`;

    const file = await followed(ben, fileUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''Plan.pdf");
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
    expect((await stranger.client.get(fileUrl)).status).toBe(404);
    expect(await keysUnder(`private/attachments/${chat.id}/`)).toHaveLength(1);
    expect(await readdir(path.join(server.dataDir, 'private')).catch(() => [])).toEqual([]);

    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/`)).status).toBe(204);
    expect(await keysUnder(`private/attachments/${chat.id}/`)).toEqual([]);
  });

  it('keeps a room’s recordings in the bucket, readable by the server and served to participants', async () => {
    const ana = await person(server, 'Ana');
    const room = await createRoom(ana);
    await setState(ana, room.id, 3002);
    const wav = toneWav(1);
    const uploaded = await upload(ana, room.id, uploadForm(wav));
    expect(uploaded.status).toBe(201);
    const name = String(uploaded.body.audioFile).split('/').pop()!;
    const key = `rooms/${room.id}/${name}`;
    expect(await keysUnder(`private/rooms/${room.id}/`)).toEqual([`private/${key}`]);
    // What the transcription job reads.
    expect((await server.app.ctx.recordings.read(key)).equals(wav)).toBe(true);
    const audio = await followed(ana, `/api/rooms/${room.id}/audio/${name}`);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await audio.arrayBuffer()).equals(wav)).toBe(true);

    // The pages may show what the bucket serves.
    const csp = (await ana.client.get('/api/status/')).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(new RegExp(`img-src [^;]*${endpoint.replace(/[.]/g, '\\.')}`));
    expect(csp).toMatch(new RegExp(`media-src [^;]*${endpoint.replace(/[.]/g, '\\.')}`));
  });
});
