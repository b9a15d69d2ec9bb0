// Sends the outbox: each due entry is posted with its clientId, on the live connection when it is
// up (`message:send`: no request per message), else by POST; the stored message the server answers
// goes into the cache and the entry leaves the outbox. No answer, a 5xx or a 429: the
// entry waits (backoff, or at once when the browser is back online). Another refusal: it stays,
// marked failed with the server's reason, for the user to retry or discard.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ChatMessage, ChatMessageCreateRequest } from '@parla/contract/chat';
import { call, endpoint } from '../../lib/api';
import { sendMessage } from '../../lib/live';
import { HttpError, classifyError } from '../../lib/error-catalogue';
import { CancelledError } from '../../lib/http';
import { chatKeys } from './api';
import { dueEntries, markFailed, markRetry, markSending, nextRetryAt, updateOutbox, useOutbox, withoutEntry, type OutboxEntry } from './outbox';
import { applyNewMessage, upsertMessage, type ChatListPages, type MessagePages } from './timeline';

const inFlight = new Set<string>();

/** Whether a failed POST is worth sending again as it is. */
export function isTransient(error: unknown): boolean {
  if (error instanceof CancelledError) return true;
  if (!(error instanceof HttpError)) return false;
  return error.status === undefined || error.status === 401 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/** The server's reason for refusing a message, in a few words. */
function refusal(error: unknown): string | undefined {
  const outcome = classifyError(error, false);
  switch (outcome.kind) {
    case 'fields':
      return Object.values(outcome.fields).join(' ');
    case 'toast':
      return outcome.message;
    case 'silent':
    case 'fallback':
      return undefined;
  }
}

/** The POST body of an entry: an entry persisted before replies (or attachments) existed has none of them. */
export function bodyOf(entry: OutboxEntry): ChatMessageCreateRequest {
  return {
    content: entry.content,
    clientId: entry.clientId,
    ...(entry.replyTo === undefined ? {} : { replyTo: entry.replyTo }),
    ...(entry.attachments?.length ? { attachments: entry.attachments } : {}),
  };
}

/**
 * Posts an entry: on the live connection when it is up, else by POST. The connection's answer
 * fails as the POST would (an HttpError with the POST's status and body); no answer in time is a
 * network failure (sent again later, with the same clientId).
 */
async function post(entry: OutboxEntry): Promise<ChatMessage | undefined> {
  const live = sendMessage({ chatId: entry.chatId, ...bodyOf(entry) });
  if (!live) {
    return call<ChatMessage>(
      endpoint('POST', '/api/chat/{groupChatId}/messages/', {
        path: { groupChatId: entry.chatId },
        body: bodyOf(entry),
        skipErrorCatalogue: true,
      }),
    );
  }
  const answer = await live.catch(() => {
    throw new HttpError(undefined, undefined);
  });
  if (answer.ok) return answer.message;
  // `throttled` alone: the connection sent too many events (a 429 without a body).
  throw 'status' in answer ? new HttpError(answer.status, answer.error) : new HttpError(429, undefined);
}

export async function sendEntry(queryClient: QueryClient, entry: OutboxEntry): Promise<void> {
  const current = useOutbox.getState().entries.find((item) => item.clientId === entry.clientId);
  if (!current || current.state !== 'queued' || inFlight.has(entry.clientId)) return;
  inFlight.add(entry.clientId);
  updateOutbox((entries) => markSending(entries, entry.clientId));
  try {
    const message = await post(entry);
    if (message) {
      queryClient.setQueryData<MessagePages>(chatKeys.messages(entry.chatId), (data) => upsertMessage(data, message));
      queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => applyNewMessage(data, entry.chatId, message, true));
    }
    updateOutbox((entries) => withoutEntry(entries, entry.clientId));
  } catch (error) {
    // A 401 ended the session in the HTTP client; the message waits for the next sign-in.
    if (isTransient(error)) updateOutbox((entries) => markRetry(entries, entry.clientId, Date.now()));
    else updateOutbox((entries) => markFailed(entries, entry.clientId, refusal(error)));
  } finally {
    inFlight.delete(entry.clientId);
  }
}

const subscribeOnline = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};
export const useOnline = () => useSyncExternalStore(subscribeOnline, () => navigator.onLine);

/** Sends the signed-in account's outbox while the calling page is shown. */
export function useOutboxSender(userId: number | undefined) {
  const queryClient = useQueryClient();
  const entries = useOutbox((state) => state.entries);
  const online = useOnline();
  const [wake, setWake] = useState(0);

  // Back online: whatever waits for its backoff goes now.
  useEffect(() => {
    if (!online) return;
    const waiting = (entry: OutboxEntry) => entry.state === 'queued' && entry.retryAt > 0;
    if (useOutbox.getState().entries.some(waiting)) updateOutbox((list) => list.map((entry) => (waiting(entry) ? { ...entry, retryAt: 0 } : entry)));
  }, [online]);

  useEffect(() => {
    if (userId === undefined || !online) return;
    const now = Date.now();
    for (const entry of dueEntries(entries, userId, now)) void sendEntry(queryClient, entry);
    const next = nextRetryAt(entries, userId);
    if (next === undefined || next <= now) return;
    const timer = setTimeout(() => setWake((value) => value + 1), next - now);
    return () => clearTimeout(timer);
  }, [entries, userId, online, wake, queryClient]);
}
