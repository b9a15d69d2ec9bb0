// Web Push in the service worker (imported by the generated sw.js): shows each notification the
// server sends (already in the reader's language), and a click opens its chat or room, in a tab of
// Parla that is already open when there is one. A retraction (a message deleted) closes the one
// showing that message.
/* eslint-env serviceworker */
self.addEventListener('push', (event) => {
  let data = null;
  try {
    data = event.data ? event.data.json() : null;
  } catch {
    data = null;
  }
  if (!data || typeof data.title !== 'string') return;
  // A message was deleted: the notification showing it closes, nothing new is shown.
  if (data.kind === 'retract') {
    event.waitUntil(
      self.registration.getNotifications(data.tag ? { tag: data.tag } : undefined).then((shown) => {
        for (const notification of shown) if (notification.data && notification.data.messageId === data.messageId) notification.close();
      }),
    );
    return;
  }
  event.waitUntil(
    self.registration.showNotification(data.title, {
      body: data.body || '',
      lang: data.lang || '',
      dir: 'auto',
      tag: data.tag || undefined,
      renotify: Boolean(data.tag),
      icon: '/icon.svg',
      data: { url: typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/', messageId: data.messageId },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        if ('navigate' in open) await open.navigate(url).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
