// The rooms repository's shared parts (repository.ts composes the parts): the rows they answer,
// a participant's columns as others see them, who counts as a participant, and corrections taken back.
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/index';
import { roomParticipants, type rooms, segmentRenderings, type segments, type segmentTones, segmentVoices, users } from '../../platform/db/schema';

export type RoomRow = typeof rooms.$inferSelect;
export type ParticipantRow = typeof roomParticipants.$inferSelect;
export type SegmentRow = typeof segments.$inferSelect;
export type SegmentRenderingRow = typeof segmentRenderings.$inferSelect;
/** What every view of some segments is built from beyond their rows: renderings, voices, listeners' own tones, and correctors' aliases. */
export interface SegmentContext {
  renderings: SegmentRenderingRow[];
  voices: SegmentVoiceRow[];
  tones: (typeof segmentTones.$inferSelect)[];
  /** Participants who corrected a rendering, by id: their alias. */
  correctors: ReadonlyMap<number, string>;
}
export type SegmentVoiceRow = typeof segmentVoices.$inferSelect;
export type PipelineState = SegmentRow['transcription'];

/** A participant who listens to a room's segments, with their account's full name. */
export interface ListenerRow extends ParticipantRow {
  fullName: string | null;
}

/** The names a room's glossary protects: its listeners' aliases and full names. */
export const namesOf = (listeners: readonly Pick<ListenerRow, 'alias' | 'fullName'>[]): string[] =>
  listeners.flatMap((row) => (row.fullName ? [row.alias, row.fullName] : [row.alias]));

/** A participant as others see them (a segment's speaker, a participants-list entry). */
export interface ParticipantView extends ParticipantRow {
  email: string;
  fullName: string | null;
  avatarKey: string | null;
}

/** A segment with its speaker as others see them. */
export interface SegmentWithSpeaker {
  segment: SegmentRow;
  speaker: ParticipantView;
}

/** A participant's columns with their user's: how a ParticipantView is selected. */
export const participantColumns = {
  id: roomParticipants.id,
  roomId: roomParticipants.roomId,
  userId: roomParticipants.userId,
  roomRole: roomParticipants.roomRole,
  alias: roomParticipants.alias,
  language: roomParticipants.language,
  maleVoice: roomParticipants.maleVoice,
  tone: roomParticipants.tone,
  leftAt: roomParticipants.leftAt,
  joinedAt: roomParticipants.joinedAt,
  invitedBy: roomParticipants.invitedBy,
  createdAt: roomParticipants.createdAt,
  email: users.email,
  fullName: users.fullName,
  avatarKey: users.avatarKey,
};

/** Participants and invited people who have not left (or declined). */
export const active = isNull(roomParticipants.leftAt);
/** Participants who accepted: they listen, speak and are rendered for. */
export const joined = and(active, isNotNull(roomParticipants.joinedAt));

/** A group's voices of a segment version to be spoken again (their files are replaced when the new ones are saved). */
export async function revoice(tx: Pick<Db, 'update'>, segmentId: number, version: number, groups: { language: string; tone: string }[]) {
  for (const group of groups) {
    await tx
      .update(segmentVoices)
      .set({ state: 'pending', updatedAt: new Date() })
      .where(and(eq(segmentVoices.segmentId, segmentId), eq(segmentVoices.version, version), eq(segmentVoices.language, group.language), eq(segmentVoices.tone, group.tone)));
  }
}

/** A listener's correction taken back: the segment version and the group whose rendering it replaced. */
export interface WithdrawnCorrection {
  segmentId: number;
  version: number;
  language: string;
  tone: string;
}

/** Listeners' corrections taken back (the machine's text in place, its voices to be made again): those made by participants, or all of a segment's. */
export async function withdrawCorrections(tx: Pick<Db, 'update'>, which: { by: number[] } | { segmentId: number }): Promise<WithdrawnCorrection[]> {
  if ('by' in which && which.by.length === 0) return [];
  const withdrawn = await tx
    .update(segmentRenderings)
    .set({ transcript: sql`${segmentRenderings.machineTranscript}`, machineTranscript: null, correctedBy: null, correctedAt: null, updatedAt: new Date() })
    .where(and(isNotNull(segmentRenderings.machineTranscript), 'by' in which ? inArray(segmentRenderings.correctedBy, which.by) : eq(segmentRenderings.segmentId, which.segmentId)))
    .returning({ segmentId: segmentRenderings.segmentId, version: segmentRenderings.version, language: segmentRenderings.language, tone: segmentRenderings.tone });
  for (const item of withdrawn) await revoice(tx, item.segmentId, item.version, [item]);
  return withdrawn;
}
