// One shared HTTP client and a typed call helper: the result, or undefined when the error
// catalogue already handled the failure (toast shown or request cancelled).
import { createHttp, type RequestConfig } from './http';
import { i18n } from './i18n';

export const http = createHttp('', () => i18n.t('errors.fallback'));

export const call = <T>(config: RequestConfig): Promise<T | undefined> => http.request<T>(config);

/** For queries, where "no result" must be an error state rather than data. */
export class HandledError extends Error {
  constructor() {
    super('handled');
  }
}

export async function fetchOrThrow<T>(config: RequestConfig): Promise<T> {
  const data = await call<T>(config);
  if (data === undefined) throw new HandledError();
  return data;
}
