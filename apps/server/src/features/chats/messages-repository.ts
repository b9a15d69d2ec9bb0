// Data access of a chat's messages: the pages members read (with each message's sender, its
// rendering for the reader and the message it quotes), one message by id, edits and deletions.
import { and, desc, eq, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { withFastRows } from '../../platform/db/fast-rows';
import type { Db } from '../../platform/db/index';
import { chatMembers, chatMessages, chats, messageRenderings, messageVersions, users } from '../../platform/db/schema';
import type { ReaderGroup } from '../../domain/rendering/reader-group';
import { memberColumns, type MessageRow, type MessageWithSender } from './repository-shared';

export function createMessagesRepository(db: Db) {
  // The message pages, read on every visit, prepared once: drizzle builds their SQL once and
  // PostgreSQL plans them once per connection. The quoted message of a reply, its sender and its
  // rendering for the reader come in the same row.
  const quoted = alias(chatMessages, 'quoted');
  const quotedSender = alias(chatMembers, 'quoted_sender');
  const quotedRendering = alias(messageRenderings, 'quoted_rendering');
  /** The rendering of a message's current text for the reader's (language, tone), given as placeholders. */
  const readersRendering = (
    rendering: { messageId: AnyPgColumn; language: AnyPgColumn; tone: AnyPgColumn; version: AnyPgColumn },
    message: { id: AnyPgColumn; version: AnyPgColumn },
  ) =>
    and(
      eq(rendering.messageId, message.id),
      eq(rendering.language, sql.placeholder('language')),
      eq(rendering.tone, sql.placeholder('tone')),
      eq(rendering.version, message.version),
    );
  const pageQuery = (name: string, extra?: SQL) =>
    db
      .select({
        message: chatMessages,
        sender: memberColumns,
        rendering: messageRenderings,
        quote: { id: quoted.id, content: quoted.content, language: quoted.language, version: quoted.version },
        quoteSender: { id: quotedSender.id, nickName: quotedSender.nickName },
        quoteRendering: { state: quotedRendering.state, content: quotedRendering.content, version: quotedRendering.version },
      })
      .from(chatMessages)
      .innerJoin(chatMembers, eq(chatMembers.id, chatMessages.senderId))
      .innerJoin(users, eq(users.id, chatMembers.userId))
      .leftJoin(messageRenderings, readersRendering(messageRenderings, chatMessages))
      .leftJoin(quoted, eq(quoted.id, chatMessages.replyToId))
      .leftJoin(quotedSender, eq(quotedSender.id, quoted.senderId))
      .leftJoin(quotedRendering, readersRendering(quotedRendering, quoted))
      .where(and(eq(chatMessages.chatId, sql.placeholder('chatId')), extra))
      .orderBy(desc(chatMessages.id))
      .limit(sql.placeholder('limit'))
      .prepare(name);
  type PageRow = Awaited<ReturnType<ReturnType<typeof pageQuery>['execute']>>[number];
  const withQuote = (rows: PageRow[]): MessageWithSender[] =>
    rows.map(({ message, sender, rendering, quote, quoteSender, quoteRendering }) => ({
      message,
      sender,
      rendering,
      quote: quote && quoteSender ? { message: quote, sender: quoteSender, rendering: quoteRendering } : null,
    }));
  // A page is read on every visit: its rows are mapped by a plan made once (platform/db/fast-rows.ts).
  const page = (name: string, extra?: SQL) => withFastRows(pageQuery(name, extra), ['rendering', 'quote', 'quoteSender', 'quoteRendering']);
  const newestPage = page('chat_page');
  const olderPage = page('chat_page_below', lt(chatMessages.id, sql.placeholder('toId')));
  const onePage = page('chat_page_one', eq(chatMessages.id, sql.placeholder('id')));
  const idsPage = page('chat_page_ids', sql`${chatMessages.id} = any(${sql.placeholder('ids')}::int[])`);
  const byClientId = page('chat_page_client', and(eq(chatMessages.senderId, sql.placeholder('senderId')), eq(chatMessages.clientId, sql.placeholder('clientId'))));

  return {
    /** The message a sender stored with a `clientId` (a repeated post), as `reader` sees it. */
    async messageByClientId(chatId: number, group: ReaderGroup, senderId: number, clientId: string): Promise<MessageWithSender | undefined> {
      const [row] = withQuote(await byClientId.execute({ chatId, language: group.language, tone: group.tone, limit: 1, senderId, clientId }));
      return row;
    },

    async findMessage(chatId: number, messageId: number): Promise<MessageRow | undefined> {
      const [row] = await db
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.id, messageId)))
        .limit(1);
      return row;
    },

    async findMessageById(messageId: number): Promise<(MessageRow & { chatLanguages: string[] }) | undefined> {
      const [row] = await db
        .select({ message: chatMessages, chatLanguages: chats.languages })
        .from(chatMessages)
        .innerJoin(chats, eq(chats.id, chatMessages.chatId))
        .where(eq(chatMessages.id, messageId))
        .limit(1);
      return row ? { ...row.message, chatLanguages: row.chatLanguages } : undefined;
    },

    /**
     * New text: the version moves on, so renderings of the old text are no longer shown; the old
     * text is kept as a version of its own (message_versions), in the same transaction.
     */
    async editMessage(messageId: number, content: string): Promise<MessageRow | undefined> {
      return db.transaction(async (tx) => {
        const [old] = await tx.select().from(chatMessages).where(eq(chatMessages.id, messageId)).for('update');
        if (!old) return undefined;
        await tx
          .insert(messageVersions)
          .values({ messageId, version: old.version, language: old.language, content: old.content, writtenAt: old.editedAt ?? old.createdAt })
          .onConflictDoNothing();
        const [row] = await tx
          .update(chatMessages)
          .set({ content, version: sql`${chatMessages.version} + 1`, editedAt: new Date() })
          .where(eq(chatMessages.id, messageId))
          .returning();
        return row;
      });
    },

    /** A message's earlier texts, the newest first (at most `limit`). */
    async versionsOf(messageId: number, limit: number) {
      return db
        .select({ version: messageVersions.version, language: messageVersions.language, content: messageVersions.content, writtenAt: messageVersions.writtenAt })
        .from(messageVersions)
        .where(eq(messageVersions.messageId, messageId))
        .orderBy(desc(messageVersions.version))
        .limit(limit);
    },

    async deleteMessage(messageId: number) {
      await db.delete(chatMessages).where(eq(chatMessages.id, messageId));
    },

    /**
     * A page of messages, newest first, below `toId`, each with its sender and its rendering in
     * (language, tone) for the current text version.
     */
    async listMessages(
      chatId: number,
      group: ReaderGroup,
      query: { limit: number; toId?: number | undefined; id?: number | undefined },
    ): Promise<MessageWithSender[]> {
      const args = { chatId, language: group.language, tone: group.tone, limit: query.limit };
      if (query.id) return withQuote(await onePage.execute({ ...args, id: query.id }));
      if (query.toId) return withQuote(await olderPage.execute({ ...args, toId: query.toId }));
      return withQuote(await newestPage.execute(args));
    },

    /** These messages of a chat as `group` reads them (the page's shape), newest first. */
    async messagesByIds(chatId: number, group: ReaderGroup, ids: number[]): Promise<MessageWithSender[]> {
      if (ids.length === 0) return [];
      return withQuote(await idsPage.execute({ chatId, language: group.language, tone: group.tone, limit: ids.length, ids }));
    },

    /** The ids of a chat's pinned messages, the latest pinned first. */
    async pinnedIds(chatId: number, limit: number): Promise<number[]> {
      const rows = await db
        .select({ id: chatMessages.id })
        .from(chatMessages)
        .where(and(eq(chatMessages.chatId, chatId), isNotNull(chatMessages.pinnedAt)))
        .orderBy(desc(chatMessages.pinnedAt), desc(chatMessages.id))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /**
     * Pins a message of the chat unless it is pinned already or the chat holds `max` pinned ones:
     * `pinned` (now), `already`, or `full`.
     */
    async pin(chatId: number, messageId: number, memberId: number, max: number): Promise<'pinned' | 'already' | 'full'> {
      const [row] = await db
        .update(chatMessages)
        .set({ pinnedAt: new Date(), pinnedBy: memberId })
        .where(
          and(
            eq(chatMessages.chatId, chatId),
            eq(chatMessages.id, messageId),
            isNull(chatMessages.pinnedAt),
            sql`(select count(*) from ${chatMessages} pins where pins.chat_id = ${chatId} and pins.pinned_at is not null) < ${max}`,
          ),
        )
        .returning({ id: chatMessages.id });
      if (row) return 'pinned';
      const [current] = await db
        .select({ pinnedAt: chatMessages.pinnedAt })
        .from(chatMessages)
        .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.id, messageId)));
      return current?.pinnedAt ? 'already' : 'full';
    },

    /** Unpins a message of the chat; false when it was not pinned. */
    async unpin(chatId: number, messageId: number): Promise<boolean> {
      const rows = await db
        .update(chatMessages)
        .set({ pinnedAt: null, pinnedBy: null })
        .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.id, messageId), isNotNull(chatMessages.pinnedAt)))
        .returning({ id: chatMessages.id });
      return rows.length > 0;
    },

    async messageExists(chatId: number, messageId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: chatMessages.id })
        .from(chatMessages)
        .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.id, messageId)))
        .limit(1);
      return row !== undefined;
    },
  };
}
