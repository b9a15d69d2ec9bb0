// Mounts the toast container once the first toast is asked for.
import { Suspense, lazy } from 'react';
import { useToastsWanted } from '../lib/toast';

const ToastHost = lazy(() => import('./toast-host'));

export function Toasts() {
  const wanted = useToastsWanted();
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  );
}
