// inOrder (platform/in-order.ts): calls of one key one after another in the order made, other keys free.
import { describe, expect, it } from 'vitest';
import { inOrder } from '../src/platform/in-order';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('in order', () => {
  it('runs calls of one key one after another, in the order they were made, and lets other keys through', async () => {
    const run = inOrder();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = run('a', async () => {
      log.push('a1 start');
      await gate;
      log.push('a1 end');
      return 1;
    });
    const quick = run('a', async () => {
      log.push('a2');
      return 2;
    });
    const other = run('b', async () => {
      log.push('b1');
      return 3;
    });
    await tick();
    // The other key did not wait; the second call of 'a' waits for the first.
    expect(log).toEqual(['a1 start', 'b1']);
    release();
    expect(await Promise.all([slow, quick, other])).toEqual([1, 2, 3]);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });

  it('goes on with the next call of a key when one fails', async () => {
    const run = inOrder();
    const failed = run('a', async () => {
      throw new Error('no');
    });
    const next = run('a', async () => 'next');
    await expect(failed).rejects.toThrow('no');
    expect(await next).toBe('next');
  });
});
