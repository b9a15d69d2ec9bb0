import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadChunk } from '../src/lib/load-chunk';

const setOnline = (online: boolean) => Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });

describe('loadChunk', () => {
  afterEach(() => {
    setOnline(true);
    vi.useRealTimers();
  });

  it('offline, waits for the online event and loads again instead of rejecting', async () => {
    setOnline(false);
    let calls = 0;
    const load = () => (++calls === 1 ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve('chunk'));
    let settled: string | undefined;
    const loading = loadChunk(load).then((value) => (settled = value));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
    expect(settled).toBeUndefined();
    setOnline(true);
    window.dispatchEvent(new Event('online'));
    await loading;
    expect(settled).toBe('chunk');
    expect(calls).toBe(2);
  });

  it('online, tries again after the delay until it loads', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const load = () => (++calls < 3 ? Promise.reject(new Error('503')) : Promise.resolve(42));
    const loading = loadChunk(load, 1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(loading).resolves.toBe(42);
    expect(calls).toBe(3);
  });
});
