import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { SESSION } from '@parla/contract/constants';
import { FALLBACK_MESSAGE } from '../src/lib/error-catalogue';
import { createHttp } from '../src/lib/http';
import { REFRESH_PATH, decide, isExempt } from '../src/lib/session-guard';
import { useLangStore, useTokenStore } from '../src/lib/stores';
import { notify } from '../src/lib/toast';
import { json, startApi } from './fake-api';

const MINUTE = 60_000;
let api: Awaited<ReturnType<typeof startApi>>;
/** status 0: the connection is dropped without an answer (a network error for the client). */
let refreshAnswer: { status: number; delay: number };

beforeAll(async () => {
  api = await startApi({
    [`POST ${REFRESH_PATH}`]: (req, res) => {
      if (refreshAnswer.status === 0) return void req.socket.destroy();
      const now = Date.now();
      json(
        res,
        refreshAnswer.status,
        refreshAnswer.status === 200
          ? { access: 'a', accessExpiration: new Date(now + 5 * MINUTE).toISOString(), refreshExpiration: new Date(now + 7 * 24 * 60 * MINUTE).toISOString() }
          : { type: 'client_error', errors: [{ code: 'token_not_valid', attr: null, detail: 'Token is invalid or expired.' }] },
        refreshAnswer.delay,
      );
    },
    '/api/things/': (_req, res) => json(res, 200, { ok: true }),
    '/api/accounts/login/': (_req, res) => json(res, 200, { ok: 'login' }),
    '/api/speech/tones/': (_req, res) => json(res, 200, [{ value: 'DEFAULT', label: 'Default' }]),
  });
});
afterAll(() => api.close());
let toasts: MockInstance<typeof notify.error>;
beforeEach(() => {
  api.seen.length = 0;
  refreshAnswer = { status: 200, delay: 100 };
  useTokenStore.getState().clear();
  useLangStore.getState().setLang('es');
  toasts = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
});
afterEach(() => toasts.mockRestore());

const http = () => {
  const client = createHttp(api.url);
  return {
    get: (url: string) => client.request<any>({ url }),
    post: (url: string, data?: unknown) => client.request<any>({ method: 'POST', url, data }),
  };
};
const expiries = (accessInMs: number | undefined, refreshInMs: number | undefined) =>
  useTokenStore.setState({
    accessExpiration: accessInMs === undefined ? undefined : Date.now() + accessInMs,
    refreshExpiration: refreshInMs === undefined ? undefined : Date.now() + refreshInMs,
  });

describe('decide', () => {
  const now = 1_000_000;
  it('goes ahead while the access expiry is more than 5 s away', () => {
    expect(decide(now + SESSION.expiryMarginMs + 1, undefined, now)).toBe('proceed');
  });
  it('refreshes when access is within the margin but refresh is not', () => {
    expect(decide(now + SESSION.expiryMarginMs, now + MINUTE, now)).toBe('refresh');
    expect(decide(undefined, now + MINUTE, now)).toBe('refresh');
    expect(decide(now - MINUTE, now + SESSION.expiryMarginMs + 1, now)).toBe('refresh');
  });
  it('cancels when both are missing or within the margin', () => {
    expect(decide(undefined, undefined, now)).toBe('cancel');
    expect(decide(now + 1000, now + SESSION.expiryMarginMs, now)).toBe('cancel');
  });
});

describe('the guard on real requests', () => {
  it('sends a fresh request as is, with credentials header and language', async () => {
    expiries(MINUTE, 7 * MINUTE);
    const response = await http().get('/api/things/');
    expect(response).toEqual({ ok: true });
    expect(api.count('POST', REFRESH_PATH)).toBe(0);
    expect(api.seen[0]?.headers['accept-language']).toBe('es');
  });

  it('refreshes first when the access expiry is near, stores the new expiries, then proceeds', async () => {
    expiries(2000, 7 * MINUTE);
    const response = await http().get('/api/things/');
    expect(response).toEqual({ ok: true });
    expect(api.seen.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${REFRESH_PATH}`, 'GET /api/things/']);
    expect(api.seen[0]?.body).toBe('');
    const { accessExpiration, refreshExpiration } = useTokenStore.getState();
    expect(accessExpiration! - Date.now()).toBeGreaterThan(4 * MINUTE);
    expect(refreshExpiration! - Date.now()).toBeGreaterThan(6 * 24 * 60 * MINUTE);
  });

  it('shares one refresh between concurrent requests', async () => {
    expiries(0, 7 * MINUTE);
    const client = http();
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.get('/api/things/')));
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(api.count('POST', REFRESH_PATH)).toBe(1);
    expect(api.count('GET', '/api/things/')).toBe(5);
  });

  it('cancels silently and clears both expiries when the session is over', async () => {
    expiries(1000, 2000);
    const result = await http().get('/api/things/');
    expect(result).toBeUndefined();
    expect(api.seen).toHaveLength(0);
    expect(useTokenStore.getState().accessExpiration).toBeUndefined();
    expect(useTokenStore.getState().refreshExpiration).toBeUndefined();
  });

  it.each([401, 403])('ends the session when the refresh is refused with %i: expiries cleared, cancelled silently', async (status) => {
    expiries(0, 7 * MINUTE);
    refreshAnswer = { status, delay: 0 };
    const result = await http().get('/api/things/');
    expect(result).toBeUndefined();
    expect(api.count('POST', REFRESH_PATH)).toBe(1);
    expect(api.count('GET', '/api/things/')).toBe(0);
    expect(useTokenStore.getState().accessExpiration).toBeUndefined();
    expect(useTokenStore.getState().refreshExpiration).toBeUndefined();
    expect(toasts).not.toHaveBeenCalled();
  });

  it.each([
    ['a 503', 503],
    ['a network error', 0],
  ])('keeps the session when the refresh fails with %s: that request fails with the fallback toast', async (_label, status) => {
    expiries(0, 7 * MINUTE);
    const { accessExpiration, refreshExpiration } = useTokenStore.getState();
    refreshAnswer = { status, delay: 0 };
    const client = http();
    expect(await client.get('/api/things/')).toBeUndefined();
    expect(api.count('GET', '/api/things/')).toBe(0);
    expect(toasts).toHaveBeenCalledTimes(1);
    expect(toasts).toHaveBeenCalledWith(FALLBACK_MESSAGE);
    expect(useTokenStore.getState()).toMatchObject({ accessExpiration, refreshExpiration });

    // The next request tries to refresh again, and goes ahead once the server is back.
    refreshAnswer = { status: 200, delay: 0 };
    expect(await client.get('/api/things/')).toEqual({ ok: true });
    expect(api.count('POST', REFRESH_PATH)).toBe(2);
    expect(api.count('GET', '/api/things/')).toBe(1);
    expect(useTokenStore.getState().accessExpiration! - Date.now()).toBeGreaterThan(4 * MINUTE);
  });

  it('shares one failing refresh between concurrent requests, each failing on its own', async () => {
    expiries(0, 7 * MINUTE);
    refreshAnswer = { status: 503, delay: 100 };
    const client = http();
    const answers = await Promise.all(Array.from({ length: 3 }, () => client.get('/api/things/')));
    expect(answers).toEqual([undefined, undefined, undefined]);
    expect(api.count('POST', REFRESH_PATH)).toBe(1);
    expect(toasts).toHaveBeenCalledTimes(3);
    expect(useTokenStore.getState().refreshExpiration).toBeDefined();
  });

  it('lets login, registration, refresh and speech through with only the language header', async () => {
    expiries(undefined, undefined);
    const client = http();
    expect(await client.post('/api/accounts/login/', {})).toEqual({ ok: 'login' });
    expect(await client.get('/api/speech/tones/')).toHaveLength(1);
    expect(api.count('POST', REFRESH_PATH)).toBe(0);
    expect(api.seen.every((r) => r.headers['accept-language'] === 'es')).toBe(true);
    expect(isExempt('/api/accounts/registration/verify-email/')).toBe(true);
    expect(isExempt('/api/accounts/password/reset/')).toBe(true);
    expect(isExempt('/api/accounts/password/reset/confirm/')).toBe(true);
    expect(isExempt('/api/accounts/password/change/')).toBe(false);
    expect(isExempt('/api/accounts/user/')).toBe(false);
  });
});
