// Data access of rooms and their participants: a user's rooms, a room created with its owner and
// its settings and state, participations, invitations, removals and hand-overs.
import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/index';
import { roomParticipants, rooms, segments, segmentVoices, users } from '../../platform/db/schema';
import {
  active,
  joined,
  namesOf,
  participantColumns,
  withdrawCorrections,
  type ParticipantRow,
  type ParticipantView,
  type RoomRow,
  type WithdrawnCorrection,
} from './repository-shared';

export function createParticipantsRepository(db: Db) {
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

    /** Everyone who sees the room in their list: the participants and those invited. */
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
  };
}
