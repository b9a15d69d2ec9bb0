// This browser as a device that receives notifications: its Web Push subscription (made with the
// server's VAPID key) registered for the signed-in account, or not. The service worker
// (public/push-sw.js) shows what arrives. Signing out removes the device, so the next person to
// sign in on this browser chooses for themselves.
import type { NotificationSettings, PushSubscriptionView } from '@parla/contract/notifications';
import { call, endpoint } from '../../lib/api';

export type DeviceState = 'unsupported' | 'denied' | 'on' | 'off';

/** The subscription's id on the server, kept by endpoint (to remove it later). */
const STORE_KEY = 'parla.push';

const supported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The service worker's registration: the one in place, else the one being made at start (none in development). */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!supported()) return undefined;
  const found = await navigator.serviceWorker.getRegistration('/');
  if (found) return found;
  return Promise.race([navigator.serviceWorker.ready, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000))]);
}

function remembered(): { endpoint: string; id: number } | null {
  try {
    return JSON.parse(localStorage.getItem(STORE_KEY) ?? 'null') as { endpoint: string; id: number } | null;
  } catch {
    return null;
  }
}

export const fetchSettings = () => call<NotificationSettings>(endpoint('GET', '/api/notifications/'));
export const updateSettings = (enabled: boolean) => call<NotificationSettings>(endpoint('PATCH', '/api/notifications/', { body: { enabled } }));

async function register(subscription: PushSubscription): Promise<boolean> {
  const json = subscription.toJSON() as { endpoint: string; expirationTime?: number | null; keys: { p256dh: string; auth: string } };
  const saved = await call<PushSubscriptionView>(endpoint('POST', '/api/notifications/subscriptions/', { body: json }));
  if (!saved) return false;
  localStorage.setItem(STORE_KEY, JSON.stringify({ endpoint: saved.endpoint, id: saved.id }));
  return true;
}

/** Whether this browser gets notifications now; a subscription it has is registered again (it may have been another account's). */
export async function deviceState(): Promise<DeviceState> {
  const worker = await registration();
  if (!worker) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const subscription = await worker.pushManager.getSubscription();
  if (!subscription || Notification.permission !== 'granted') return 'off';
  return (await register(subscription)) ? 'on' : 'off';
}

/** Asks the browser's permission, subscribes with the server's key and registers the device. */
export async function turnOn(publicKey: string): Promise<DeviceState> {
  const worker = await registration();
  if (!worker) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'off';
  let subscription = await worker.pushManager.getSubscription();
  const key = Uint8Array.from(atob(publicKey.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
  // Made with another key (the server's was replaced): made again.
  const current = subscription?.options.applicationServerKey;
  if (subscription && current && new Uint8Array(current).join() !== key.join()) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return (await register(subscription)) ? 'on' : 'off';
}

/** Stops notifications to this browser: removed on the server and unsubscribed here. */
export async function turnOff(): Promise<DeviceState> {
  const known = remembered();
  if (known) await call(endpoint('DELETE', '/api/notifications/subscriptions/{id}/', { path: { id: known.id } }));
  localStorage.removeItem(STORE_KEY);
  const subscription = await (await registration())?.pushManager.getSubscription();
  await subscription?.unsubscribe();
  return 'off';
}

/** At sign-out: this browser stops getting the account's notifications (best effort). */
export async function forgetDevice(): Promise<void> {
  if (!supported() || !remembered()) return;
  await turnOff().catch(() => undefined);
}
