// The embedded APY (no APERTIUM_URL): Debian's apertium-apy, run by its own interpreter under the
// wrapper of apertium-apy-wrapper.ts (127.0.0.1 only, dies with us, ends its pipelines), on a free
// loopback port, in a process group of its own. It is started again after a crash (1 s, 2 s, …
// up to a minute apart) and stopped, pipelines included, by close() or our exit. Never started
// unwrapped: an APY on every interface would serve anyone who reaches the machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { APY_WRAPPER } from './apertium-apy-wrapper';
import { ApertiumError, listPairs } from './apertium-client';
import { which } from '../../../platform/process';

/** Where Debian's language-pair packages put their modes (the directory APY is given). */
export const DEBIAN_MODES_DIR = '/usr/share/apertium/modes';
const DEBIAN_LANG_NAMES = '/usr/share/apertium-apy/langNames.db';

export interface EmbeddedApyOptions {
  log: FastifyBaseLogger;
  /** Pairs directory given to APY. */
  modesDir: string;
  /** Longest wait for APY's first answer. */
  startTimeoutMs: number;
  /** Called once an APY restarted after a crash answers (its URL is new; its pairs may be). */
  onRestart: () => Promise<void>;
}

export interface EmbeddedApy {
  /** Where the last started APY answers (a loopback address; a restart changes the port). */
  readonly url: string;
  /** Its process id while it runs. */
  readonly pid: number | undefined;
  /** Milliseconds the last start took until APY's first /listPairs answer. */
  readonly startupMs: number;
  close(): Promise<void>;
}

/** The interpreter of Debian's apertium-apy script (its `#!` line), where APY's modules are. */
function apyInterpreter(script: string): string | undefined {
  try {
    const first = readFileSync(script, 'utf8').split('\n', 1)[0] ?? '';
    const match = /^#!\s*(\S+)/.exec(first);
    return match?.[1] && existsSync(match[1]) && /python/.test(match[1]) ? match[1] : undefined;
  } catch {
    return undefined;
  }
}

/** The interpreter of Debian's apertium-apy when it is installed with at least one pair. */
function findDebianApy(modesDir: string, log: FastifyBaseLogger): string | undefined {
  const script = which('apertium-apy');
  if (!script) return undefined;
  try {
    if (!readdirSync(modesDir).some((file) => file.endsWith('.mode'))) return undefined;
  } catch {
    return undefined;
  }
  const interpreter = apyInterpreter(script);
  if (!interpreter) log.warn({ script }, "apertium-apy's Python (its #! line) was not found; APY is not started");
  return interpreter;
}

const apyArgs = (port: number, modesDir: string) => [
  '-p', String(port),
  // One HTTP process (pipelines are processes of their own); a request may take 20 s; an idle
  // pipeline is stopped after 10 minutes (each holds tens of MB).
  '-j', '1', '-t', '20', '-m', '600',
  ...(existsSync(DEBIAN_LANG_NAMES) ? ['-l', DEBIAN_LANG_NAMES] : []),
  modesDir,
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** APY processes alive in this process, killed (with their pipelines) when it exits. */
const liveApys = new Set<ChildProcess>();
let exitHook = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function track(child: ChildProcess) {
  liveApys.add(child);
  child.once('exit', () => liveApys.delete(child));
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const apy of liveApys) killGroup(apy, 'SIGTERM');
    });
  }
}

interface Launch {
  child: ChildProcess;
  url: string;
  startupMs: number;
}

/** Starts the wrapped APY on a free loopback port and waits for its first /listPairs answer. */
async function launch(interpreter: string, modesDir: string, log: FastifyBaseLogger, timeoutMs: number): Promise<Launch> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(interpreter, ['-c', APY_WRAPPER, String(process.pid), ...apyArgs(port, modesDir)], {
    // Its own process group, so stopping it stops its pipelines too.
    detached: true,
    cwd: tmpdir(),
    stdio: ['ignore', 'ignore', 'pipe'],
    // APY refuses to start without a UTF-8 locale (Debian's unit sets the same).
    env: { ...process.env, LC_ALL: 'C.UTF-8', PYTHONUNBUFFERED: '1' },
  });
  track(child);
  // Neither APY nor its log pipe keeps our process alive; close() or our exit ends it.
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  const tail: string[] = [];
  let partial = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 20) tail.shift();
      log.debug({ apy: line }, 'apertium-apy');
    }
  });
  let exited: string | undefined;
  child.once('error', (error) => (exited = error.message));
  child.once('exit', (code, signal) => (exited ??= `exited (${signal ?? code})`));
  const stderrClosed = new Promise((resolve) => child.once('close', resolve));

  const deadline = started + timeoutMs;
  for (;;) {
    if (exited !== undefined) {
      // Its last words (the wrapper's refusal) may still be in the pipe.
      await Promise.race([stderrClosed, new Promise((resolve) => setTimeout(resolve, 500))]);
      if (partial.trim()) tail.push(partial);
      throw new ApertiumError(`apertium-apy ${exited}: ${tail.join(' | ') || 'no output'}`);
    }
    try {
      await listPairs(url);
      return { child, url, startupMs: Math.round(performance.now() - started) };
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      killGroup(child, 'SIGKILL');
      throw new ApertiumError(`apertium-apy did not answer within ${timeoutMs} ms: ${tail.join(' | ') || 'no output'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => killGroup(child, 'SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(force);
      // Pipelines that outlived APY's own clean-up.
      killGroup(child, 'SIGKILL');
      resolve();
    });
    killGroup(child, 'SIGTERM');
  });
}

/**
 * The embedded APY once it answers, or undefined: apertium-apy (with pairs) not installed, or it
 * would not start (logged, with the wrapper's refusal when APY or tornado changed under it).
 */
export async function startEmbeddedApy(options: EmbeddedApyOptions): Promise<EmbeddedApy | undefined> {
  const { log, modesDir, startTimeoutMs, onRestart } = options;
  let child: ChildProcess | undefined;
  let url = '';
  let startupMs = 0;
  let closing = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let restartDelayMs = 1_000;

  const start = async (): Promise<boolean> => {
    const interpreter = findDebianApy(modesDir, log);
    if (!interpreter) return false;
    try {
      const started = await launch(interpreter, modesDir, log, startTimeoutMs);
      child = started.child;
      url = started.url;
      startupMs = started.startupMs;
      watch(started.child);
      log.info({ url, pid: started.child.pid, startupMs }, 'apertium-apy started');
      return true;
    } catch (error) {
      log.warn({ err: error }, 'apertium-apy did not start');
      return false;
    }
  };

  const scheduleRestart = () => {
    restartTimer = setTimeout(() => void restart(), restartDelayMs);
    restartTimer.unref();
    restartDelayMs = Math.min(restartDelayMs * 2, 60_000);
  };

  // A crashed APY is started again; its pairs are read again (onRestart).
  const watch = (apy: ChildProcess) => {
    const since = performance.now();
    apy.once('exit', (code, signal) => {
      if (closing || child !== apy) return;
      // Pipelines a killed APY could not stop.
      killGroup(apy, 'SIGKILL');
      child = undefined;
      if (performance.now() - since > 60_000) restartDelayMs = 1_000;
      log.warn({ code, signal, restartInMs: restartDelayMs }, 'apertium-apy stopped; restarting it');
      scheduleRestart();
    });
  };

  const restart = async () => {
    restartTimer = undefined;
    if (closing) return;
    const ok = await start();
    if (closing) {
      if (child) await stopChild(child);
      return;
    }
    if (ok) await onRestart().catch((error: unknown) => log.warn({ err: error }, 'apertium pairs could not be read'));
    else scheduleRestart();
  };

  if (!(await start())) return undefined;

  return {
    get url() {
      return url;
    },
    get pid() {
      return child?.pid;
    },
    get startupMs() {
      return startupMs;
    },
    async close() {
      closing = true;
      if (restartTimer) clearTimeout(restartTimer);
      restartTimer = undefined;
      const apy = child;
      child = undefined;
      if (apy) await stopChild(apy);
    },
  };
}
