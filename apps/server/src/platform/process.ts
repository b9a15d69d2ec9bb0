// Child processes of the offline providers (espeak-ng, opusenc, ffmpeg, ffprobe, pocketsphinx,
// apertium-apy): no shell, input through stdin (or a file in a private temporary folder removed
// afterwards), output collected up to a bound, and a time limit after which the process is
// killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';

export class ProcessError extends Error {
  constructor(
    message: string,
    /** start: the program could not be run (not installed); the others: it ran and failed. */
    readonly kind: 'start' | 'timeout' | 'output' | 'exit',
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'ProcessError';
  }
}

export interface ProcessResult {
  stdout: Buffer;
  stderr: string;
}

export interface ProcessOptions {
  /** What the process reads on stdin (closed at once when absent). */
  input?: Buffer | Readable | undefined;
  /** Killed (SIGKILL) after this long, and the run fails. */
  timeoutMs: number;
  /** Killed when stdout grows past this many bytes (default 64 MB). */
  maxOutputBytes?: number | undefined;
  /** Leave stdout to the caller (to pipe it into another process) instead of collecting it. */
  pipeStdout?: boolean | undefined;
}

export interface RunningProcess {
  child: ChildProcess;
  /** Resolves when the process exits with status 0; rejects otherwise (timeout, signal, status). */
  done: Promise<ProcessResult>;
}

const STDERR_KEEP = 4096;
const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

/** Starts `command` (a path or a name on PATH, never through a shell) with `args`. */
export function startProcess(command: string, args: readonly string[], options: ProcessOptions): RunningProcess {
  const name = path.basename(command);
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false, windowsHide: true });
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const done = new Promise<ProcessResult>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: { message: string; kind: 'timeout' | 'output' } | undefined;
    const kill = (message: string, kind: 'timeout' | 'output') => {
      failure ??= { message, kind };
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill(`${name} took longer than ${options.timeoutMs} ms and was stopped`, 'timeout'), options.timeoutMs);

    if (!options.pipeStdout) {
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxOutput) return kill(`${name} wrote more than ${maxOutput} bytes and was stopped`, 'output');
        chunks.push(chunk);
      });
    }
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    // A process that exits before reading all of its input breaks the pipe: its exit status says
    // what happened, not the EPIPE.
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ProcessError(`${name} could not be started: ${error.message}`, 'start'));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failure) return reject(new ProcessError(failure.message, failure.kind, stderr));
      if (code !== 0) {
        const detail = stderr.trim().split('\n').slice(-3).join(' | ');
        return reject(new ProcessError(`${name} ended with ${signal ?? `status ${code}`}${detail ? `: ${detail}` : ''}`, 'exit', stderr));
      }
      resolve({ stdout: Buffer.concat(chunks), stderr });
    });

    const input = options.input;
    if (input === undefined) child.stdin.end();
    else if (Buffer.isBuffer(input)) child.stdin.end(input);
    else {
      // A source that fails or is closed early (its process could not start, or was killed) ends
      // this input too, so this process stops instead of waiting for its time limit.
      input.on('error', () => child.stdin.destroy());
      input.once('close', () => {
        if (!child.stdin.writableEnded) child.stdin.end();
      });
      input.pipe(child.stdin);
    }
  });
  return { child, done };
}

/** Runs `command` to its end and returns what it wrote. */
export function runProcess(command: string, args: readonly string[], options: ProcessOptions): Promise<ProcessResult> {
  return startProcess(command, args, options).done;
}

/** A private temporary folder (mode 0700) for `work`, removed afterwards whatever happens. */
export async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parla-speech-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The executable's path when it is on PATH. */
export function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, command);
    try {
      accessSync(file, fsConstants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** At most `limit` tasks at once; the rest wait in order. */
export function createLimiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    get queued() {
      return waiting.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else running++;
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}

/**
 * The start of a Python program run by `python3 -c <program> <our pid> …`: it gets SIGTERM when
 * our process dies however it dies (Linux's parent-death signal), and exits at once if that
 * happened before it started. Needs `os`, `signal` and `sys` imported before it.
 */
export const PYTHON_BOUND_TO_PARENT = `try:
    import ctypes
    ctypes.CDLL('libc.so.6', use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
except Exception:
    pass
if os.getppid() != int(sys.argv[1]):
    sys.exit(0)
`;
