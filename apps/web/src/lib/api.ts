// One shared HTTP client, and its calls: each one a request for an operation of the server's
// OpenAPI document, typed by it (src/lib/endpoint.ts). The result, or undefined when the error
// catalogue already handled the failure (toast shown or request cancelled).
import type { ApiRequest } from './endpoint';
import { createHttp } from './http';
import { i18n } from './i18n';

export { apiHref, endpoint, type ApiAnswer, type ApiInit, type ApiOperation, type ApiPath, type ApiRequest, type HttpMethod } from './endpoint';

export const http = createHttp('', () => i18n.t('errors.fallback'));

/** The call's result, or undefined when the error catalogue already handled the failure (toast shown or request cancelled). */
export const call = <T>(request: ApiRequest<T>): Promise<T | undefined> => http.request<T>(request);

/** For queries, where "no result" must be an error state rather than data. */
export class HandledError extends Error {
  constructor() {
    super('handled');
  }
}

export async function fetchOrThrow<T>(request: ApiRequest<T>): Promise<T> {
  const data = await call<T>(request);
  if (data === undefined) throw new HandledError();
  return data;
}
