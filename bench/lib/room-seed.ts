// A live room written straight into a Parla database (already migrated by the real server), in
// lib/seed.ts's way: its users with a session and a signed access token each (seedUsers), the
// room already Live (state 3002) and its participants, the speaker as OWNER, the listeners as
// MEMBERs, each with a language and a voice. The tables are the server's own
// (apps/server/src/platform/db/schema.ts).
import { ROOM_ROLE, ROOM_STATE } from '@parla/contract/constants';
import { roomParticipants, rooms } from '../../apps/server/src/platform/db/schema';
import { seedUsers, type Seeder, type SeededUser } from './seed';

export interface SeededParticipant {
  participantId: number;
  userId: number;
  language: string;
  male: boolean;
  tone: string;
  user: SeededUser;
}

export interface SeededRoom {
  roomId: number;
  speaker: SeededParticipant;
  listeners: SeededParticipant[];
}

/** One Live room: the speaker and the listeners given (language, voice; tone DEFAULT unless said). */
export async function seedLiveRoom(
  seeder: Seeder,
  secretKey: string,
  spec: {
    title: string;
    languages: string[];
    domain?: string;
    speaker: { language: string; male: boolean };
    listeners: { language: string; male: boolean; tone?: string }[];
  },
): Promise<SeededRoom> {
  const { db } = seeder;
  const people = [spec.speaker, ...spec.listeners];
  const users = await seedUsers(seeder, secretKey, people.length, {
    prefix: 'room',
    language: (index) => people[index]!.language,
    fullName: (index) => (index === 0 ? 'Bench Speaker' : `Bench Listener ${index}`),
  });
  const now = new Date();
  const [room] = await db
    .insert(rooms)
    .values({ title: spec.title, description: null, languages: spec.languages, domain: spec.domain ?? 'DEFAULT', state: ROOM_STATE.LIVE, createdAt: now, modifiedAt: now })
    .returning({ id: rooms.id });
  if (!room) throw new Error('room insert returned nothing');
  const rows = await db
    .insert(roomParticipants)
    .values(
      people.map((person, index) => ({
        roomId: room.id,
        userId: users[index]!.userId,
        roomRole: index === 0 ? ROOM_ROLE.OWNER : ROOM_ROLE.MEMBER,
        alias: index === 0 ? 'Speaker' : `Listener ${index}`,
        language: person.language,
        maleVoice: person.male,
        tone: (person as { tone?: string }).tone ?? 'DEFAULT',
      })),
    )
    .returning();
  const byUser = new Map(rows.map((row) => [row.userId, row]));
  const participants = users.map((user) => {
    const row = byUser.get(user.userId)!;
    return { participantId: row.id, userId: user.userId, language: row.language, male: row.maleVoice, tone: row.tone, user };
  });
  return { roomId: room.id, speaker: participants[0]!, listeners: participants.slice(1) };
}
