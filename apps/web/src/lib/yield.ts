// Giving the browser back the main thread between steps of work that need not be done in one go
// (start-up, tables of names): input, paints and other tasks run in between, and no step makes a
// long task (Lighthouse counts the time of each beyond 50 ms, on a phone four times slower).

interface Scheduler {
  yield?: () => Promise<void>;
}

/** Resolves in a task of its own: `scheduler.yield()` where the browser has it, else a timer. */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A slice of work this long at most (ms, on this device) before yielding. */
export const SLICE_MS = 8;

/**
 * `make` for each item, in slices of about SLICE_MS, each a task of its own; resolves with the
 * results in order, or with undefined once `cancelled()` says so (checked between slices).
 */
export async function mapInSlices<T, R>(items: readonly T[], make: (item: T) => R, cancelled: () => boolean = () => false): Promise<R[] | undefined> {
  const results: R[] = [];
  let started = performance.now();
  for (const item of items) {
    if (performance.now() - started > SLICE_MS) {
      await yieldToBrowser();
      if (cancelled()) return undefined;
      started = performance.now();
    }
    results.push(make(item));
  }
  return results;
}

/**
 * Resolves once the page has loaded and the browser has a moment (an idle callback, at most
 * `timeoutMs` after the load): for work the page's first paint of its content need not wait for.
 */
export function afterPageLoad(timeoutMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    const idle = () => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
      else setTimeout(resolve, 0);
    };
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  });
}
