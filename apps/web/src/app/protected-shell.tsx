// The signed-in side of the app: the server-state cache (TanStack Query) and the navigation
// chrome. Loaded with the first protected page, so the public pages stay light.
import { useDeferredValue } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import { AppChrome } from '../components/app-chrome';
import { onSessionEnd } from '../lib/session-guard';
import { useTokenStore } from '../lib/stores';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { gcTime: 5 * 60_000, retry: 1, refetchOnWindowFocus: false } },
});

// Signed out (sign-out, refused or expired session): nothing of that user stays cached.
useTokenStore.subscribe((state, previous) => {
  if (previous.refreshExpiration !== undefined && state.refreshExpiration === undefined) queryClient.clear();
});
// A session the server refused ends even when the client had already forgotten its expiries.
onSessionEnd(() => queryClient.clear());

export function ProtectedShell() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppChrome>
        <DeferredOutlet />
      </AppChrome>
    </QueryClientProvider>
  );
}

/**
 * The page under the chrome, rendered first in a render of its own that React does in slices of
 * a few milliseconds (a deferred value, whose first render shows the chrome alone): the router
 * renders its first page in one go when its route has loaded, which made a long task of the
 * chrome and the whole page on a phone (Lighthouse's total blocking time). Only the first page
 * of the tab waits so: the shell stays mounted across pages.
 */
function DeferredOutlet() {
  const shown = useDeferredValue(true, false);
  return shown ? <Outlet /> : null;
}

export function FullScreenShell() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
