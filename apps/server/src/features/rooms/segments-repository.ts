// Data access of a room's segments (utterances): stored, found, paged and transcribed, and what
// their views are built from (the snapshot of one, the renderings, voices and tones of several).
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { jsonRowsOf, withFastRows } from '../../platform/db/fast-rows';
import type { Db } from '../../platform/db/index';
import { roomParticipants, rooms, segmentRenderings, segments, segmentTones, segmentVoices, users } from '../../platform/db/schema';
import { participantColumns, type ListenerRow, type PipelineState, type SegmentContext, type SegmentRow, type SegmentWithSpeaker } from './repository-shared';

export function createSegmentsRepository(db: Db) {
  // The renderings, voices and listeners' tones of one segment (renderingsOf), prepared once.
  const renderingsOfOne = withFastRows(db.select().from(segmentRenderings).where(eq(segmentRenderings.segmentId, sql.placeholder('segmentId'))).prepare('segment_renderings_of'));
  const voicesOfOne = withFastRows(db.select().from(segmentVoices).where(eq(segmentVoices.segmentId, sql.placeholder('segmentId'))).prepare('segment_voices_of'));
  const tonesOfOne = withFastRows(db.select().from(segmentTones).where(eq(segmentTones.segmentId, sql.placeholder('segmentId'))).prepare('segment_tones_of'));
  // Everything a segment's views are built from, in one statement (rooms/service.ts `snapshot`):
  // the segment with its speaker and room's domain, its renderings, voices and listeners' own
  // tones, the correctors' aliases, and the room's listeners with their full names (the names its
  // glossary protects). The lists come as JSON, mapped by the tables' columns (platform/db/fast-rows.ts).
  const participantsJson = jsonRowsOf(roomParticipants);
  const segmentSnapshotQuery = withFastRows(
    db
      .select({
        segment: segments,
        speaker: participantColumns,
        domain: rooms.domain,
        renderings: sql`(select coalesce(json_agg(r), '[]') from ${segmentRenderings} r where r.segment_id = ${segments.id})`.mapWith(jsonRowsOf(segmentRenderings)),
        voices: sql`(select coalesce(json_agg(v), '[]') from ${segmentVoices} v where v.segment_id = ${segments.id})`.mapWith(jsonRowsOf(segmentVoices)),
        tones: sql`(select coalesce(json_agg(t), '[]') from ${segmentTones} t where t.segment_id = ${segments.id})`.mapWith(jsonRowsOf(segmentTones)),
        correctors: sql`(select coalesce(json_agg(json_build_array(c.id, c.alias)), '[]') from ${roomParticipants} c
            where c.id in (select r.corrected_by from ${segmentRenderings} r where r.segment_id = ${segments.id}))`.mapWith({
          mapFromDriverValue: (value: unknown) => new Map((typeof value === 'string' ? JSON.parse(value) : value) as [number, string][]),
        }),
        listeners: sql`(select coalesce(json_agg(json_build_array(p, u.full_name)), '[]') from ${roomParticipants} p inner join ${users} u on u.id = p.user_id
            where p.room_id = ${segments.roomId} and p.left_at is null and p.joined_at is not null)`.mapWith({
          mapFromDriverValue: (value: unknown): ListenerRow[] =>
            ((typeof value === 'string' ? JSON.parse(value) : value) as [unknown, string | null][]).map(([participant, fullName]) => ({ ...participantsJson.mapFromDriverValue([participant])[0]!, fullName })),
        }),
      })
      .from(segments)
      .innerJoin(roomParticipants, eq(roomParticipants.id, segments.speakerId))
      .innerJoin(users, eq(users.id, roomParticipants.userId))
      .innerJoin(rooms, eq(rooms.id, segments.roomId))
      .where(eq(segments.id, sql.placeholder('segmentId')))
      .limit(1)
      .prepare('segment_snapshot'),
  );

  return {
    /** Stores an utterance; undefined when this speaker already stored one with this `clientId`. */
    /** A new utterance; one recognised while it was spoken comes with its transcript (`transcription: 'done'`). */
    async insertSegment(values: { roomId: number; speakerId: number; language: string; audioKey: string; audioBytes: number; createdAt: Date; durationSeconds: number; transcription: PipelineState; clientId: string | null; transcript?: string }) {
      const [row] = await db.insert(segments).values(values).onConflictDoNothing({ target: [segments.speakerId, segments.clientId] }).returning();
      if (!row) return undefined;
      await db.update(rooms).set({ modifiedAt: new Date() }).where(eq(rooms.id, values.roomId));
      return row;
    },

    async segmentByClientId(speakerId: number, clientId: string): Promise<SegmentRow | undefined> {
      const [row] = await db.select().from(segments).where(and(eq(segments.speakerId, speakerId), eq(segments.clientId, clientId))).limit(1);
      return row;
    },

    /** Segments whose transcription has waited since before `before` (their job may have been lost). */
    async staleTranscriptions(before: Date, limit: number): Promise<SegmentRow[]> {
      return db
        .select()
        .from(segments)
        .where(and(eq(segments.transcription, 'pending'), lt(segments.createdAt, before)))
        .orderBy(asc(segments.id))
        .limit(limit);
    },

    async findSegment(segmentId: number): Promise<SegmentRow | undefined> {
      const [row] = await db.select().from(segments).where(eq(segments.id, segmentId)).limit(1);
      return row;
    },

    /**
     * What every view of a segment is built from, in one statement: the segment with its speaker
     * and room's domain, its renderings, voices, listeners' own tones and correctors, and the
     * room's listeners (joined participants) with their full names; undefined when it is gone.
     */
    async segmentSnapshot(segmentId: number): Promise<{ item: SegmentWithSpeaker; domain: string; context: SegmentContext; listeners: ListenerRow[] } | undefined> {
      const [row] = await segmentSnapshotQuery.execute({ segmentId });
      if (!row) return undefined;
      return {
        item: { segment: row.segment, speaker: row.speaker },
        domain: row.domain,
        context: { renderings: row.renderings, voices: row.voices, tones: row.tones, correctors: row.correctors },
        listeners: row.listeners,
      };
    },

    /** Segments with their speakers, oldest first (a page, or one by id). */
    async listSegments(roomId: number, query: { limit: number; offset: number; id?: number | undefined }) {
      const where = and(eq(segments.roomId, roomId), query.id ? eq(segments.id, query.id) : undefined);
      const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(segments).where(where);
      const count = counted?.n ?? 0;
      if (count === 0 || query.offset >= count) return { count, rows: [] as SegmentWithSpeaker[] };
      const rows = await db
        .select({ segment: segments, speaker: participantColumns })
        .from(segments)
        .innerJoin(roomParticipants, eq(roomParticipants.id, segments.speakerId))
        .innerJoin(users, eq(users.id, roomParticipants.userId))
        .where(where)
        .orderBy(asc(segments.id))
        .limit(query.limit)
        .offset(query.offset);
      return { count, rows };
    },

    async saveTranscript(segmentId: number, version: number, transcription: PipelineState, transcript: string) {
      const [row] = await db
        .update(segments)
        .set({ transcription, transcript })
        .where(and(eq(segments.id, segmentId), eq(segments.version, version)))
        .returning();
      return row;
    },

    /** The speaker's correction: the old text kept for the diff, the version moves on. */
    async correctTranscript(segmentId: number, transcript: string) {
      const [row] = await db
        .update(segments)
        .set({
          previousTranscript: sql`${segments.transcript}`,
          transcript,
          transcription: 'done',
          version: sql`${segments.version} + 1`,
          editedAt: new Date(),
        })
        .where(eq(segments.id, segmentId))
        .returning();
      return row;
    },

    /** Renderings and voices of segments (their current versions or older: the caller picks). */
    async renderingsOf(segmentIds: number[]): Promise<SegmentContext> {
      if (segmentIds.length === 0) return { renderings: [], voices: [], tones: [], correctors: new Map() };
      const [only] = segmentIds;
      const [renderings, voices, tones] =
        segmentIds.length === 1 && only !== undefined
          ? await Promise.all([renderingsOfOne.execute({ segmentId: only }), voicesOfOne.execute({ segmentId: only }), tonesOfOne.execute({ segmentId: only })])
          : await Promise.all([
              db.select().from(segmentRenderings).where(inArray(segmentRenderings.segmentId, segmentIds)),
              db.select().from(segmentVoices).where(inArray(segmentVoices.segmentId, segmentIds)),
              db.select().from(segmentTones).where(inArray(segmentTones.segmentId, segmentIds)),
            ]);
      // Who corrected a rendering is named by their alias (read only when there are corrections).
      const correctorIds = [...new Set(renderings.flatMap((row) => (row.correctedBy === null ? [] : [row.correctedBy])))];
      const correctors = new Map(
        correctorIds.length
          ? (await db.select({ id: roomParticipants.id, alias: roomParticipants.alias }).from(roomParticipants).where(inArray(roomParticipants.id, correctorIds))).map((row) => [row.id, row.alias] as const)
          : [],
      );
      return { renderings, voices, tones, correctors };
    },
  };
}
