// Data access of attachments: uploads stored before their message, put into it when it is posted,
// read with the messages, and uploads never sent removed.
import { and, asc, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/index';
import { messageAttachments } from '../../platform/db/schema';
import type { AttachmentRow } from './repository-shared';

export function createAttachmentsRepository(db: Db) {
  return {
    async insertAttachment(values: Omit<typeof messageAttachments.$inferInsert, 'id' | 'createdAt' | 'messageId'>): Promise<AttachmentRow> {
      const [row] = await db.insert(messageAttachments).values(values).returning();
      if (!row) throw new Error('attachment insert returned nothing');
      return row;
    },

    /** Of these ids, the uploads of this member in this chat not in a message yet. */
    async unattached(chatId: number, memberId: number, ids: number[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(messageAttachments)
        .where(and(eq(messageAttachments.chatId, chatId), eq(messageAttachments.uploaderId, memberId), isNull(messageAttachments.messageId), inArray(messageAttachments.id, ids)));
    },

    /** Puts uploads into a message (only those still free: a concurrent post cannot take them twice). */
    async attach(ids: number[], messageId: number): Promise<void> {
      if (ids.length === 0) return;
      await db.update(messageAttachments).set({ messageId }).where(and(inArray(messageAttachments.id, ids), isNull(messageAttachments.messageId)));
    },

    /** Uploads never put into a message, made before `before` (at most `limit`): removed, and answered for their files. */
    async removeUnsentUploads(before: Date, limit: number): Promise<AttachmentRow[]> {
      const stale = db
        .select({ id: messageAttachments.id })
        .from(messageAttachments)
        .where(and(isNull(messageAttachments.messageId), lt(messageAttachments.createdAt, before)))
        .limit(limit);
      return db.delete(messageAttachments).where(inArray(messageAttachments.id, stale)).returning();
    },

    /** The attachments of these messages, in upload order. */
    async attachmentsFor(messageIds: number[]): Promise<AttachmentRow[]> {
      if (messageIds.length === 0) return [];
      return db.select().from(messageAttachments).where(inArray(messageAttachments.messageId, messageIds)).orderBy(asc(messageAttachments.id));
    },

    /** One attachment of a chat: one in a message, or the caller's own upload. */
    async attachmentFor(chatId: number, id: number, memberId: number): Promise<AttachmentRow | undefined> {
      const [row] = await db
        .select()
        .from(messageAttachments)
        .where(and(eq(messageAttachments.chatId, chatId), eq(messageAttachments.id, id), or(isNotNull(messageAttachments.messageId), eq(messageAttachments.uploaderId, memberId))))
        .limit(1);
      return row;
    },
  };
}
