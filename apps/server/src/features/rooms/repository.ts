// Data access of rooms and their participants.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../core/db/index';
import { roomParticipants, rooms, users } from '../../core/db/schema';

const roomColumns = {
  id: rooms.id,
  title: rooms.title,
  description: rooms.description,
  languages: rooms.languages,
  domain: rooms.domain,
  state: rooms.state,
  createdAt: rooms.createdAt,
  modifiedAt: rooms.modifiedAt,
  roomRole: roomParticipants.roomRole,
};

export type RoomWithRole = typeof rooms.$inferSelect & { roomRole: number };

export function createRoomsRepository(db: Db) {
  return {
    async findUser(userId: number) {
      const [row] = await db.select({ fullName: users.fullName, email: users.email, language: users.language }).from(users).where(eq(users.id, userId));
      return row;
    },

    /** The rooms the user is an active participant of, most recently modified first. */
    async listForUser(userId: number, limit: number, offset: number): Promise<{ count: number; rows: RoomWithRole[] }> {
      const mine = and(eq(roomParticipants.userId, userId), isNull(roomParticipants.leftAt));
      const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(roomParticipants).where(mine);
      const count = counted?.n ?? 0;
      if (count === 0 || offset >= count) return { count, rows: [] };
      const rows = await db
        .select(roomColumns)
        .from(rooms)
        .innerJoin(roomParticipants, eq(roomParticipants.roomId, rooms.id))
        .where(mine)
        .orderBy(desc(rooms.modifiedAt), desc(rooms.id))
        .limit(limit)
        .offset(offset);
      return { count, rows };
    },

    /** Creates the room and its owner's participation in one transaction. */
    async createWithOwner(
      room: { title: string; description: string | null; languages: string[]; domain: string },
      owner: { userId: number; roomRole: number; alias: string; language: string },
    ): Promise<RoomWithRole> {
      return db.transaction(async (tx) => {
        const [created] = await tx.insert(rooms).values(room).returning();
        if (!created) throw new Error('room insert returned nothing');
        await tx.insert(roomParticipants).values({ ...owner, roomId: created.id });
        return { ...created, roomRole: owner.roomRole };
      });
    },
  };
}
