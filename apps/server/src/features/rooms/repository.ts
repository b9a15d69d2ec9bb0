// Data access of live rooms: rooms, participants, segments, their renderings and voices. Every
// query of a room's content is scoped by room id; the service has checked participation before.
import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { jsonRowsOf, withFastRows } from '../../platform/db/fast-rows';
import type { Db } from '../../platform/db/index';
import { preparedSql } from '../../platform/db/prepared-sql';
import { roomParticipants, rooms, segmentRenderings, segments, segmentTones, segmentVoices, users } from '../../platform/db/schema';
import { distinctGroups, type ListenerGroup } from '../../domain/rendering/reader-group';

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

/** How a participant listens: language, tone and voice. */
export interface SegmentWithSpeaker {
  segment: SegmentRow;
  speaker: ParticipantView;
}

const participantColumns = {
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
const active = isNull(roomParticipants.leftAt);
/** Participants who accepted: they listen, speak and are rendered for. */
const joined = and(active, isNotNull(roomParticipants.joinedAt));

/** The rendering of a segment version for one (language, tone). */
const ofGroup = (segmentId: number, version: number, group: { language: string; tone: string }) =>
  and(eq(segmentRenderings.segmentId, segmentId), eq(segmentRenderings.version, version), eq(segmentRenderings.language, group.language), eq(segmentRenderings.tone, group.tone));

/** A group's voices of a segment version to be spoken again (their files are replaced when the new ones are saved). */
async function revoice(tx: Pick<Db, 'update'>, segmentId: number, version: number, groups: { language: string; tone: string }[]) {
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
async function withdrawCorrections(tx: Pick<Db, 'update'>, which: { by: number[] } | { segmentId: number }): Promise<WithdrawnCorrection[]> {
  if ('by' in which && which.by.length === 0) return [];
  const withdrawn = await tx
    .update(segmentRenderings)
    .set({ transcript: sql`${segmentRenderings.machineTranscript}`, machineTranscript: null, correctedBy: null, correctedAt: null, updatedAt: new Date() })
    .where(and(isNotNull(segmentRenderings.machineTranscript), 'by' in which ? inArray(segmentRenderings.correctedBy, which.by) : eq(segmentRenderings.segmentId, which.segmentId)))
    .returning({ segmentId: segmentRenderings.segmentId, version: segmentRenderings.version, language: segmentRenderings.language, tone: segmentRenderings.tone });
  for (const item of withdrawn) await revoice(tx, item.segmentId, item.version, [item]);
  return withdrawn;
}

export function createRoomsRepository(db: Db) {
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
    /** The rooms the user takes part in or is invited to: invitations first, then the most recently modified. */
    async listForUser(userId: number, limit: number, offset: number): Promise<{ count: number; rows: { room: RoomRow; participant: ParticipantRow }[] }> {
      const mine = and(eq(roomParticipants.userId, userId), active);
      const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(roomParticipants).where(mine);
      const count = counted?.n ?? 0;
      if (count === 0 || offset >= count) return { count, rows: [] };
      const rows = await db
        .select({ room: rooms, participant: roomParticipants })
        .from(roomParticipants)
        .innerJoin(rooms, eq(rooms.id, roomParticipants.roomId))
        .where(mine)
        .orderBy(sql`(${roomParticipants.joinedAt} is null) desc`, desc(rooms.modifiedAt), desc(rooms.id))
        .limit(limit)
        .offset(offset);
      return { count, rows };
    },

    /** Creates the room and its owner's participation in one transaction. */
    async createWithOwner(
      room: { title: string; description: string | null; languages: string[]; domain: string },
      owner: { userId: number; roomRole: number; alias: string; language: string },
    ): Promise<{ room: RoomRow; participant: ParticipantRow }> {
      return db.transaction(async (tx) => {
        const now = new Date();
        const [created] = await tx.insert(rooms).values({ ...room, createdAt: now, modifiedAt: now }).returning();
        if (!created) throw new Error('room insert returned nothing');
        const [participant] = await tx.insert(roomParticipants).values({ ...owner, roomId: created.id }).returning();
        if (!participant) throw new Error('participant insert returned nothing');
        return { room: created, participant };
      });
    },

    /** The caller's participation (joined or invited) with the room; undefined for strangers and those who left. */
    async findParticipation(roomId: number, userId: number): Promise<{ room: RoomRow; participant: ParticipantRow } | undefined> {
      const [row] = await db
        .select({ room: rooms, participant: roomParticipants })
        .from(roomParticipants)
        .innerJoin(rooms, eq(rooms.id, roomParticipants.roomId))
        .where(and(eq(roomParticipants.roomId, roomId), eq(roomParticipants.userId, userId), active))
        .limit(1);
      return row;
    },

    async updateRoom(roomId: number, values: Partial<Pick<RoomRow, 'title' | 'description' | 'languages' | 'domain' | 'state'>>) {
      const [row] = await db
        .update(rooms)
        .set({ ...values, modifiedAt: new Date() })
        .where(eq(rooms.id, roomId))
        .returning();
      return row;
    },

    /** Moves the state only from `from` (two owners' tabs cannot both make the same change). */
    async changeState(roomId: number, from: number, to: number) {
      const [row] = await db
        .update(rooms)
        .set({ state: to, modifiedAt: new Date() })
        .where(and(eq(rooms.id, roomId), eq(rooms.state, from)))
        .returning();
      return row;
    },

    async deleteRoom(roomId: number) {
      await db.delete(rooms).where(eq(rooms.id, roomId));
    },

    async updateParticipant(participantId: number, values: Partial<Pick<ParticipantRow, 'alias' | 'language' | 'tone' | 'maleVoice' | 'roomRole'>>) {
      const [row] = await db.update(roomParticipants).set(values).where(eq(roomParticipants.id, participantId)).returning();
      return row;
    },

    async findParticipants(roomId: number, ids: number[]): Promise<ParticipantView[]> {
      if (ids.length === 0) return [];
      return db
        .select(participantColumns)
        .from(roomParticipants)
        .innerJoin(users, eq(users.id, roomParticipants.userId))
        .where(and(eq(roomParticipants.roomId, roomId), inArray(roomParticipants.id, ids), active));
    },

    async participantById(participantId: number): Promise<ParticipantRow | undefined> {
      const [row] = await db.select().from(roomParticipants).where(eq(roomParticipants.id, participantId)).limit(1);
      return row;
    },

    /** Everyone who sees the room in their list: the participants and those invited. */
    /**
     * How the room's joined participants are named: the aliases shown there, and with `fullNames`
     * their accounts' full names too (what translation protects; never listed to participants).
     */
    async participantNames(roomId: number, fullNames: boolean): Promise<string[]> {
      const rows = await db
        .select({ alias: roomParticipants.alias, fullName: users.fullName })
        .from(roomParticipants)
        .innerJoin(users, eq(users.id, roomParticipants.userId))
        .where(and(eq(roomParticipants.roomId, roomId), joined));
      return fullNames ? namesOf(rows) : rows.map((row) => row.alias);
    },

    async everyone(roomId: number): Promise<ParticipantRow[]> {
      return db.select().from(roomParticipants).where(and(eq(roomParticipants.roomId, roomId), active));
    },

    /** The invited participant accepts: joined now, shown and listening as `values` say; undefined when not invited. */
    async acceptInvitation(participantId: number, values: Pick<ParticipantRow, 'alias' | 'language'>): Promise<ParticipantRow | undefined> {
      const [row] = await db
        .update(roomParticipants)
        .set({ ...values, joinedAt: new Date() })
        .where(and(eq(roomParticipants.id, participantId), active, isNull(roomParticipants.joinedAt)))
        .returning();
      return row;
    },

    async listParticipants(roomId: number, query: { offset: number; limit: number; q?: string | undefined }) {
      const conditions: SQL[] = [eq(roomParticipants.roomId, roomId), active];
      if (query.q) {
        const pattern = `%${query.q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
        // An invited participant's full name is not searched (it is not shown either).
        conditions.push(or(ilike(users.email, pattern), and(isNotNull(roomParticipants.joinedAt), ilike(users.fullName, pattern)), ilike(roomParticipants.alias, pattern))!);
      }
      const where = and(...conditions);
      const [counted] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(roomParticipants)
        .innerJoin(users, eq(users.id, roomParticipants.userId))
        .where(where);
      const count = counted?.n ?? 0;
      if (count === 0 || query.offset >= count) return { count, rows: [] as ParticipantView[] };
      const rows = await db
        .select(participantColumns)
        .from(roomParticipants)
        .innerJoin(users, eq(users.id, roomParticipants.userId))
        .where(where)
        .orderBy(asc(roomParticipants.roomRole), asc(roomParticipants.id))
        .limit(query.limit)
        .offset(query.offset);
      return { count, rows };
    },

    /** Invites a user, or invites back one who had left; undefined when they take part or are invited already. */
    async addParticipant(values: { roomId: number; userId: number; roomRole: number; alias: string; language: string; invitedBy: string }) {
      const [row] = await db
        .insert(roomParticipants)
        .values({ ...values, joinedAt: null })
        .onConflictDoUpdate({
          target: [roomParticipants.roomId, roomParticipants.userId],
          set: { roomRole: values.roomRole, alias: values.alias, invitedBy: values.invitedBy, leftAt: null, joinedAt: null },
          setWhere: sql`${roomParticipants.leftAt} is not null`,
        })
        .returning();
      return row;
    },

    /**
     * Marks participants as left (history kept) or deletes them with their segments (`permanent`).
     * Either way the corrections they made of others' renderings are taken back. A permanent
     * removal returns the ids of the segments that went and the storage keys of every file they
     * had (recordings and voices), for the caller to remove and announce.
     */
    async removeParticipants(
      roomId: number,
      ids: number[],
      permanent: boolean,
    ): Promise<{ removed: ParticipantRow[]; segmentIds: number[]; files: string[]; withdrawn: WithdrawnCorrection[] }> {
      if (ids.length === 0) return { removed: [], segmentIds: [], files: [], withdrawn: [] };
      const where = and(eq(roomParticipants.roomId, roomId), inArray(roomParticipants.id, ids));
      if (!permanent) {
        return db.transaction(async (tx) => {
          const removed = await tx.update(roomParticipants).set({ leftAt: new Date() }).where(and(where, active)).returning();
          return { removed, segmentIds: [], files: [], withdrawn: await withdrawCorrections(tx, { by: removed.map((row) => row.id) }) };
        });
      }
      return db.transaction(async (tx) => {
        const withdrawn = await withdrawCorrections(tx, { by: ids });
        const spoken = and(eq(segments.roomId, roomId), inArray(segments.speakerId, ids));
        const voices = await tx
          .select({ audioKey: segmentVoices.audioKey })
          .from(segmentVoices)
          .innerJoin(segments, eq(segments.id, segmentVoices.segmentId))
          .where(spoken);
        const gone = await tx.delete(segments).where(spoken).returning({ id: segments.id, audioKey: segments.audioKey });
        const removed = await tx.delete(roomParticipants).where(where).returning();
        const files = [...gone.map((segment) => segment.audioKey), ...voices.flatMap((voice) => (voice.audioKey ? [voice.audioKey] : []))];
        const segmentIds = gone.map((segment) => segment.id);
        return { removed, segmentIds, files, withdrawn: withdrawn.filter((item) => !segmentIds.includes(item.segmentId)) };
      });
    },

    async handOver(roomId: number, fromId: number, toId: number, ownerRole: number, memberRole: number) {
      await db.transaction(async (tx) => {
        await tx.update(roomParticipants).set({ roomRole: memberRole }).where(and(eq(roomParticipants.roomId, roomId), eq(roomParticipants.id, fromId)));
        await tx.update(roomParticipants).set({ roomRole: ownerRole }).where(and(eq(roomParticipants.roomId, roomId), eq(roomParticipants.id, toId)));
      });
    },

    async successor(roomId: number, excludingId: number): Promise<ParticipantRow | undefined> {
      const [row] = await db
        .select()
        .from(roomParticipants)
        .where(and(eq(roomParticipants.roomId, roomId), joined, ne(roomParticipants.id, excludingId)))
        .orderBy(asc(roomParticipants.roomRole), asc(roomParticipants.id))
        .limit(1);
      return row;
    },

    // ---- segments ----

    /** Stores an utterance; undefined when this speaker already stored one with this `clientId`. */
    async insertSegment(values: { roomId: number; speakerId: number; language: string; audioKey: string; audioBytes: number; createdAt: Date; durationSeconds: number; transcription: PipelineState; clientId: string | null }) {
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
          .where(
            and(
              inArray(segmentRenderings.segmentId, segmentIds),
              isNull(segmentRenderings.machineTranscript),
              inArray(segmentRenderings.state, ['done', 'failed']),
              sql`${segmentRenderings.version} = (select ${segments.version} from ${segments} where ${segments.id} = ${segmentRenderings.segmentId})`,
            ),
          )
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

export type RoomsRepository = ReturnType<typeof createRoomsRepository>;
