// The HTTP client: cookies on every request, Accept-Language from `lang`, no timeout, the XSRF
// cookie echoed in its header, the session guard before and the error catalogue after each call.
// Built on fetch (and XHR where upload progress is wanted) rather than axios: a third of the
// sign-in page's JavaScript budget for the same few features.
import type { TokenRefreshResponse } from '@parla/contract/accounts';
import { COOKIES, FALLBACK_LANGUAGE, XSRF_HEADER } from '@parla/contract/constants';
import { endpoint, type ApiRequest, type RequestConfig } from './endpoint';

export type { RequestConfig } from './endpoint';
import { FALLBACK_MESSAGE, FieldErrors, HttpError, classifyError } from './error-catalogue';
import { REFRESH_PATH, createSessionGuard, endSession, isExempt, onSessionEnd } from './session-guard';
import { useLangStore } from './stores';
import { notify } from './toast';


/** A request the session guard stopped: it resolves silently. */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

interface Answer {
  status: number;
  data: unknown;
}

function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

function parseBody(contentType: string | null, text: string): unknown {
  if (!text) return undefined;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function buildUrl(baseURL: string, config: RequestConfig): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(config.params ?? {})) if (value !== undefined) query.set(key, String(value));
  const search = query.toString();
  return `${baseURL}${config.url}${search ? `?${search}` : ''}`;
}

/**
 * The API answers announced with the page (Link preload, server's core/web-client.ts) are handed
 * by the browser to the first fetch of the same URL in the same credentials mode, whenever it
 * comes. One left unused when this tab's session ended (signed out, or refused before the page
 * asked for it) would answer a later session's call: the stale 401 of an ended session sent a
 * fresh sign-in back to the sign-in page, and another user's answer could reach the next one.
 * After the first end, calls go out as 'same-origin' (the same cookies here), which no preload
 * matches.
 */
let credentials: RequestCredentials = 'include';
onSessionEnd(() => {
  credentials = 'same-origin';
});

/** One request on the wire; resolves with any status, rejects only when no answer came. */
async function transmit(baseURL: string, config: RequestConfig): Promise<Answer> {
  const method = config.method ?? 'GET';
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': useLangStore.getState().currentLang || FALLBACK_LANGUAGE,
  };
  // Only unsafe methods need it; reading document.cookie waits on the browser's network process
  // (the first read in a tab took 10-40 ms of a phone's page load).
  const xsrf = method === 'GET' ? undefined : readCookie(COOKIES.xsrf);
  if (xsrf) headers[XSRF_HEADER] = xsrf;
  let body: BodyInit | undefined;
  if (config.data instanceof FormData) body = config.data;
  else if (config.data !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(config.data);
  }
  const url = buildUrl(baseURL, config);
  if (config.onUploadProgress && typeof XMLHttpRequest !== 'undefined') {
    return sendWithProgress(method, url, headers, body, config.onUploadProgress);
  }
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, credentials: baseURL === '' ? credentials : 'include' });
  } catch {
    throw new HttpError(undefined, undefined);
  }
  return { status: response.status, data: parseBody(response.headers.get('content-type'), await response.text()) };
}

function sendWithProgress(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: BodyInit | undefined,
  onProgress: (fraction: number) => void,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, data: parseBody(xhr.getResponseHeader('content-type'), xhr.responseText) });
    xhr.onerror = () => reject(new HttpError(undefined, undefined));
    xhr.send((body ?? null) as XMLHttpRequestBodyInit | null);
  });
}

export function createHttp(baseURL = '', translateFallback: () => string = () => FALLBACK_MESSAGE) {
  const raw = async <T>(config: RequestConfig): Promise<T> => {
    const answer = await transmit(baseURL, config);
    if (answer.status >= 200 && answer.status < 300) return answer.data as T;
    throw new HttpError(answer.status, answer.data);
  };
  // No body: the refresh token travels in its cookie.
  const refreshRequest: ApiRequest<TokenRefreshResponse> = endpoint('POST', REFRESH_PATH);
  const guard = createSessionGuard(() => raw<TokenRefreshResponse>(refreshRequest));

  /**
   * The call's result; undefined when the catalogue handled the failure (toast shown, or the
   * request was cancelled); FieldErrors thrown for the form when the server named fields.
   */
  async function request<T>(config: RequestConfig): Promise<T | undefined> {
    try {
      if (!isExempt(config.url) && !(await guard.ensureSession())) throw new CancelledError();
      return await raw<T>(config);
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) {
        // The server refused the session (revoked by a password change elsewhere, signed out,
        // expired): it is over for the client too, whatever the call. Only the 401 that ended it
        // is toasted, as the catalogue says, here for every caller; the sign-in page that the app
        // goes to says why.
        if (endSession()) {
          const outcome = classifyError(error, false);
          notify.error(outcome.kind === 'toast' ? outcome.message : translateFallback());
        }
        if (config.skipErrorCatalogue) throw error;
        return undefined;
      }
      if (config.skipErrorCatalogue) throw error;
      const outcome = classifyError(error, error instanceof CancelledError);
      switch (outcome.kind) {
        case 'silent':
          return undefined;
        case 'fields': {
          const rejection = new FieldErrors(outcome.fields, outcome.body);
          // Said by a toast unless the form that catches this shows it on its own error line
          // (showServerErrors, in the same turn): never both.
          const toast = outcome.toast;
          if (toast) setTimeout(() => !rejection.shownInForm && notify.error(toast), 0);
          throw rejection;
        }
        case 'toast':
          notify.error(outcome.message);
          return undefined;
        case 'fallback':
          notify.error(translateFallback());
          return undefined;
      }
    }
  }

  /** The session check alone (refreshing when due), for connections the client opens itself (live pushes). */
  const ensureSession = () => guard.ensureSession();
  /** A refresh whatever the expiries say: true when the session goes on, false when it ended. */
  const confirmSession = () => guard.confirmSession();

  return { request, ensureSession, confirmSession };
}
