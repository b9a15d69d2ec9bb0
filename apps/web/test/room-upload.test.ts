// An utterance's upload: one clientId per utterance, sent again with the same one after no answer
// or a 5xx (with waits in between), never after a 4xx; a repeat's 200 (already stored) is as good
// as a 201.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { UPLOAD_RETRY_DELAYS_MS, isRetryableUpload, uploadSegment } from '../src/features/rooms/api';
import { HttpError } from '../src/lib/error-catalogue';
import { useTokenStore } from '../src/lib/stores';
import { notify } from '../src/lib/toast';
import { segment } from './room-fixtures';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What each try of the upload meets: a status with a body, or no answer at all. */
type Outcome = { status: number; body?: unknown } | 'no answer';
let outcomes: Outcome[] = [];
const tries: { url: string; clientId: string | null; spokenAgoMs: string | null; audio: boolean }[] = [];

beforeAll(() => {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const form = init?.body as FormData;
    tries.push({ url: new URL(String(input), window.location.origin).pathname, clientId: form.get('clientId') as string | null, spokenAgoMs: form.get('spokenAgoMs') as string | null, audio: form.get('audio') instanceof Blob });
    const outcome = outcomes.shift() ?? { status: 500 };
    if (outcome === 'no answer') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(outcome.body ?? { type: 'server_error', errors: [{ code: 'error', attr: null, detail: 'Broken.' }] }), {
      status: outcome.status,
      headers: { 'content-type': 'application/json' },
    });
  });
});
afterAll(() => vi.unstubAllGlobals());

let toasts: MockInstance<typeof notify.error>;
beforeEach(() => {
  outcomes = [];
  tries.length = 0;
  useTokenStore.setState({ accessExpiration: Date.now() + 60_000, refreshExpiration: Date.now() + 3_600_000 });
  toasts = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
});
afterEach(() => toasts.mockRestore());

const audio = () => new Blob([new Uint8Array(64)], { type: 'audio/wav' });

describe('uploading an utterance', () => {
  it('sends it with a clientId, and again with the same one after no answer or a 5xx, waiting longer each time', async () => {
    outcomes = ['no answer', { status: 503 }, { status: 201, body: segment(7) }];
    const waits: number[] = [];
    const stored = await uploadSegment(3, audio(), 'utterance.wav', { wait: async (ms) => void waits.push(ms) });
    expect(stored?.id).toBe(7);
    expect(tries).toHaveLength(3);
    expect(tries.every((item) => item.url === '/api/rooms/3/segments/' && item.audio)).toBe(true);
    expect(tries[0]?.clientId).toMatch(UUID);
    expect(new Set(tries.map((item) => item.clientId)).size).toBe(1);
    expect(waits).toEqual(UPLOAD_RETRY_DELAYS_MS.slice(0, 2));
    expect(toasts).not.toHaveBeenCalled();
  });

  it('takes the 200 of a repeat (the first one was stored, its answer lost) as success', async () => {
    outcomes = [{ status: 502 }, { status: 200, body: segment(8) }];
    expect((await uploadSegment(3, audio(), 'utterance.wav', { wait: async () => undefined }))?.id).toBe(8);
    expect(tries).toHaveLength(2);
  });

  // Issue 37 (5): the segment is timed by when it was said, however long its upload waited.
  it('tells at each try how long ago the utterance ended', async () => {
    outcomes = [{ status: 503 }, { status: 201, body: segment(9) }];
    const spokenAt = performance.now() - 4_000;
    await uploadSegment(3, audio(), 'utterance.wav', { spokenAt, wait: async () => new Promise((resolve) => setTimeout(resolve, 50)) });
    const [first, second] = tries.map((item) => Number(item.spokenAgoMs));
    expect(first).toBeGreaterThanOrEqual(4_000);
    expect(first).toBeLessThan(5_000);
    expect(second! - first!).toBeGreaterThanOrEqual(45);
    // Without it, nothing is said (the server takes the upload's time).
    await uploadSegment(3, audio(), 'b.wav');
    expect(tries.at(-1)?.spokenAgoMs).toBeNull();
  });

  it('gives each utterance its own clientId', async () => {
    outcomes = [{ status: 201, body: segment(1) }, { status: 201, body: segment(2) }];
    await uploadSegment(3, audio(), 'a.wav');
    await uploadSegment(3, audio(), 'b.wav');
    expect(tries[0]?.clientId).not.toBe(tries[1]?.clientId);
  });

  it('does not send again what the server refused (4xx), and says why', async () => {
    outcomes = [{ status: 400, body: { type: 'validation_error', errors: [{ code: 'invalid', attr: 'audio', detail: 'Not a recording.' }] } }];
    expect(await uploadSegment(3, audio(), 'utterance.wav', { wait: async () => undefined })).toBeUndefined();
    expect(tries).toHaveLength(1);
    expect(toasts).toHaveBeenCalledWith('Not a recording.');
  });

  it('gives up after the last try and says so once', async () => {
    outcomes = [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 201, body: segment(9) }];
    expect(await uploadSegment(3, audio(), 'utterance.wav', { wait: async () => undefined })).toBeUndefined();
    expect(tries).toHaveLength(UPLOAD_RETRY_DELAYS_MS.length + 1);
    expect(toasts).toHaveBeenCalledTimes(1);
  });

  it('counts no answer and 5xx as worth another try, nothing else', () => {
    expect(isRetryableUpload(new HttpError(undefined, undefined))).toBe(true);
    expect(isRetryableUpload(new HttpError(500, {}))).toBe(true);
    expect(isRetryableUpload(new HttpError(503, {}))).toBe(true);
    expect(isRetryableUpload(new HttpError(429, {}))).toBe(false);
    expect(isRetryableUpload(new HttpError(404, {}))).toBe(false);
    expect(isRetryableUpload(new Error('cancelled'))).toBe(false);
  });
});
