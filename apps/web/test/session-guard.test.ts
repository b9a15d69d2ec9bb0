import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SESSION } from '@parla/contract/constants';
import { createHttp } from '../src/lib/http';
import { REFRESH_PATH, decide, isExempt } from '../src/lib/session-guard';
import { useLangStore, useTokenStore } from '../src/lib/stores';
import { json, startApi } from './fake-api';

const MINUTE = 60_000;
let api: Awaited<ReturnType<typeof startApi>>;
let refreshAnswer: { status: number; delay: number };

beforeAll(async () => {
  api = await startApi({
    [`POST ${REFRESH_PATH}`]: (_req, res) => {
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
beforeEach(() => {
  api.seen.length = 0;
  refreshAnswer = { status: 200, delay: 100 };
  useTokenStore.getState().clear();
  useLangStore.getState().setLang('es');
});

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

  it('cancels silently when the refresh is refused', async () => {
    expiries(0, 7 * MINUTE);
    refreshAnswer = { status: 401, delay: 0 };
    const result = await http().get('/api/things/');
    expect(result).toBeUndefined();
    expect(api.count('GET', '/api/things/')).toBe(0);
    expect(useTokenStore.getState().refreshExpiration).toBeUndefined();
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
