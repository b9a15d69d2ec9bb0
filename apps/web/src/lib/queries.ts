// Server calls shared by the chat and room screens (loaded with them, not with the public pages):
// the retry rule of their queries, `next` links, 204 calls, tones and what the translator can do.
import { queryOptions } from '@tanstack/react-query';
import type { UnreadSummary } from '@parla/contract/chat';
import type { ToneOption, TranslationInfo } from '@parla/contract/status';
import { chatKeys } from './query-keys';
import { HandledError, endpoint, fetchOrThrow, http, type ApiRequest } from './api';
import { HttpError, classifyError } from './error-catalogue';
import { CancelledError } from './http';
import { i18n } from './i18n';
import { notify } from './toast';

/** A failure the catalogue already showed is not retried: the screen offers its own retry. */
export const retryUnhandled = (count: number, error: unknown) => !(error instanceof HandledError) && count < 1;

/** A query parameter of a `next` link (a full URL or a path), if it has one. */
export function linkParam(link: string | null, name: string): string | undefined {
  if (!link) return undefined;
  try {
    return new URL(link, 'http://localhost').searchParams.get(name) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Tone labels come translated in the interface language. */
export const tonesQuery = (lang: string) =>
  queryOptions({
    queryKey: ['speech', 'tones', lang],
    queryFn: () => fetchOrThrow<ToneOption[]>(endpoint('GET', '/api/speech/tones/')),
    staleTime: 60 * 60_000,
    retry: retryUnhandled,
  });

/**
 * What is unread over all the reader's chats. Chat screens keep it current from live events; the
 * other pages (which hold no live connection) ask again every minute and on coming back to the tab.
 */
export const unreadQuery = queryOptions({
  queryKey: chatKeys.unread(),
  queryFn: () => fetchOrThrow<UnreadSummary>(endpoint('GET', '/api/chat/unread/')),
  staleTime: 15_000,
  refetchInterval: 60_000,
  refetchOnWindowFocus: true,
  retry: retryUnhandled,
});

/** What the server's translator can do (GET /api/translation/): fixed while the server runs. */
export const translationInfoQuery = queryOptions({
  queryKey: ['translation', 'info'],
  queryFn: () => fetchOrThrow<TranslationInfo>(endpoint('GET', '/api/translation/')),
  staleTime: Infinity,
  retry: retryUnhandled,
});

/**
 * The error catalogue's handling of a failed call (toast, or nothing for a cancelled one), for
 * calls made with `skipErrorCatalogue`. Returns the message shown, if any.
 */
export function reportFailure(error: unknown): string | undefined {
  if (error instanceof CancelledError) return undefined;
  // A refused session: the HTTP client ended it and said so already.
  if (error instanceof HttpError && error.status === 401) return undefined;
  const outcome = classifyError(error, false);
  switch (outcome.kind) {
    case 'silent':
      return undefined;
    case 'fields': {
      const message = Object.values(outcome.fields).join(' ');
      notify.error(message);
      return message;
    }
    case 'toast':
      notify.error(outcome.message);
      return outcome.message;
    case 'fallback': {
      const message = i18n.t('errors.fallback');
      notify.error(message);
      return message;
    }
  }
}

/**
 * For calls whose success has no body (204, which the document must say): true once done, false
 * when it failed (the failure shown as the catalogue does). `call` cannot tell an empty success
 * from a handled failure.
 */
export async function succeeded(request: ApiRequest<undefined>): Promise<boolean> {
  try {
    await http.request({ ...request, skipErrorCatalogue: true });
    return true;
  } catch (error) {
    reportFailure(error);
    return false;
  }
}
