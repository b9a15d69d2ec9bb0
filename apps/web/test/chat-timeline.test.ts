import { describe, expect, it } from 'vitest';
import type { ChatListPage, ChatMessagesPage } from '@parla/contract/chat';
import { nextChatCursor, nextMessageCursor } from '../src/features/chats/api';
import type { OutboxEntry } from '../src/features/chats/outbox';
import {
  addChat,
  applyChangedMessage,
  applyChatUpdate,
  applyNewMessage,
  buildTimeline,
  chatsOf,
  isPreview,
  listedState,
  markJoined,
  messagesOf,
  removeChat,
  removeMessage,
  removeMessages,
  setUnread,
  upsertMessage,
  firstUnreadId,
  type ChatListPages,
  type MessagePages,
} from '../src/features/chats/timeline';
import { at, chat, message } from './chat-fixtures';

/** Pages as the API answers them: newest first, `next` while older ones exist. */
function pages(...ids: number[][]): MessagePages {
  return {
    pages: ids.map((page, index) => ({
      next: index < ids.length - 1 ? `http://x/api/chat/1/messages/?limit=3&toId=${Math.min(...page)}` : null,
      previous: null,
      results: page.map((id) => message(id)),
    })),
    pageParams: ids.map((_, index) => (index === 0 ? undefined : Math.min(...(ids[index - 1] ?? [])))),
  };
}
const ids = (data: MessagePages | undefined) => messagesOf(data).map((item) => item.id);

describe('message pages and live events', () => {
  it('shows every message once, oldest first, across pages that overlap', () => {
    const data = pages([9, 8, 7], [7, 6, 5]);
    expect(ids(data)).toEqual([5, 6, 7, 8, 9]);
  });

  it('adds a new message at the bottom and replaces a known one by id', () => {
    let data = upsertMessage(pages([9, 8, 7], [6, 5]), message(10, { translation: 'pending', content: 'hola' }));
    expect(ids(data)).toEqual([5, 6, 7, 8, 9, 10]);
    data = upsertMessage(data, message(10, { translation: 'done', content: 'hello' }));
    expect(ids(data)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(messagesOf(data).at(-1)).toMatchObject({ translation: 'done', content: 'hello' });
    // A repeated event changes nothing shown.
    expect(ids(upsertMessage(data, message(10)))).toEqual([5, 6, 7, 8, 9, 10]);
  });

  // Issue 37 (6): a reply's quote kept the old text after a correction until a reload.
  it('gives the replies quoting a message its new text as the reader reads it', () => {
    const quoted = message(8, { content: 'Después del standup comemos.', rawMessage: { id: 8, language: 'en', content: 'After the standup we eat.', created: at(8) } });
    const reply = message(9, { replyTo: { id: 8, sender: quoted.sender, language: quoted.language, content: 'Después del standup comemos.', translated: true } });
    const data = pages([9, 8]);
    data.pages[0]!.results = [reply, quoted];
    const corrected = upsertMessage(data, { ...quoted, content: 'Después de la reunión comemos.' });
    expect(messagesOf(corrected).find((item) => item.id === 9)?.replyTo).toMatchObject({ id: 8, content: 'Después de la reunión comemos.', translated: true });
    // Told again: the same timeline.
    const again = upsertMessage(corrected, { ...quoted, content: 'Después de la reunión comemos.' });
    expect(messagesOf(again)).toEqual(messagesOf(corrected));
  });

  it('keeps the newer view of a message when a late one arrives', () => {
    const rendered = message(10, { translation: 'done', content: 'hello', rawMessage: { id: 10, language: 'es', content: 'hola', created: at(10) } });
    const data = upsertMessage(pages([10, 9], [8]), rendered);
    // The post's answer (still pending, the original text) after the push of its translation.
    const late = upsertMessage(data, message(10, { translation: 'pending', content: 'hola' }));
    expect(late).toBe(data);
    expect(messagesOf(late).at(-1)).toMatchObject({ translation: 'done', content: 'hello' });
    // An edit is never late: a different text wins, pending or not.
    const edited = upsertMessage(data, message(10, { translation: 'pending', content: 'hola otra vez', edited: true }));
    expect(messagesOf(edited).at(-1)).toMatchObject({ translation: 'pending', content: 'hola otra vez', edited: true });
  });

  it('replaces an edited message in an older page where it is', () => {
    const data = upsertMessage(pages([9, 8, 7], [6, 5]), message(6, { content: 'fixed', edited: true }));
    expect(data?.pages[1]?.results.find((item) => item.id === 6)).toMatchObject({ content: 'fixed', edited: true });
    expect(data?.pages[0]?.results.map((item) => item.id)).toEqual([9, 8, 7]);
  });

  it('ignores a late event for a message older than the loaded pages while older pages remain', () => {
    const data = pages([9, 8, 7], [6, 5]);
    const partial: MessagePages = { ...data, pages: [{ ...data.pages[0]!, next: 'http://x/?toId=7' }], pageParams: [undefined] };
    expect(upsertMessage(partial, message(3))).toBe(partial);
    // With nothing older left to load it belongs at the top.
    expect(ids(upsertMessage(data, message(3)))).toEqual([3, 5, 6, 7, 8, 9]);
  });

  it('starts a page for the first message of an empty chat', () => {
    const empty: MessagePages = { pages: [{ next: null, previous: null, results: [] }], pageParams: [undefined] };
    expect(ids(upsertMessage(empty, message(1)))).toEqual([1]);
  });

  it('changes nothing without cached pages (the next fetch brings it)', () => {
    expect(upsertMessage(undefined, message(1))).toBeUndefined();
    expect(removeMessage(undefined, 1)).toBeUndefined();
  });

  it('removes the messages of a member removed for good, on every page, and keeps the pages when none is held', () => {
    const data = pages([9, 8, 7], [6, 5]);
    expect(ids(removeMessages(data, [8, 5, 42]))).toEqual([6, 7, 9]);
    expect(removeMessages(data, [42, 43])).toBe(data);
    expect(removeMessages(undefined, [1])).toBeUndefined();
  });

  it('removes a deleted message wherever it is', () => {
    const data = removeMessage(pages([9, 8, 7], [6, 5]), 6);
    expect(ids(data)).toEqual([5, 7, 8, 9]);
    const same = pages([2, 1]);
    expect(removeMessage(same, 99)).toBe(same);
  });
});

describe('the timeline with the outbox', () => {
  const entry = (clientId: string, content: string, state: OutboxEntry['state'], createdAt = Date.parse(at(20))): OutboxEntry => ({
    clientId,
    userId: 1,
    chatId: 1,
    content,
    createdAt,
    state,
    attempts: state === 'queued' ? 0 : 1,
    retryAt: 0,
  });

  it('puts unsent messages after the server’s, in the order they were written', () => {
    const timeline = buildTimeline(messagesOf(pages([2, 1])), [entry('b', 'second', 'queued', 2000), entry('a', 'first', 'failed', 1000)]);
    expect(timeline.map((item) => (item.kind === 'message' ? item.message.id : item.entry.clientId))).toEqual([1, 2, 'a', 'b']);
  });

  it('hides an entry being sent once its message arrived live before the POST answered', () => {
    const arrived = message(30, { isMe: true, content: 'Hola a todos', created: at(21) });
    const timeline = buildTimeline([message(1), arrived], [entry('x', 'Hola a todos ', 'sending')]);
    expect(timeline.map((item) => item.kind)).toEqual(['message', 'message']);
  });

  it('matches each message to one entry only, and only one’s own messages', () => {
    const mine = message(30, { isMe: true, content: 'ok', created: at(21) });
    const theirs = message(31, { isMe: false, content: 'ok', created: at(21) });
    const timeline = buildTimeline([mine, theirs], [entry('x', 'ok', 'sending'), entry('y', 'ok', 'sending', Date.parse(at(20)) + 1)]);
    expect(timeline.filter((item) => item.kind === 'outbox').map((item) => item.kind === 'outbox' && item.entry.clientId)).toEqual(['y']);
  });

  it('matches one’s own message by its original text when the reader sees a rendering', () => {
    const rendered = message(30, { isMe: true, content: 'Hello everyone', rawMessage: { id: 30, language: 'es', content: 'Hola a todos', created: at(21) }, created: at(21) });
    expect(buildTimeline([rendered], [entry('x', 'Hola a todos', 'sending')]).map((item) => item.kind)).toEqual(['message']);
  });

  it('keeps a queued entry even when an equal text exists (it was never sent)', () => {
    const old = message(30, { isMe: true, content: 'ok', created: at(21) });
    expect(buildTimeline([old], [entry('x', 'ok', 'queued')]).map((item) => item.kind)).toEqual(['message', 'outbox']);
  });
});

describe('the chat list and live events', () => {
  const list = (...pagesOfChats: ReturnType<typeof chat>[][]): ChatListPages => ({
    pages: pagesOfChats.map((results, index): ChatListPage => ({
      next: index < pagesOfChats.length - 1 ? `http://x/api/chat/?limit=2&lastModified=${encodeURIComponent(results.at(-1)!.modified)}` : null,
      previous: null,
      results,
    })),
    pageParams: pagesOfChats.map(() => undefined),
  });

  it('moves a chat with a new message to the top, with its preview and one more unread', () => {
    const data = list([chat(5), chat(4)], [chat(3), chat(2)]);
    const incoming = message(100, { created: at(60), content: 'hola' });
    const next = applyNewMessage(data, 2, incoming, false);
    const shown = chatsOf(next);
    expect(shown.map((item) => item.id)).toEqual([2, 5, 4, 3]);
    expect(shown[0]).toMatchObject({ lastMessage: { id: 100, content: 'hola' }, unreadCount: 1, modified: at(60) });
    // The pages keep their order, so the cursor of the next page does not move.
    expect(next?.pages[1]?.results.map((item) => item.id)).toEqual([3, 2]);
  });

  it('does not count one’s own messages, a repeated event or a chat being read', () => {
    const data = list([chat(5, { unreadCount: 2 })]);
    const own = applyNewMessage(data, 5, message(100, { isMe: true }), false);
    expect(chatsOf(own)[0]?.unreadCount).toBe(2);
    const once = applyNewMessage(data, 5, message(101), false);
    expect(chatsOf(applyNewMessage(once, 5, message(101), false))[0]?.unreadCount).toBe(3);
    expect(chatsOf(applyNewMessage(data, 5, message(102), true))[0]?.unreadCount).toBe(2);
  });

  it('keeps the newer preview when an older message event arrives late', () => {
    const data = list([chat(5, { lastMessage: message(200) })]);
    expect(chatsOf(applyNewMessage(data, 5, message(150), false))[0]?.lastMessage?.id).toBe(200);
  });

  it('updates the preview when the last message is translated or edited, not otherwise', () => {
    const data = list([chat(5, { lastMessage: message(200, { translation: 'pending' }) })]);
    expect(chatsOf(applyChangedMessage(data, 5, message(200, { content: 'done' })))[0]?.lastMessage?.content).toBe('done');
    expect(chatsOf(applyChangedMessage(data, 5, message(199, { content: 'older' })))[0]?.lastMessage?.id).toBe(200);
    expect(isPreview(data, 5, 200)).toBe(true);
    expect(isPreview(data, 5, 199)).toBe(false);
  });

  it('applies chat updates, read positions, removals and new chats', () => {
    const data = list([chat(5), chat(4)]);
    const { lastMessage: _last, unreadCount: _unread, ...plain } = chat(4, { title: 'Renamed' });
    expect(chatsOf(applyChatUpdate(data, plain)).find((item) => item.id === 4)?.title).toBe('Renamed');
    expect(chatsOf(setUnread(list([chat(5, { unreadCount: 4 })]), 5, 0))[0]?.unreadCount).toBe(0);
    expect(chatsOf(removeChat(data, 5)).map((item) => item.id)).toEqual([4]);
    expect(chatsOf(addChat(data, chat(9, { modified: at(90) }))).map((item) => item.id)).toEqual([9, 5, 4]);
  });

  it('shows each chat once even if it appears on two pages', () => {
    expect(chatsOf(list([chat(5), chat(4)], [chat(4), chat(3)])).map((item) => item.id)).toEqual([5, 4, 3]);
  });

  it('shows pending invitations first, then the chats by latest activity', () => {
    // The server's first page: invitations (older than some chats), then the chats joined.
    const data = list([chat(2, { memberState: 'invited' }), chat(1, { memberState: 'invited' }), chat(9), chat(7)]);
    expect(chatsOf(data).map((item) => item.id)).toEqual([2, 1, 9, 7]);
    // A new message elsewhere moves that chat up among the joined ones, never above an invitation.
    const moved = applyNewMessage(data, 7, message(100, { created: at(120) }), false);
    expect(chatsOf(moved).map((item) => item.id)).toEqual([2, 1, 7, 9]);
  });

  it('turns an accepted invitation into one of the reader’s chats, and tells what the list holds', () => {
    const data = list([chat(2, { memberState: 'invited' }), chat(9)]);
    expect(listedState(data, 2)).toBe('invited');
    expect(listedState(data, 9)).toBe('joined');
    expect(listedState(data, 3)).toBeUndefined();
    const accepted = markJoined(data, 2);
    expect(listedState(accepted, 2)).toBe('joined');
    expect(chatsOf(accepted).map((item) => item.id)).toEqual([9, 2]);
    // Nothing to change: the same pages.
    expect(markJoined(accepted, 2)).toEqual(accepted);
  });

  it('refetches the list only when a removed message was a preview (messages:deleted)', () => {
    const data = list([chat(5, { lastMessage: message(200) }), chat(4, { lastMessage: message(150) })]);
    expect(isPreview(data, 5, [190, 200])).toBe(true);
    expect(isPreview(data, 5, [150])).toBe(false);
    expect(isPreview(data, 4, [150, 151])).toBe(true);
  });
});

describe('cursors from the next links', () => {
  it('takes lastModified and toId from the next link, or from the page’s last item', () => {
    const chats: ChatListPage = { next: 'http://h/api/chat/?lastModified=2026-11-20T10%3A05%3A00.123Z&limit=20', previous: null, results: [chat(1)] };
    expect(nextChatCursor(chats)).toBe('2026-11-20T10:05:00.123Z');
    expect(nextChatCursor({ ...chats, next: '/api/chat/?limit=20' })).toBe(at(1));
    expect(nextChatCursor({ ...chats, next: null })).toBeUndefined();
    const messages: ChatMessagesPage = { next: '/api/chat/1/messages/?limit=30&toId=41', previous: null, results: [message(45), message(41)] };
    expect(nextMessageCursor(messages)).toBe(41);
    expect(nextMessageCursor({ ...messages, next: '/api/chat/1/messages/?limit=30' })).toBe(41);
    expect(nextMessageCursor({ ...messages, next: null })).toBeUndefined();
  });
});

describe('new since the last visit', () => {
  it('starts at the first message someone else wrote after the one read when the chat was opened', () => {
    const list = [message(5), message(6, { isMe: true }), message(7), message(8)];
    expect(firstUnreadId(list, 5)).toBe(7);
    expect(firstUnreadId(list, 8)).toBeUndefined();
    // A first visit: everything is new, no line.
    expect(firstUnreadId(list, null)).toBeUndefined();
  });
});
