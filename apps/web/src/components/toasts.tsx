// Mounts the toast container once the first toast is asked for.
import { Suspense, lazy } from 'react';
import { loadChunk } from '../lib/load-chunk';
import { useToastsWanted } from '../lib/toast';

// Offline, the first toast (often "no network") must not take the app down with a failed import.
const ToastHost = lazy(() => loadChunk(() => import('./toast-host')));

export function Toasts() {
  const wanted = useToastsWanted();
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  );
}
