// The calls of the chat screens (spec section 7 "Chat"): query keys, query options and the
// mutations' fetchers. Failures go through the error catalogue: queries turn a handled failure
// into an error state, mutations resolve with undefined (toast shown) or throw FieldErrors.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type {
  ChatCreateRequest,
  ChatListPage,
  ChatMember,
  ChatMemberAddRequest,
  ChatMemberPatchRequest,
  ChatMembersPage,
  ChatMessage,
  ChatMessagesPage,
  ChatPutRequest,
  GroupChat,
  ManageChatMember,
} from '@parla/contract/chat';
import type { ChatRole } from '@parla/contract/constants';
import { call, fetchOrThrow } from '../../lib/api';
import { linkParam, retryUnhandled, succeeded } from '../../lib/queries';

export const CHAT_PAGE_SIZE = 20;
export const MESSAGE_PAGE_SIZE = 30;
export const MEMBER_PAGE_SIZE = 20;

export const chatKeys = {
  all: ['chats'] as const,
  list: () => ['chats', 'list'] as const,
  chat: (chatId: number) => ['chats', chatId] as const,
  detail: (chatId: number) => ['chats', chatId, 'detail'] as const,
  member: (chatId: number) => ['chats', chatId, 'member'] as const,
  messages: (chatId: number) => ['chats', chatId, 'messages'] as const,
  members: (chatId: number) => ['chats', chatId, 'members'] as const,
  membersPage: (chatId: number, query: { pageIndex: number; q: string }) => ['chats', chatId, 'members', query] as const,
};


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

export const chatListQuery = infiniteQueryOptions({
  queryKey: chatKeys.list(),
  queryFn: ({ pageParam }) =>
    fetchOrThrow<ChatListPage>({ method: 'GET', url: '/api/chat/', params: { limit: CHAT_PAGE_SIZE, lastModified: pageParam } }),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: nextChatCursor,
  retry: retryUnhandled,
});

export const chatQuery = (chatId: number) =>
  queryOptions({
    queryKey: chatKeys.detail(chatId),
    queryFn: () => fetchOrThrow<GroupChat>({ method: 'GET', url: `/api/chat/${chatId}/` }),
    retry: retryUnhandled,
  });

export const memberQuery = (chatId: number) =>
  queryOptions({
    queryKey: chatKeys.member(chatId),
    queryFn: () => fetchOrThrow<ChatMember>({ method: 'GET', url: `/api/chat/${chatId}/member/` }),
    retry: retryUnhandled,
  });

export const messagesQuery = (chatId: number) =>
  infiniteQueryOptions({
    queryKey: chatKeys.messages(chatId),
    queryFn: ({ pageParam }) =>
      fetchOrThrow<ChatMessagesPage>({
        method: 'GET',
        url: `/api/chat/${chatId}/messages/`,
        params: { limit: MESSAGE_PAGE_SIZE, toId: pageParam },
      }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: nextMessageCursor,
    retry: retryUnhandled,
  });

export const membersQuery = (chatId: number, query: { pageIndex: number; q: string }) =>
  queryOptions({
    queryKey: chatKeys.membersPage(chatId, query),
    queryFn: () =>
      fetchOrThrow<ChatMembersPage>({
        method: 'GET',
        url: `/api/chat/${chatId}/members/`,
        params: { pageIndex: query.pageIndex, pageSize: MEMBER_PAGE_SIZE, q: query.q || undefined },
      }),
    retry: retryUnhandled,
  });

// ---- mutations ----

export const createChat = (body: ChatCreateRequest) => call<GroupChat>({ method: 'POST', url: '/api/chat/', data: body });

export const updateChat = (chatId: number, body: ChatPutRequest) => call<GroupChat>({ method: 'PUT', url: `/api/chat/${chatId}/`, data: body });

export const deleteChat = (chatId: number) => succeeded({ method: 'DELETE', url: `/api/chat/${chatId}/` });

export const updateMember = (chatId: number, body: ChatMemberPatchRequest) =>
  call<ChatMember>({ method: 'PATCH', url: `/api/chat/${chatId}/member/`, data: body });

export const leaveChat = (chatId: number, permanent: boolean) =>
  succeeded({ method: 'DELETE', url: `/api/chat/${chatId}/member/`, params: { permanent } });

export const addMember = (chatId: number, body: ChatMemberAddRequest) =>
  call<ManageChatMember>({ method: 'POST', url: `/api/chat/${chatId}/members/`, data: body });

export const changeMemberRole = (chatId: number, memberId: number, chatRole: ChatRole) =>
  call<ManageChatMember>({ method: 'PATCH', url: `/api/chat/${chatId}/members/${memberId}/`, data: { chatRole } });

export const removeMember = (chatId: number, memberId: number, permanent: boolean) =>
  succeeded({ method: 'DELETE', url: `/api/chat/${chatId}/members/${memberId}/`, params: { permanent } });

export const removeMembers = (chatId: number, ids: number[], permanent: boolean) =>
  succeeded({ method: 'POST', url: `/api/chat/${chatId}/members/multi_delete/`, data: { ids, permanent } });

export const editMessage = (chatId: number, messageId: number, content: string) =>
  call<ChatMessage>({ method: 'PATCH', url: `/api/chat/${chatId}/messages/${messageId}/`, data: { content } });

export const deleteMessage = (chatId: number, messageId: number) =>
  succeeded({ method: 'DELETE', url: `/api/chat/${chatId}/messages/${messageId}/` });
