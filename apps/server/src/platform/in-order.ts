// Calls of one key run one after another, in the order they were made; calls of other keys do not
// wait. What one sender posts to a chat is stored in the order it arrived (a plain post is one
// statement, a reply or mention several: without this a plain post sent just after one could pass it).
// In this process only: one connection's events all reach the same process.

export function inOrder() {
  const tails = new Map<string, Promise<void>>();
  return async function run<T>(key: string, call: () => Promise<T>): Promise<T> {
    const before = tails.get(key);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before ? before.then(() => mine) : mine;
    tails.set(key, tail);
    try {
      if (before) await before;
      return await call();
    } finally {
      done();
      // The last of its key: nothing waits on it any more.
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
