// Report, not a test: what pictures arriving at once cost someone else signing in (issue 31 (2):
// 16 PNGs of 6,300 × 6,300 pixels in 165 KB each made another person's sign-in take 8 s instead of
// 0.2 s; decoding and password hashing share libuv's thread pool). For each server: the sign-in
// of one account, one after another, first with nothing else going on, then while a second
// account uploads `--uploads` pictures at once to its chat: the dense PNGs, then ordinary
// photographs (12 MP JPEG). Prints each sign-in's p50 and p95 and their ratio to the idle ones,
// and what the uploads were answered. `--variant 'label=<main.ts>'` measures another server the
// same way in the same run (a checkout of an earlier commit, with its own node_modules).
// Exits 0 whatever the figures; 1 only when something fails to start.
//
//   npm run bench:picture-flood -w @parla/bench [-- --uploads 16 --samples 12 --variant 'before=/tmp/before/apps/server/src/main.ts']
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { benchFolders, createDatabase, freePort, parlaEnv, parseBenchArgs, percentile, ROOT, runMain, startServer, StartError, stopServer } from './lib/harness';

const { values: options } = parseBenchArgs({
  uploads: { type: 'string', default: '16' },
  samples: { type: 'string', default: '12' },
});
const PASSWORD = 'violet-harbour-42';

interface Figures {
  p50: number;
  p95: number;
}

const figures = (times: number[]): Figures => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};

async function json(base: string, method: string, url: string, body?: unknown, access?: string) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(access ? { authorization: `Bearer ${access}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** An activated account (its key from the outbox), signed in once: its access token. */
async function account(base: string, dataDir: string, label: string): Promise<{ email: string; access: string }> {
  const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const registered = await json(base, 'POST', '/api/accounts/registration/', { email, password1: PASSWORD, password2: PASSWORD, fullName: label });
  if (registered.status !== 201) throw new StartError(`registration: ${registered.status} ${JSON.stringify(registered.body)}`);
  let key: string | undefined;
  for (let attempt = 0; attempt < 50 && !key; attempt++) {
    const outbox = path.join(dataDir, 'outbox');
    for (const file of await readdir(outbox).catch(() => [] as string[])) {
      const text = await readFile(path.join(outbox, file), 'utf8');
      if (text.includes(`To: ${email}`)) key = /\/signup\/activation\/([A-Za-z0-9_-]+)$/m.exec(text)?.[1];
    }
    if (!key) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!key) throw new StartError(`no activation e-mail for ${email}`);
  await json(base, 'POST', '/api/accounts/registration/verify-email/', { key });
  const login = await json(base, 'POST', '/api/accounts/login/', { email, password: PASSWORD });
  return { email, access: login.body.access as string };
}

/** `samples` sign-ins one after another (ms each), while `during` runs (until both end). */
async function signIns(base: string, email: string, samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < samples; index++) {
    const started = performance.now();
    const answer = await json(base, 'POST', '/api/accounts/login/', { email, password: PASSWORD });
    if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

async function upload(base: string, access: string, chatId: number, data: Buffer, name: string, type: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const response = await fetch(`${base}/api/chat/${chatId}/attachments/`, { method: 'POST', headers: { authorization: `Bearer ${access}` }, body: form });
  await response.arrayBuffer();
  return response.status;
}

async function main(): Promise<number> {
  const uploads = Number(options.uploads);
  const samples = Number(options.samples);
  const { tmp } = await benchFolders('picture-flood', options);
  const dense = await sharp({ create: { width: 6300, height: 6300, channels: 3, background: { r: 255, g: 255, b: 255 } } }).png({ compressionLevel: 9 }).toBuffer();
  const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 90, g: 120, b: 160 }, noise: { type: 'gaussian', mean: 120, sigma: 30 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
  console.log(`pictures: dense PNG 6,300 x 6,300 in ${Math.round(dense.length / 1024)} KB; photograph 4,000 x 3,000 JPEG in ${Math.round(photo.length / 1024)} KB; ${uploads} at once`);
  const mains: [string, string][] = [['real', path.join(ROOT, 'apps/server/src/main.ts')]];
  for (const spec of options.variant as string[]) {
    const at = spec.indexOf('=');
    if (at <= 0) throw new StartError(`--variant wants 'label=<main.ts>', got ${spec}`);
    mains.push([spec.slice(0, at), spec.slice(at + 1).trim()]);
  }
  for (const [name, main] of mains) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = path.join(tmp, `data-${name}`);
    const server = await startServer({
      name,
      main,
      url,
      readyUrl: `${url}/api/status/`,
      tmp,
      env: {
        ...parlaEnv({ port, publicUrl: url, dataDir, databaseUrl: await createDatabase(), secretKey: randomBytes(48).toString('base64url'), logLevel: 'warn' }),
        TRANSLATION_PROVIDER: 'none',
        STT_PROVIDER: 'none',
        TTS_PROVIDER: 'none',
      },
    });
    try {
      const reader = await account(url, dataDir, 'reader');
      const sender = await account(url, dataDir, 'sender');
      const chat = await json(url, 'POST', '/api/chat/', { title: 'Pictures', languages: ['en'] }, sender.access);
      await signIns(url, reader.email, 3);
      const idle = figures(await signIns(url, reader.email, samples));
      console.log(`${name}: sign-in alone p50 ${idle.p50.toFixed(0)} ms, p95 ${idle.p95.toFixed(0)} ms`);
      for (const [what, data, file, type] of [
        ['dense PNGs', dense, 'white.png', 'image/png'],
        ['photographs', photo, 'photo.jpg', 'image/jpeg'],
      ] as const) {
        const started = performance.now();
        const flood = Promise.all(Array.from({ length: uploads }, (_, index) => upload(url, sender.access, chat.body.id as number, data, `${index}-${file}`, type)));
        const during = figures(await signIns(url, reader.email, samples));
        const statuses = await flood;
        const counts = Object.entries(statuses.reduce<Record<number, number>>((all, status) => ({ ...all, [status]: (all[status] ?? 0) + 1 }), {}))
          .map(([status, count]) => `${count} x ${status}`)
          .join(', ');
        console.log(
          `${name}: during ${uploads} ${what}: sign-in p50 ${during.p50.toFixed(0)} ms (${(during.p50 / idle.p50).toFixed(1)} x alone), p95 ${during.p95.toFixed(0)} ms (${(during.p95 / idle.p95).toFixed(1)} x); uploads answered ${counts} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
        // The next flood starts from a quiet server.
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    } finally {
      await stopServer(server);
    }
  }
  return 0;
}

runMain(main);
