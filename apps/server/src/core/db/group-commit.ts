// Group commit: calls that arrive while `maxInFlight` batches are being written wait, and go
// together in the next one (one statement, one transaction, one commit for all of them) instead of
// one statement each. Calls of the same tick go together too (a flush waits for setImmediate). More
// than one batch in flight: at light load two calls that meet are written side by side, as without
// group commit, rather than one after the other. Each caller
// gets its own answer; when a batch of several fails as a whole, each call is run again alone, so
// one call's error (a row the database refuses) stays that call's and the others still succeed.

/** `run` answers one result per item, in the items' order. */
export function groupCommit<In, Out>(run: (items: In[]) => Promise<Out[]>, options: { maxBatch: number; maxInFlight: number }) {
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
      else await Promise.all(batch.map((entry) => run([entry.item]).then((results) => entry.resolve(results[0]!), entry.reject)));
    }
  }

  function next() {
    scheduled = false;
    while (inFlight < options.maxInFlight && waiting.length > 0) {
      const batch = waiting.slice(0, options.maxBatch);
      waiting = waiting.slice(batch.length);
      inFlight++;
      void flush(batch).finally(() => {
        inFlight--;
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
