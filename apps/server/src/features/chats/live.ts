// Live pushes of chats, on the shared audience (domain/delivery/audience.ts): a message event is rendered once
// per (language, tone) reading group, and once for its sender (isMe). What is the chat's own:
// typing, the chat as each member sees it, read receipts (to the readers who share theirs, in
// batches: AWARENESS_BATCH) and presence (batched alike).
import type { ChatRole, MemberState } from '@parla/contract/constants';
import type { GroupChat } from '@parla/contract/chat';
import { chatRefSchema, TYPING_HOLD_MS, type PinEvent } from '@parla/contract/live';
import { AWARENESS_BATCH } from '@parla/contract/constants';
import type { MemberPresence, ReadReceipt } from '@parla/contract/chat';
import type { PrivacySettings } from '../../domain/people/privacy';
import { createAudience } from '../../domain/delivery/audience';
import type { LiveSocket, Realtime } from '../../platform/realtime';
import type { Reactions } from '@parla/contract/chat';
import { readContext, type MessageContext, type MessagePresenter } from './rendering';
import type { ChatsRepository, MessageWithSender, QuoteRow, RenderingRow } from './repository';
import { groupKey, readerGroup, sameText, type ReaderGroup } from '../../domain/rendering/reader-group';

/** The quoted message of a reply with every rendering of it: each group's view quotes its own. */
type QuoteForGroups = { quote: Omit<QuoteRow, 'rendering'>; renderings: readonly RenderingRow[] };

type MessageEventName = 'message:created' | 'message:edited' | 'message:rendered';

/** The channel of a chat's subscribers who share their read receipts (and so see the others'). */
const RECEIPTS_CHANNEL = 'receipts';

export function createChatsLive(realtime: Realtime, repo: ChatsRepository, presenter: MessagePresenter, publicUrl: string, privacy: PrivacySettings) {
  const audience = createAudience<ReaderGroup>(realtime, {
    kind: 'chat',
    groupKey,
    async membership(chatId, userId) {
      const found = await repo.findMembership(chatId, userId);
      // Someone only invited gets nothing of the chat until they accept.
      if (!found?.member.joinedAt) return null;
      const { member } = found;
      const shares = (await privacy.get(userId))?.readReceipts ?? false;
      return { group: readerGroup(member), memberId: member.id, name: member.nickName, channels: shares ? [RECEIPTS_CHANNEL] : [] };
    },
    parseRef: (payload) => {
      const parsed = chatRefSchema.safeParse(payload);
      return parsed.success ? parsed.data.chatId : null;
    },
  });

  /** Who each local socket is in the chats it subscribed to, and when it last said it was typing. */
  const typists = new WeakMap<LiveSocket, Map<number, { memberId: number; nickName: string; lastTypingAt: number }>>();
  audience.onSubscribe((socket, chatId, subscriber) => {
    let chats = typists.get(socket);
    if (!chats) typists.set(socket, (chats = new Map()));
    chats.set(chatId, { memberId: subscriber.memberId, nickName: subscriber.name, lastTypingAt: 0 });
  });
  realtime.onConnection((socket) => {
    socket.on('chat:typing', (payload) => {
      const parsed = chatRefSchema.safeParse(payload);
      if (!parsed.success) return;
      const { chatId } = parsed.data;
      const typist = typists.get(socket)?.get(chatId);
      // Only a socket still subscribed (not removed since) may say it is typing.
      if (!typist || !audience.isSubscribed(socket, chatId)) return;
      const now = Date.now();
      if (now - typist.lastTypingAt < TYPING_HOLD_MS / 4) return;
      typist.lastTypingAt = now;
      audience.toSubscribersExcept(socket, chatId, 'typing', { chatId, member: { id: typist.memberId, nickName: typist.nickName } });
    });
  });

  /**
   * A message event from the rows at hand: once per reading group (a reader's rendering picked from
   * `renderings`) and once for its sender (isMe) when `senderToo`: a sender who left, or whose
   * group a rendering does not concern, is in none of the groups' rooms either.
   */
  function send(
    event: MessageEventName,
    chatId: number,
    item: Omit<MessageWithSender, 'rendering' | 'quote'>,
    renderings: readonly RenderingRow[],
    groups: readonly ReaderGroup[],
    senderToo: boolean,
    context: MessageContext | undefined,
    quoted: QuoteForGroups | undefined,
  ) {
    const { message, sender } = item;
    const renderingOf = (group: ReaderGroup) => renderings.find((r) => sameText(r, group)) ?? null;
    const quoteOf = (group: ReaderGroup): QuoteRow | null => (quoted ? { ...quoted.quote, rendering: quoted.renderings.find((r) => sameText(r, group)) ?? null } : null);
    const view = (group: ReaderGroup, memberId: number) =>
      presenter.present({ message, sender, rendering: renderingOf(group), quote: quoteOf(group) }, { ...group, memberId }, context);
    const own = sender.leftAt === null && senderToo ? [{ language: sender.language, tone: sender.tone }] : [];
    audience.fanOut(
      event,
      chatId,
      groups,
      (group) => ({ chatId, message: view(group, 0) }),
      own.map((group) => ({ userId: sender.userId, payload: { chatId, message: view(group, sender.id) } })),
      // Not rendered for the group and no quote (both are the reader's): the view is the original
      // with the group's translation state, the same for every group in that state.
      (_, payload) => (payload.message.translation !== 'done' && payload.message.replyTo === null ? payload.message.translation : undefined),
    );
  }

  /**
   * Receipts and presence are sent at once when none of their kind went out lately in the chat,
   * else gathered until the chat's window ends (AWARENESS_BATCH: longer for larger chats), each
   * member's latest only: what a chat's readers receive of them stays bounded however many change.
   */
  function batcher<T extends { memberId: number }>(flush: (chatId: number, items: T[]) => void) {
    const windows = new Map<number, Map<number, T>>();
    const open = (chatId: number) => {
      windows.set(chatId, new Map());
      void repo
        .joinedCount(chatId)
        .catch(() => 0)
        .then((members) => {
          setTimeout(() => {
            const gathered = windows.get(chatId);
            windows.delete(chatId);
            if (!gathered?.size) return;
            flush(chatId, [...gathered.values()]);
            open(chatId);
          }, AWARENESS_BATCH.batchMs * Math.max(1, Math.ceil(members / AWARENESS_BATCH.membersPerBatch))).unref();
        });
    };
    return (chatId: number, item: T) => {
      const gathering = windows.get(chatId);
      if (gathering) {
        gathering.set(item.memberId, item);
        return;
      }
      flush(chatId, [item]);
      open(chatId);
    };
  }
  const receipt = batcher<ReadReceipt>((chatId, receipts) => audience.toChannel(chatId, RECEIPTS_CHANNEL, 'receipts', { chatId, receipts }));
  const presence = batcher<MemberPresence>((chatId, items) => audience.announce(chatId, 'presence', { chatId, presence: items }));

  return {
    /** A member who shares receipts read further. */
    receipt,

    /** A person now shares their receipts (and sees the others'), or no longer does: their open chats follow. */
    receiptsShared: (userId: number, on: boolean) => audience.setChannel(userId, RECEIPTS_CHANNEL, on),

    /** A member's presence changed: told to the chat's subscribers. */
    presence,

    /** The reader read up to a message: every tab and device of theirs hears it (their unread counts). */
    read(userId: number, chatId: number, lastReadMessage: number | null) {
      audience.toUsers('chat:read', [{ userId, payload: { chatId, lastReadMessage } }]);
    },

    /**
     * A message event for every reader: rendered once per reading group (or for the groups
     * given: a rendering that became ready concerns those only), and once for its sender.
     */
    async message(event: MessageEventName, chatId: number, messageId: number, only?: ReaderGroup[]) {
      const groups = only ?? (await repo.readingGroups(chatId));
      const found = await repo.messageForGroups(messageId);
      if (!found) return;
      const quoted = found.message.replyToId ? await repo.quoteForGroups(found.message.replyToId) : undefined;
      const context = await readContext(repo, publicUrl, chatId, [{ message: found.message, quote: quoted ? { ...quoted.quote, rendering: null } : null }], found.renderings);
      const senderGroup = { language: found.sender.language, tone: found.sender.tone };
      send(event, chatId, found, found.renderings, groups, !only || only.some((group) => sameText(group, senderGroup)), context, quoted);
    },

    /** A new message, from the rows the post already has (nothing is rendered yet). */
    created(chatId: number, item: MessageWithSender, groups: ReaderGroup[], context?: MessageContext, quoted?: QuoteForGroups) {
      send('message:created', chatId, item, [], groups, true, context, quoted);
    },

    /** A message's reactions changed: the same list for everyone. */
    reactions(chatId: number, reactions: Reactions) {
      audience.announce(chatId, 'message:reactions', { chatId, ...reactions });
    },

    pinned(chatId: number, messageId: number, pinned: PinEvent['pinned']) {
      audience.announce(chatId, 'message:pinned', { chatId, messageId, pinned });
    },

    messageDeleted(chatId: number, messageId: number) {
      audience.announce(chatId, 'message:deleted', { chatId, messageId });
    },

    messagesDeleted(chatId: number, messageIds: number[]) {
      if (messageIds.length) audience.announce(chatId, 'messages:deleted', { chatId, messageIds });
    },

    /** The chat as each member sees it (their role and state differ). */
    /** The chat as each of these sees it: one only invited gets its title and languages, not its description (issue 31). */
    chatUpdated(chat: Omit<GroupChat, 'chatRole' | 'memberState' | 'muted' | 'invitedBy'>, members: { userId: number; chatRole: number; memberState: MemberState; muted: boolean; invitedBy: string | null }[]) {
      audience.toUsers(
        'chat:updated',
        members.map((member) => ({
          userId: member.userId,
          payload: {
            chat: {
              ...chat,
              description: member.memberState === 'invited' ? null : chat.description,
              chatRole: member.chatRole as ChatRole,
              memberState: member.memberState,
              muted: member.muted,
              invitedBy: member.memberState === 'invited' ? member.invitedBy : null,
            },
          },
        })),
      );
    },

    /** These users no longer see the chat: told so, and out of its rooms at once. */
    removed: (chatId: number, userIds: number[]) => audience.cutOff(chatId, userIds, 'chat:removed', { chatId }),

    /** A member now reads in another language or tone: their sockets change group. */
    regrouped: (userId: number, chatId: number, group: ReaderGroup) => audience.regroup(userId, chatId, group),

    membersChanged(chatId: number) {
      audience.announce(chatId, 'members:changed', { chatId });
    },
  };
}

export type ChatsLive = ReturnType<typeof createChatsLive>;
