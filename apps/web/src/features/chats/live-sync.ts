// Live events into the query cache: one listener for the whole chat feature, installed while a
// chat page is shown. Messages are replaced by id (so a repeated or late event never shows a
// message twice), the list's previews, order and unread badges follow, and after a reconnection
// everything fetched before it is fetched again.
import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ChatMember, GroupChat } from '@parla/contract/chat';
import { addLiveListener, watchChat, type LiveListener } from '../../lib/live';
import { chatKeys } from './api';
import {
  applyChangedMessage,
  applyChatUpdate,
  applyNewMessage,
  isPreview,
  listedState,
  removeChat,
  removeMessage,
  removeMessages,
  upsertMessage,
  type ChatListPages,
  type MessagePages,
} from './timeline';

/** The chat whose newest messages the reader has in view (their arrival is not unread). */
let readingChatId: number | null = null;
export const setReadingChat = (chatId: number | null) => {
  readingChatId = chatId;
};

/** Chats the reader is leaving or deleting: their `chat:removed` is expected, not news. */
const leaving = new Set<number>();
export const expectRemoval = (chatId: number) => {
  leaving.add(chatId);
  return () => leaving.delete(chatId);
};
export const isRemovalExpected = (chatId: number) => leaving.has(chatId);

function cacheSync(queryClient: QueryClient): LiveListener {
  const setMessages = (chatId: number, change: (data: MessagePages | undefined) => MessagePages | undefined) =>
    queryClient.setQueryData<MessagePages>(chatKeys.messages(chatId), change);
  const setList = (change: (data: ChatListPages | undefined) => ChatListPages | undefined) =>
    queryClient.setQueryData<ChatListPages>(chatKeys.list(), change);
  const gone = (chatId: number) => {
    setList((data) => removeChat(data, chatId));
  };
  return {
    'message:created': ({ chatId, message }) => {
      setMessages(chatId, (data) => upsertMessage(data, message));
      setList((data) => applyNewMessage(data, chatId, message, readingChatId === chatId));
    },
    'message:rendered': ({ chatId, message }) => {
      setMessages(chatId, (data) => upsertMessage(data, message));
      setList((data) => applyChangedMessage(data, chatId, message));
    },
    'message:edited': ({ chatId, message }) => {
      setMessages(chatId, (data) => upsertMessage(data, message));
      setList((data) => applyChangedMessage(data, chatId, message));
    },
    'message:deleted': ({ chatId, messageId }) => {
      setMessages(chatId, (data) => removeMessage(data, messageId));
      // The preview before it is not known here: ask the server.
      if (isPreview(queryClient.getQueryData(chatKeys.list()), chatId, messageId)) void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
    },
    'chat:updated': ({ chat }) => {
      const before = queryClient.getQueryData<GroupChat>(chatKeys.detail(chat.id));
      queryClient.setQueryData<GroupChat>(chatKeys.detail(chat.id), (data) => (data ? { ...data, ...chat } : data));
      const list = queryClient.getQueryData<ChatListPages>(chatKeys.list());
      const listed = listedState(list, chat.id);
      // A chat the list does not hold (the reader was just invited to it), or an invitation accepted
      // (in another tab: its messages and unread count are not in the list yet): ask for the list again.
      if (list && (listed === undefined || (listed === 'invited' && chat.memberState === 'joined'))) void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
      else setList((data) => applyChatUpdate(data, chat));
      // New languages may move the reader's own language (and so every rendering); an invitation
      // accepted elsewhere changes the own membership.
      const member = queryClient.getQueryData<ChatMember>(chatKeys.member(chat.id));
      if ((before && before.languages.join() !== chat.languages.join()) || (member && member.memberState !== chat.memberState)) {
        void queryClient.invalidateQueries({ queryKey: chatKeys.member(chat.id) });
      }
    },
    'messages:deleted': ({ chatId, messageIds }) => {
      setMessages(chatId, (data) => removeMessages(data, messageIds));
      if (isPreview(queryClient.getQueryData(chatKeys.list()), chatId, messageIds)) void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
    },
    'chat:removed': ({ chatId }) => gone(chatId),
    refused: gone,
    'members:changed': ({ chatId }) => {
      void queryClient.invalidateQueries({ queryKey: chatKeys.members(chatId) });
      // The reader's own role may be what changed.
      void queryClient.invalidateQueries({ queryKey: chatKeys.member(chatId) });
      void queryClient.invalidateQueries({ queryKey: chatKeys.detail(chatId) });
    },
    resync: (at, chatId) => {
      // One chat newly watched: its own queries; after a reconnection: everything (list included).
      const queryKey = chatId === undefined ? chatKeys.all : chatKeys.chat(chatId);
      void queryClient.invalidateQueries({ queryKey, predicate: (query) => query.state.dataUpdatedAt < at });
    },
  };
}

let installed = 0;
let uninstall: (() => void) | null = null;

/** Keeps the chat queries in step with the live events while the calling page is shown. */
export function useChatLiveSync() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (installed++ === 0) uninstall = addLiveListener(cacheSync(queryClient));
    return () => {
      if (--installed === 0) {
        uninstall?.();
        uninstall = null;
      }
    };
  }, [queryClient]);
}

/**
 * Receives the live events of these chats while the calling page is shown. Give only chats the
 * reader joined: the server refuses one they are only invited to (and a refusal means "gone").
 */
export function useWatchChats(chatIds: readonly number[]) {
  const key = [...new Set(chatIds)].sort((a, b) => a - b).join(',');
  useEffect(() => {
    if (!key) return;
    const stops = key.split(',').map((id) => watchChat(Number(id)));
    return () => stops.forEach((stop) => stop());
  }, [key]);
}
