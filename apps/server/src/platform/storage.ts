// Stored files: public ones (avatars) under media/, served at /media/; private ones (room
// recordings and voices, chat attachments) under private/, served only through routes that check
// the caller. On disk in DATA_DIR by default; in an S3-compatible bucket (AWS S3, MinIO, Ceph,
// Garage...) when S3_BUCKET is set: then a checked route answers with a redirect to a signed URL
// that expires in minutes (the bytes never pass through this server), its type, disposition and
// caching set by the URL's response overrides.
import { mkdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FastifyReply } from 'fastify';

export interface SendOptions {
  contentType?: string | undefined;
  /** `inline; filename*=…` or `attachment; …`. */
  disposition?: string | undefined;
  cacheControl?: string | undefined;
}

export interface Storage {
  readonly kind: 'disk' | 's3';
  put(key: string, body: Buffer, contentType?: string): Promise<void>;
  read(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
  removeAll(prefix: string): Promise<void>;
  /** Public storage: the URL the file is served at. */
  url(key: string): string;
  /** Answers a checked request with the file: sent from disk, or a redirect to a signed, expiring URL. */
  send(reply: FastifyReply, key: string, options?: SendOptions): Promise<FastifyReply>;
  /** On disk: the folder (served by @fastify/static); '' for a bucket. */
  readonly root: string;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/;
const checked = (key: string) => {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key ${key}`);
  return key;
};

export function createDiskStorage(options: { dataDir: string; publicUrl: string; folder?: 'media' | 'private' }): Storage {
  const root = path.join(options.dataDir, options.folder ?? 'media');
  // Exists from the start, so the file routes have their root.
  mkdirSync(root, { recursive: true });
  const resolve = (key: string) => path.join(root, checked(key));
  return {
    kind: 'disk',
    root,
    async put(key, body) {
      const file = resolve(key);
      // The folder is made when a write finds it missing (a room's first file), not before every
      // write: a room's recordings and voices go into one folder, a mkdir each cost a thread-pool trip.
      try {
        await writeFile(file, body);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, body);
      }
    },
    read: (key) => readFile(resolve(key)),
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
    /** Removes a folder of keys (a room's recordings). */
    async removeAll(prefix) {
      await rm(resolve(prefix), { recursive: true, force: true });
    },
    url: (key) => `${options.publicUrl}/media/${key}`,
    async send(reply, key, sendOptions = {}) {
      if (sendOptions.cacheControl) reply.header('cache-control', sendOptions.cacheControl);
      if (sendOptions.disposition) reply.header('content-disposition', sendOptions.disposition);
      if (sendOptions.contentType) reply.type(sendOptions.contentType);
      // @fastify/send writes its own Cache-Control (`public, max-age=0`) and a type guessed from
      // the extension over the reply's: off where the route set them.
      return reply.sendFile(checked(key), root, { cacheControl: !sendOptions.cacheControl, contentType: !sendOptions.contentType });
    },
  };
}

export interface S3Options {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** Bucket in the path (MinIO and most self-hosted stores) rather than in the host name. */
  forcePathStyle: boolean;
}

/** Types by extension, stored with each object (a bucket answers `binary/octet-stream` otherwise). */
const TYPES: Record<string, string> = { webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg', wav: 'audio/wav', ogg: 'audio/ogg', webm: 'audio/webm', mp4: 'audio/mp4', mp3: 'audio/mpeg', pdf: 'application/pdf' };
const typeOf = (key: string) => TYPES[path.extname(key).slice(1)] ?? 'application/octet-stream';

/** How long a signed URL of a checked route works. */
export const SIGNED_URL_SECONDS = 300;

export function createS3Storage(s3: S3Options, options: { publicUrl: string; folder: 'media' | 'private' }): Storage & { client: S3Client } {
  const client = new S3Client({
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    ...(s3.accessKeyId && s3.secretAccessKey ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } } : {}),
  });
  const Bucket = s3.bucket;
  const objectKey = (key: string) => `${options.folder}/${checked(key)}`;
  return {
    kind: 's3',
    root: '',
    client,
    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: body, ContentType: contentType ?? typeOf(key) }));
    },
    async read(key) {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async removeAll(prefix) {
      const Prefix = `${objectKey(prefix)}/`;
      for (let token: string | undefined; ; ) {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ...(token ? { ContinuationToken: token } : {}) }));
        const keys = (page.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []));
        if (keys.length) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
        if (!page.IsTruncated) return;
        token = page.NextContinuationToken;
      }
    },
    url: (key) => `${options.publicUrl}/media/${key}`,
    async send(reply, key, sendOptions = {}) {
      const command = new GetObjectCommand({
        Bucket,
        Key: objectKey(key),
        ...(sendOptions.contentType ? { ResponseContentType: sendOptions.contentType } : {}),
        ...(sendOptions.disposition ? { ResponseContentDisposition: sendOptions.disposition } : {}),
        ...(sendOptions.cacheControl ? { ResponseCacheControl: sendOptions.cacheControl } : {}),
      });
      const url = await getSignedUrl(client, command, { expiresIn: SIGNED_URL_SECONDS });
      // The redirect itself is the caller's alone and short-lived, like the URL it names.
      return reply.header('cache-control', `private, max-age=${SIGNED_URL_SECONDS - 60}`).redirect(url, 302);
    },
  };
}

/** The origin a bucket's signed URLs point at (for the Content-Security-Policy), if any. */
export function s3Origin(s3: S3Options | undefined): string | undefined {
  if (!s3) return undefined;
  if (s3.endpoint) {
    const url = new URL(s3.endpoint);
    return s3.forcePathStyle ? url.origin : `${url.protocol}//${s3.bucket}.${url.host}`;
  }
  return s3.forcePathStyle ? `https://s3.${s3.region}.amazonaws.com` : `https://${s3.bucket}.s3.${s3.region}.amazonaws.com`;
}
