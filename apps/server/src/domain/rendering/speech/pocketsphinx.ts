// Transcription by Debian's pocketsphinx (CMU Sphinx, 5prealpha) with its US English model: one
// `pocketsphinx_continuous` per utterance over a 16 kHz mono WAV in a private temporary folder.
// US English only; every other language is `none`. It is CPU bound (about 2 s of CPU for 5 s of
// speech, model loading included), so only `concurrency` run at once and the rest wait in order.
// What it hears is at most a second past the upload limit (toPcm16kMonoWav); an utterance that
// still runs it past its time limit is taken as the utterance's fault (UnusableUtteranceError):
// retrying it would hold the recogniser up again for every other room.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Language } from '@parla/contract/constants';
import { toPcm16kMonoWav } from './audio';
import { createLimiter, ProcessError, runProcess, which, withTempDir } from '../../../platform/process';
import { UnusableUtteranceError, type TranscriptionProvider, type TranscriptionResult, type Utterance } from './provider';

/** Where Debian's pocketsphinx-en-us puts the US English model. */
export const DEBIAN_POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us';
const BINARY = 'pocketsphinx_continuous';

export interface PocketsphinxOptions {
  /** Folder with `en-us/` (acoustic model), `en-us.lm.bin` and `cmudict-en-us.dict`. */
  modelDir?: string | undefined;
  /** Recognisers running at once (default 1: two cores are shared with the server). */
  concurrency?: number | undefined;
  /** One recognition's limit, excluding its wait in the queue (default 60 s; 30 s of speech takes ~10 s). */
  timeoutMs?: number | undefined;
}

export interface PocketsphinxProvider extends TranscriptionProvider {
  readonly name: 'pocketsphinx';
  /** Recognitions waiting for a free recogniser. */
  readonly queued: number;
}

function modelFiles(modelDir: string) {
  return {
    hmm: path.join(modelDir, 'en-us'),
    lm: path.join(modelDir, 'en-us.lm.bin'),
    dict: path.join(modelDir, 'cmudict-en-us.dict'),
  };
}

/** What of pocketsphinx is missing on this machine (empty when it can run). */
export function missingPocketsphinx(modelDir = DEBIAN_POCKETSPHINX_MODEL): string[] {
  const missing: string[] = [];
  if (!which(BINARY)) missing.push(BINARY);
  if (!which('ffmpeg')) missing.push('ffmpeg');
  for (const file of Object.values(modelFiles(modelDir))) if (!existsSync(file)) missing.push(file);
  return missing;
}

export function createPocketsphinxProvider(options: PocketsphinxOptions = {}): PocketsphinxProvider {
  const modelDir = options.modelDir ?? DEBIAN_POCKETSPHINX_MODEL;
  const files = modelFiles(modelDir);
  const limiter = createLimiter(Math.max(1, options.concurrency ?? 1));
  const timeoutMs = options.timeoutMs ?? 60_000;

  return {
    name: 'pocketsphinx',
    get queued() {
      return limiter.queued;
    },

    canTranscribe: (language: Language) => language === 'en',

    async transcribe(utterance: Utterance, language: Language): Promise<TranscriptionResult> {
      if (language !== 'en') return { state: 'none' };
      const wav = await toPcm16kMonoWav(utterance);
      return limiter.run(() =>
        withTempDir(async (dir) => {
          // The name must end in .wav: pocketsphinx then checks and skips the header.
          const input = path.join(dir, 'utterance.wav');
          await writeFile(input, wav, { mode: 0o600 });
          const args = ['-infile', input, '-hmm', files.hmm, '-lm', files.lm, '-dict', files.dict, '-logfn', '/dev/null'];
          const { stdout } = await runProcess(BINARY, args, { timeoutMs, maxOutputBytes: 1024 * 1024 }).catch((error: unknown) => {
            // Past its limits on this utterance (at most 31 s of sound, ~10 s of work): not worth
            // another try. A crash or a missing program is this machine's, and is retried.
            if (error instanceof ProcessError && (error.kind === 'timeout' || error.kind === 'output')) {
              throw new UnusableUtteranceError(`the recogniser could not finish this utterance: ${error.message}`, { cause: error });
            }
            throw error;
          });
          // One line per stretch of speech between pauses.
          const text = stdout.toString('utf8').split('\n').map((line) => line.trim()).filter(Boolean).join(' ');
          return { state: 'done', text };
        }),
      );
    },

    async health() {
      return missingPocketsphinx(modelDir).length === 0 ? 'ok' : 'degraded';
    },

    async close() {},
  };
}
