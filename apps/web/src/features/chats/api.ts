// The calls of the chat screens (spec section 7 "Chat"): query keys, query options and the
// mutations' fetchers. Failures go through the error catalogue: queries turn a handled failure
// into an error state, mutations resolve with undefined (toast shown) or throw FieldErrors.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type {
  Attachment,
  ChatCreateRequest,
  ChatListPage,
  ChatMember,
  ChatMemberAddRequest,
  ChatMemberPatchRequest,
  ChatMembersPage,
  ChatMessage,
  ChatMessagesPage,
  ChatPins,
  ChatPresence,
  ChatReceipts,
  ChatPutRequest,
  ChatSearchPage,
  GroupChat,
  ManageChatMember,
  MessageVersions,
  Reactions,
} from '@parla/contract/chat';
import type { ChatRole } from '@parla/contract/constants';
import type { Glossary, GlossaryApply, GlossaryEntry } from '@parla/contract/glossary';
import type { GlossaryApi } from '../../components/glossary';
import { call, endpoint, fetchOrThrow, http } from '../../lib/api';
import { linkParam, retryUnhandled, succeeded } from '../../lib/queries';

export const CHAT_PAGE_SIZE = 20;
export const MESSAGE_PAGE_SIZE = 30;
export const MEMBER_PAGE_SIZE = 20;
export const SEARCH_PAGE_SIZE = 20;

import { chatKeys } from '../../lib/query-keys';

export { chatKeys };


/** The cursor of the page after `page`: from its `next` link, else from its oldest chat. */
export function nextChatCursor(page: ChatListPage): string | undefined {
  if (!page.next) return undefined;
  return linkParam(page.next, 'lastModified') ?? page.results.at(-1)?.modified;
}

/** The `toId` of the page of older messages after `page`: from its `next` link, else its oldest id. */
export function nextMessageCursor(page: ChatMessagesPage): number | undefined {
  if (!page.next) return undefined;
  const fromLink = Number(linkParam(page.next, 'toId'));
  if (Number.isInteger(fromLink) && fromLink > 0) return fromLink;
  const ids = page.results.map((message) => message.id);
  return ids.length ? Math.min(...ids) : undefined;
}

/** The `toId` of the next page of search results: from its `next` link, else its oldest message's id. */
export function nextSearchCursor(page: ChatSearchPage): number | undefined {
  if (!page.next) return undefined;
  const fromLink = Number(linkParam(page.next, 'toId'));
  if (Number.isInteger(fromLink) && fromLink > 0) return fromLink;
  const ids = page.results.map((result) => result.message.id);
  return ids.length ? Math.min(...ids) : undefined;
}

export const chatListQuery = infiniteQueryOptions({
  queryKey: chatKeys.list(),
  queryFn: ({ pageParam }) =>
    fetchOrThrow<ChatListPage>(endpoint('GET', '/api/chat/', { query: { limit: CHAT_PAGE_SIZE, lastModified: pageParam } })),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: nextChatCursor,
  retry: retryUnhandled,
});

export const chatQuery = (chatId: number) =>
  queryOptions({
    queryKey: chatKeys.detail(chatId),
    queryFn: () => fetchOrThrow<GroupChat>(endpoint('GET', '/api/chat/{id}/', { path: { id: chatId } })),
    retry: retryUnhandled,
  });

export const memberQuery = (chatId: number) =>
  queryOptions({
    queryKey: chatKeys.member(chatId),
    queryFn: () => fetchOrThrow<ChatMember>(endpoint('GET', '/api/chat/{groupChatId}/member/', { path: { groupChatId: chatId } })),
    retry: retryUnhandled,
  });

export const messagesQuery = (chatId: number) =>
  infiniteQueryOptions({
    queryKey: chatKeys.messages(chatId),
    queryFn: ({ pageParam }) =>
      fetchOrThrow<ChatMessagesPage>(
        endpoint('GET', '/api/chat/{groupChatId}/messages/', {
          path: { groupChatId: chatId },
          query: { limit: MESSAGE_PAGE_SIZE, toId: pageParam },
        }),
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: nextMessageCursor,
    retry: retryUnhandled,
  });

/**
 * The reader's messages matching `q` (GET /api/chat/search/), newest first, in all their chats or
 * in `chatId`'s: by their originals and by their renderings for the reader.
 */
export const searchQuery = (q: string, chatId?: number) =>
  infiniteQueryOptions({
    queryKey: chatKeys.search(q, chatId),
    queryFn: ({ pageParam }) =>
      fetchOrThrow<ChatSearchPage>(endpoint('GET', '/api/chat/search/', { query: { q, chatId, limit: SEARCH_PAGE_SIZE, toId: pageParam } })),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: nextSearchCursor,
    staleTime: 30_000,
    retry: retryUnhandled,
  });

/** A message's earlier texts in the reader's language, the newest first (rendered on demand). */
export const versionsQuery = (chatId: number, messageId: number) =>
  queryOptions({
    queryKey: [...chatKeys.chat(chatId), 'versions', messageId] as const,
    queryFn: () => fetchOrThrow<MessageVersions>(endpoint('GET', '/api/chat/{groupChatId}/messages/{id}/versions/', { path: { groupChatId: chatId, id: messageId } })),
    staleTime: 60_000,
    retry: retryUnhandled,
  });

/** The chat's pinned messages in the reader's language, the latest pinned first. */
export const pinsQuery = (chatId: number) =>
  queryOptions({
    queryKey: chatKeys.pins(chatId),
    queryFn: () => fetchOrThrow<ChatPins>(endpoint('GET', '/api/chat/{groupChatId}/pins/', { path: { groupChatId: chatId } })),
    retry: retryUnhandled,
  });

/** How far the other members read; `enabled` false when the reader does not share their own. */
export const receiptsQuery = (chatId: number) =>
  queryOptions({
    queryKey: chatKeys.receipts(chatId),
    queryFn: () => fetchOrThrow<ChatReceipts>(endpoint('GET', '/api/chat/{groupChatId}/receipts/', { path: { groupChatId: chatId } })),
    // Kept by the live connection (fetched again after a reconnection), not by each message's mount.
    staleTime: Infinity,
    retry: retryUnhandled,
  });

/** Every member's presence (kept up to date by the live connection). */
export const presenceQuery = (chatId: number) =>
  queryOptions({
    queryKey: chatKeys.presence(chatId),
    queryFn: () => fetchOrThrow<ChatPresence>(endpoint('GET', '/api/chat/{groupChatId}/presence/', { path: { groupChatId: chatId } })),
    staleTime: Infinity,
    retry: retryUnhandled,
  });

export const membersQuery = (chatId: number, query: { pageIndex: number; q: string }) =>
  queryOptions({
    queryKey: chatKeys.membersPage(chatId, query),
    queryFn: () =>
      fetchOrThrow<ChatMembersPage>(
        endpoint('GET', '/api/chat/{groupChatId}/members/', {
          path: { groupChatId: chatId },
          query: { pageIndex: query.pageIndex, pageSize: MEMBER_PAGE_SIZE, q: query.q || undefined },
        }),
      ),
    retry: retryUnhandled,
  });

/** Who a mention being typed may name: the chat's joined members matching `q` (GET …/members/?q=&pageSize=8). */
export const MENTION_SUGGESTIONS = 8;
export const mentionCandidatesQuery = (chatId: number, q: string) =>
  queryOptions({
    queryKey: [...chatKeys.members(chatId), 'mention', q] as const,
    queryFn: async () => {
      const page = await fetchOrThrow<ChatMembersPage>(
        endpoint('GET', '/api/chat/{groupChatId}/members/', {
          path: { groupChatId: chatId },
          query: { pageIndex: 0, pageSize: MENTION_SUGGESTIONS, q },
          skipErrorCatalogue: true,
        }),
      );
      return page.results.filter((member) => member.memberState === 'joined');
    },
    staleTime: 30_000,
    retry: false,
  });

// ---- mutations ----

export const createChat = (body: ChatCreateRequest) => call<GroupChat>(endpoint('POST', '/api/chat/', { body }));

export const updateChat = (chatId: number, body: ChatPutRequest) =>
  call<GroupChat>(endpoint('PUT', '/api/chat/{id}/', { path: { id: chatId }, body }));

export const deleteChat = (chatId: number) => succeeded(endpoint('DELETE', '/api/chat/{id}/', { path: { id: chatId } }));

export const updateMember = (chatId: number, body: ChatMemberPatchRequest) =>
  call<ChatMember>(endpoint('PATCH', '/api/chat/{groupChatId}/member/', { path: { groupChatId: chatId }, body }));

export const leaveChat = (chatId: number, permanent: boolean) =>
  succeeded(endpoint('DELETE', '/api/chat/{groupChatId}/member/', { path: { groupChatId: chatId }, query: { permanent } }));

export const addMember = (chatId: number, body: ChatMemberAddRequest) =>
  call<ManageChatMember>(endpoint('POST', '/api/chat/{groupChatId}/members/', { path: { groupChatId: chatId }, body }));

export const changeMemberRole = (chatId: number, memberId: number, chatRole: ChatRole) =>
  call<ManageChatMember>(endpoint('PATCH', '/api/chat/{groupChatId}/members/{id}/', { path: { groupChatId: chatId, id: memberId }, body: { chatRole } }));

export const removeMember = (chatId: number, memberId: number, permanent: boolean) =>
  succeeded(endpoint('DELETE', '/api/chat/{groupChatId}/members/{id}/', { path: { groupChatId: chatId, id: memberId }, query: { permanent } }));

export const removeMembers = (chatId: number, ids: number[], permanent: boolean) =>
  succeeded(endpoint('POST', '/api/chat/{groupChatId}/members/multi_delete/', { path: { groupChatId: chatId }, body: { ids, permanent } }));

export const editMessage = (chatId: number, messageId: number, content: string) =>
  call<ChatMessage>(endpoint('PATCH', '/api/chat/{groupChatId}/messages/{id}/', { path: { groupChatId: chatId, id: messageId }, body: { content } }));

export const deleteMessage = (chatId: number, messageId: number) =>
  succeeded(endpoint('DELETE', '/api/chat/{groupChatId}/messages/{id}/', { path: { groupChatId: chatId, id: messageId } }));

/** React to a message with one emoji: the message's reactions as they now stand. */
export const addReaction = (chatId: number, messageId: number, emoji: string) =>
  call<Reactions>(endpoint('POST', '/api/chat/{groupChatId}/messages/{id}/reactions/', { path: { groupChatId: chatId, id: messageId }, body: { emoji } }));

/** Take one's own reaction back (204: the caller updates the cache itself, the live event confirms). */
export const removeReaction = (chatId: number, messageId: number, emoji: string) =>
  succeeded(endpoint('DELETE', '/api/chat/{groupChatId}/messages/{id}/reactions/', { path: { groupChatId: chatId, id: messageId }, query: { emoji } }));

/** Pins a message for every member (owners and admins): the message as it now stands. */
export const pinMessage = (chatId: number, messageId: number) =>
  call<ChatMessage>(endpoint('PUT', '/api/chat/{groupChatId}/messages/{id}/pin/', { path: { groupChatId: chatId, id: messageId } }));

/** Unpins a message (204: the live event confirms). */
export const unpinMessage = (chatId: number, messageId: number) =>
  succeeded(endpoint('DELETE', '/api/chat/{groupChatId}/messages/{id}/pin/', { path: { groupChatId: chatId, id: messageId } }));

// ---- readers' corrections and the glossary ----

/** Corrects the reader's rendering of a message for everyone reading the same way (the machine's text is kept). */
export const correctRendering = (chatId: number, messageId: number, content: string) =>
  call<ChatMessage>(endpoint('PUT', '/api/chat/{groupChatId}/messages/{id}/rendering/', { path: { groupChatId: chatId, id: messageId }, body: { content } }));

/** The machine's text again in place of a correction (204: the live event brings the message). */
export const restoreRendering = (chatId: number, messageId: number) =>
  succeeded(endpoint('DELETE', '/api/chat/{groupChatId}/messages/{id}/rendering/', { path: { groupChatId: chatId, id: messageId } }));

/** Every reader's correction of a message withdrawn, in every language (owners and admins; 204: the live events bring the renderings). */
export const withdrawCorrections = (chatId: number, messageId: number) =>
  succeeded(endpoint('DELETE', '/api/chat/{groupChatId}/messages/{id}/rendering/', { path: { groupChatId: chatId, id: messageId }, query: { everyone: true } }));

/** The chat's glossary calls, for the shared glossary dialog. */
export const chatGlossary = (chatId: number): GlossaryApi => {
  const path = { groupChatId: chatId };
  return {
    key: chatKeys.glossary(chatId),
    load: () => fetchOrThrow<Glossary>(endpoint('GET', '/api/chat/{groupChatId}/glossary/', { path })),
    add: (body) => call<GlossaryEntry>(endpoint('POST', '/api/chat/{groupChatId}/glossary/', { path, body })),
    update: (id, body) => call<GlossaryEntry>(endpoint('PATCH', '/api/chat/{groupChatId}/glossary/{id}/', { path: { ...path, id }, body })),
    remove: (id) => succeeded(endpoint('DELETE', '/api/chat/{groupChatId}/glossary/{id}/', { path: { ...path, id } })),
    apply: () => call<GlossaryApply>(endpoint('POST', '/api/chat/{groupChatId}/glossary/apply/', { path })),
  };
};

// ---- attachments ----


/**
 * One picture or file for the reader's next message (multipart `file`), with the upload's
 * progress. Failures are thrown to the caller (no toast): the composer shows them on the file.
 */
export function uploadAttachment(chatId: number, file: File, onProgress: (fraction: number) => void): Promise<Attachment | undefined> {
  const body = new FormData();
  body.append('file', file, file.name);
  return call<Attachment>(endpoint('POST', '/api/chat/{groupChatId}/attachments/', { path: { groupChatId: chatId }, body, onUploadProgress: onProgress, skipErrorCatalogue: true }));
}

/** Refreshes the session when due, so a picture or a download (fetched by the browser with the access cookie) is not refused. */
export const freshSession = () => http.ensureSession().catch(() => false);
