// Data access of what members see of each other beyond messages: how far each read (receipts) and
// who is a member where (presence goes to every chat a person is in).
import { and, asc, count, eq, isNotNull, ne } from 'drizzle-orm';
import type { Db } from '../../platform/db/index';
import { chatMembers, users } from '../../platform/db/schema';
import { joined } from './repository-shared';

export function createAwarenessRepository(db: Db) {
  return {
    /** The chat's other joined members who share receipts and have read something, in member order. */
    async receipts(chatId: number, exceptMemberId: number) {
      return db
        .select({ memberId: chatMembers.id, nickName: chatMembers.nickName, lastReadMessage: chatMembers.lastReadMessage, readAt: chatMembers.lastReadAt })
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(and(eq(chatMembers.chatId, chatId), joined, ne(chatMembers.id, exceptMemberId), isNotNull(chatMembers.lastReadMessage), eq(users.readReceipts, true)))
        .orderBy(asc(chatMembers.id));
    },

    /** Every joined member with what presence needs of their account. */
    async presenceSubjects(chatId: number) {
      return db
        .select({ memberId: chatMembers.id, userId: chatMembers.userId, showPresence: users.showPresence, lastSeenAt: users.lastSeenAt })
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(and(eq(chatMembers.chatId, chatId), joined))
        .orderBy(asc(chatMembers.id));
    },

    /** The chats a person is a joined member of, with their membership there. */
    async membershipsOf(userId: number) {
      return db.select({ chatId: chatMembers.chatId, memberId: chatMembers.id }).from(chatMembers).where(and(eq(chatMembers.userId, userId), joined));
    },

    async joinedCount(chatId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(chatMembers).where(and(eq(chatMembers.chatId, chatId), joined));
      return row?.n ?? 0;
    },

  };
}
