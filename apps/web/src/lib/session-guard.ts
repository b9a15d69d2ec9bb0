// The session check made before every request (spec section 4), as an axios request step.
import axios, { type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import type { TokenRefreshResponse } from '@parla/contract/accounts';
import { isFresh, useTokenStore } from './stores';

export const REFRESH_PATH = '/api/accounts/token/refresh/';

/** Login, registration, token refresh and speech calls skip the expiry check. */
const EXEMPT = [/^\/api\/accounts\/login\//, /^\/api\/accounts\/registration\//, /^\/api\/accounts\/token\/refresh\//, /^\/api\/speech\//];

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
 * Installs the guard on `http`. Concurrent requests that need a refresh share one refresh call;
 * a request that cannot go ahead is cancelled and both stored expiries are cleared.
 */
export function installSessionGuard(http: AxiosInstance): void {
  let refreshing: Promise<boolean> | null = null;

  const refresh = () => {
    refreshing ??= http
      .post<TokenRefreshResponse>(REFRESH_PATH, undefined, { skipErrorCatalogue: true })
      .then((response) => {
        useTokenStore.getState().setExpirations(response.data);
        return true;
      })
      .catch(() => false)
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };

  http.interceptors.request.use(async (config: InternalAxiosRequestConfig) => {
    if (isExempt(config.url)) return config;
    const { accessExpiration, refreshExpiration } = useTokenStore.getState();
    let decision = decide(accessExpiration, refreshExpiration);
    if (decision === 'refresh') decision = (await refresh()) ? 'proceed' : 'cancel';
    if (decision === 'cancel') {
      useTokenStore.getState().clear();
      const controller = new AbortController();
      controller.abort();
      return { ...config, signal: controller.signal };
    }
    return config;
  });
}

export const isCancelled = (error: unknown) => axios.isCancel(error);
