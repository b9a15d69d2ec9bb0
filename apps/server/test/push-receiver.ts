// A local https server standing in for a browser's push service (the one external part a test may
// replace), and the browser's side of Web Push: a subscription's keys, and the decryption of what
// arrives (RFC 8291, aes128gcm as RFC 8188 frames it) and the check of the VAPID header (RFC 8292).
// The certificate is made by openssl for this run; the server under test trusts it (pushCa).
import { execFileSync } from 'node:child_process';
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import os from 'node:os';
import path from 'node:path';

export interface PushRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  at: number;
}

/** A self-signed certificate for 127.0.0.1, ::1, localhost and this machine's name. */
export function makeCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parla-push-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=push.test',
      '-addext', `subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost,DNS:${os.hostname()}`,
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The push service: keeps every request; answers 201, or the status set for a path (404, 410...). */
export async function startPushService(certificate: { key: string; cert: string }) {
  const requests: PushRequest[] = [];
  const statuses = new Map<string, number>();
  const server: Server = createServer(certificate, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks), at: Date.now() });
      response.writeHead(statuses.get(request.url ?? '') ?? 201).end();
    });
  });
  // Both stacks: an endpoint naming ::1 would reach it if the server under test let it.
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    requests,
    statuses,
    endpoint: (name: string, host = '127.0.0.1') => `https://${host}:${port}/push/${name}`,
    /** The requests to one path, waiting up to `timeoutMs` for there to be `count` of them. */
    async waitFor(pathName: string, count = 1, timeoutMs = 15_000): Promise<PushRequest[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = requests.filter((request) => request.path === pathName);
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`${found.length} push(es) to ${pathName} in ${timeoutMs} ms, wanted ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's subscription keys: its P-256 key pair and the 16-byte authentication secret. */
export function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    json: (endpoint: string) => ({ endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } }),
  };
}

/** Decrypts an aes128gcm push message body for the browser holding `keys` (RFC 8291 section 3.4). */
export function decrypt(body: Buffer, keys: ReturnType<typeof browserKeys>): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  if (records.length > recordSize) throw new Error('one record expected');
  const shared = keys.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  const end = padded.lastIndexOf(2);
  if (end < 0 || padded.subarray(end + 1).some((byte) => byte !== 0)) throw new Error('no final-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** The VAPID header's claims, after checking its ES256 signature against the key it names. */
export function vapidClaims(authorization: string | undefined): { claims: { aud: string; exp: number; sub: string }; key: string } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [header, payload, signature] = match[1]!.split('.') as [string, string, string];
  const key = match[2]!;
  const raw = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') }, format: 'jwk' });
  const valid = verify('sha256', Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) throw new Error('the VAPID signature does not verify');
  return { claims: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string }, key };
}
