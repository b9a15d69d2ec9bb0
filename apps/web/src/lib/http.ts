// The HTTP client: cookies on every request, Accept-Language from `lang`, no timeout, axios'
// XSRF names, the session guard before and the error catalogue after each call.
import axios, { type AxiosRequestConfig } from 'axios';
import { COOKIES, FALLBACK_LANGUAGE, XSRF_HEADER } from '@parla/contract/constants';
import { FALLBACK_MESSAGE, FieldErrors, classifyError } from './error-catalogue';
import { installSessionGuard, isCancelled } from './session-guard';
import { useLangStore, useTokenStore } from './stores';
import { notify } from './toast';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Internal calls (the guard's own refresh) handle their failures themselves. */
    skipErrorCatalogue?: boolean;
  }
}

export function createHttp(baseURL = '', translateFallback: () => string = () => FALLBACK_MESSAGE) {
  const http = axios.create({
    baseURL,
    withCredentials: true,
    timeout: 0,
    xsrfCookieName: COOKIES.xsrf,
    xsrfHeaderName: XSRF_HEADER,
    withXSRFToken: true,
  });
  http.interceptors.request.use((config) => {
    config.headers.set('Accept-Language', useLangStore.getState().currentLang || FALLBACK_LANGUAGE);
    return config;
  });
  installSessionGuard(http);
  http.interceptors.response.use(undefined, (error: unknown) => {
    if ((error as { config?: AxiosRequestConfig }).config?.skipErrorCatalogue) return Promise.reject(error);
    const outcome = classifyError(error, isCancelled(error));
    switch (outcome.kind) {
      case 'silent':
        return Promise.resolve(undefined);
      case 'fields':
        if (outcome.toast) notify.error(outcome.toast);
        return Promise.reject(new FieldErrors(outcome.fields, outcome.body));
      case 'toast':
        // A refused session means the stored expiries are wrong: forget them (signed out).
        if ((error as { response?: { status?: number } }).response?.status === 401) useTokenStore.getState().clear();
        notify.error(outcome.message);
        return Promise.resolve(undefined);
      case 'fallback':
        notify.error(translateFallback());
        return Promise.resolve(undefined);
    }
  });
  return http;
}
