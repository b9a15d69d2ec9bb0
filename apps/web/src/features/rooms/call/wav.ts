// One utterance as the server takes it: the voice detector's 16 kHz Float32 samples (-1..1)
// written as a 16-bit mono PCM WAV, cut into pieces the server accepts (at most 30 s each).
import { LIMITS } from '@parla/contract/constants';

export const VAD_SAMPLE_RATE = 16_000;

/** A RIFF/WAVE file of 16-bit signed little-endian mono PCM; samples are clamped to -1..1. */
export function encodeWav(samples: Float32Array, sampleRate = VAD_SAMPLE_RATE): ArrayBuffer {
  const dataBytes = samples.length * 2;
  const buffer = new ArrayBuffer(44 + dataBytes);
  const view = new DataView(buffer);
  const ascii = (offset: number, text: string) => {
    for (let index = 0; index < text.length; index++) view.setUint8(offset + index, text.charCodeAt(index));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // size of the fmt chunk
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let index = 0; index < samples.length; index++) {
    const sample = Math.max(-1, Math.min(1, samples[index] ?? 0));
    // Asymmetric range of 16-bit PCM: -32768..32767.
    view.setInt16(44 + index * 2, sample < 0 ? sample * 0x8000 : sample * 0x7fff, true);
  }
  return buffer;
}

/**
 * An utterance longer than the server takes, cut into consecutive pieces of at most `maxSeconds`
 * (a little under the limit, so rounding never makes one too long); a short one stays whole.
 */
export function splitUtterance(samples: Float32Array, sampleRate = VAD_SAMPLE_RATE, maxSeconds = LIMITS.segmentAudioMaxSeconds - 0.5): Float32Array[] {
  const size = Math.floor(maxSeconds * sampleRate);
  if (samples.length <= size) return [samples];
  const pieces: Float32Array[] = [];
  for (let start = 0; start < samples.length; start += size) pieces.push(samples.subarray(start, Math.min(samples.length, start + size)));
  return pieces;
}

/** Seconds of sound in `samples`. */
export const durationOf = (samples: Float32Array, sampleRate = VAD_SAMPLE_RATE) => samples.length / sampleRate;
