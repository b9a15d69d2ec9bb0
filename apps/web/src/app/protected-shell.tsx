// The signed-in side of the app: the server-state cache (TanStack Query) and the navigation
// chrome. Loaded with the first protected page, so the public pages stay light.
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
        <Outlet />
      </AppChrome>
    </QueryClientProvider>
  );
}

export function FullScreenShell() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
