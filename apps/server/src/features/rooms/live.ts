// Live pushes of rooms. A subscribed socket is in the room's room (state, participants) and in its
// listening group's room (language, tone, voice): a segment event is rendered once per group.
// Participation is checked on every subscribe and enforced at once on removal and leaving.
import type { Room } from '@parla/contract/rooms';
import { roomRefSchema } from '@parla/contract/live';
import { userRoom, type Realtime } from '../../core/realtime';
import type { ListeningGroup, ParticipantRow, RoomsRepository, SegmentWithSpeaker } from './repository';
import type { SegmentContext, SegmentPresenter } from './segments';

export const roomRoom = (roomId: number) => `room:${roomId}`;
export const listenerRoom = (roomId: number, group: ListeningGroup) => `room:${roomId}:${group.language}:${group.tone}:${group.male ? 'm' : 'f'}`;
const isRoomOf = (roomId: number, name: string) => name === roomRoom(roomId) || name.startsWith(`${roomRoom(roomId)}:`);
export const groupOfParticipant = (participant: Pick<ParticipantRow, 'language' | 'tone' | 'maleVoice'>): ListeningGroup => ({
  language: participant.language,
  tone: participant.tone,
  male: participant.maleVoice,
});

type SegmentEventName = 'segment:created' | 'segment:rendered' | 'segment:edited';

export function createRoomsLive(realtime: Realtime, repo: RoomsRepository, presenter: SegmentPresenter) {
  const { io } = realtime;

  realtime.onConnection((socket) => {
    socket.on('room:subscribe', (payload, ack) => {
      const answer = typeof ack === 'function' ? ack : () => undefined;
      const parsed = roomRefSchema.safeParse(payload);
      if (!parsed.success) return answer({ ok: false, error: 'invalid' });
      const { roomId } = parsed.data;
      repo
        .findParticipation(roomId, socket.data.userId)
        .then(async (found) => {
          // Someone only invited gets nothing of the room until they accept.
          if (!found?.participant.joinedAt) return answer({ ok: false, error: 'not_found' });
          for (const name of socket.rooms) if (isRoomOf(roomId, name)) await socket.leave(name);
          await socket.join([roomRoom(roomId), listenerRoom(roomId, groupOfParticipant(found.participant))]);
          answer({ ok: true });
        })
        .catch(() => answer({ ok: false, error: 'not_found' }));
    });
    socket.on('room:unsubscribe', (payload) => {
      const parsed = roomRefSchema.safeParse(payload);
      if (!parsed.success) return;
      for (const name of socket.rooms) if (isRoomOf(parsed.data.roomId, name)) void socket.leave(name);
    });
  });

  async function moveSockets(userId: number, roomId: number, rooms: string[]) {
    const sockets = await io.in(userRoom(userId)).fetchSockets();
    for (const socket of sockets) {
      if (!socket.rooms.has(roomRoom(roomId))) continue;
      for (const name of socket.rooms) if (isRoomOf(roomId, name)) socket.leave(name);
      if (rooms.length) socket.join(rooms);
    }
  }

  return {
    /**
     * A segment event, rendered once per listening group (or for the groups given) and once for
     * its speaker. Listeners with their own tone for this segment get it on their user room.
     */
    async segment(event: SegmentEventName, item: SegmentWithSpeaker, context: SegmentContext, groups: ListeningGroup[], overrides: { userId: number; participantId: number; group: ListeningGroup }[] = []) {
      const { segment, speaker } = item;
      const except = [userRoom(speaker.userId), ...overrides.map((o) => userRoom(o.userId))];
      for (const group of groups) {
        const view = presenter.present(item, { ...group, participantId: 0 }, context);
        io.to(listenerRoom(segment.roomId, group)).except(except).emit(event, { roomId: segment.roomId, segment: view });
      }
      for (const override of overrides) {
        const view = presenter.present(item, { ...override.group, participantId: override.participantId }, context);
        io.to(userRoom(override.userId)).emit(event, { roomId: segment.roomId, segment: view });
      }
      if (speaker.leftAt === null) {
        const own = presenter.present(item, { ...groupOfParticipant(speaker), participantId: speaker.id }, context);
        io.to(userRoom(speaker.userId)).emit(event, { roomId: segment.roomId, segment: own });
      }
    },

    /** The room as each participant sees it (their role and state differ). */
    roomUpdated(room: Omit<Room, 'roomRole' | 'memberState'>, participants: { userId: number; roomRole: number; joinedAt: Date | null }[]) {
      for (const participant of participants) {
        const memberState = participant.joinedAt ? 'joined' : 'invited';
        io.to(userRoom(participant.userId)).emit('room:updated', { room: { ...room, roomRole: participant.roomRole as Room['roomRole'], memberState } });
      }
    },

    async removed(roomId: number, userIds: number[]) {
      for (const userId of userIds) {
        io.to(userRoom(userId)).emit('room:removed', { roomId });
        await moveSockets(userId, roomId, []);
      }
    },

    async regrouped(userId: number, roomId: number, group: ListeningGroup) {
      await moveSockets(userId, roomId, [roomRoom(roomId), listenerRoom(roomId, group)]);
    },

    segmentsDeleted(roomId: number, segmentIds: number[]) {
      if (segmentIds.length) io.to(roomRoom(roomId)).emit('segments:deleted', { roomId, segmentIds });
    },

    participantsChanged(roomId: number) {
      io.to(roomRoom(roomId)).emit('participants:changed', { roomId });
    },
  };
}

export type RoomsLive = ReturnType<typeof createRoomsLive>;
