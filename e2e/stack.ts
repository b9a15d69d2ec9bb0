// The whole product for browser tests and benchmarks: an SMTP catcher on loopback and the real
// server (`node --import tsx apps/server/src/main.ts`) as a child process on a free port, with a
// fresh DATA_DIR (PGlite) and the built web client (apps/web/dist).
//
// Mails: the catcher parses each message and writes it as one JSON file (`CaughtMail`) into
// `mailDir`; the tests read that folder (its path travels in PARLA_E2E_MAIL_DIR, see fixtures.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** The monorepo root (/work/main): the server is started from there. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST_DIR = path.join(ROOT, 'apps/web/dist');

/** One received e-mail, as written by the catcher. */
export interface CaughtMail {
  /** Every recipient address (To), lower-cased. */
  to: string[];
  subject: string;
  text: string;
  /** Milliseconds since the epoch when the catcher received it. */
  receivedAt: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A real SMTP server on loopback that writes each parsed mail as JSON into `mailDir`. */
export async function startMailCatcher(mailDir: string) {
  mkdirSync(mailDir, { recursive: true });
  let sequence = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          const groups = parsed.to === undefined ? [] : Array.isArray(parsed.to) ? parsed.to : [parsed.to];
          const mail: CaughtMail = {
            to: groups.flatMap((group) => group.value.map((address) => (address.address ?? '').toLowerCase())),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            receivedAt: Date.now(),
          };
          const name = `${String(++sequence).padStart(6, '0')}-${mail.receivedAt}.json`;
          // Written aside then renamed, so a reader never sees half a file.
          const partial = path.join(mailDir, `.${name}.partial`);
          await writeFile(partial, JSON.stringify(mail, null, 2));
          await rename(partial, path.join(mailDir, name));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface StackOptions {
  /** HTTP port of the server; a free one when not given. */
  port?: number;
  /** Extra environment for the server (overrides the defaults below). */
  env?: Record<string, string>;
  /** How long to wait for GET /api/status/ to answer. */
  startTimeoutMs?: number;
}

export interface Stack {
  baseURL: string;
  port: number;
  dataDir: string;
  mailDir: string;
  serverLog: string;
  pid: number;
  /** Kills the server (SIGTERM, then SIGKILL after 5 s), closes the catcher, removes the temp files. */
  stop(options?: { saveLogTo?: string }): Promise<void>;
}

/** Starts the SMTP catcher and the server; resolves once GET /api/status/ answers. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  if (!existsSync(path.join(WEB_DIST_DIR, 'index.html'))) {
    throw new Error(`${WEB_DIST_DIR}/index.html is missing: build the web client first (npm run build -w @parla/web)`);
  }
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'parla-e2e-'));
  const dataDir = path.join(tmp, 'data');
  const mailDir = path.join(tmp, 'mail');
  const serverLog = path.join(tmp, 'server.log');
  const smtp = await startMailCatcher(mailDir);
  const port = options.port ?? (await freePort());
  const baseURL = `http://127.0.0.1:${port}`;

  const env: NodeJS.ProcessEnv = { ...process.env };
  // Always the embedded database and in-process limits, whatever the calling shell exports.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  Object.assign(env, {
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseURL,
    DATA_DIR: dataDir,
    WEB_DIST_DIR,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'info',
    RATE_LIMIT_LOGIN: '1000',
    RATE_LIMIT_LOGIN_PER_ADDRESS: '1000',
    RATE_LIMIT_REGISTRATION: '1000',
    RATE_LIMIT_EMAIL: '1000',
    RATE_LIMIT_CREATIONS: '1000',
    RATE_LIMIT_INVITATIONS: '1000',
    RATE_LIMIT_WRITES: '1000',
    RATE_LIMIT_PUBLIC: '5000',
    // A closed browser is offline after 2 s, not 15: the presence test waits for it.
    PRESENCE_OFFLINE_GRACE_SECONDS: '2',
    ...options.env,
  });

  const logFd = openSync(serverLog, 'a');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });

  const stop = async (stopOptions: { saveLogTo?: string } = {}) => {
    if (!exited && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      const killer = setTimeout(() => {
        if (!exited && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
      }, 5000);
      await exit;
      clearTimeout(killer);
    }
    await smtp.close();
    if (stopOptions.saveLogTo) {
      mkdirSync(path.dirname(stopOptions.saveLogTo), { recursive: true });
      await copyFile(serverLog, stopOptions.saveLogTo).catch(() => undefined);
    }
    if (!process.env.PARLA_E2E_KEEP) await rm(tmp, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`the server stopped at start (${JSON.stringify(exited)}):\n${tail(serverLog)}`);
    }
    try {
      const response = await fetch(`${baseURL}/api/status/`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer ${baseURL}/api/status/ in time:\n${tail(serverLog)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { baseURL, port, dataDir, mailDir, serverLog, pid: child.pid!, stop };
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}
