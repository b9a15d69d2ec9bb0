// Group commit: calls that arrive while a batch is being written wait, and go together in the next
// one (one statement, one transaction, one commit for all of them) instead of one statement each.
// Calls of the same tick go together too (the first flush waits for setImmediate). Each caller
// gets its own answer; when a batch of several fails as a whole, each call is run again alone, so
// one call's error (a row the database refuses) stays that call's and the others still succeed.

/** `run` answers one result per item, in the items' order. */
export function groupCommit<In, Out>(run: (items: In[]) => Promise<Out[]>, options: { maxBatch: number }) {
  interface Waiting {
    item: In;
    resolve: (out: Out) => void;
    reject: (error: unknown) => void;
  }
  let waiting: Waiting[] = [];
  let busy = false;
  let scheduled = false;

  async function flush(batch: Waiting[]) {
    try {
      const results = await run(batch.map((entry) => entry.item));
      batch.forEach((entry, index) => entry.resolve(results[index]!));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else await Promise.all(batch.map((entry) => run([entry.item]).then((results) => entry.resolve(results[0]!), entry.reject)));
    }
  }

  function next() {
    scheduled = false;
    if (busy || waiting.length === 0) return;
    const batch = waiting.slice(0, options.maxBatch);
    waiting = waiting.slice(batch.length);
    busy = true;
    void flush(batch).finally(() => {
      busy = false;
      next();
    });
  }

  return (item: In): Promise<Out> =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!busy && !scheduled) {
        scheduled = true;
        setImmediate(next);
      }
    });
}
