// Toasts with the spec's settings (section 9). react-toastify is loaded with the first toast,
// not with the first page: messages wait in a queue until its container is mounted.
import { useSyncExternalStore } from 'react';
import type { ToastContainerProps, toast as toastApi } from 'react-toastify';
import { TOAST_AUTO_CLOSE_MS } from '@parla/contract/constants';

export const toastSettings: ToastContainerProps = {
  position: 'top-right',
  autoClose: TOAST_AUTO_CLOSE_MS,
  pauseOnHover: true,
  pauseOnFocusLoss: true,
  closeOnClick: true,
  draggable: true,
  draggablePercent: 80,
};

type Kind = 'error' | 'success' | 'info';
let api: typeof toastApi | null = null;
let wanted = false;
const queue: [Kind, string][] = [];
const listeners = new Set<() => void>();

/**
 * One toast per message at a time: the same words again while they are shown (several requests of
 * one page failing alike, "Not found." four times) add nothing.
 */
const idOf = (kind: Kind, message: string) => `${kind}:${message}`;

function show(kind: Kind, message: string) {
  if (api) {
    api[kind](message, { toastId: idOf(kind, message) });
    return;
  }
  if (queue.some(([queuedKind, queued]) => queuedKind === kind && queued === message)) return;
  queue.push([kind, message]);
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
}

export const notify = {
  error: (message: string) => show('error', message),
  success: (message: string) => show('success', message),
  info: (message: string) => show('info', message),
};

/** Called by the mounted container: from now on toasts go straight to it. */
export function attachToastApi(toast: typeof toastApi) {
  api = toast;
  for (const [kind, message] of queue.splice(0)) toast[kind](message, { toastId: idOf(kind, message) });
}

/** True once a toast has been asked for: time to load the container. */
export const useToastsWanted = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
  );
