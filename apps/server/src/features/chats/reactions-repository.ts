// Data access of reactions: the emoji members give messages, read with every page (prepared
// once), added and taken back.
import { and, asc, eq, sql } from 'drizzle-orm';
import { withFastRows } from '../../platform/db/fast-rows';
import type { Db } from '../../platform/db/index';
import { chatMembers, messageReactions } from '../../platform/db/schema';

/** A reaction as stored, with the reacting member's nickname. */
export interface ReactionRow {
  messageId: number;
  emoji: string;
  memberId: number;
  nickName: string;
}

export function createReactionsRepository(db: Db) {
  const reactionsQuery = db
    .select({ messageId: messageReactions.messageId, emoji: messageReactions.emoji, memberId: messageReactions.memberId, nickName: chatMembers.nickName })
    .from(messageReactions)
    .innerJoin(chatMembers, eq(chatMembers.id, messageReactions.memberId))
    .where(sql`${messageReactions.messageId} = any(${sql.placeholder('ids')}::int[])`)
    .orderBy(asc(messageReactions.createdAt), asc(messageReactions.memberId))
    .prepare('chat_reactions');
  // Read with every page: its rows mapped by a plan made once.
  withFastRows(reactionsQuery);

  return {
    /** The reactions to these messages, oldest first, with the reacting members' nicknames (read with every page: prepared once). */
    async reactionsFor(messageIds: number[]): Promise<ReactionRow[]> {
      if (messageIds.length === 0) return [];
      return reactionsQuery.execute({ ids: messageIds });
    },

    /** Adds a reaction; false when the member had given this one already. */
    async addReaction(messageId: number, memberId: number, emoji: string): Promise<boolean> {
      const rows = await db.insert(messageReactions).values({ messageId, memberId, emoji }).onConflictDoNothing().returning({ emoji: messageReactions.emoji });
      return rows.length > 0;
    },

    /** Takes a member's reaction back; false when there was none. */
    async removeReaction(messageId: number, memberId: number, emoji: string): Promise<boolean> {
      const rows = await db
        .delete(messageReactions)
        .where(and(eq(messageReactions.messageId, messageId), eq(messageReactions.memberId, memberId), eq(messageReactions.emoji, emoji)))
        .returning({ emoji: messageReactions.emoji });
      return rows.length > 0;
    },

    /** The distinct emoji on a message. */
    async reactionEmoji(messageId: number): Promise<string[]> {
      const rows = await db.selectDistinct({ emoji: messageReactions.emoji }).from(messageReactions).where(eq(messageReactions.messageId, messageId));
      return rows.map((row) => row.emoji);
    },
  };
}
