// The utterance upload's WAV: a 44-byte RIFF header for 16-bit mono PCM at 16 kHz, samples
// clamped and scaled to the 16-bit range, and long utterances cut into pieces the server takes.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@parla/contract/constants';
import { durationOf, encodeWav, splitUtterance, VAD_SAMPLE_RATE } from '../src/features/rooms/call/wav';

const text = (view: DataView, offset: number, length: number) => String.fromCharCode(...Array.from({ length }, (_, index) => view.getUint8(offset + index)));

describe('encodeWav', () => {
  it('writes a RIFF/WAVE header for 16-bit mono PCM at the given rate', () => {
    const wav = encodeWav(new Float32Array(160), 16_000);
    const view = new DataView(wav);
    expect(wav.byteLength).toBe(44 + 320);
    expect(text(view, 0, 4)).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(36 + 320);
    expect(text(view, 8, 4)).toBe('WAVE');
    expect(text(view, 12, 4)).toBe('fmt ');
    expect(view.getUint32(16, true)).toBe(16);
    expect(view.getUint16(20, true)).toBe(1); // PCM
    expect(view.getUint16(22, true)).toBe(1); // mono
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint32(28, true)).toBe(32_000);
    expect(view.getUint16(32, true)).toBe(2);
    expect(view.getUint16(34, true)).toBe(16);
    expect(text(view, 36, 4)).toBe('data');
    expect(view.getUint32(40, true)).toBe(320);
  });

  it('scales samples to the 16-bit range, clamping what is out of -1..1', () => {
    const view = new DataView(encodeWav(new Float32Array([0, 1, -1, 0.5, -0.5, 2, -3, Number.NaN])));
    const samples = Array.from({ length: 8 }, (_, index) => view.getInt16(44 + index * 2, true));
    expect(samples).toEqual([0, 32767, -32768, 16383, -16384, 32767, -32768, 0]);
  });

  it('writes an empty utterance as a valid empty file', () => {
    const view = new DataView(encodeWav(new Float32Array(0)));
    expect(view.byteLength).toBe(44);
    expect(view.getUint32(40, true)).toBe(0);
  });
});

describe('splitUtterance', () => {
  it('keeps an utterance within the limit whole', () => {
    const samples = new Float32Array(VAD_SAMPLE_RATE * 5);
    expect(splitUtterance(samples)).toEqual([samples]);
  });

  it('cuts a long one into consecutive pieces under the server limit, losing nothing', () => {
    const samples = Float32Array.from({ length: VAD_SAMPLE_RATE * 70 }, (_, index) => (index % 100) / 100);
    const pieces = splitUtterance(samples);
    expect(pieces).toHaveLength(3);
    for (const piece of pieces) expect(durationOf(piece)).toBeLessThan(LIMITS.segmentAudioMaxSeconds);
    expect(pieces.reduce((sum, piece) => sum + piece.length, 0)).toBe(samples.length);
    expect(pieces[1]![0]).toBe(samples[pieces[0]!.length]);
    // Each piece encodes under the upload's size limit.
    for (const piece of pieces) expect(encodeWav(piece).byteLength).toBeLessThan(LIMITS.segmentAudioMaxBytes);
  });
});
