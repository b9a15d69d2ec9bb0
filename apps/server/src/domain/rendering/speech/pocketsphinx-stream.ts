// Recognition while people speak, embedded: one long-lived pocketsphinx decoder per speaker
// (Debian's python3-pocketsphinx, the same US English model as the per-utterance recogniser), fed
// frame by frame through its stdin, telling the words so far and its own end of each utterance
// (pocketsphinx-stream-script.ts). Decoders run at a lower priority than the server (nice 5): on a
// busy machine the calls' signalling and the pages come first, and a decoder that falls behind
// says so (`behindMs`) and catches up later, losing nothing. At most `maxRunning` run at once
// (about 110 MB each); past them a speaker uploads utterances as before.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Language } from '@parla/contract/constants';
import { DEBIAN_POCKETSPHINX_MODEL } from './pocketsphinx';
import { POCKETSPHINX_STREAM } from './pocketsphinx-stream-script';
import { STREAM_BYTES_PER_MS, type Recognition, type RecognitionEvents, type StreamingTranscriber } from './streaming';

/** Debian's own Python, where python3-pocketsphinx is (not one first on PATH, such as pyenv's). */
export const DEBIAN_PYTHON = '/usr/bin/python3';
const NICE = 5;

export interface PocketsphinxStreamOptions {
  python?: string | undefined;
  modelDir?: string | undefined;
  /** Decoders at once (default 6: a room of six speakers). */
  maxRunning?: number | undefined;
}

/** What of the streaming recogniser is missing here (empty when it can run). */
export function missingPocketsphinxStream(python = DEBIAN_PYTHON, modelDir = DEBIAN_POCKETSPHINX_MODEL): string[] {
  const missing: string[] = [];
  if (!existsSync(python)) return [python];
  const probe = spawnSync(python, ['-c', 'import pocketsphinx'], { stdio: 'ignore', timeout: 20_000 });
  if (probe.status !== 0) missing.push('python3-pocketsphinx');
  if (!existsSync(path.join(modelDir, 'en-us'))) missing.push(path.join(modelDir, 'en-us'));
  return missing;
}

type DecoderLine = { k: 'r' } | { k: 'e' } | { k: 'p'; text: string; at: number } | { k: 'f'; text: string; from: number; to: number } | { k: 't'; at: number };

const record = (kind: 'a' | 'e' | 'q', body?: Buffer) => {
  const head = Buffer.alloc(5);
  head.write(kind, 0, 'latin1');
  head.writeUInt32LE(body?.length ?? 0, 1);
  return body ? Buffer.concat([head, body]) : head;
};

export function createPocketsphinxStream(options: PocketsphinxStreamOptions = {}): StreamingTranscriber {
  const python = options.python ?? DEBIAN_PYTHON;
  const modelDir = options.modelDir ?? DEBIAN_POCKETSPHINX_MODEL;
  const maxRunning = Math.max(1, options.maxRunning ?? 6);
  const running = new Set<ChildProcessWithoutNullStreams>();

  function start(events: RecognitionEvents): Recognition {
    const child = spawn(python, ['-c', POCKETSPHINX_STREAM, String(process.pid), path.join(modelDir, 'en-us'), path.join(modelDir, 'en-us.lm.bin'), path.join(modelDir, 'cmudict-en-us.dict')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    running.add(child);
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, NICE);
      } catch {
        // Not allowed here: it runs at the server's priority.
      }
    }
    let written = 0;
    let decoded = 0;
    let ended = false;
    let stderr = '';
    /** Those waiting for an end of utterance to be done, in the order asked. */
    const ends: (() => void)[] = [];
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      let event: DecoderLine;
      try {
        event = JSON.parse(line) as DecoderLine;
      } catch {
        return;
      }
      if (event.k === 't') decoded = event.at;
      else if (event.k === 'p') {
        decoded = event.at;
        events.partial(event.text);
      } else if (event.k === 'f') events.final(event.text, event.from / 16, event.to / 16);
      else if (event.k === 'e') ends.shift()?.();
    });
    child.on('exit', (code, signal) => {
      running.delete(child);
      for (const done of ends.splice(0)) done();
      if (!ended) {
        ended = true;
        events.failed(new Error(`the streaming recogniser stopped (${signal ?? `status ${code}`})${stderr ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`));
      }
    });
    child.on('error', () => undefined);

    return {
      write(pcm) {
        if (ended || pcm.length === 0) return;
        written += pcm.length / 2;
        child.stdin.write(record('a', pcm));
      },
      endUtterance() {
        if (ended) return Promise.resolve();
        return new Promise<void>((resolve) => {
          ends.push(resolve);
          child.stdin.write(record('e'));
        });
      },
      get behindMs() {
        return Math.max(0, (written - decoded) * 2) / STREAM_BYTES_PER_MS;
      },
      async close() {
        if (ended) return;
        ended = true;
        const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.stdin.end(record('q'));
        const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
        await exited;
        clearTimeout(timer);
      },
    };
  }

  return {
    name: 'pocketsphinx',
    canStream: (language: Language) => language === 'en',
    get running() {
      return running.size;
    },
    async open(language, events) {
      if (language !== 'en' || running.size >= maxRunning) return null;
      return start(events);
    },
    async close() {
      for (const child of running) child.kill('SIGTERM');
      running.clear();
    },
  };
}
