// Group commit (core/db/group-commit.ts): calls of the same tick, and those arriving while a batch
// is written, go together; each caller gets its own answer, and one failing call fails alone.
import { describe, expect, it } from 'vitest';
import { groupCommit } from '../src/core/db/group-commit';

describe('group commit', () => {
  it('runs calls of the same tick as one batch, and those arriving meanwhile as the next', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const call = groupCommit(
      async (items: number[]) => {
        batches.push(items);
        if (batches.length === 1) await gate;
        return items.map((item) => item * 10);
      },
      { maxBatch: 3, maxInFlight: 1 },
    );
    const first = [1, 2].map(call);
    await new Promise((resolve) => setImmediate(resolve));
    // The first batch is being written: these wait for it, then go 3 at a time.
    const later = [3, 4, 5, 6].map(call);
    release();
    expect(await Promise.all([...first, ...later])).toEqual([10, 20, 30, 40, 50, 60]);
    expect(batches).toEqual([[1, 2], [3, 4, 5], [6]]);
  });

  it('starts another batch at once while fewer than maxInFlight are being written', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const call = groupCommit(
      async (items: number[]) => {
        batches.push(items);
        if (batches.length <= 2) await gate;
        return items;
      },
      { maxBatch: 10, maxInFlight: 2 },
    );
    const first = call(1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = call(2);
    await new Promise((resolve) => setImmediate(resolve));
    // Two batches in flight: these wait, then go together.
    const rest = [3, 4].map(call);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1], [2]]);
    release();
    expect(await Promise.all([first, second, ...rest])).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2], [3, 4]]);
  });

  it('runs each call of a failing batch alone: only the failing call fails', async () => {
    const batches: number[][] = [];
    const call = groupCommit(
      async (items: number[]) => {
        batches.push(items);
        if (items.includes(2)) throw new Error('refused');
        return items.map((item) => item + 1);
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const results = await Promise.allSettled([1, 2, 3].map(call));
    expect(results).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: new Error('refused') },
      { status: 'fulfilled', value: 4 },
    ]);
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});
