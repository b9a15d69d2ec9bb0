// How chat events change the cached chat data (installed by lib/live-sync.ts while a chat page is
// shown): messages are replaced by id (so a repeated or late event never shows a message twice),
// reactions replace a message's own, the list's previews, order and unread badges follow, and after a reconnection everything
// fetched before it is fetched again.
import type { QueryClient } from '@tanstack/react-query';
import type { ChatMember, ChatPins, ChatPresence, ChatReceipts, GroupChat } from '@parla/contract/chat';
import { chime } from '../../lib/chime';
import type { LiveListener } from '../../lib/live';
import { expectRemoval as expectTopicRemoval, isRemovalExpected as isTopicRemovalExpected, useLiveSync, useWatch } from '../../lib/live-sync';
import { chatKeys } from './api';
import { mentionsMember } from './mentions';
import {
  applyChangedMessage,
  applyChatUpdate,
  applyNewMessage,
  isPreview,
  listedState,
  markRead,
  markDeleted,
  removeChat,
  removeMessages,
  setPinned,
  setReactions,
  upsertMessage,
  type ChatListPages,
  type MessagePages,
} from './timeline';

/** The chat whose newest messages the reader has in view (their arrival is not unread). */
let readingChatId: number | null = null;
export const setReadingChat = (chatId: number | null) => {
  readingChatId = chatId;
};

/** A chat the reader is leaving or deleting: its `chat:removed` is expected, not news. */
export const expectRemoval = (chatId: number) => expectTopicRemoval('chat', chatId);
export const isRemovalExpected = (chatId: number) => isTopicRemovalExpected('chat', chatId);

function cacheSync(queryClient: QueryClient): LiveListener {
  const setMessages = (chatId: number, change: (data: MessagePages | undefined) => MessagePages | undefined) =>
    queryClient.setQueryData<MessagePages>(chatKeys.messages(chatId), change);
  const setList = (change: (data: ChatListPages | undefined) => ChatListPages | undefined) =>
    queryClient.setQueryData<ChatListPages>(chatKeys.list(), change);
  const gone = (chatId: number) => {
    setList((data) => removeChat(data, chatId));
    void queryClient.invalidateQueries({ queryKey: chatKeys.unread() });
  };
  const recount = () => void queryClient.invalidateQueries({ queryKey: chatKeys.unread() });
  /** The pinned list is asked again when it holds one of these messages (changed or gone). */
  const touchPins = (chatId: number, messageIds: readonly number[]) => {
    const pins = queryClient.getQueryData<ChatPins>(chatKeys.pins(chatId));
    if (pins?.results.some((item) => messageIds.includes(item.id))) void queryClient.invalidateQueries({ queryKey: chatKeys.pins(chatId) });
  };
  return {
    'message:created': ({ chatId, message }) => {
      setMessages(chatId, (data) => upsertMessage(data, message));
      // Whether it mentions the reader: their membership id in that chat, when known; else the
      // list (which counts unread mentions) is asked again when it mentions anyone.
      const me = queryClient.getQueryData<ChatMember>(chatKeys.member(chatId))?.id;
      setList((data) => applyNewMessage(data, chatId, message, readingChatId === chatId, mentionsMember(message.content, me)));
      if (!message.isMe && me === undefined && message.mentions.length > 0 && readingChatId !== chatId) void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
      if (!message.isMe) {
        recount();
        // Heard while the tab is hidden, unless the chat is muted (a mention of the reader still rings).
        const chat = queryClient.getQueryData<ChatListPages>(chatKeys.list())?.pages.flatMap((page) => page.results).find((item) => item.id === chatId);
        const muted = queryClient.getQueryData<ChatMember>(chatKeys.member(chatId))?.muted ?? chat?.muted ?? false;
        if (!muted || mentionsMember(message.content, me)) chime();
      }
    },
    'message:reactions': ({ chatId, messageId, reactions }) => {
      setMessages(chatId, (data) => setReactions(data, messageId, reactions));
    },
    'message:pinned': ({ chatId, messageId, pinned }) => {
      setMessages(chatId, (data) => setPinned(data, messageId, pinned));
      void queryClient.invalidateQueries({ queryKey: chatKeys.pins(chatId) });
    },
    // Others read further: each member's marker replaced (a member who was not listed yet added).
    receipts: ({ chatId, receipts }) => {
      queryClient.setQueryData<ChatReceipts>(chatKeys.receipts(chatId), (data) => {
        if (!data?.enabled) return data;
        const moved = new Map(receipts.map((receipt) => [receipt.memberId, receipt]));
        const kept = data.results.filter((receipt) => !moved.has(receipt.memberId));
        return { ...data, results: [...kept, ...moved.values()].sort((a, b) => a.memberId - b.memberId) };
      });
    },
    presence: ({ chatId, presence }) => {
      queryClient.setQueryData<ChatPresence>(chatKeys.presence(chatId), (data) => {
        if (!data) return data;
        const changed = new Map(presence.map((item) => [item.memberId, item]));
        const results = data.results.map((item) => changed.get(item.memberId) ?? item);
        // A member the list did not hold (new since): asked again.
        if (presence.some((item) => !data.results.some((known) => known.memberId === item.memberId))) void queryClient.invalidateQueries({ queryKey: chatKeys.presence(chatId) });
        return { results };
      });
    },
    // Read in another tab or device: this one's counts follow.
    'chat:read': ({ chatId, lastReadMessage }) => {
      const list = queryClient.getQueryData<ChatListPages>(chatKeys.list());
      const read = markRead(list, chatId, lastReadMessage);
      if (read === null) void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
      else if (read !== list) setList(() => read);
      recount();
    },
    'message:rendered': ({ chatId, message }) => {
      setMessages(chatId, (data) => upsertMessage(data, message));
      setList((data) => applyChangedMessage(data, chatId, message));
      touchPins(chatId, [message.id]);
    },
    'message:edited': ({ chatId, message }) => {
      setMessages(chatId, (data) => upsertMessage(data, message));
      setList((data) => applyChangedMessage(data, chatId, message));
      touchPins(chatId, [message.id]);
    },
    'message:deleted': ({ chatId, messageId }) => {
      // Who had it on screen sees "Message deleted" in its place; nothing of it stays.
      setMessages(chatId, (data) => markDeleted(data, [messageId]));
      touchPins(chatId, [messageId]);
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
      touchPins(chatId, messageIds);
      if (isPreview(queryClient.getQueryData(chatKeys.list()), chatId, messageIds)) void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
    },
    'chat:removed': ({ chatId }) => gone(chatId),
    refused: (topic) => topic.kind === 'chat' && gone(topic.id),
    'members:changed': ({ chatId }) => {
      void queryClient.invalidateQueries({ queryKey: chatKeys.members(chatId) });
      // The reader's own role may be what changed.
      void queryClient.invalidateQueries({ queryKey: chatKeys.member(chatId) });
      void queryClient.invalidateQueries({ queryKey: chatKeys.detail(chatId) });
      // Who is in the chat, and their names, for "seen by" and presence.
      void queryClient.invalidateQueries({ queryKey: chatKeys.receipts(chatId) });
      void queryClient.invalidateQueries({ queryKey: chatKeys.presence(chatId) });
    },
    resync: (at, topic) => {
      // One chat newly watched: its own queries; after a reconnection: everything (list included).
      if (topic && topic.kind !== 'chat') return;
      const queryKey = topic ? chatKeys.chat(topic.id) : chatKeys.all;
      void queryClient.invalidateQueries({ queryKey, predicate: (query) => query.state.dataUpdatedAt < at });
    },
  };
}

/** Keeps the chat queries in step with the live events while the calling page is shown. */
export const useChatLiveSync = () => useLiveSync(cacheSync);

/** Receives the live events of these (joined) chats while the calling page is shown. */
export const useWatchChats = (chatIds: readonly number[]) => useWatch('chat', chatIds);
