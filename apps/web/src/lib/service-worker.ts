// The offline service worker (/sw.js, root scope): checked for an update at start, and the page
// reloads once a new one has taken over.
import { registerSW } from 'virtual:pwa-register';

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  registerSW({
    immediate: true,
    onRegisteredSW(_url, registration) {
      void registration?.update();
    },
  });
}
