// The offline service worker (/sw.js, root scope): checked for an update at start, and the page
// reloads once a new worker has taken over. (workbox-window would do the same for 2 KB more.)
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    // The first install takes control without a reload; only a replaced worker reloads.
    if (!hadController || reloading) return;
    reloading = true;
    window.location.reload();
  });
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .then((registration: ServiceWorkerRegistration | undefined) => registration?.update())
      .catch((error: unknown) => console.error('service worker registration failed', error));
  });
}
