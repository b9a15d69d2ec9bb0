// Data access of a room's renderings and voices: the render's writes, listeners' corrections and
// their withdrawal, renders made again (glossary), listeners' own tones and the listening groups.
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { jsonRowsOf, withFastRows } from '../../platform/db/fast-rows';
import type { Db } from '../../platform/db/index';
import { preparedSql } from '../../platform/db/prepared-sql';
import { roomParticipants, segmentRenderings, segments, segmentTones, segmentVoices } from '../../platform/db/schema';
import { distinctGroups, type ListenerGroup } from '../../domain/rendering/reader-group';
import { renderableAgain, type RenderingsTable } from '../../domain/rendering/rendering-rows';

const SEGMENT_RENDERINGS: RenderingsTable = {
  itemId: segmentRenderings.segmentId,
  version: segmentRenderings.version,
  state: segmentRenderings.state,
  machineText: segmentRenderings.machineTranscript,
  items: segments,
  itemsId: segments.id,
  itemsVersion: segments.version,
};
import { joined, revoice, withdrawCorrections, type PipelineState, type SegmentRenderingRow, type SegmentRow, type SegmentVoiceRow } from './repository-shared';

/** The rendering of a segment version for one (language, tone). */
const ofGroup = (segmentId: number, version: number, group: { language: string; tone: string }) =>
  and(eq(segmentRenderings.segmentId, segmentId), eq(segmentRenderings.version, version), eq(segmentRenderings.language, group.language), eq(segmentRenderings.tone, group.tone));

export function createRenderingsRepository(db: Db) {
  const listeningGroupsQuery = withFastRows(
    db
      .select({ language: roomParticipants.language, tone: sql<string>`coalesce(${segmentTones.tone}, ${roomParticipants.tone})`, male: roomParticipants.maleVoice })
      .from(roomParticipants)
      .leftJoin(segmentTones, and(eq(segmentTones.participantId, roomParticipants.id), eq(segmentTones.segmentId, sql.placeholder('segmentId'))))
      .where(and(eq(roomParticipants.roomId, sql.placeholder('roomId')), joined))
      .prepare('segment_listening_groups'),
  );
  // A render's writes, prepared once (a segment's texts, then its voices: on every utterance's way
  // to its listeners): the rows come as one JSON array, the saved rows go back as one, mapped by the
  // tables' columns. Each write keeps what a newer version or a listener's correction wrote.
  const renderingsJson = jsonRowsOf(segmentRenderings);
  const saveRenderingsQuery = preparedSql<{ saved: unknown }>(
    db,
    'segment_renderings_save',
    sql`with saved as (
        insert into ${segmentRenderings} (segment_id, version, language, tone, state, transcript, rendered_tone, missed_terms, updated_at)
        select segment_id, version, language, tone, state, transcript, rendered_tone, missed_terms, now()
        from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) as x(segment_id int, version int, language text, tone text, state text, transcript text, rendered_tone text, missed_terms text[])
        on conflict (segment_id, language, tone) do update set
          -- A new version keeps the text of the one before, for the reader's word diff.
          previous_transcript = case when ${segmentRenderings}.version < excluded.version and ${segmentRenderings}.state = 'done' then ${segmentRenderings}.transcript else ${segmentRenderings}.previous_transcript end,
          state = excluded.state, version = excluded.version, transcript = excluded.transcript, rendered_tone = excluded.rendered_tone,
          missed_terms = excluded.missed_terms, machine_transcript = null, corrected_by = null, corrected_at = null, updated_at = excluded.updated_at
        where ${segmentRenderings}.version < excluded.version or (${segmentRenderings}.version = excluded.version and ${segmentRenderings}.machine_transcript is null)
        returning *
      )
      select coalesce(json_agg(saved), '[]') as saved from saved`,
  );
  const voicesJson = jsonRowsOf(segmentVoices);
  const saveVoicesQuery = preparedSql<{ saved: unknown }>(
    db,
    'segment_voices_save',
    sql`with saved as (
        insert into ${segmentVoices} (segment_id, version, language, tone, male, state, audio_key, updated_at)
        select segment_id, version, language, tone, male, state, audio_key, now()
        from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) as x(segment_id int, version int, language text, tone text, male boolean, state text, audio_key text)
        on conflict (segment_id, language, tone, male) do update set
          state = excluded.state, version = excluded.version, audio_key = excluded.audio_key, updated_at = excluded.updated_at
        where ${segmentVoices}.version <= excluded.version
        returning *
      )
      select coalesce(json_agg(saved), '[]') as saved from saved`,
  );

  return {
    /**
     * Stores renderings (never over a newer version's, nor over a listener's correction of the
     * same version) and returns the rows written.
     */
    async saveRenderings(
      items: { segmentId: number; version: number; language: string; tone: string; state: PipelineState; transcript: string | null; renderedTone: string | null; missedTerms?: string[] | null }[],
    ): Promise<SegmentRenderingRow[]> {
      if (items.length === 0) return [];
      const rows = items.map((item) => ({
        segment_id: item.segmentId,
        version: item.version,
        language: item.language,
        tone: item.tone,
        state: item.state,
        transcript: item.transcript,
        rendered_tone: item.renderedTone,
        missed_terms: item.missedTerms?.length ? item.missedTerms : null,
      }));
      const [row] = await saveRenderingsQuery.execute({ rows: JSON.stringify(rows) });
      return renderingsJson.mapFromDriverValue(row?.saved ?? []);
    },

    /**
     * A listener's correction of the done rendering of a segment version for their (language,
     * tone): the machine's text kept aside (once), and that group's voices to be made again.
     */
    async correctRendering(segmentId: number, version: number, group: { language: string; tone: string }, transcript: string, participantId: number) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(segmentRenderings)
          .set({
            machineTranscript: sql`coalesce(${segmentRenderings.machineTranscript}, ${segmentRenderings.transcript})`,
            transcript,
            correctedBy: participantId,
            correctedAt: new Date(),
            updatedAt: new Date(),
          })
          .where(and(ofGroup(segmentId, version, group), eq(segmentRenderings.state, 'done')))
          .returning();
        if (row) await revoice(tx, segmentId, version, [group]);
        return row;
      });
    },

    /** Every listener's correction of a segment taken back (the owner's withdrawal), its voices to be made again. */
    withdrawCorrectionsOf: (segmentId: number) => db.transaction((tx) => withdrawCorrections(tx, { segmentId })),

    /** The machine's text back in place of a correction (and its voices made again); undefined when it was not corrected. */
    async restoreRendering(segmentId: number, version: number, group: { language: string; tone: string }) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(segmentRenderings)
          .set({ transcript: sql`${segmentRenderings.machineTranscript}`, machineTranscript: null, correctedBy: null, correctedAt: null, updatedAt: new Date() })
          .where(
            and(ofGroup(segmentId, version, group), isNotNull(segmentRenderings.machineTranscript)),
          )
          .returning();
        if (row) await revoice(tx, segmentId, version, [group]);
        return row;
      });
    },

    /** The room's newest transcribed segments (for "apply the glossary to recent utterances"). */
    async recentTexts(roomId: number, limit: number): Promise<Pick<SegmentRow, 'id' | 'transcript' | 'language' | 'version'>[]> {
      return db
        .select({ id: segments.id, transcript: segments.transcript, language: segments.language, version: segments.version })
        .from(segments)
        .where(and(eq(segments.roomId, roomId), eq(segments.transcription, 'done'), sql`${segments.transcript} <> ''`))
        .orderBy(desc(segments.id))
        .limit(limit);
    },

    /**
     * Sets these segments' renderings of their current text pending again, with their voices (a
     * render job makes them anew); those a listener corrected stay. Returns the segments concerned.
     */
    async renderAgain(segmentIds: number[]): Promise<number[]> {
      if (segmentIds.length === 0) return [];
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(segmentRenderings)
          .set({ state: 'pending', updatedAt: new Date() })
          .where(renderableAgain(SEGMENT_RENDERINGS, segmentIds))
          .returning({ segmentId: segmentRenderings.segmentId, version: segmentRenderings.version, language: segmentRenderings.language, tone: segmentRenderings.tone });
        for (const row of rows) await revoice(tx, row.segmentId, row.version, [row]);
        return [...new Set(rows.map((row) => row.segmentId))];
      });
    },

    /** Stores voices (never over a newer version's) and returns the rows written. */
    async saveVoices(items: { segmentId: number; version: number; language: string; tone: string; male: boolean; state: PipelineState; audioKey: string | null }[]): Promise<SegmentVoiceRow[]> {
      if (items.length === 0) return [];
      const rows = items.map((item) => ({ segment_id: item.segmentId, version: item.version, language: item.language, tone: item.tone, male: item.male, state: item.state, audio_key: item.audioKey }));
      const [row] = await saveVoicesQuery.execute({ rows: JSON.stringify(rows) });
      return voicesJson.mapFromDriverValue(row?.saved ?? []);
    },

    async setListenerTone(segmentId: number, participantId: number, tone: string) {
      await db
        .insert(segmentTones)
        .values({ segmentId, participantId, tone })
        .onConflictDoUpdate({ target: [segmentTones.segmentId, segmentTones.participantId], set: { tone } });
    },

    /** Every listening group of a room's active participants for one segment (their own tones included). */
    async listeningGroups(roomId: number, segmentId: number): Promise<ListenerGroup[]> {
      const rows = await listeningGroupsQuery.execute({ roomId, segmentId });
      return distinctGroups(rows);
    },
  };
}
