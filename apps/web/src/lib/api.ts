// One shared HTTP client and a typed call helper: the result, or undefined when the error
// catalogue already handled the failure (toast shown or request cancelled).
import type { AxiosRequestConfig } from 'axios';
import { createHttp } from './http';
import { i18n } from './i18n';

export const http = createHttp('', () => i18n.t('errors.fallback'));

export async function call<T>(config: AxiosRequestConfig): Promise<T | undefined> {
  const response = await http.request<T>(config);
  return response?.data;
}

/** For queries, where "no result" must be an error state rather than data. */
export class HandledError extends Error {
  constructor() {
    super('handled');
  }
}

export async function fetchOrThrow<T>(config: AxiosRequestConfig): Promise<T> {
  const data = await call<T>(config);
  if (data === undefined) throw new HandledError();
  return data;
}
