// How much people may store (issue 31): uploads never sent were kept for a day (600 MB a minute
// per account at the default limits) and a Live room of one's own kept utterances for good. What a
// person uploads counts against their own quota (chat attachments, sent or not, and the
// recordings of their utterances), unsent uploads against a smaller one, and everything stored in
// a chat or a room against that chat's or room's. A new file that would pass one is refused with a
// 400 on its field (`quota_exceeded`) before it is processed or stored. Checks and writes are not
// one transaction: uploads arriving together may pass a quota by what they hold (10 MB each at most).
import { sql } from 'drizzle-orm';
import type { Db } from './db/index';
import { chatMembers, messageAttachments, roomParticipants, segments } from './db/schema';
import { fieldError } from './errors';

export interface QuotaLimits {
  /** Bytes; 0: no limit. */
  pendingBytes: number;
  personBytes: number;
  chatBytes: number;
  roomBytes: number;
  /** Minutes an upload waits to be sent before it is removed (named in the error). */
  unsentMinutes: number;
}

const MB = 1024 * 1024;
const toNumber = (value: unknown) => Number(value ?? 0);

export function createQuotas(db: Db, limits: QuotaLimits) {
  /** Bytes the person stored: attachments (and of those, the unsent) and recordings. */
  const personUsage = (userId: number) => sql`
    (select coalesce(sum(${messageAttachments.size}), 0) from ${messageAttachments} join ${chatMembers} on ${chatMembers.id} = ${messageAttachments.uploaderId} where ${chatMembers.userId} = ${userId}) as attachments,
    (select coalesce(sum(${messageAttachments.size}), 0) from ${messageAttachments} join ${chatMembers} on ${chatMembers.id} = ${messageAttachments.uploaderId} where ${chatMembers.userId} = ${userId} and ${messageAttachments.messageId} is null) as pending,
    (select coalesce(sum(${segments.audioBytes}), 0) from ${segments} join ${roomParticipants} on ${roomParticipants.id} = ${segments.speakerId} where ${roomParticipants.userId} = ${userId}) as recordings`;

  const over = (limit: number, used: number, adding: number) => limit > 0 && used + adding > limit;

  return {
    /** Refuses an attachment of `bytes` the person would not have room for (their unsent, their own, the chat's). */
    async checkAttachment(userId: number, chatId: number, bytes: number): Promise<void> {
      const result = (await db.execute(
        sql`select ${personUsage(userId)}, (select coalesce(sum(${messageAttachments.size}), 0) from ${messageAttachments} where ${messageAttachments.chatId} = ${chatId}) as chat`,
      )) as { rows: unknown[] };
      const row = (result.rows[0] ?? {}) as Record<string, unknown>;
      if (over(limits.pendingBytes, toNumber(row['pending']), bytes))
        throw fieldError('file', 'quotaPending', { max: Math.round(limits.pendingBytes / MB), minutes: limits.unsentMinutes }, 'quota_exceeded');
      if (over(limits.personBytes, toNumber(row['attachments']) + toNumber(row['recordings']), bytes)) throw fieldError('file', 'quotaPerson', { max: Math.round(limits.personBytes / MB) }, 'quota_exceeded');
      if (over(limits.chatBytes, toNumber(row['chat']), bytes)) throw fieldError('file', 'quotaChat', { max: Math.round(limits.chatBytes / MB) }, 'quota_exceeded');
    },

    /** Refuses a recording of `bytes` the speaker or the room would not have room for. */
    async checkRecording(userId: number, roomId: number, bytes: number): Promise<void> {
      const result = (await db.execute(sql`select ${personUsage(userId)}, (select coalesce(sum(${segments.audioBytes}), 0) from ${segments} where ${segments.roomId} = ${roomId}) as room`)) as { rows: unknown[] };
      const row = (result.rows[0] ?? {}) as Record<string, unknown>;
      if (over(limits.personBytes, toNumber(row['attachments']) + toNumber(row['recordings']), bytes)) throw fieldError('audio', 'quotaPerson', { max: Math.round(limits.personBytes / MB) }, 'quota_exceeded');
      if (over(limits.roomBytes, toNumber(row['room']), bytes)) throw fieldError('audio', 'quotaRoom', { max: Math.round(limits.roomBytes / MB) }, 'quota_exceeded');
    },
  };
}

export type Quotas = ReturnType<typeof createQuotas>;
