// The session check made before every request (spec section 4).
import type { TokenRefreshResponse } from '@parla/contract/accounts';
import { HttpError } from './error-catalogue';
import { isFresh, useTokenStore } from './stores';

export const REFRESH_PATH = '/api/accounts/token/refresh/';

/**
 * Login, registration, token refresh and speech calls skip the expiry check (spec section 4);
 * so do the password-reset calls, which a signed-out visitor makes (product.md's reset pages).
 */
const EXEMPT = [
  /^\/api\/accounts\/login\//,
  /^\/api\/accounts\/registration\//,
  /^\/api\/accounts\/token\/refresh\//,
  /^\/api\/accounts\/password\/reset\//,
  /^\/api\/speech\//,
];

export const isExempt = (url: string | undefined) => {
  const path = (url ?? '').replace(/^https?:\/\/[^/]+/, '');
  return EXEMPT.some((pattern) => pattern.test(path));
};

export type GuardDecision = 'proceed' | 'refresh' | 'cancel';

export function decide(accessExpiration: number | undefined, refreshExpiration: number | undefined, now = Date.now()): GuardDecision {
  if (isFresh(accessExpiration, now)) return 'proceed';
  if (isFresh(refreshExpiration, now)) return 'refresh';
  return 'cancel';
}

const endListeners = new Set<(wasSignedIn: boolean) => void>();

/**
 * The session is over: the server refused it (a 401 on any call, a refused refresh) or its
 * stored expiries ran out. Both expiries are cleared (signed out) and every listener is told, so
 * the app drops the cached server state and a protected page leaves for sign-in. Returns whether
 * the client still took itself for signed in (false: the end was already known).
 */
export function endSession(): boolean {
  const { accessExpiration, refreshExpiration } = useTokenStore.getState();
  const wasSignedIn = accessExpiration !== undefined || refreshExpiration !== undefined;
  useTokenStore.getState().clear();
  for (const listener of [...endListeners]) listener(wasSignedIn);
  return wasSignedIn;
}

/**
 * Called on every end of the session (see `endSession`) with whether the client still took
 * itself for signed in (false after a sign-out, or an end already told); returns the
 * unsubscribe function.
 */
export function onSessionEnd(listener: (wasSignedIn: boolean) => void): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

/** Refresh answers that end the session: the refresh token itself was refused. */
const SESSION_OVER: readonly (number | undefined)[] = [401, 403];

const endsSession = (error: unknown) => error instanceof HttpError && SESSION_OVER.includes(error.status);

/**
 * `ensureSession()` resolves true when the request may go ahead. Concurrent callers that need a
 * refresh share one refresh call. When the session is over (no fresh expiry, or the refresh was
 * refused with 401/403) the session ends (`endSession`: expiries cleared, listeners told) and it
 * resolves false (the request is then cancelled silently). Any other refresh failure (no answer,
 * a 5xx, a 429) rejects with that error, so the request fails through the error catalogue, and
 * the stored expiries are kept: the next request tries to refresh again.
 * `confirmSession()` refreshes whatever the stored expiries say (the server refused something the
 * expiries call valid, e.g. the live connection's handshake), with the same outcomes.
 */
export function createSessionGuard(refreshCall: () => Promise<TokenRefreshResponse>) {
  let refreshing: Promise<boolean> | null = null;

  const refresh = () => {
    refreshing ??= refreshCall()
      .then((answer) => {
        useTokenStore.getState().setExpirations(answer);
        return true;
      })
      .catch((error: unknown) => {
        if (endsSession(error)) return false;
        throw error;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };

  return {
    async ensureSession(): Promise<boolean> {
      const { accessExpiration, refreshExpiration } = useTokenStore.getState();
      let decision = decide(accessExpiration, refreshExpiration);
      if (decision === 'refresh') decision = (await refresh()) ? 'proceed' : 'cancel';
      if (decision === 'cancel') endSession();
      return decision === 'proceed';
    },
    async confirmSession(): Promise<boolean> {
      if (!isFresh(useTokenStore.getState().refreshExpiration)) {
        endSession();
        return false;
      }
      if (await refresh()) return true;
      endSession();
      return false;
    },
  };
}
