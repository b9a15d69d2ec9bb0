// Data access of a user's chats: a chat created with its owner, the chat list with unread counts,
// invitations and their acceptance, and a chat's own settings.
import { and, desc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/index';
import { chatMembers, chatMessages, chats, messageMentions, messageRenderings, users } from '../../platform/db/schema';
import { active, joined, nowMs, type ChatRow, type MemberRow, type MemberView, type MessageRow, type MessageWithSender } from './repository-shared';

/** The message (chat_messages) mentions the member (chat_members): for unread mention counts. */
const mentionsMember = sql`exists (select 1 from ${messageMentions} where ${messageMentions.messageId} = ${chatMessages.id} and ${messageMentions.memberId} = ${chatMembers.id})`;

export function createUserChatsRepository(db: Db) {
  return {
    async createWithOwner(
      chat: { title: string; description: string | null; languages: string[] },
      owner: { userId: number; chatRole: number; nickName: string; language: string },
    ): Promise<{ chat: ChatRow; member: MemberRow }> {
      return db.transaction(async (tx) => {
        const now = nowMs();
        const [created] = await tx.insert(chats).values({ ...chat, createdAt: now, modifiedAt: now }).returning();
        if (!created) throw new Error('chat insert returned nothing');
        const [member] = await tx.insert(chatMembers).values({ ...owner, chatId: created.id }).returning();
        if (!member) throw new Error('member insert returned nothing');
        return { chat: created, member };
      });
    },

    /** Messages others wrote after the user's last read one, over every chat they joined, and the chats holding them. */
    async unreadSummary(userId: number): Promise<{ messages: number; chats: number; mentions: number }> {
      const rows = await db
        .select({ chatId: chatMembers.chatId, unread: sql<number>`count(*)::int`, mentions: sql<number>`count(*) filter (where ${mentionsMember})::int` })
        .from(chatMembers)
        .innerJoin(
          chatMessages,
          and(
            eq(chatMessages.chatId, chatMembers.chatId),
            gt(chatMessages.id, sql`coalesce(${chatMembers.lastReadMessage}, 0)`),
            ne(chatMessages.senderId, chatMembers.id),
          ),
        )
        .where(and(eq(chatMembers.userId, userId), joined))
        .groupBy(chatMembers.chatId);
      return {
        messages: rows.reduce((sum, row) => sum + Number(row.unread), 0),
        chats: rows.length,
        mentions: rows.reduce((sum, row) => sum + Number(row.mentions), 0),
      };
    },

    /**
     * The user's chats, most recent activity first, modified before `before`: each with the
     * member's row, the newest message (its sender and its rendering for the member's reading
     * group) and how many messages others wrote after the member's last read one.
     */
    async listForUser(userId: number, before: { modified: Date; id?: number | undefined } | undefined, limit: number) {
      const last = db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.chatId, chats.id))
        .orderBy(desc(chatMessages.id))
        .limit(1)
        .as('last_message');
      const lastSender = alias(chatMembers, 'last_sender');
      const lastSenderUser = alias(users, 'last_sender_user');
      const unread = sql<number>`(select count(*)::int from ${chatMessages} where ${chatMessages.chatId} = ${chats.id}
        and ${chatMessages.id} > coalesce(${chatMembers.lastReadMessage}, 0) and ${chatMessages.senderId} <> ${chatMembers.id})`;
      const unreadMentions = sql<number>`(select count(*)::int from ${chatMessages} where ${chatMessages.chatId} = ${chats.id}
        and ${chatMessages.id} > coalesce(${chatMembers.lastReadMessage}, 0) and ${chatMessages.senderId} <> ${chatMembers.id} and ${mentionsMember})`;
      const rows = await db
        .select({
          chat: chats,
          member: chatMembers,
          unreadCount: unread,
          unreadMentions,
          message: {
            id: last.id,
            chatId: last.chatId,
            senderId: last.senderId,
            language: last.language,
            content: last.content,
            clientId: last.clientId,
            version: last.version,
            createdAt: last.createdAt,
            editedAt: last.editedAt,
            replyToId: last.replyToId,
          },
          sender: lastSender,
          senderUser: { email: lastSenderUser.email, fullName: lastSenderUser.fullName, avatarKey: lastSenderUser.avatarKey },
          rendering: messageRenderings,
        })
        .from(chatMembers)
        .innerJoin(chats, eq(chats.id, chatMembers.chatId))
        .leftJoinLateral(last, sql`true`)
        .leftJoin(lastSender, eq(lastSender.id, last.senderId))
        .leftJoin(lastSenderUser, eq(lastSenderUser.id, lastSender.userId))
        .leftJoin(
          messageRenderings,
          and(
            eq(messageRenderings.messageId, last.id),
            eq(messageRenderings.language, chatMembers.language),
            eq(messageRenderings.tone, chatMembers.tone),
            eq(messageRenderings.version, last.version),
          ),
        )
        .where(
          and(
            eq(chatMembers.userId, userId),
            joined,
            before
              ? before.id
                ? or(lt(chats.modifiedAt, before.modified), and(eq(chats.modifiedAt, before.modified), lt(chats.id, before.id)))
                : lt(chats.modifiedAt, before.modified)
              : undefined,
          ),
        )
        .orderBy(desc(chats.modifiedAt), desc(chats.id))
        .limit(limit);
      return rows.map((row) => ({
        chat: row.chat,
        member: row.member,
        unreadCount: row.unreadCount,
        unreadMentions: row.unreadMentions,
        last:
          row.message?.id != null && row.sender && row.senderUser
            ? ({ message: row.message as MessageRow, sender: { ...row.sender, ...row.senderUser } as MemberView, rendering: row.rendering } satisfies MessageWithSender)
            : null,
      }));
    },

    /** The user's pending invitations, newest first, with their chats. */
    async invitationsFor(userId: number, limit: number): Promise<{ chat: ChatRow; member: MemberRow }[]> {
      return db
        .select({ chat: chats, member: chatMembers })
        .from(chatMembers)
        .innerJoin(chats, eq(chats.id, chatMembers.chatId))
        .where(and(eq(chatMembers.userId, userId), active, isNull(chatMembers.joinedAt)))
        .orderBy(desc(chatMembers.createdAt), desc(chatMembers.id))
        .limit(limit);
    },

    /** The invited member accepts: joined now, shown and reading as `values` say; undefined when not invited. */
    async acceptInvitation(memberId: number, values: Pick<MemberRow, 'nickName' | 'language'>): Promise<MemberRow | undefined> {
      const [row] = await db
        .update(chatMembers)
        .set({ ...values, joinedAt: new Date() })
        .where(and(eq(chatMembers.id, memberId), active, isNull(chatMembers.joinedAt)))
        .returning();
      return row;
    },

    async updateChat(chatId: number, values: Partial<Pick<ChatRow, 'title' | 'description' | 'languages'>>): Promise<ChatRow | undefined> {
      const [row] = await db.update(chats).set(values).where(eq(chats.id, chatId)).returning();
      return row;
    },

    async deleteChat(chatId: number) {
      await db.delete(chats).where(eq(chats.id, chatId));
    },
  };
}
