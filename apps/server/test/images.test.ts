// The pictures' decoding queue (platform/images.ts, issue 31 (2)): one decode at a time, a bounded
// wait per person and in all, each person's pixels of the minute; the pixels a file may hold.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/platform/errors';
import { allowedPixels, createPictureDecoder, FLOOR_PIXELS } from '../src/platform/images';

const later = () => {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
};
const statusOf = (error: unknown) => (error instanceof ApiError ? error.statusCode : undefined);

describe('picture decoding', () => {
  it('allows a file pixels in proportion to its bytes, a floor for small ones, never over the cap', () => {
    expect(allowedPixels(165_000, 40_000_000)).toBe(Math.max(FLOOR_PIXELS, 165_000 * 64));
    expect(allowedPixels(165_000, 40_000_000)).toBeLessThan(6300 * 6300);
    expect(allowedPixels(10_000, 40_000_000)).toBe(FLOOR_PIXELS);
    expect(allowedPixels(3_000_000, 40_000_000)).toBe(40_000_000);
  });

  it('decodes one at a time, keeps a bounded number waiting per person, and lets others in', async () => {
    const decoder = createPictureDecoder({ userPixelsPerMinute: 0, queuePerUser: 2 });
    let running = 0;
    let most = 0;
    const gates = [later(), later(), later()];
    const work = (gate: { done: Promise<void> }) => async () => {
      running++;
      most = Math.max(most, running);
      await gate.done;
      running--;
      return 'ok';
    };
    const first = decoder.decode(1, 1000, work(gates[0]!));
    const second = decoder.decode(1, 1000, work(gates[1]!));
    const third = await decoder.decode(1, 1000, async () => 'never').catch(statusOf);
    expect(third).toBe(429);
    const other = decoder.decode(2, 1000, work(gates[2]!));
    for (const gate of gates) gate.release();
    expect(await Promise.all([first, second, other])).toEqual(['ok', 'ok', 'ok']);
    expect(most).toBe(1);
  });

  it('refuses beyond the queue’s length, whoever asks', async () => {
    const decoder = createPictureDecoder({ userPixelsPerMinute: 0, queueLength: 2 });
    const gate = later();
    const held = [decoder.decode(1, 1, () => gate.done), decoder.decode(2, 1, () => gate.done)];
    expect(await decoder.decode(3, 1, async () => undefined).catch(statusOf)).toBe(429);
    gate.release();
    await Promise.all(held);
  });

  it('goes on after a decode that failed', async () => {
    const decoder = createPictureDecoder({ userPixelsPerMinute: 0 });
    const failed = decoder.decode(1, 10, async () => {
      throw new Error('bad picture');
    });
    await expect(failed).rejects.toThrow('bad picture');
    expect(await decoder.decode(1, 10, async () => 'next')).toBe('next');
  });

  it('charges each person’s pixels of the minute and refuses past them with 429', async () => {
    const decoder = createPictureDecoder({ userPixelsPerMinute: 10_000_000 });
    expect(await decoder.decode(1, 6_000_000, async () => 'a')).toBe('a');
    expect(await decoder.decode(1, 6_000_000, async () => 'b').catch(statusOf)).toBe(429);
    expect(await decoder.decode(2, 6_000_000, async () => 'c')).toBe('c');
  });
});

describe('a budget of work', () => {
  it('refuses past the minute’s amount, per person, and checks with nothing to add once it is spent', async () => {
    const { createWorkBudget } = await import('../src/platform/work-budget');
    const budget = createWorkBudget(100);
    budget.check(1);
    budget.spend(1, 80);
    expect(() => budget.check(1, 30)).toThrow();
    budget.check(1);
    budget.spend(1, 30);
    expect(() => budget.check(1)).toThrow();
    budget.check(2, 100);
    // Off at 0.
    const off = createWorkBudget(0);
    off.spend(1, 1e9);
    off.check(1, 1e9);
  });
});
