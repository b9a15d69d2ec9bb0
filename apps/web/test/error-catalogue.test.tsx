import { act, render, screen } from '@testing-library/react';
import { toast } from 'react-toastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_MESSAGE, FieldErrors, HttpError, classifyError } from '../src/lib/error-catalogue';
import { showServerErrors } from '../src/lib/forms';
import { createHttp } from '../src/lib/http';
import { useTokenStore } from '../src/lib/stores';
import ToastHost from '../src/components/toast-host';
import { toastSettings } from '../src/lib/toast';
import { json, startApi } from './fake-api';

const body = (type: string, errors: { attr: string | null; detail: string; code?: string }[]) => ({
  type,
  errors: errors.map((e) => ({ code: e.code ?? 'invalid', ...e })),
});

const httpError = (status: number, data: unknown) => new HttpError(status, data);

describe('classifyError', () => {
  it('hands field errors to the form, with non-field ones under "form" and in a toast', () => {
    const outcome = classifyError(
      httpError(400, body('validation_error', [
        { attr: 'email', detail: 'Enter a valid e-mail address.' },
        { attr: 'non_field_errors', detail: 'First.' },
        { attr: 'non_field_errors', detail: 'Second.' },
      ])),
      false,
    );
    expect(outcome).toMatchObject({ kind: 'fields', fields: { email: 'Enter a valid e-mail address.', form: 'First. Second.' }, toast: 'First. Second.' });
  });

  it('keeps field errors without a toast when there is no non-field error', () => {
    const outcome = classifyError(httpError(400, body('validation_error', [{ attr: 'title', detail: 'Required' }])), false);
    expect(outcome).toEqual(expect.objectContaining({ kind: 'fields', fields: { title: 'Required' } }));
    expect(outcome).not.toHaveProperty('toast');
  });

  it.each([401, 403, 404, 405, 429, 500])('toasts the joined details of a handled %i', (status) => {
    const outcome = classifyError(httpError(status, body(status === 500 ? 'server_error' : 'client_error', [
      { attr: null, detail: 'One.' },
      { attr: null, detail: 'Two.' },
    ])), false);
    expect(outcome).toEqual({ kind: 'toast', message: 'One. Two.' });
  });

  it('toasts a {detail}-only body', () => {
    expect(classifyError(httpError(403, { detail: 'Nope.' }), false)).toEqual({ kind: 'toast', message: 'Nope.' });
  });

  it('falls back for unlisted statuses and for no response', () => {
    expect(classifyError(httpError(502, body('server_error', [{ attr: null, detail: 'x' }])), false)).toEqual({ kind: 'fallback' });
    expect(classifyError(new HttpError(undefined, undefined), false)).toEqual({ kind: 'fallback' });
    expect(classifyError(new TypeError('failed to fetch'), false)).toEqual({ kind: 'fallback' });
  });

  it('stays silent for a cancelled request', () => {
    expect(classifyError(new Error('whatever'), true)).toEqual({ kind: 'silent' });
  });
});

describe('through the HTTP client', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  beforeAll(async () => {
    api = await startApi({
      '/api/form/': (_q, r) => json(r, 400, body('validation_error', [{ attr: 'title', detail: 'Too long.' }, { attr: 'non_field_errors', detail: 'Not allowed now.' }])),
      '/api/limited/': (_q, r) => json(r, 429, body('client_error', [{ attr: null, detail: 'Slow down.' }])),
      '/api/broken/': (_q, r) => json(r, 502, { oops: true }),
      '/api/gone/': (_q, r) => json(r, 401, body('client_error', [{ attr: null, detail: 'Sign in again.' }])),
    });
  });
  afterAll(() => api.close());
  beforeEach(() => {
    useTokenStore.setState({ accessExpiration: Date.now() + 60_000, refreshExpiration: Date.now() + 600_000 });
    render(<ToastHost />);
  });

  const client = () => {
    const http = createHttp(api.url);
    return { get: (url: string) => http.request({ url }) };
  };

  it('rejects with the field errors and toasts the non-field ones', async () => {
    const failure = await client().get('/api/form/').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FieldErrors);
    expect((failure as FieldErrors).fields).toEqual({ title: 'Too long.', form: 'Not allowed now.' });
    expect(await screen.findByText('Not allowed now.')).toBeTruthy();
    await act(() => toast.dismiss());
  });

  it('toasts nothing when the form that caught the rejection shows the non-field error itself', async () => {
    // (The previous test's toast may still be leaving: count, do not look for none.)
    const before = screen.queryAllByText('Not allowed now.').length;
    const setError = vi.fn();
    const failure = await client()
      .get('/api/form/')
      .catch((error: unknown) => {
        showServerErrors(error, setError, ['title']);
        return error;
      });
    expect(setError).toHaveBeenCalledWith('root.form', { type: 'server', message: 'Not allowed now.' });
    expect((failure as FieldErrors).shownInForm).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryAllByText('Not allowed now.')).toHaveLength(before);
  });

  it('resolves with no result and a toast for a handled status', async () => {
    expect(await client().get('/api/limited/')).toBeUndefined();
    expect(await screen.findByText('Slow down.')).toBeTruthy();
  });

  it('shows the fallback text for an unlisted status', async () => {
    expect(await client().get('/api/broken/')).toBeUndefined();
    expect(await screen.findByText(FALLBACK_MESSAGE)).toBeTruthy();
  });

  it('forgets the session when the server refuses it (401)', async () => {
    expect(await client().get('/api/gone/')).toBeUndefined();
    expect(useTokenStore.getState().refreshExpiration).toBeUndefined();
    await act(() => toast.dismiss());
  });

  it('uses the configured toast behaviour', () => {
    expect(toastSettings).toMatchObject({
      position: 'top-right',
      autoClose: 2000,
      pauseOnHover: true,
      pauseOnFocusLoss: true,
      closeOnClick: true,
      draggable: true,
      draggablePercent: 80,
    });
  });
});
