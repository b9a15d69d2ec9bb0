// Live pushes of chats. A subscribed socket is in the chat's room (chat-wide events: typing,
// deletions, member changes) and in its reading group's room: a message event is rendered once
// per (language, tone) group and sent to that group, so the work grows with the groups, not the
// members. The sender's own sockets get their own view (isMe). Membership is checked on every
// subscribe and enforced at once on removal, leaving and regrouping.
import type { ChatRole, MemberState } from '@parla/contract/constants';
import type { GroupChat } from '@parla/contract/chat';
import { chatRefSchema, TYPING_HOLD_MS } from '@parla/contract/live';
import { userRoom, type LiveSocket, type Realtime } from '../../core/realtime';
import type { MessagePresenter } from './rendering';
import type { ChatsRepository, MessageWithSender, ReadingGroup } from './repository';

export const chatRoom = (chatId: number) => `chat:${chatId}`;
export const groupRoom = (chatId: number, group: ReadingGroup) => `chat:${chatId}:${group.language}:${group.tone}`;
const isRoomOf = (chatId: number, room: string) => room === chatRoom(chatId) || room.startsWith(`${chatRoom(chatId)}:`);

type MessageEventName = 'message:created' | 'message:edited' | 'message:rendered';

interface Subscription {
  memberId: number;
  nickName: string;
  lastTypingAt: number;
}

export function createChatsLive(realtime: Realtime, repo: ChatsRepository, presenter: MessagePresenter) {
  const { io } = realtime;
  /** What each local socket subscribed to (for typing: who is writing). */
  const subscriptions = new WeakMap<LiveSocket, Map<number, Subscription>>();

  realtime.onConnection((socket) => {
    subscriptions.set(socket, new Map());

    socket.on('chat:subscribe', (payload, ack) => {
      const answer = typeof ack === 'function' ? ack : () => undefined;
      const parsed = chatRefSchema.safeParse(payload);
      if (!parsed.success) return answer({ ok: false, error: 'invalid' });
      const { chatId } = parsed.data;
      repo
        .findMembership(chatId, socket.data.userId)
        .then(async (found) => {
          // Someone only invited gets nothing of the chat until they accept.
          if (!found?.member.joinedAt) return answer({ ok: false, error: 'not_found' });
          const { member } = found;
          for (const room of socket.rooms) if (isRoomOf(chatId, room)) await socket.leave(room);
          await socket.join([chatRoom(chatId), groupRoom(chatId, member)]);
          subscriptions.get(socket)?.set(chatId, { memberId: member.id, nickName: member.nickName, lastTypingAt: 0 });
          answer({ ok: true });
        })
        .catch(() => answer({ ok: false, error: 'not_found' }));
    });

    socket.on('chat:unsubscribe', (payload) => {
      const parsed = chatRefSchema.safeParse(payload);
      if (!parsed.success) return;
      subscriptions.get(socket)?.delete(parsed.data.chatId);
      for (const room of socket.rooms) if (isRoomOf(parsed.data.chatId, room)) void socket.leave(room);
    });

    socket.on('chat:typing', (payload) => {
      const parsed = chatRefSchema.safeParse(payload);
      if (!parsed.success) return;
      const { chatId } = parsed.data;
      const subscription = subscriptions.get(socket)?.get(chatId);
      // Only a socket still in the chat's room (not removed since) may say it is typing.
      if (!subscription || !socket.rooms.has(chatRoom(chatId))) return;
      const now = Date.now();
      if (now - subscription.lastTypingAt < TYPING_HOLD_MS / 4) return;
      subscription.lastTypingAt = now;
      socket.to(chatRoom(chatId)).except(userRoom(socket.data.userId)).emit('typing', {
        chatId,
        member: { id: subscription.memberId, nickName: subscription.nickName },
      });
    });
  });

  /** Moves a user's subscribed sockets of a chat: out of every room of it, and into `rooms`. */
  async function moveSockets(userId: number, chatId: number, rooms: string[]) {
    const sockets = await io.in(userRoom(userId)).fetchSockets();
    for (const socket of sockets) {
      if (!socket.rooms.has(chatRoom(chatId))) continue;
      for (const room of socket.rooms) if (isRoomOf(chatId, room)) socket.leave(room);
      if (rooms.length) socket.join(rooms);
    }
  }

  return {
    /**
     * A message event for every reader: rendered once per reading group (or for the groups
     * given: a rendering that became ready concerns those only), and once for its sender.
     */
    async message(event: MessageEventName, chatId: number, messageId: number, only?: ReadingGroup[]) {
      const groups = only ?? (await repo.readingGroups(chatId));
      const found = await repo.messageForGroups(messageId);
      if (!found) return;
      const { message, sender, renderings } = found;
      const renderingOf = (group: ReadingGroup) => renderings.find((r) => r.language === group.language && r.tone === group.tone) ?? null;
      for (const group of groups) {
        const view = presenter.present({ message, sender, rendering: renderingOf(group) }, { ...group, memberId: 0 });
        io.to(groupRoom(chatId, group)).except(userRoom(sender.userId)).emit(event, { chatId, message: view });
      }
      const senderGroup = { language: sender.language, tone: sender.tone };
      if (sender.leftAt === null && (!only || only.some((g) => g.language === senderGroup.language && g.tone === senderGroup.tone))) {
        const own = presenter.present({ message, sender, rendering: renderingOf(senderGroup) }, { ...senderGroup, memberId: sender.id });
        io.to(userRoom(sender.userId)).emit(event, { chatId, message: own });
      }
    },

    /** A new message, from the rows the post already has (nothing is rendered yet). */
    created(chatId: number, item: MessageWithSender, groups: ReadingGroup[]) {
      const { sender } = item;
      for (const group of groups) {
        io.to(groupRoom(chatId, group)).except(userRoom(sender.userId)).emit('message:created', { chatId, message: presenter.present(item, { ...group, memberId: 0 }) });
      }
      const own = presenter.present(item, { language: sender.language, tone: sender.tone, memberId: sender.id });
      io.to(userRoom(sender.userId)).emit('message:created', { chatId, message: own });
    },

    messageDeleted(chatId: number, messageId: number) {
      io.to(chatRoom(chatId)).emit('message:deleted', { chatId, messageId });
    },

    messagesDeleted(chatId: number, messageIds: number[]) {
      if (messageIds.length) io.to(chatRoom(chatId)).emit('messages:deleted', { chatId, messageIds });
    },

    /** The chat as each member sees it (their role and state differ). */
    chatUpdated(chat: Omit<GroupChat, 'chatRole' | 'memberState'>, members: { userId: number; chatRole: number; memberState: MemberState }[]) {
      for (const member of members) {
        io.to(userRoom(member.userId)).emit('chat:updated', { chat: { ...chat, chatRole: member.chatRole as ChatRole, memberState: member.memberState } });
      }
    },

    /** These users no longer see the chat: told so, and out of its rooms at once. */
    async removed(chatId: number, userIds: number[]) {
      for (const userId of userIds) {
        io.to(userRoom(userId)).emit('chat:removed', { chatId });
        await moveSockets(userId, chatId, []);
      }
    },

    /** A member now reads in another language or tone: their sockets change group. */
    async regrouped(userId: number, chatId: number, group: ReadingGroup) {
      await moveSockets(userId, chatId, [chatRoom(chatId), groupRoom(chatId, group)]);
    },

    membersChanged(chatId: number) {
      io.to(chatRoom(chatId)).emit('members:changed', { chatId });
    },

  };
}

export type ChatsLive = ReturnType<typeof createChatsLive>;
