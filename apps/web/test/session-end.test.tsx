// A session the server refuses ends the client's session on every page: the real router and
// pages against a stand-in fetch whose API refuses the session (401 token_not_valid, as after a
// password change in another browser). The app must drop the cached server state and go to
// /signin?access=<the page> with the explanation, never stay on a page that spins or shows
// stale data; whether the refusal comes from an API call or from the guard's refresh.
import { act, cleanup, render, screen } from '@testing-library/react';
import { RouterProvider } from '@tanstack/react-router';
import { initReactI18next } from 'react-i18next';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import english from '../public/locales/en/translation.json';
import englishForm from '../public/locales/en/form.json';
import { queryClient } from '../src/app/protected-shell';
import { router } from '../src/app/router';
import { currentUserQuery } from '../src/lib/current-user';
import { chatKeys, notificationKeys, privacyKeys } from '../src/lib/query-keys';
import { createHttp } from '../src/lib/http';
import { i18n } from '../src/lib/i18n';
import { REFRESH_PATH, onSessionEnd } from '../src/lib/session-guard';
import { isSignedIn, useTokenStore } from '../src/lib/stores';
import { notify } from '../src/lib/toast';

const MINUTE = 60_000;
const EXPLANATION = 'Your session ended. Please sign in again.';
const REFUSED = { type: 'client_error', errors: [{ code: 'token_not_valid', attr: null, detail: 'Token is invalid or expired.' }] };

/** Every call the app made, as "METHOD /path". */
const calls: string[] = [];

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    ns: ['translation', 'form'],
    defaultNS: 'translation',
    resources: { en: { translation: english, form: englishForm } },
    interpolation: { escapeValue: false },
  });
  // The server of a session revoked elsewhere: every API call and the refresh answer 401.
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), window.location.origin);
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    return new Response(JSON.stringify(REFUSED), { status: 401, headers: { 'content-type': 'application/json' } });
  });
});
afterAll(() => vi.unstubAllGlobals());

let toasts: MockInstance<typeof notify.error>;
beforeEach(() => {
  calls.length = 0;
  toasts = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  toasts.mockRestore();
  cleanup();
});

const signedIn = (accessInMs: number) =>
  useTokenStore.setState({ accessExpiration: Date.now() + accessInMs, refreshExpiration: Date.now() + 7 * 24 * 60 * MINUTE });

async function open(href: string) {
  window.history.replaceState(null, '', href);
  render(<RouterProvider router={router} />);
  await act(() => router.load());
}

async function expectSentToSignIn(from: string) {
  expect(await screen.findByText(EXPLANATION, {}, { timeout: 10_000 })).toBeTruthy();
  expect(router.state.location.pathname).toBe('/signin');
  expect(router.state.location.search).toEqual({ access: from });
  expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  expect(screen.queryByRole('status', { name: 'Loading…' })).toBeNull();
  expect(isSignedIn()).toBe(false);
  // Nothing of the user stays cached.
  expect(queryClient.getQueryCache().getAll().filter((query) => query.state.data !== undefined)).toEqual([]);
}

describe('a refused session, on every page', () => {
  const pages = ['/', '/chat', '/chat/7', '/room', '/room/3', '/user', '/room/3/connect'];

  it.each(pages)('%s: a 401 from the API ends the session and sends the visitor to sign in, saying why', async (page) => {
    signedIn(5 * MINUTE);
    await open(page);
    await expectSentToSignIn(page);
    expect(calls.some((call) => call.startsWith('GET /api/'))).toBe(true);
    expect(calls).not.toContain(`POST ${REFRESH_PATH}`);
    // One toast for the refusal, however many calls were refused.
    expect(toasts.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('drops what the page showed from the cache (the user, still fresh there) once a call is refused', async () => {
    signedIn(5 * MINUTE);
    queryClient.setQueryData(currentUserQuery.queryKey, { id: 1, email: 'ada@example.com', fullName: 'Ada Lovelace', avatarImage: null } as never);
    // (The navigation's unread count, fresh too.)
    queryClient.setQueryData(chatKeys.unread(), { messages: 2, chats: 1 });
    await open('/');
    await expectSentToSignIn('/');
    expect(calls).toEqual(['GET /api/rooms/']);
    expect(queryClient.getQueryData(currentUserQuery.queryKey)).toBeUndefined();
    expect(queryClient.getQueryData(chatKeys.unread())).toBeUndefined();
  });

  it.each(pages)('%s: a refused refresh (access expired) ends the session the same way, not a silent spinner', async (page) => {
    signedIn(0);
    await open(page);
    await expectSentToSignIn(page);
    expect(calls).toContain(`POST ${REFRESH_PATH}`);
    expect(toasts).not.toHaveBeenCalled();
  });

  it('does not say the session ended after the user signed out: a call cancelled then stays silent', async () => {
    signedIn(5 * MINUTE);
    // The profile and the unread count from the cache (still fresh): the page makes no call of its own.
    queryClient.setQueryData(currentUserQuery.queryKey, { id: 1, email: 'ada@example.com', fullName: 'Ada Lovelace', avatarImage: null } as never);
    queryClient.setQueryData(chatKeys.unread(), { messages: 0, chats: 0 });
    queryClient.setQueryData(notificationKeys.settings(), { enabled: true, publicKey: 'key', devices: 0 });
    queryClient.setQueryData(privacyKeys.settings(), { readReceipts: true, showPresence: true });
    await open('/user');
    expect(await screen.findByRole('heading', { name: english.profile.passwordTitle })).toBeTruthy();
    // Sign-out forgets the expiries first; a call still made from the page is cancelled.
    useTokenStore.getState().clear();
    calls.length = 0;
    expect(await act(() => createHttp().request({ url: '/api/accounts/user/' }))).toBeUndefined();
    expect(calls).toEqual([]);
    expect(router.state.location.pathname).toBe('/user');
    expect(screen.queryByText(EXPLANATION)).toBeNull();
  });

  it('stays on a public page when a call made there is refused', async () => {
    useTokenStore.getState().clear();
    await open('/signup');
    expect(await screen.findByRole('heading', { name: english.signup.title })).toBeTruthy();
    await act(() => createHttp().request({ url: '/api/accounts/user/' }));
    expect(router.state.location.pathname).toBe('/signup');
    expect(screen.queryByText(EXPLANATION)).toBeNull();
  });
});

describe('the HTTP client', () => {
  it('ends the session on a 401 from any call, skipErrorCatalogue ones included, and tells the listeners', async () => {
    const ended = vi.fn();
    const stop = onSessionEnd(ended);
    try {
      const http = createHttp();
      signedIn(5 * MINUTE);
      expect(await http.request({ url: '/api/chat/' })).toBeUndefined();
      expect(isSignedIn()).toBe(false);
      expect(ended).toHaveBeenCalledTimes(1);
      expect(toasts).toHaveBeenCalledTimes(1);
      expect(toasts).toHaveBeenCalledWith('Token is invalid or expired.');

      signedIn(5 * MINUTE);
      const failure = await http.request({ method: 'PATCH', url: '/api/chat/7/member/', data: {}, skipErrorCatalogue: true }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ status: 401 });
      expect(isSignedIn()).toBe(false);
      expect(ended).toHaveBeenCalledTimes(2);
    } finally {
      stop();
    }
  });

  it('confirmSession: a refused refresh ends the session even while the access expiry looks fresh', async () => {
    const http = createHttp();
    signedIn(5 * MINUTE);
    expect(await http.ensureSession()).toBe(true);
    expect(calls).toEqual([]);
    expect(await http.confirmSession()).toBe(false);
    expect(calls).toEqual([`POST ${REFRESH_PATH}`]);
    expect(isSignedIn()).toBe(false);
  });
});
