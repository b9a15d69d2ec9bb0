// Answering an invitation to a chat or a room (the chat list, the room list, the home page's rooms
// and the chat and room pages all offer it): accepting makes the reader a member (the answer is
// their membership, now `joined`); declining is leaving (DELETE on the own membership).
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMember } from '@parla/contract/chat';
import type { Participant } from '@parla/contract/rooms';
import { call, endpoint } from './api';
import { succeeded } from './queries';
import { notify } from './toast';

export type InvitationKind = 'chat' | 'room';

/** The own membership, now joined; undefined when refused (the error catalogue said why). */
export function acceptInvitation(kind: 'chat', id: number): Promise<ChatMember | undefined>;
export function acceptInvitation(kind: 'room', id: number): Promise<Participant | undefined>;
export function acceptInvitation(kind: InvitationKind, id: number): Promise<ChatMember | Participant | undefined> {
  return kind === 'chat'
    ? call<ChatMember>(endpoint('POST', '/api/chat/{groupChatId}/member/accept/', { path: { groupChatId: id } }))
    : call<Participant>(endpoint('POST', '/api/rooms/{roomId}/participant/accept/', { path: { roomId: id } }));
}

/** True once declined; false when it failed (shown as the catalogue does). */
export const declineInvitation = (kind: InvitationKind, id: number) =>
  succeeded(
    kind === 'chat'
      ? endpoint('DELETE', '/api/chat/{groupChatId}/member/', { path: { groupChatId: id } })
      : endpoint('DELETE', '/api/rooms/{roomId}/participant/', { path: { roomId: id } }),
  );

/** How a feature's cache takes an answer: the own membership's key, the topic's queries, and its lists. */
export interface InvitationCache {
  /** The key of the own membership (set from the accept's answer, not fetched again). */
  ownKey: (id: number) => readonly unknown[];
  /** The keys of the topic's own queries (fetched again: what was not theirs to see now is). */
  topicKey: (id: number) => readonly unknown[];
  /** The key of every list that shows the topic (fetched again after either answer). */
  lists: readonly unknown[];
  /** The lists now show the topic joined. */
  markJoined: (queryClient: QueryClient, id: number) => void;
  /** The lists no longer show the topic. */
  drop: (queryClient: QueryClient, id: number) => void;
  /** Marks the topic's removal as the reader's own until the returned function is called. */
  expectRemoval: (id: number) => () => void;
}

/**
 * The invitee's answers to an invitation, from a list or the topic's page: accepted, the topic
 * becomes theirs (their membership as the server answered, the lists and the topic's queries
 * fetched again: its content was not theirs to see); declined, it leaves every list.
 */
export function useInvitationAnswers(kind: InvitationKind, cache: InvitationCache) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return {
    /** True once accepted. */
    async accept(topic: { id: number; title: string }): Promise<boolean> {
      const own = kind === 'chat' ? await acceptInvitation('chat', topic.id) : await acceptInvitation('room', topic.id);
      if (!own) return false;
      const ownKey = cache.ownKey(topic.id);
      queryClient.setQueryData(ownKey, own);
      cache.markJoined(queryClient, topic.id);
      void queryClient.invalidateQueries({ queryKey: cache.lists });
      void queryClient.invalidateQueries({ queryKey: cache.topicKey(topic.id), predicate: (query) => query.queryKey[2] !== ownKey[2] });
      notify.success(t('invitations.accepted', { title: topic.title }));
      return true;
    },
    /** True once declined (the caller leaves the topic's page, if it is on it, and drops its queries). */
    async decline(topic: { id: number; title: string }): Promise<boolean> {
      // The server tells the reader's tabs the topic is gone: expected here, not news.
      const forget = cache.expectRemoval(topic.id);
      const done = await declineInvitation(kind, topic.id);
      if (!done) {
        forget();
        return false;
      }
      cache.drop(queryClient, topic.id);
      // Counted lists: their counts too.
      void queryClient.invalidateQueries({ queryKey: cache.lists });
      notify.success(t('invitations.declined', { title: topic.title }));
      // Still expected a moment: the push may come after the answer.
      setTimeout(forget, 5_000);
      return true;
    },
  };
}
