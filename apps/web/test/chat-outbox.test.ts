import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessageSendAck, MessageSendRequest } from '@parla/contract/live';
import { http } from '../src/lib/api';
import { HttpError } from '../src/lib/error-catalogue';
import { chatKeys } from '../src/features/chats/api';
import {
  OUTBOX_STORAGE_KEY,
  backoffMs,
  dueEntries,
  enqueue,
  markFailed,
  markRetry,
  markRetryNow,
  markSending,
  newClientId,
  nextRetryAt,
  revive,
  updateOutbox,
  useOutbox,
  withoutEntry,
  type OutboxEntry,
} from '../src/features/chats/outbox';
import { isTransient, sendEntry } from '../src/features/chats/outbox-sender';
import { messagesOf, type MessagePages } from '../src/features/chats/timeline';
import { message } from './chat-fixtures';

// The live connection: down (undefined: the POST goes) unless a test puts it up.
const live = vi.hoisted(() => ({ sendMessage: vi.fn<(request: MessageSendRequest) => Promise<MessageSendAck> | undefined>(() => undefined) }));
vi.mock('../src/lib/live', () => live);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('outbox entries', () => {
  const now = 1_000_000;
  const queued = (clientId: string, chatId: number, createdAt: number, userId = 1) =>
    enqueue([], { clientId, userId, chatId, content: clientId }, createdAt)[0]!;

  it('gives each message a v4 UUID, with or without crypto.randomUUID', () => {
    expect(newClientId()).toMatch(UUID);
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const ids = new Set(Array.from({ length: 50 }, () => newClientId()));
      expect(ids.size).toBe(50);
      for (const id of ids) expect(id).toMatch(UUID);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });

  it('sends one entry per chat at a time, oldest first, only the signed-in account’s', () => {
    const entries = [queued('b1', 2, 30), queued('a2', 1, 20), queued('a1', 1, 10), queued('other', 3, 5, 99)];
    expect(dueEntries(entries, 1, now).map((entry) => entry.clientId)).toEqual(['a1', 'b1']);
    // While a1 is on its way, a2 waits (order within a chat is kept).
    const sending = markSending(entries, 'a1');
    expect(dueEntries(sending, 1, now).map((entry) => entry.clientId)).toEqual(['b1']);
    expect(sending.find((entry) => entry.clientId === 'a1')).toMatchObject({ state: 'sending', attempts: 1 });
  });

  it('backs off after a failure that may pass, doubling up to a minute', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(backoffMs)).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    let entries = markSending([queued('a', 1, 10)], 'a');
    entries = markRetry(entries, 'a', now);
    expect(entries[0]).toMatchObject({ state: 'queued', retryAt: now + 2000 });
    expect(dueEntries(entries, 1, now)).toEqual([]);
    expect(nextRetryAt(entries, 1)).toBe(now + 2000);
    expect(dueEntries(entries, 1, now + 2000).map((entry) => entry.clientId)).toEqual(['a']);
    // The user's "try again" does not wait.
    expect(dueEntries(markRetryNow(entries, 'a', now), 1, now)).toHaveLength(1);
  });

  it('holds a refused entry (and the chat’s later ones go on) until the user retries or discards it', () => {
    let entries = [queued('a', 1, 10), queued('b', 1, 20)];
    entries = markFailed(markSending(entries, 'a'), 'a', 'Too long.');
    expect(entries[0]).toMatchObject({ state: 'failed', error: 'Too long.' });
    expect(dueEntries(entries, 1, now).map((entry) => entry.clientId)).toEqual(['b']);
    expect(withoutEntry(entries, 'a').map((entry) => entry.clientId)).toEqual(['b']);
  });

  it('after a reload, sends again what a closed tab was sending (same clientId: never twice on the server)', () => {
    const entries = revive(markSending([queued('a', 1, 10)], 'a'));
    expect(entries[0]).toMatchObject({ state: 'queued', retryAt: 0, clientId: 'a' });
  });

  it('is kept in localStorage', () => {
    updateOutbox((entries) => enqueue(entries, { clientId: 'kept', userId: 1, chatId: 1, content: 'hola' }, now));
    const stored = JSON.parse(localStorage.getItem(OUTBOX_STORAGE_KEY) ?? '{}') as { state: { entries: OutboxEntry[] } };
    expect(stored.state.entries.map((entry) => entry.clientId)).toContain('kept');
    updateOutbox((entries) => withoutEntry(entries, 'kept'));
  });
});

describe('sending an entry', () => {
  let queryClient: QueryClient;
  let request: ReturnType<typeof vi.spyOn>;
  const entryFor = (clientId: string): OutboxEntry => useOutbox.getState().entries.find((entry) => entry.clientId === clientId)!;

  beforeEach(() => {
    queryClient = new QueryClient();
    queryClient.setQueryData<MessagePages>(chatKeys.messages(1), { pages: [{ next: null, previous: null, results: [message(1)] }], pageParams: [undefined] });
    useOutbox.setState({ entries: [] });
    updateOutbox((entries) => enqueue(entries, { clientId: 'c-1', userId: 1, chatId: 1, content: 'Hola' }, Date.now()));
    request = vi.spyOn(http, 'request');
  });
  afterEach(() => request.mockRestore());

  it('posts content and clientId, puts the stored message in the cache and empties the outbox', async () => {
    request.mockResolvedValue(message(2, { isMe: true, content: 'Hola' }));
    await sendEntry(queryClient, entryFor('c-1'));
    expect(request).toHaveBeenCalledWith(expect.objectContaining({ method: 'POST', url: '/api/chat/1/messages/', data: { content: 'Hola', clientId: 'c-1' } }));
    expect(messagesOf(queryClient.getQueryData(chatKeys.messages(1))).map((item) => item.id)).toEqual([1, 2]);
    expect(useOutbox.getState().entries).toEqual([]);
  });

  it('posts the message it answers (replyTo); an entry persisted before replies existed posts none', async () => {
    request.mockResolvedValue(message(3, { isMe: true, content: 'Sí' }));
    updateOutbox((entries) =>
      enqueue(entries, { clientId: 'c-2', userId: 1, chatId: 1, content: 'Sí', replyTo: 1, quote: { name: 'Ana', excerpt: 'message 1' }, mentions: [] }, Date.now()),
    );
    await sendEntry(queryClient, entryFor('c-2'));
    expect(request).toHaveBeenCalledWith(expect.objectContaining({ data: { content: 'Sí', clientId: 'c-2', replyTo: 1 } }));
    // As localStorage holds an entry written by the previous version: no replyTo, quote or mentions.
    const old = { clientId: 'c-3', userId: 1, chatId: 1, content: 'Old', createdAt: Date.now(), state: 'queued', attempts: 0, retryAt: 0 } as OutboxEntry;
    useOutbox.setState({ entries: [old] });
    await sendEntry(queryClient, entryFor('c-3'));
    expect(request).toHaveBeenLastCalledWith(expect.objectContaining({ data: { content: 'Old', clientId: 'c-3' } }));
  });

  it('a retry that the server answers with the already stored message shows it once', async () => {
    request.mockResolvedValue(message(2, { isMe: true, content: 'Hola' }));
    await sendEntry(queryClient, entryFor('c-1'));
    updateOutbox((entries) => enqueue(entries, { clientId: 'c-1', userId: 1, chatId: 1, content: 'Hola' }, Date.now()));
    await sendEntry(queryClient, entryFor('c-1'));
    expect(messagesOf(queryClient.getQueryData(chatKeys.messages(1))).map((item) => item.id)).toEqual([1, 2]);
  });

  it('keeps the entry for later when no answer came (offline) or the server failed', async () => {
    request.mockRejectedValue(new HttpError(undefined, undefined));
    await sendEntry(queryClient, entryFor('c-1'));
    expect(entryFor('c-1')).toMatchObject({ state: 'queued', attempts: 1 });
    expect(entryFor('c-1').retryAt).toBeGreaterThan(Date.now());
    request.mockRejectedValue(new HttpError(503, undefined));
    updateOutbox((entries) => markRetryNow(entries, 'c-1', Date.now()));
    await sendEntry(queryClient, entryFor('c-1'));
    expect(entryFor('c-1')).toMatchObject({ state: 'queued', attempts: 2 });
  });

  it('marks the entry failed with the server’s reason when it refuses the message', async () => {
    request.mockRejectedValue(
      new HttpError(400, { type: 'validation_error', errors: [{ code: 'too_big', attr: 'content', detail: 'Ensure this field has no more than 4000 characters.' }] }),
    );
    await sendEntry(queryClient, entryFor('c-1'));
    expect(entryFor('c-1')).toMatchObject({ state: 'failed', error: 'Ensure this field has no more than 4000 characters.' });
  });

  it('does not send an entry twice at the same time', async () => {
    let answer: (value: unknown) => void = () => undefined;
    request.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const first = sendEntry(queryClient, entryFor('c-1'));
    await sendEntry(queryClient, { ...entryFor('c-1'), state: 'queued' });
    answer(message(2, { isMe: true }));
    await first;
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('posts on the live connection when it is up: no request, the stored message in the cache', async () => {
    live.sendMessage.mockResolvedValueOnce({ ok: true, created: true, message: message(2, { isMe: true, content: 'Hola' }) });
    updateOutbox((entries) =>
      enqueue(entries, { clientId: 'c-2', userId: 1, chatId: 1, content: 'Sí', replyTo: 1, quote: { name: 'Ana', excerpt: 'message 1' }, mentions: [] }, Date.now()),
    );
    await sendEntry(queryClient, entryFor('c-1'));
    expect(live.sendMessage).toHaveBeenLastCalledWith({ chatId: 1, content: 'Hola', clientId: 'c-1' });
    expect(request).not.toHaveBeenCalled();
    expect(messagesOf(queryClient.getQueryData(chatKeys.messages(1))).map((item) => item.id)).toEqual([1, 2]);
    live.sendMessage.mockResolvedValueOnce({ ok: true, created: true, message: message(3, { isMe: true, content: 'Sí' }) });
    await sendEntry(queryClient, entryFor('c-2'));
    expect(live.sendMessage).toHaveBeenLastCalledWith({ chatId: 1, content: 'Sí', clientId: 'c-2', replyTo: 1 });
    expect(useOutbox.getState().entries).toEqual([]);
  });

  it('over the live connection, keeps the entry when no answer came or the server was busy, and marks a refusal failed with its reason', async () => {
    live.sendMessage.mockRejectedValueOnce(new Error('operation has timed out'));
    await sendEntry(queryClient, entryFor('c-1'));
    expect(entryFor('c-1')).toMatchObject({ state: 'queued', attempts: 1 });
    for (const answer of [
      { ok: false, error: 'throttled' },
      { ok: false, status: 429, error: { type: 'client_error', errors: [{ code: 'throttled', attr: null, detail: 'Wait 3 seconds.' }] } },
      { ok: false, status: 500, error: { type: 'server_error', errors: [{ code: 'error', attr: null, detail: 'A server error occurred.' }] } },
    ] satisfies MessageSendAck[]) {
      live.sendMessage.mockResolvedValueOnce(answer);
      updateOutbox((entries) => markRetryNow(entries, 'c-1', Date.now()));
      await sendEntry(queryClient, entryFor('c-1'));
      expect(entryFor('c-1')).toMatchObject({ state: 'queued' });
    }
    live.sendMessage.mockResolvedValueOnce({
      ok: false,
      status: 400,
      error: { type: 'validation_error', errors: [{ code: 'max_length', attr: 'content', detail: 'Ensure this field has no more than 4000 characters.' }] },
    });
    updateOutbox((entries) => markRetryNow(entries, 'c-1', Date.now()));
    await sendEntry(queryClient, entryFor('c-1'));
    expect(entryFor('c-1')).toMatchObject({ state: 'failed', error: 'Ensure this field has no more than 4000 characters.' });
    expect(request).not.toHaveBeenCalled();
  });

  it('tells failures worth retrying from refusals', () => {
    expect([undefined, 401, 429, 500, 503].map((status) => isTransient(new HttpError(status, undefined)))).toEqual([true, true, true, true, true]);
    expect([400, 403, 404].map((status) => isTransient(new HttpError(status, undefined)))).toEqual([false, false, false]);
  });
});
