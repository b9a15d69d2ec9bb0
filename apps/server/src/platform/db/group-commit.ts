// Group commit: calls that arrive while `maxInFlight` batches are being written wait, and go
// together in the next one (one statement, one transaction, one commit for all of them) instead of
// one statement each. Calls of the same tick wait for setImmediate; when they are no more than the
// free places (light load), each goes alone, side by side, as without group commit, rather than as
// one larger statement that all wait for; more than that go together. Calls with the
// same `key` (a chat: the order of its posts) are kept in one batch, in their order, and wait while
// a batch holding their key is written (never two of one key side by side). Each caller
// gets its own answer; when a batch of several fails as a whole, each call is run again alone, so
// one call's error (a row the database refuses) stays that call's and the others still succeed.

/** `run` answers one result per item, in the items' order. */
export function groupCommit<In, Out>(
  run: (items: In[]) => Promise<Out[]>,
  options: { maxBatch: number; maxInFlight: number; key?: (item: In) => unknown },
) {
  interface Waiting {
    item: In;
    resolve: (out: Out) => void;
    reject: (error: unknown) => void;
  }
  let waiting: Waiting[] = [];
  let inFlight = 0;
  let scheduled = false;

  async function flush(batch: Waiting[]) {
    try {
      const results = await run(batch.map((entry) => entry.item));
      batch.forEach((entry, index) => entry.resolve(results[index]!));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else {
        // One after the other: calls of one key keep their order.
        for (const entry of batch) await run([entry.item]).then((results) => entry.resolve(results[0]!), entry.reject);
      }
    }
  }

  /** Keys with a batch being written (one at a time each): their later calls wait for it (ids are drawn in order per key). */
  const busy = new Set<unknown>();
  const keyOf = options.key;

  /**
   * The next batch. Fewer calls than free places (light load): one call alone (with the later
   * calls of its key), the others go side by side. Otherwise all that wait, up to maxBatch: under
   * load fewer, larger statements cost less than several side by side.
   */
  function take(ready: Waiting[]): Waiting[] {
    if (ready.length > options.maxInFlight - inFlight) return ready.slice(0, options.maxBatch);
    if (!keyOf) return ready.slice(0, 1);
    const key = keyOf(ready[0]!.item);
    return ready.filter((entry) => keyOf(entry.item) === key);
  }

  function next() {
    scheduled = false;
    while (inFlight < options.maxInFlight) {
      const ready = keyOf ? waiting.filter((entry) => !busy.has(keyOf(entry.item))) : waiting;
      if (ready.length === 0) return;
      const batch = take(ready);
      const taken = new Set(batch);
      waiting = waiting.filter((entry) => !taken.has(entry));
      const keys = keyOf ? [...new Set(batch.map((entry) => keyOf(entry.item)))] : [];
      for (const key of keys) busy.add(key);
      inFlight++;
      void flush(batch).finally(() => {
        inFlight--;
        for (const key of keys) busy.delete(key);
        next();
      });
    }
  }

  return (item: In): Promise<Out> =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (inFlight < options.maxInFlight && !scheduled) {
        scheduled = true;
        setImmediate(next);
      }
    });
}
