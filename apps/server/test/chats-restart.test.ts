// Durable work: a server process killed (SIGKILL) while translations are pending; after a restart
// on the same database every rendering arrives.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, eventually, person, post, setReading } from './chat-helpers';
import { Client, createPostgresDatabase, freePort, GOOD_PASSWORD, startSmtp, type TestServer } from './harness';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

const SERVER = path.resolve(import.meta.dirname, '../src/main.ts');

/**
 * Starts `main.ts` on a free port and waits for its own "up" line: a port found free can be taken
 * by another test's server before this one listens (it then exits with EADDRINUSE while the other
 * answers), so the answer of some server on the port proves nothing; a lost port is tried again.
 */
async function spawnServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const up = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(`Parla is up at ${url}`)) {
          clearTimeout(timer);
          resolve(true);
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (up) {
      // Keep reading: a full pipe would block the server.
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      return { child, url };
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (!output.includes('EADDRINUSE') || attempt >= 3) throw new Error(`the server did not start:\n${output.slice(-2000)}`);
  }
}

describe('a server killed while translations are pending', () => {
  let standIn: StandIn;
  let dataDir: string;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let env: Record<string, string>;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    smtp = await startSmtp();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'parla-restart-'));
    database = process.env.TEST_DATABASE === 'postgres' ? await createPostgresDatabase() : undefined;
    env = {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      OPENAI_BASE_URL: standIn.baseUrl,
      TRANSLATION_TIMEOUT_SECONDS: '4',
      TRANSLATION_RETRY_DELAY_SECONDS: '1',
      RATE_LIMIT_LOGIN: '1000',
      RATE_LIMIT_REGISTRATION: '1000',
      RATE_LIMIT_MESSAGES: '0',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
  });
  afterAll(async () => {
    for (const child of children) {
      // A process ended by a signal keeps exitCode null: look at signalCode too, or this waits forever.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    await standIn.close();
    await smtp.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  // Two server processes start in turn: give a busy machine time.
  it('delivers every rendering after the restart', { timeout: 180_000 }, async () => {
    const first = await spawnServer(env);
    children.push(first.child);
    // The chat helpers need a TestServer-like handle: the base URL and the SMTP catcher.
    const handle = { url: first.url, smtp, client: () => new Client(first.url) } as unknown as TestServer;
    const ana = await person(handle, 'Ana');
    const ben = await person(handle, 'Ben');
    const chat = await createChat(ana, { title: 'Crash', languages: ['en', 'es'] });
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');

    // The provider answers slowly: the translations are in flight when the process dies.
    standIn.delay(30_000);
    const sent = [];
    for (const text of ['one', 'two', 'three']) sent.push(await post(ana, chat.id, text));
    await eventually(async () => standIn.completions().length, (count) => count >= 1);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    standIn.delay(0);

    const second = await spawnServer(env);
    children.push(second.child);
    ben.client = new Client(second.url);
    await ben.client.post('/api/accounts/login/', { email: ben.email, password: GOOD_PASSWORD });
    const page = await eventually(
      async () => (await ben.client.get(`/api/chat/${chat.id}/messages/`)).body,
      (body) => body.results?.length === 3 && body.results.every((m: { translation: string }) => m.translation === 'done'),
      60_000,
    );
    expect(page.results.map((m: { content: string }) => m.content).sort()).toEqual(['[es DEFAULT] one', '[es DEFAULT] three', '[es DEFAULT] two']);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  });
});
