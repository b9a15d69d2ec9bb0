// A code-split chunk loaded outside the router (which shows its own error screen): a failed
// import would reject React.lazy and unmount the whole app, so a failure waits for the network
// (the `online` event, or a short delay when the browser believes it is online) and tries again.
export function loadChunk<T>(load: () => Promise<T>, retryDelayMs = 5_000): Promise<T> {
  return load().catch(
    () =>
      new Promise<T>((resolve) => {
        const retry = () => {
          window.removeEventListener('online', retry);
          resolve(loadChunk(load, retryDelayMs));
        };
        if (navigator.onLine) setTimeout(retry, retryDelayMs);
        else window.addEventListener('online', retry);
      }),
  );
}
