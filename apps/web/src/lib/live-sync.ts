// Live events into the query cache, written once for chats and rooms: a feature gives how its
// events change its cached data (a LiveListener built on the query client), and pages install it
// while they are shown (counted: installed once however many pages ask) and watch the topics they
// show. Removals the reader asked for (leaving, deleting) are expected, not news.
import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { addLiveListener, watch, type LiveListener, type TopicKind } from './live';

type SyncFactory = (queryClient: QueryClient) => LiveListener;

const installed = new Map<SyncFactory, { count: number; uninstall: () => void }>();

/** Keeps a feature's queries in step with the live events while the calling page is shown. */
export function useLiveSync(factory: SyncFactory) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const held = installed.get(factory);
    if (held) held.count++;
    else installed.set(factory, { count: 1, uninstall: addLiveListener(factory(queryClient)) });
    return () => {
      const current = installed.get(factory);
      if (!current || --current.count > 0) return;
      current.uninstall();
      installed.delete(factory);
    };
  }, [factory, queryClient]);
}

/**
 * Receives the live events of these chats or rooms while the calling page is shown. Give only ones
 * the reader joined: the server refuses one they are only invited to (and a refusal means "gone").
 */
export function useWatch(kind: TopicKind, ids: readonly number[]) {
  const key = [...new Set(ids)].sort((a, b) => a - b).join(',');
  useEffect(() => {
    if (!key) return;
    const stops = key.split(',').map((id) => watch(kind, Number(id)));
    return () => stops.forEach((stop) => stop());
  }, [kind, key]);
}

/** Chats and rooms the reader is leaving or deleting: their removal event is expected, not news. */
const leaving = new Set<string>();

/** Marks a removal as the reader's own until the returned function is called. */
export function expectRemoval(kind: TopicKind, id: number): () => void {
  const key = `${kind}:${id}`;
  leaving.add(key);
  return () => leaving.delete(key);
}

export const isRemovalExpected = (kind: TopicKind, id: number) => leaving.has(`${kind}:${id}`);
