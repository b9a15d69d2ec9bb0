// The reader's read position in a chat: while its newest message is in view and the tab is shown
// the chat counts as being read (live-sync.ts), and the newest message is saved as read after a
// short pause; the chat list's unread badge then goes.
import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChatMember, ChatMessage } from '@parla/contract/chat';
import { call, endpoint } from '../../lib/api';
import { chatKeys } from './api';
import { setReadingChat } from './live-sync';
import { newestId, setUnread, type ChatListPages } from './timeline';

const READ_SAVE_DELAY_MS = 800;

const subscribeVisibility = (onChange: () => void) => {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
};
const useDocumentVisible = () => useSyncExternalStore(subscribeVisibility, () => document.visibilityState === 'visible');

/** `lastRead`: the member's saved read position; `atBottom`: the newest message is in view. */
export function useReadPosition(chatId: number, lastRead: ChatMember['lastReadMessage'], messages: readonly ChatMessage[], atBottom: boolean) {
  const queryClient = useQueryClient();
  const visible = useDocumentVisible();
  const reading = atBottom && visible;
  const newest = newestId(messages);
  useEffect(() => {
    setReadingChat(reading ? chatId : null);
    return () => setReadingChat(null);
  }, [reading, chatId]);
  useEffect(() => {
    if (!reading || newest === undefined) return;
    if (lastRead !== null && newest <= lastRead) {
      queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => setUnread(data, chatId, 0));
      return;
    }
    const timer = setTimeout(() => {
      call<ChatMember>(
        endpoint('PATCH', '/api/chat/{groupChatId}/member/', { path: { groupChatId: chatId }, body: { lastReadMessage: newest }, skipErrorCatalogue: true }),
      )
        .then((answer) => {
          if (answer) queryClient.setQueryData<ChatMember>(chatKeys.member(chatId), answer);
          queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => setUnread(data, chatId, 0));
        })
        // Not saved (offline...): the next newest message in view tries again.
        .catch(() => undefined);
    }, READ_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [reading, newest, lastRead, chatId, queryClient]);
}
