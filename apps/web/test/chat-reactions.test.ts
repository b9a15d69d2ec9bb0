// Reactions and pins in the cached pages, unread mentions in the list, and the walk back to a quoted message.
import { describe, expect, it, vi } from 'vitest';
import type { Reaction } from '@parla/contract/chat';
import {
  applyNewMessage,
  chatsOf,
  isLoaded,
  loadUntil,
  markRead,
  messagesOf,
  setPinned,
  setReactions,
  setUnread,
  withoutReaction,
  type ChatListPages,
  type MessagePages,
} from '../src/features/chats/timeline';
import { chat, message } from './chat-fixtures';

const page = (ids: number[], next: boolean) => ({ next: next ? 'http://x/?toId=1' : null, previous: null, results: ids.map((id) => message(id)) });
const pages = (...list: ReturnType<typeof page>[]): MessagePages => ({ pages: list, pageParams: list.map(() => undefined) });
const list = (...chats: ReturnType<typeof chat>[]): ChatListPages => ({ pages: [{ next: null, previous: null, results: chats }], pageParams: [undefined] });

const thumbs: Reaction = { emoji: '👍', members: [{ id: 1, nickName: 'Ada' }, { id: 2, nickName: 'Ben' }] };
const heart: Reaction = { emoji: '❤️', members: [{ id: 2, nickName: 'Ben' }] };

describe('a pin in the cache', () => {
  it('is set on its message and taken off again, other pages untouched', () => {
    const data = pages(page([3, 2], true), page([1], false));
    const pin = { by: { id: 4, nickName: 'Ana' }, at: '2026-12-03T10:00:00Z' };
    const pinned = setPinned(data, 2, pin);
    expect(messagesOf(pinned).find((item) => item.id === 2)?.pinned).toEqual(pin);
    expect(pinned?.pages[1]).toBe(data.pages[1]);
    expect(messagesOf(setPinned(pinned, 2, null)).find((item) => item.id === 2)?.pinned).toBeNull();
    expect(setPinned(data, 99, pin)).toBe(data);
  });
});

describe('reactions in the cache', () => {
  it('replace the message’s own, leaving the others and unchanged data as they were', () => {
    const data = pages(page([3, 2], true), page([1], false));
    const changed = setReactions(data, 1, [thumbs]);
    expect(messagesOf(changed).find((item) => item.id === 1)?.reactions).toEqual([thumbs]);
    expect(changed?.pages[0]).toBe(data.pages[0]);
    expect(setReactions(data, 99, [thumbs])).toBe(data);
    expect(setReactions(undefined, 1, [thumbs])).toBeUndefined();
  });

  it('lose the reader’s one taken back, and an emoji nobody gives any more', () => {
    expect(withoutReaction([thumbs, heart], '👍', 1)).toEqual([{ emoji: '👍', members: [{ id: 2, nickName: 'Ben' }] }, heart]);
    expect(withoutReaction([thumbs, heart], '❤️', 2)).toEqual([thumbs]);
    expect(withoutReaction([thumbs], '🎉', 1)).toEqual([thumbs]);
  });
});

describe('unread mentions in the list', () => {
  it('count a new message of someone else that mentions the reader, and go when read', () => {
    const data = list(chat(5, { unreadCount: 1, unreadMentions: 0, lastMessage: message(10) }));
    const mentioned = applyNewMessage(data, 5, message(11, { content: 'hi <@3>' }), false, true);
    expect(chatsOf(mentioned)[0]).toMatchObject({ unreadCount: 2, unreadMentions: 1 });
    // Being read, or one's own: nothing new.
    expect(chatsOf(applyNewMessage(data, 5, message(11), true, true))[0]).toMatchObject({ unreadCount: 1, unreadMentions: 0 });
    expect(chatsOf(applyNewMessage(data, 5, message(11), false, false))[0]).toMatchObject({ unreadCount: 2, unreadMentions: 0 });
    expect(chatsOf(setUnread(mentioned, 5, 0))[0]).toMatchObject({ unreadCount: 0, unreadMentions: 0 });
    expect(chatsOf(markRead(mentioned, 5, 11) ?? undefined)[0]).toMatchObject({ unreadCount: 0, unreadMentions: 0 });
  });
});

describe('going to a quoted message', () => {
  it('loads older pages until it is there', async () => {
    let data = pages(page([9, 8], true));
    const more = [page([7, 6], true), page([5, 4], true), page([3], false)];
    const fetchOlder = vi.fn(async () => {
      data = { ...data, pages: [...data.pages, more.shift()!] };
      return { data, hasNextPage: data.pages.at(-1)!.next !== null };
    });
    expect(await loadUntil(5, { data, hasNextPage: true }, fetchOlder)).toBe(true);
    expect(fetchOlder).toHaveBeenCalledTimes(2);
    expect(isLoaded(data, 5)).toBe(true);
  });

  it('asks for nothing when it is loaded already', async () => {
    const fetchOlder = vi.fn();
    expect(await loadUntil(8, { data: pages(page([9, 8], true)), hasNextPage: true }, fetchOlder)).toBe(true);
    expect(fetchOlder).not.toHaveBeenCalled();
  });

  it('gives up when no page is left (deleted), a page fails, or after the bound', async () => {
    let data = pages(page([9, 8], true));
    const last = async () => {
      data = { ...data, pages: [...data.pages, page([2, 1], false)] };
      return { data, hasNextPage: false };
    };
    expect(await loadUntil(5, { data, hasNextPage: true }, last)).toBe(false);
    expect(await loadUntil(5, { data, hasNextPage: true }, async () => ({ data, hasNextPage: true, isError: true }))).toBe(false);
    const endless = vi.fn(async () => ({ data, hasNextPage: true }));
    expect(await loadUntil(5, { data, hasNextPage: true }, endless, 3)).toBe(false);
    expect(endless).toHaveBeenCalledTimes(3);
  });
});
