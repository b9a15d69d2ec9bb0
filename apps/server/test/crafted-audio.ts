// Uploads made to lie about their length (the header says a fraction of a second, the decoder
// sees minutes), and real speech pocketsphinx understands (flite).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runProcess, withTempDir } from '../src/platform/process';

/** Just under the 2 MB upload limit. */
const SAMPLE_BYTES = 2 * 1024 * 1024 - 256;

export function chunk(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** A 16-byte `fmt ` body: its byte rate and block size consistent with what it declares. */
export function fmtBody(formatTag: number, channels: number, sampleRate: number, bitsPerSample: number): Buffer {
  const body = Buffer.alloc(16);
  body.writeUInt16LE(formatTag, 0);
  body.writeUInt16LE(channels, 2);
  body.writeUInt32LE(sampleRate, 4);
  body.writeUInt32LE((sampleRate * channels * bitsPerSample) / 8, 8);
  body.writeUInt16LE((channels * bitsPerSample) / 8, 12);
  body.writeUInt16LE(bitsPerSample, 14);
  return body;
}

export function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), ...chunks]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

/** A quiet 8-bit wave: sound, not silence. */
function samples(length = SAMPLE_BYTES): Buffer {
  const data = Buffer.alloc(length);
  for (let i = 0; i < length; i++) data[i] = 128 + Math.round(40 * Math.sin(i / 3));
  return data;
}

/**
 * The reported WAV: two `fmt ` chunks. The first (8-bit mono at 4 kHz: 4,000 bytes a second) is
 * the one ffmpeg decodes with, 524 s; the last (64-bit, 8 channels at 192 kHz) made the old header
 * check read 0.17 s.
 */
export function twoFmtWav(): Buffer {
  return riff([chunk('fmt ', fmtBody(1, 1, 4000, 8)), chunk('fmt ', fmtBody(1, 8, 192_000, 64)), chunk('data', samples())]);
}
export const TWO_FMT_DECODED_SECONDS = SAMPLE_BYTES / 4000;

/**
 * One well-formed `fmt ` chunk whose header arithmetic and decoder disagree: A-law declared as 64
 * bits a sample, 8 channels at 4 kHz (8.2 s by the header), which ffmpeg decodes as the 8-bit
 * codec it is (65 s).
 */
export function alawWav(): Buffer {
  return riff([chunk('fmt ', fmtBody(6, 8, 4000, 64)), chunk('data', samples())]);
}
export const ALAW_HEADER_SECONDS = SAMPLE_BYTES / (4000 * 8 * 8);
export const ALAW_DECODED_SECONDS = SAMPLE_BYTES / (4000 * 8);

/** flite's 16 kHz mono 16-bit WAV of `text` (a voice pocketsphinx understands). */
export function fliteWav(text: string, voice = 'rms'): Promise<Buffer> {
  return withTempDir(async (dir) => {
    const file = path.join(dir, 'speech.wav');
    await runProcess('flite', ['-voice', voice, '-t', text, '-o', file], { timeoutMs: 30_000 });
    return readFile(file);
  });
}
