// The session check made before every request (spec section 4).
import type { TokenRefreshResponse } from '@parla/contract/accounts';
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

/**
 * `ensureSession()` resolves true when the request may go ahead. Concurrent callers that need a
 * refresh share one refresh call; when the session cannot be kept both stored expiries are
 * cleared and it resolves false (the request is then cancelled silently).
 */
export function createSessionGuard(refreshCall: () => Promise<TokenRefreshResponse>) {
  let refreshing: Promise<boolean> | null = null;

  const refresh = () => {
    refreshing ??= refreshCall()
      .then((answer) => {
        useTokenStore.getState().setExpirations(answer);
        return true;
      })
      .catch(() => false)
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
      if (decision === 'cancel') useTokenStore.getState().clear();
      return decision === 'proceed';
    },
  };
}
