// Data access of a chat's members: the membership check, the members list, invitations sent,
// removals and hand-overs, the chat's reading groups and the names its members go by.
import { and, asc, eq, ilike, inArray, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { withFastRows } from '../../platform/db/fast-rows';
import type { Db } from '../../platform/db/index';
import { chatMembers, chatMessages, chats, messageAttachments, users } from '../../platform/db/schema';
import type { ReaderGroup } from '../../domain/rendering/reader-group';
import { active, joined, memberColumns, withdrawCorrections, type ChatRow, type MemberRow, type MemberView, type WithdrawnCorrection } from './repository-shared';

export function createMembersRepository(db: Db) {
  // The statements of every chat call (the membership check, the reading groups), prepared once:
  // drizzle builds their SQL once and PostgreSQL plans them once per connection. A membership
  // comes with the member's user columns (a new message's sender view).
  const membership = db
    .select({ chat: chats, member: memberColumns })
    .from(chatMembers)
    .innerJoin(chats, eq(chats.id, chatMembers.chatId))
    .innerJoin(users, eq(users.id, chatMembers.userId))
    .where(and(eq(chatMembers.chatId, sql.placeholder('chatId')), eq(chatMembers.userId, sql.placeholder('userId')), active))
    .limit(1)
    .prepare('chat_membership');
  withFastRows(membership);
  const groups = db
    .selectDistinct({ language: chatMembers.language, tone: chatMembers.tone })
    .from(chatMembers)
    .where(and(eq(chatMembers.chatId, sql.placeholder('chatId')), joined))
    .prepare('chat_reading_groups');

  return {
    /**
     * The caller's membership of a chat (joined or invited), with the chat; undefined for
     * strangers and those who left.
     */
    async findMembership(chatId: number, userId: number): Promise<{ chat: ChatRow; member: MemberView } | undefined> {
      const [row] = await membership.execute({ chatId, userId });
      return row;
    },

    async updateMember(memberId: number, values: Partial<Pick<typeof chatMembers.$inferSelect, 'nickName' | 'language' | 'tone' | 'lastReadMessage' | 'lastReadAt' | 'chatRole' | 'muted'>>) {
      const [row] = await db.update(chatMembers).set(values).where(eq(chatMembers.id, memberId)).returning();
      return row;
    },

    /** Active members of a chat by id (others, and members of other chats, are left out). */
    async findMembers(chatId: number, memberIds: number[]): Promise<MemberView[]> {
      if (memberIds.length === 0) return [];
      return db
        .select(memberColumns)
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(and(eq(chatMembers.chatId, chatId), inArray(chatMembers.id, memberIds), active));
    },

    /** Who a message may notify: the chat's other joined members with their account's languages, the chat's title and the sender's name. */
    async notificationAudience(chatId: number, senderId: number) {
      const [chat] = await db.select({ title: chats.title }).from(chats).where(eq(chats.id, chatId));
      const rows = await db
        .select({
          memberId: chatMembers.id,
          userId: chatMembers.userId,
          nickName: chatMembers.nickName,
          language: chatMembers.language,
          tone: chatMembers.tone,
          muted: chatMembers.muted,
          interfaceLanguage: users.language,
        })
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(and(eq(chatMembers.chatId, chatId), active, isNotNull(chatMembers.joinedAt)));
      const sender = rows.find((row) => row.memberId === senderId);
      return { title: chat?.title ?? '', senderName: sender?.nickName ?? '', recipients: rows.filter((row) => row.memberId !== senderId) };
    },

    /**
     * How the chat's joined members are named: the nicknames shown there, and with `fullNames`
     * their accounts' full names too (what translation protects; never listed to members).
     */
    async memberNames(chatId: number, fullNames: boolean): Promise<string[]> {
      const rows = await db
        .select({ nickName: chatMembers.nickName, fullName: users.fullName })
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(and(eq(chatMembers.chatId, chatId), joined));
      return rows.flatMap((row) => (fullNames && row.fullName ? [row.nickName, row.fullName] : [row.nickName]));
    },

    async activeUserIds(chatId: number): Promise<number[]> {
      const rows = await db.select({ userId: chatMembers.userId }).from(chatMembers).where(and(eq(chatMembers.chatId, chatId), active));
      return rows.map((row) => row.userId);
    },

    /**
     * Members list, the invited included: `q` matches e-mail, full name or nickname
     * (case-insensitive); an invited member's full name is not searched (it is not shown either).
     */
    async listMembers(chatId: number, query: { offset: number; limit: number; q?: string | undefined }) {
      const conditions: SQL[] = [eq(chatMembers.chatId, chatId), active];
      if (query.q) {
        const pattern = `%${query.q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
        conditions.push(or(ilike(users.email, pattern), and(isNotNull(chatMembers.joinedAt), ilike(users.fullName, pattern)), ilike(chatMembers.nickName, pattern))!);
      }
      const where = and(...conditions);
      const [counted] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(where);
      const count = counted?.n ?? 0;
      if (count === 0 || query.offset >= count) return { count, rows: [] as MemberView[] };
      const rows = await db
        .select(memberColumns)
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(where)
        .orderBy(asc(chatMembers.chatRole), asc(chatMembers.id))
        .limit(query.limit)
        .offset(query.offset);
      return { count, rows };
    },

    /**
     * Invites a user to a chat, or invites back one who had left (history kept); undefined when
     * they are a member or invited already.
     */
    async addMember(values: { chatId: number; userId: number; chatRole: number; nickName: string; language: string; invitedBy: string }): Promise<MemberRow | undefined> {
      const [row] = await db
        .insert(chatMembers)
        .values({ ...values, joinedAt: null })
        .onConflictDoUpdate({
          target: [chatMembers.chatId, chatMembers.userId],
          set: { chatRole: values.chatRole, nickName: values.nickName, invitedBy: values.invitedBy, leftAt: null, joinedAt: null },
          setWhere: sql`${chatMembers.leftAt} is not null`,
        })
        .returning();
      return row;
    },

    /**
     * Removes members: kept as having left (history kept), or for good with their messages
     * (`permanent`). Either way the corrections they made of others' renderings are taken back
     * (their words no longer stand for the machine's, nor unsigned). Answers those removed, the ids
     * of the messages that went with them, the files of what went and the corrections taken back.
     */
    async removeMembers(
      chatId: number,
      memberIds: number[],
      permanent: boolean,
    ): Promise<{ removed: MemberRow[]; messageIds: number[]; fileKeys: string[]; withdrawn: WithdrawnCorrection[] }> {
      if (memberIds.length === 0) return { removed: [], messageIds: [], fileKeys: [], withdrawn: [] };
      const where = and(eq(chatMembers.chatId, chatId), inArray(chatMembers.id, memberIds));
      if (!permanent) {
        return db.transaction(async (tx) => {
          const removed = await tx.update(chatMembers).set({ leftAt: new Date() }).where(and(where, active)).returning();
          const withdrawn = await withdrawCorrections(tx, { by: removed.map((member) => member.id) });
          return { removed, messageIds: [], fileKeys: [], withdrawn };
        });
      }
      return db.transaction(async (tx) => {
        const withdrawn = await withdrawCorrections(tx, { by: memberIds });
        // Their uploads, sent or not, go with them.
        const files = await tx
          .select({ fileKey: messageAttachments.fileKey, thumbnailKey: messageAttachments.thumbnailKey })
          .from(messageAttachments)
          .where(and(eq(messageAttachments.chatId, chatId), inArray(messageAttachments.uploaderId, memberIds)));
        const gone = await tx
          .delete(chatMessages)
          .where(and(eq(chatMessages.chatId, chatId), inArray(chatMessages.senderId, memberIds)))
          .returning({ id: chatMessages.id });
        const removed = await tx.delete(chatMembers).where(where).returning();
        const fileKeys = files.flatMap((file) => (file.thumbnailKey ? [file.fileKey, file.thumbnailKey] : [file.fileKey]));
        const messageIds = gone.map((message) => message.id);
        return { removed, messageIds, fileKeys, withdrawn: withdrawn.filter((item) => !messageIds.includes(item.messageId)) };
      });
    },

    /** Makes `toMemberId` the owner and the current owner an ADMIN, in one transaction. */
    async handOver(chatId: number, fromMemberId: number, toMemberId: number, ownerRole: number, formerOwnerRole: number) {
      await db.transaction(async (tx) => {
        await tx.update(chatMembers).set({ chatRole: formerOwnerRole }).where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.id, fromMemberId)));
        await tx.update(chatMembers).set({ chatRole: ownerRole }).where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.id, toMemberId)));
      });
    },

    /** Who inherits a chat when its owner leaves: the longest-standing admin, else member (never one still invited). */
    async successor(chatId: number, excludingMemberId: number): Promise<MemberRow | undefined> {
      const [row] = await db
        .select()
        .from(chatMembers)
        .where(and(eq(chatMembers.chatId, chatId), joined, ne(chatMembers.id, excludingMemberId)))
        .orderBy(asc(chatMembers.chatRole), asc(chatMembers.id))
        .limit(1);
      return row;
    },

    /** The distinct (language, tone) of a chat's joined members: its reading groups. */
    async readingGroups(chatId: number): Promise<ReaderGroup[]> {
      return groups.execute({ chatId });
    },

    /** Nicknames of a chat's active members by id (a mention shows the current name). */
    async nickNames(chatId: number, memberIds: number[]): Promise<Map<number, string>> {
      if (memberIds.length === 0) return new Map();
      const rows = await db
        .select({ id: chatMembers.id, nickName: chatMembers.nickName })
        .from(chatMembers)
        .where(and(eq(chatMembers.chatId, chatId), inArray(chatMembers.id, memberIds), active));
      return new Map(rows.map((row) => [row.id, row.nickName]));
    },
  };
}
