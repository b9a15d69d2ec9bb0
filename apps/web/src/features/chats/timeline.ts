// What the chat screens hold, as pure functions: the cached pages of messages (newest first, as
// the API answers) changed by live events, the chat list changed by live events, and the
// timeline shown (oldest first, each message once by id, the outbox's unsent messages after it).
import type { InfiniteData } from '@tanstack/react-query';
import type { ChatListItem, ChatListPage, ChatMessage, ChatMessagesPage, GroupChat, Reaction } from '@parla/contract/chat';
import { newerView, type ViewOrder } from '../../lib/late-views';
import type { OutboxEntry } from './outbox';

export type MessagePages = InfiniteData<ChatMessagesPage>;
export type ChatListPages = InfiniteData<ChatListPage>;

const byIdDescending = (a: ChatMessage, b: ChatMessage) => b.id - a.id;

/** A message's text as its sender wrote it, and how far the reader's rendering has come. */
const MESSAGE_ORDER: ViewOrder<ChatMessage> = {
  original: (message) => message.rawMessage?.content ?? message.content,
  edited: (message) => message.edited,
  progress: (message) => (message.translation === 'pending' ? 0 : 1),
};

/**
 * The pages with `message` in place of the one with its id (unless it is a late view of it: a
 * post's answer, still pending, after the push of its translation), or (new) added to the newest
 * page. Without cached pages there is nothing to change: the next fetch brings it.
 */
export function upsertMessage(data: MessagePages | undefined, message: ChatMessage): MessagePages | undefined {
  const placed = placeMessage(data, message);
  // The view the cache keeps (not a late one) is what the quotes show.
  const kept = placed?.pages.flatMap((page) => page.results).find((item) => item.id === message.id) ?? message;
  return withQuotesOf(placed, kept);
}

/**
 * The replies quoting `message` with its text as the reader reads it now (a correction, an edit or
 * a translation arriving changed it: issue 37, the quote kept the old text until a reload).
 */
function withQuotesOf(data: MessagePages | undefined, message: ChatMessage): MessagePages | undefined {
  if (!data) return data;
  const quoting = (item: ChatMessage) =>
    item.replyTo?.id === message.id && (item.replyTo.content !== message.content || item.replyTo.language !== message.language || item.replyTo.translated !== (message.rawMessage !== null));
  if (!data.pages.some((page) => page.results.some(quoting))) return data;
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.results.some(quoting)
        ? { ...page, results: page.results.map((item) => (quoting(item) ? { ...item, replyTo: { ...item.replyTo!, content: message.content, language: message.language, translated: message.rawMessage !== null } } : item)) }
        : page,
    ),
  };
}

function placeMessage(data: MessagePages | undefined, message: ChatMessage): MessagePages | undefined {
  if (!data) return data;
  let found = false;
  let changed = false;
  const pages = data.pages.map((page) => {
    const index = page.results.findIndex((item) => item.id === message.id);
    if (index < 0) return page;
    found = true;
    const kept = newerView(page.results[index], message, MESSAGE_ORDER);
    if (kept === page.results[index]) return page;
    changed = true;
    return { ...page, results: page.results.map((item, at) => (at === index ? kept : item)) };
  });
  if (found && !changed) return data;
  if (found) return { ...data, pages };
  const first = data.pages[0];
  const last = data.pages.at(-1);
  if (!first || !last) return { ...data, pages: [{ next: null, previous: null, results: [message] }] };
  const oldestLoaded = Math.min(...data.pages.flatMap((page) => page.results.map((item) => item.id)));
  if (message.id > oldestLoaded) {
    return { ...data, pages: [{ ...first, results: [...first.results, message].sort(byIdDescending) }, ...data.pages.slice(1)] };
  }
  // Older than everything loaded: it belongs to a page not fetched yet, unless none is left.
  if (last.next !== null) return data;
  return { ...data, pages: [...data.pages.slice(0, -1), { ...last, results: [...last.results, message].sort(byIdDescending) }] };
}

export const removeMessage = (data: MessagePages | undefined, messageId: number): MessagePages | undefined => removeMessages(data, [messageId]);

/** The pages without these messages (a member removed for good took them along). */
export function removeMessages(data: MessagePages | undefined, messageIds: readonly number[]): MessagePages | undefined {
  if (!data) return data;
  const gone = new Set(messageIds);
  if (!data.pages.some((page) => page.results.some((item) => gone.has(item.id)))) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, results: page.results.filter((item) => !gone.has(item.id)) })) };
}

/**
 * A message deleted while the reader had it: in its place "Message deleted" (issue 34), for this
 * visit only (the server keeps nothing of it, so a page fetched again no longer holds it). All its
 * content goes; only when it was written and by whom stay, to place the line.
 */
export type DeletedMessage = ChatMessage & { deletedHere: true };
export const isDeletedHere = (message: ChatMessage): message is DeletedMessage => 'deletedHere' in message;
export function markDeleted(data: MessagePages | undefined, messageIds: readonly number[]): MessagePages | undefined {
  let result = data;
  for (const messageId of messageIds) {
    result = patchMessage(result, messageId, {
      deletedHere: true,
      content: '',
      rawMessage: null,
      attachments: [],
      reactions: [],
      replyTo: null,
      mentions: [],
      correction: null,
      missedTerms: [],
      pinned: null,
      edited: false,
      translation: 'none',
    } as Partial<DeletedMessage>);
  }
  return result;
}

/** The pages with this message's reactions replaced (a live `message:reactions`, the answer to a reaction). */
export function setReactions(data: MessagePages | undefined, messageId: number, reactions: Reaction[]): MessagePages | undefined {
  return patchMessage(data, messageId, { reactions });
}

/** The message with its pin as it now stands (pinned, or null: unpinned). */
export function setPinned(data: MessagePages | undefined, messageId: number, pinned: ChatMessage['pinned']): MessagePages | undefined {
  return patchMessage(data, messageId, { pinned });
}

/** The cached message with these fields changed (the pages without it, and the data when none holds it, unchanged). */
function patchMessage(data: MessagePages | undefined, messageId: number, patch: Partial<ChatMessage>): MessagePages | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.results.some((item) => item.id === messageId)) return page;
    changed = true;
    return { ...page, results: page.results.map((item) => (item.id === messageId ? { ...item, ...patch } : item)) };
  });
  return changed ? { ...data, pages } : data;
}

/** The reactions without this member's `emoji` (a reaction taken back: DELETE answers nothing). */
export function withoutReaction(reactions: readonly Reaction[], emoji: string, memberId: number): Reaction[] {
  return reactions
    .map((reaction) => (reaction.emoji === emoji ? { ...reaction, members: reaction.members.filter((member) => member.id !== memberId) } : reaction))
    .filter((reaction) => reaction.members.length > 0);
}

/** Whether this message is among the loaded pages. */
export const isLoaded = (data: MessagePages | undefined, messageId: number) => !!data?.pages.some((page) => page.results.some((item) => item.id === messageId));

/**
 * Loads older pages until `messageId` is among them (a quote's original scrolled to) or none is
 * left: true when it is loaded. `fetchOlder` is the infinite query's fetchNextPage; `maxPages`
 * bounds the walk back.
 */
export async function loadUntil(
  messageId: number,
  current: { data: MessagePages | undefined; hasNextPage: boolean },
  fetchOlder: () => Promise<{ data: MessagePages | undefined; hasNextPage: boolean; isError?: boolean }>,
  maxPages = 50,
): Promise<boolean> {
  let state = current;
  for (let page = 0; !isLoaded(state.data, messageId); page++) {
    // Every page loaded and it is not there: deleted (or never in reach).
    if (!state.hasNextPage || page >= maxPages) return false;
    const next = await fetchOlder();
    if (next.isError) return false;
    state = next;
  }
  return true;
}

/** Every message once, oldest first. */
export function messagesOf(data: MessagePages | undefined): ChatMessage[] {
  const seen = new Map<number, ChatMessage>();
  for (const page of data?.pages ?? []) for (const message of page.results) if (!seen.has(message.id)) seen.set(message.id, message);
  return [...seen.values()].sort((a, b) => a.id - b.id);
}

export type TimelineItem = { kind: 'message'; message: ChatMessage } | { kind: 'outbox'; entry: OutboxEntry };

/** An item's key in the list (also how the view tells that items came in above or below). */
export const itemKey = (item: TimelineItem | undefined) => (!item ? '' : item.kind === 'message' ? `m${item.message.id}` : `o${item.entry.clientId}`);

/** The text a sender wrote, whatever rendering the reader got. */
export const originalText = (message: ChatMessage) => message.rawMessage?.content ?? message.content;

/**
 * The timeline: the server's messages oldest first, then the outbox entries the server has not
 * shown yet. An entry being sent whose message already arrived live (before the answer to its
 * POST) is matched by its text among one's own messages written since it was queued, so it does
 * not show twice; each message matches at most one entry.
 */
export function buildTimeline(messages: ChatMessage[], outbox: readonly OutboxEntry[]): TimelineItem[] {
  const items: TimelineItem[] = messages.map((message) => ({ kind: 'message', message }));
  const claimed = new Set<number>();
  const unsent: OutboxEntry[] = [];
  for (const entry of [...outbox].sort((a, b) => a.createdAt - b.createdAt)) {
    const match =
      entry.state === 'sending'
        ? messages.find(
            (message) =>
              message.isMe &&
              !claimed.has(message.id) &&
              Date.parse(message.created) >= entry.createdAt - 60_000 &&
              originalText(message) === entry.content.trim(),
          )
        : undefined;
    if (match) claimed.add(match.id);
    else unsent.push(entry);
  }
  return [...items, ...unsent.map((entry): TimelineItem => ({ kind: 'outbox', entry }))];
}

/**
 * Where "new since your last visit" starts: the first message someone else wrote after the one the
 * reader had read when they opened the chat (none on a first visit: everything is new then).
 */
export function firstUnreadId(messages: readonly ChatMessage[], readWhenOpened: number | null): number | undefined {
  if (readWhenOpened === null) return undefined;
  return messages.find((message) => message.id > readWhenOpened && !message.isMe)?.id;
}

/** The newest message id the server has shown (what "read up to here" means). */
export const newestId = (messages: readonly ChatMessage[]) => messages.at(-1)?.id;

// ---- the chat list ----

function mapChats(data: ChatListPages | undefined, change: (chat: ChatListItem) => ChatListItem): ChatListPages | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, results: page.results.map(change) })) };
}

const later = (a: string, b: string) => (Date.parse(a) >= Date.parse(b) ? a : b);

/**
 * A new message in a chat of the list: it becomes the preview, the chat's `modified` moves to it
 * (so the chat sorts to the top) and, written by someone else and not being read now, it counts
 * as unread (and as an unread mention when `mentionsReader`).
 */
export function applyNewMessage(data: ChatListPages | undefined, chatId: number, message: ChatMessage, reading: boolean, mentionsReader = false): ChatListPages | undefined {
  return mapChats(data, (chat) => {
    if (chat.id !== chatId) return chat;
    if (chat.lastMessage && chat.lastMessage.id > message.id) return chat;
    const counts = chat.lastMessage?.id !== message.id && !message.isMe && !reading;
    return {
      ...chat,
      lastMessage: message,
      modified: later(chat.modified, message.created),
      unreadCount: counts ? chat.unreadCount + 1 : chat.unreadCount,
      unreadMentions: counts && mentionsReader ? chat.unreadMentions + 1 : chat.unreadMentions,
    };
  });
}

/** A rendered or edited message: the preview follows when it is the chat's last one. */
export function applyChangedMessage(data: ChatListPages | undefined, chatId: number, message: ChatMessage): ChatListPages | undefined {
  return mapChats(data, (chat) => (chat.id === chatId && chat.lastMessage?.id === message.id ? { ...chat, lastMessage: message } : chat));
}

/** Whether a deleted message (one of `messageIds`) was some chat's preview (then the list is fetched again). */
export const isPreview = (data: ChatListPages | undefined, chatId: number, messageId: number | readonly number[]) => {
  const ids: readonly number[] = typeof messageId === 'number' ? [messageId] : messageId;
  return !!data?.pages.some((page) => page.results.some((chat) => chat.id === chatId && chat.lastMessage !== null && ids.includes(chat.lastMessage.id)));
};

export function applyChatUpdate(data: ChatListPages | undefined, chat: GroupChat): ChatListPages | undefined {
  return mapChats(data, (item) => (item.id === chat.id ? { ...item, ...chat, modified: later(item.modified, chat.modified) } : item));
}

/**
 * The chat read up to `lastReadMessage` (in some tab of the reader's): nothing unread when that is
 * its newest message; null when the list cannot tell (read up to an older one: ask the server).
 */
export function markRead(data: ChatListPages | undefined, chatId: number, lastReadMessage: number | null): ChatListPages | undefined | null {
  const chat = data?.pages.flatMap((page) => page.results).find((item) => item.id === chatId);
  if (!chat || (chat.unreadCount === 0 && chat.unreadMentions === 0)) return data;
  if (lastReadMessage === null || (chat.lastMessage?.id ?? 0) > lastReadMessage) return null;
  return setUnread(data, chatId, 0);
}

/** The chat's unread count set (0: read; its unread mentions go too). */
export function setUnread(data: ChatListPages | undefined, chatId: number, unreadCount: number): ChatListPages | undefined {
  return mapChats(data, (chat) => {
    if (chat.id !== chatId) return chat;
    const unreadMentions = unreadCount === 0 ? 0 : Math.min(chat.unreadMentions, unreadCount);
    return chat.unreadCount !== unreadCount || chat.unreadMentions !== unreadMentions ? { ...chat, unreadCount, unreadMentions } : chat;
  });
}

/** The reader accepted the invitation: the chat is theirs (its messages come with the next fetch of the list). */
export function markJoined(data: ChatListPages | undefined, chatId: number): ChatListPages | undefined {
  return mapChats(data, (chat) => (chat.id === chatId && chat.memberState !== 'joined' ? { ...chat, memberState: 'joined' } : chat));
}

/** The list holds this chat, and as what (undefined: not at all). */
export function listedState(data: ChatListPages | undefined, chatId: number): ChatListItem['memberState'] | undefined {
  for (const page of data?.pages ?? []) for (const chat of page.results) if (chat.id === chatId) return chat.memberState;
  return undefined;
}

export function removeChat(data: ChatListPages | undefined, chatId: number): ChatListPages | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, results: page.results.filter((chat) => chat.id !== chatId) })) };
}

/** A chat just created by the reader goes on top of the first page. */
export function addChat(data: ChatListPages | undefined, chat: ChatListItem): ChatListPages | undefined {
  if (!data) return data;
  const [first, ...rest] = data.pages;
  if (!first) return data;
  return { ...data, pages: [{ ...first, results: [chat, ...first.results.filter((item) => item.id !== chat.id)] }, ...rest] };
}

/**
 * The list shown: each chat once, pending invitations first, then latest activity first. Sorting
 * here (not in the pages) keeps the pages as the server sent them, so the cursors taken from their
 * `next` links stay right.
 */
export function chatsOf(data: ChatListPages | undefined): ChatListItem[] {
  const seen = new Map<number, ChatListItem>();
  for (const page of data?.pages ?? []) for (const chat of page.results) if (!seen.has(chat.id)) seen.set(chat.id, chat);
  const invitedFirst = (chat: ChatListItem) => (chat.memberState === 'invited' ? 0 : 1);
  return [...seen.values()].sort((a, b) => invitedFirst(a) - invitedFirst(b) || Date.parse(b.modified) - Date.parse(a.modified) || b.id - a.id);
}
