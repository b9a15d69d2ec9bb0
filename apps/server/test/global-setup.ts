// Once before all server tests:
// - on PGlite, an initialised, migrated database (our schema and the job queue's) dumped to a
//   file, so each test server starts from it in well under a second instead of running initdb and
//   the migrations again (2-6 s each on this machine);
// - a throw-away Redis (a free port, nothing kept on disk) when REDIS_TEST_URL is not given (the
//   test command gives one), so the suites that need Redis run instead of being skipped. Without
//   redis-server installed they fail and say so.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openDatabase } from '../src/platform/db/index';
import { createJobs } from '../src/platform/jobs';
import { which } from '../src/platform/process';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves once something accepts connections on the port (up to 10 s). */
async function listening(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startRedis(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.REDIS_TEST_URL || !which('redis-server')) return undefined;
  const port = await freePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parla-test-redis-'));
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  await listening(port);
  process.env.REDIS_TEST_URL = `redis://127.0.0.1:${port}`;
  return async () => {
    child.kill();
    await rm(dir, { recursive: true, force: true });
  };
}

async function pgliteTemplate(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_DATABASE === 'postgres') return undefined;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parla-pglite-template-'));
  const database = await openDatabase({ pgliteDir: 'memory://' });
  const jobs = createJobs({ database, databaseUrl: undefined, log: pino({ level: 'silent' }), maintenanceIntervalSeconds: 60 });
  await jobs.start();
  await jobs.close();
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  const file = path.join(dir, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  process.env.PARLA_PGLITE_TEMPLATE = file;
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

/** Each worker's test servers add the answers they checked against the OpenAPI document here. */
async function documentTally(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parla-document-tally-'));
  const file = path.join(dir, 'tally');
  process.env.PARLA_DOCUMENT_TALLY = file;
  return async () => {
    const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    const [checked, violations] = lines.reduce(([a, b], line) => {
      const [c = 0, v = 0] = line.split(' ').map(Number);
      return [a + c, b + v];
    }, [0, 0]);
    console.log(`OpenAPI document check: ${checked} answers of ${lines.length} test servers validated, ${violations} violations`);
    await rm(dir, { recursive: true, force: true });
  };
}

export default async function setup() {
  const stops = [await startRedis(), await pgliteTemplate(), await documentTally()];
  return async () => {
    for (const stop of stops) await stop?.();
  };
}
