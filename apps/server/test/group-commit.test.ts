// Group commit (platform/db/group-commit.ts): calls of the same tick, and those arriving while a batch
// is written, go together; each caller gets its own answer, and one failing call fails alone.
import { describe, expect, it } from 'vitest';
import { groupCommit } from '../src/platform/db/group-commit';

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

  it('writes calls of one tick side by side while they are no more than the free places, keeping calls of one key together and in order', async () => {
    const batches: string[][] = [];
    const gates: (() => void)[] = [];
    const call = groupCommit(
      async (items: string[]) => {
        batches.push(items);
        await new Promise<void>((resolve) => gates.push(resolve));
        return items;
      },
      { maxBatch: 10, maxInFlight: 2, key: (item) => item[0] },
    );
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    // Two chats' posts of one tick go side by side, not as one larger statement.
    const pair = ['a1', 'b1'].map(call);
    await tick();
    expect(batches).toEqual([['a1'], ['b1']]);
    gates.splice(0).forEach((open) => open());
    expect(await Promise.all(pair)).toEqual(['a1', 'b1']);
    // Posts of one chat in one tick stay one batch, in their order; more calls than places go together.
    const same = ['c1', 'c2'].map(call);
    const more = ['x1', 'y1', 'z1'];
    await tick();
    expect(batches.slice(2)).toEqual([['c1', 'c2']]);
    gates.splice(0).forEach((open) => open());
    expect(await Promise.all(same)).toEqual(['c1', 'c2']);
    const together = more.map(call);
    await tick();
    expect(batches.slice(3)).toEqual([['x1', 'y1', 'z1']]);
    gates.splice(0).forEach((open) => open());
    expect(await Promise.all(together)).toEqual(more);
    // A post of a chat whose batch is being written waits for it, though a place is free.
    const c3 = call('c3');
    await tick();
    const c4 = call('c4');
    const e1 = call('e1');
    await tick();
    expect(batches.slice(4)).toEqual([['c3'], ['e1']]);
    gates.splice(0, 1).forEach((open) => open());
    await tick();
    await tick();
    expect(batches.slice(6)).toEqual([['c4']]);
    gates.splice(0).forEach((open) => open());
    expect(await Promise.all([c3, c4, e1])).toEqual(['c3', 'c4', 'e1']);
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

  it('runs the calls of a failing batch again one after the other', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const call = groupCommit(
      async (items: number[]) => {
        if (items.length > 1) throw new Error('batch refused');
        started.push(items[0]!);
        most = Math.max(most, ++running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return items;
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    expect(await Promise.all([1, 2, 3].map(call))).toEqual([1, 2, 3]);
    expect(started).toEqual([1, 2, 3]);
    expect(most).toBe(1);
  });
});
