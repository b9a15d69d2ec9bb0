// The chats repository's shared parts (repository.ts composes the parts): the rows they answer,
// a member's columns as others see them, who counts as a member, and corrections taken back.
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/index';
import { chatMembers, type chatMessages, type chats, type messageAttachments, messageRenderings, users } from '../../platform/db/schema';
import type { ReaderGroup } from '../../domain/rendering/reader-group';

export type ChatRow = typeof chats.$inferSelect;
/** A membership as the chat's work reads it (when its marker last moved is the receipts' own). */
export type MemberRow = Omit<typeof chatMembers.$inferSelect, 'lastReadAt'>;
export type MessageRow = typeof chatMessages.$inferSelect;
export type RenderingRow = typeof messageRenderings.$inferSelect;
export type RenderingState = RenderingRow['state'];
export type AttachmentRow = typeof messageAttachments.$inferSelect;

/** A member as others see them (a message's sender, a members-list entry). */
export interface MemberView extends MemberRow {
  email: string;
  fullName: string | null;
  avatarKey: string | null;
}

/** The message a reply answers, with its sender and its rendering for one reading group (or all of them). */
export interface QuoteRow {
  message: Pick<MessageRow, 'id' | 'content' | 'language' | 'version'>;
  sender: { id: number; nickName: string };
  rendering: Pick<RenderingRow, 'state' | 'content' | 'version'> | null;
}

/** A message with its sender and, when asked for, the rendering of one (language, tone) and the quote it replies to. */
export interface MessageWithSender {
  message: MessageRow;
  sender: MemberView;
  rendering: RenderingRow | null;
  quote?: QuoteRow | null;
}

/** A member's columns with their user's: how a MemberView is selected. */
export const memberColumns = {
  id: chatMembers.id,
  chatId: chatMembers.chatId,
  userId: chatMembers.userId,
  chatRole: chatMembers.chatRole,
  nickName: chatMembers.nickName,
  language: chatMembers.language,
  tone: chatMembers.tone,
  lastReadMessage: chatMembers.lastReadMessage,
  muted: chatMembers.muted,
  leftAt: chatMembers.leftAt,
  joinedAt: chatMembers.joinedAt,
  invitedBy: chatMembers.invitedBy,
  createdAt: chatMembers.createdAt,
  email: users.email,
  fullName: users.fullName,
  avatarKey: users.avatarKey,
};

/** Members and invited people who have not left (or declined). */
export const active = isNull(chatMembers.leftAt);
/** Members who accepted: they read, post and are rendered for. */
export const joined = and(active, isNotNull(chatMembers.joinedAt));
/** Timestamps kept to the millisecond, so a JavaScript Date names them exactly (page cursors). */
export const nowMs = () => new Date();

/** A reader's correction taken back: the rendering it replaced and its group. */
export interface WithdrawnCorrection extends ReaderGroup {
  messageId: number;
}

/** Readers' corrections taken back (the machine's text in place again): those made by members, or all of a message's. */
export async function withdrawCorrections(tx: Pick<Db, 'update'>, which: { by: number[] } | { messageId: number }): Promise<WithdrawnCorrection[]> {
  if ('by' in which && which.by.length === 0) return [];
  return tx
    .update(messageRenderings)
    .set({ content: sql`${messageRenderings.machineContent}`, machineContent: null, correctedBy: null, correctedAt: null, updatedAt: new Date() })
    .where(and(isNotNull(messageRenderings.machineContent), 'by' in which ? inArray(messageRenderings.correctedBy, which.by) : eq(messageRenderings.messageId, which.messageId)))
    .returning({ messageId: messageRenderings.messageId, language: messageRenderings.language, tone: messageRenderings.tone });
}
