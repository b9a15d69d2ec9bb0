// The outbox: every message the user sends waits here (in localStorage, per account) until the
// server has stored it, so nothing typed is lost to a failed request, a closed tab or a lost
// network. Each entry carries the `clientId` (a UUID) it is posted with: the server stores one
// message per clientId, so sending an entry again never duplicates it.
import type { MemberRef } from '@parla/contract/chat';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export type OutboxState = 'queued' | 'sending' | 'failed';

export interface OutboxEntry {
  clientId: string;
  /** The account that wrote it: another account signed in on this browser never sends it. */
  userId: number;
  chatId: number;
  content: string;
  /** The message it answers (posted as `replyTo`); absent in entries written before replies existed. */
  replyTo?: number | undefined;
  /** How the answered message is shown with the entry until the server has it: its sender and a line of it. */
  quote?: { name: string; excerpt: string } | undefined;
  /** The members `content` mentions (`<@id>`), by name, to show it as it will read. */
  mentions?: MemberRef[] | undefined;
  /**
   * The uploads it carries (posted as `attachments`; `content` is then their caption, possibly
   * empty): uploaded before the entry was written, so sending it needs no file any more.
   */
  attachments?: number[] | undefined;
  /** Their names, to show them with the entry until the server has it. */
  attachmentNames?: string[] | undefined;
  /** Epoch milliseconds, when it was written. */
  createdAt: number;
  /** queued: waits for the network or its next attempt; sending: a POST is under way; failed: the server refused it. */
  state: OutboxState;
  attempts: number;
  /** Epoch milliseconds before which it is not tried again (backoff after a failure). */
  retryAt: number;
  /** Why the server refused it (shown with the message). */
  error?: string | undefined;
}

export const OUTBOX_STORAGE_KEY = 'chat-outbox';

/** A v4 UUID (lib/client-id.ts), one per message. */
export { newClientId } from '../../lib/client-id';

/** Wait before attempt n+1 after n failed ones: 2 s doubling up to a minute. */
export const backoffMs = (attempts: number) => Math.min(60_000, 2_000 * 2 ** Math.max(0, attempts - 1));

// ---- pure changes of the entry list (tested on their own) ----

export function enqueue(
  entries: readonly OutboxEntry[],
  entry: Pick<OutboxEntry, 'clientId' | 'userId' | 'chatId' | 'content' | 'replyTo' | 'quote' | 'mentions' | 'attachments' | 'attachmentNames'>,
  now: number,
): OutboxEntry[] {
  return [...entries, { ...entry, createdAt: now, state: 'queued', attempts: 0, retryAt: now }];
}

const change = (entries: readonly OutboxEntry[], clientId: string, patch: (entry: OutboxEntry) => Partial<OutboxEntry>) =>
  entries.map((entry) => (entry.clientId === clientId ? { ...entry, ...patch(entry) } : entry));

export const markSending = (entries: readonly OutboxEntry[], clientId: string) =>
  change(entries, clientId, (entry) => ({ state: 'sending', attempts: entry.attempts + 1, error: undefined }));

/** No answer (offline, 5xx, 429): try again after the backoff. */
export const markRetry = (entries: readonly OutboxEntry[], clientId: string, now: number) =>
  change(entries, clientId, (entry) => ({ state: 'queued', retryAt: now + backoffMs(entry.attempts) }));

/** The server refused it (4xx): it waits for the user to retry or discard it. */
export const markFailed = (entries: readonly OutboxEntry[], clientId: string, error: string | undefined) =>
  change(entries, clientId, () => ({ state: 'failed', error }));

/** The user asks again: at once. */
export const markRetryNow = (entries: readonly OutboxEntry[], clientId: string, now: number) =>
  change(entries, clientId, () => ({ state: 'queued', retryAt: now, error: undefined }));

export const withoutEntry = (entries: readonly OutboxEntry[], clientId: string) => entries.filter((entry) => entry.clientId !== clientId);

/**
 * After a reload nothing is being sent: an entry left `sending` by a closed tab is queued again
 * (the server keeps one message per clientId, so if it did arrive the retry only fetches it).
 */
export const revive = (entries: readonly OutboxEntry[]) =>
  entries.map((entry) => (entry.state === 'sending' ? { ...entry, state: 'queued' as const, retryAt: 0 } : entry));

/**
 * What to send now, one entry per chat (a chat's messages go in the order they were written):
 * the account's oldest queued entry of each chat whose backoff is over, unless an older one of
 * that chat is being sent or waits for its backoff.
 */
export function dueEntries(entries: readonly OutboxEntry[], userId: number, now: number): OutboxEntry[] {
  const due: OutboxEntry[] = [];
  const decided = new Set<number>();
  for (const entry of [...entries].sort((a, b) => a.createdAt - b.createdAt)) {
    if (entry.userId !== userId || entry.state === 'failed' || decided.has(entry.chatId)) continue;
    decided.add(entry.chatId);
    if (entry.state === 'queued' && entry.retryAt <= now) due.push(entry);
  }
  return due;
}

/** When the next entry of the account becomes due (for a timer), if any waits. */
export function nextRetryAt(entries: readonly OutboxEntry[], userId: number): number | undefined {
  const times = entries.filter((entry) => entry.userId === userId && entry.state === 'queued').map((entry) => entry.retryAt);
  return times.length ? Math.min(...times) : undefined;
}

// ---- the persisted store ----

interface OutboxStore {
  entries: OutboxEntry[];
  update: (change: (entries: readonly OutboxEntry[]) => OutboxEntry[]) => void;
}

export const useOutbox = create<OutboxStore>()(
  persist(
    (set) => ({
      entries: [],
      update: (apply) => set((state) => ({ entries: apply(state.entries) })),
    }),
    {
      name: OUTBOX_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ entries: state.entries }),
      merge: (persisted, current) => ({ ...current, entries: revive((persisted as { entries?: OutboxEntry[] } | undefined)?.entries ?? []) }),
    },
  ),
);

export const updateOutbox = (apply: (entries: readonly OutboxEntry[]) => OutboxEntry[]) => useOutbox.getState().update(apply);

// Another tab changed the outbox: take its copy, so neither tab overwrites the other's entries.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === OUTBOX_STORAGE_KEY) void useOutbox.persist.rehydrate();
  });
}
