// Builders of chat API bodies for the chat tests.
import type { ChatListItem, ChatMessage } from '@parla/contract/chat';
import { CHAT_ROLE } from '@parla/contract/constants';

const base = Date.parse('2026-11-20T10:00:00Z');
export const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();

export function message(id: number, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    created: at(id),
    isMe: false,
    language: 'en',
    rawMessage: null,
    sender: { id: 7, nickName: 'Ana', language: 'es', chatRole: CHAT_ROLE.MEMBER, tone: 'DEFAULT', avatarImage: null },
    tone: 'DEFAULT',
    content: `message ${id}`,
    translation: 'done',
    edited: false,
    mentions: [],
    replyTo: null,
    reactions: [],
    attachments: [],
    correction: null,
    missedTerms: [],
    pinned: null,
    ...overrides,
  };
}

export function chat(id: number, overrides: Partial<ChatListItem> = {}): ChatListItem {
  return {
    id,
    title: `Chat ${id}`,
    description: null,
    invitedBy: null,
    languages: ['en', 'es'],
    created: at(0),
    modified: at(id),
    chatRole: CHAT_ROLE.MEMBER,
    memberState: 'joined',
    muted: false,
    lastMessage: null,
    unreadCount: 0,
    unreadMentions: 0,
    ...overrides,
  };
}
