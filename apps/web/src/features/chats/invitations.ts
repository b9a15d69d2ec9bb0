// The invitee's answers to an invitation to a chat, from the list or the chat's page: accepted,
// the chat becomes theirs (their membership as the server answered, the list and the chat's
// queries fetched again: its messages were not theirs to see); declined, it leaves the list.
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMember } from '@parla/contract/chat';
import { acceptInvitation, declineInvitation } from '../../lib/invitations';
import { notify } from '../../lib/toast';
import { chatKeys } from './api';
import { expectRemoval } from './live-sync';
import { markJoined, removeChat, type ChatListPages } from './timeline';

export function useChatInvitationAnswers() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return {
    /** True once accepted. */
    async accept(chat: { id: number; title: string }): Promise<boolean> {
      const member = await acceptInvitation('chat', chat.id);
      if (!member) return false;
      queryClient.setQueryData<ChatMember>(chatKeys.member(chat.id), member);
      queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => markJoined(data, chat.id));
      void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
      void queryClient.invalidateQueries({ queryKey: chatKeys.chat(chat.id), predicate: (query) => query.queryKey[2] !== 'member' });
      notify.success(t('invitations.accepted', { title: chat.title }));
      return true;
    },
    /** True once declined (the caller leaves the chat's page, if it is on it, and drops its queries). */
    async decline(chat: { id: number; title: string }): Promise<boolean> {
      // The server says `chat:removed` to the reader's tabs: expected here, not news.
      const forget = expectRemoval(chat.id);
      const done = await declineInvitation('chat', chat.id);
      if (!done) {
        forget();
        return false;
      }
      queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => removeChat(data, chat.id));
      notify.success(t('invitations.declined', { title: chat.title }));
      // Still expected a moment: the push may come after the answer.
      setTimeout(forget, 5_000);
      return true;
    },
  };
}
