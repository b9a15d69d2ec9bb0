// Live pushes of rooms, on the shared audience (domain/delivery/audience.ts): a segment event is rendered once
// per listening group (language, tone, voice), once for its speaker, and once for each listener
// with a tone of their own for it. What is the room's own: the room as each participant sees it.
import type { Room } from '@parla/contract/rooms';
import type { PartialSegmentEvent } from '@parla/contract/interpreting';
import { roomRefSchema } from '@parla/contract/live';
import { createAudience } from '../../domain/delivery/audience';
import type { Realtime } from '../../platform/realtime';
import type { RoomsRepository, SegmentWithSpeaker } from './repository';
import type { SegmentContext, SegmentPresenter } from './segments';
import { groupKey, listenerGroup, type ListenerGroup } from '../../domain/rendering/reader-group';


type SegmentEventName = 'segment:created' | 'segment:rendered' | 'segment:edited';

/** A listener with their own view of a segment (their own tone for it). */
export interface OwnListener {
  userId: number;
  participantId: number;
  group: ListenerGroup;
}

export function createRoomsLive(realtime: Realtime, repo: RoomsRepository, presenter: SegmentPresenter) {
  const audience = createAudience<ListenerGroup>(realtime, {
    kind: 'room',
    groupKey,
    async membership(roomId, userId) {
      const found = await repo.findParticipation(roomId, userId);
      // Someone only invited gets nothing of the room until they accept.
      if (!found?.participant.joinedAt) return null;
      const { participant } = found;
      return { group: listenerGroup(participant), memberId: participant.id, name: participant.alias };
    },
    parseRef: (payload) => {
      const parsed = roomRefSchema.safeParse(payload);
      return parsed.success ? parsed.data.roomId : null;
    },
  });

  return {
    /**
     * A segment event, rendered once per listening group (or for the groups given) and once for
     * its speaker. Listeners with their own tone for this segment get it on their user room.
     */
    segment(event: SegmentEventName, item: SegmentWithSpeaker, context: SegmentContext, groups: readonly ListenerGroup[], overrides: readonly OwnListener[] = []) {
      const { segment, speaker } = item;
      const roomId = segment.roomId;
      const own = overrides.map((override) => ({
        userId: override.userId,
        payload: { roomId, segment: presenter.present(item, { ...override.group, participantId: override.participantId }, context) },
      }));
      if (speaker.leftAt === null) {
        own.push({ userId: speaker.userId, payload: { roomId, segment: presenter.present(item, { ...listenerGroup(speaker), participantId: speaker.id }, context) } });
      }
      audience.fanOut(
        event,
        roomId,
        groups,
        (group) => ({ roomId, segment: presenter.present(item, { ...group, participantId: 0 }, context) }),
        own,
        // Not rendered for the group: the original, differing only in these three (segments.ts).
        (_, { segment }) => (segment.translation === 'done' ? undefined : `${segment.translation}:${segment.speech}:${segment.audioFile ?? ''}`),
      );
    },

    /**
     * Someone's words while they speak (interpreting/), for each listening group given: groups of
     * the same text share one encoding.
     */
    partial(roomId: number, groups: readonly ListenerGroup[], view: (group: ListenerGroup) => PartialSegmentEvent) {
      audience.fanOut('segment:partial', roomId, groups, view, [], (_, payload) => `${payload.state}:${payload.translated}:${payload.text}`);
    },

    /** The room as each participant sees it (their role and state differ). */
    roomUpdated(room: Omit<Room, 'roomRole' | 'memberState' | 'invitedBy'>, participants: { userId: number; roomRole: number; joinedAt: Date | null; invitedBy: string | null }[]) {
      audience.toUsers(
        'room:updated',
        participants.map((participant) => ({
          userId: participant.userId,
          // One only invited gets the room's title and languages, not its description (issue 31).
          payload: {
            room: {
              ...room,
              description: participant.joinedAt ? room.description : null,
              roomRole: participant.roomRole as Room['roomRole'],
              memberState: participant.joinedAt ? 'joined' : 'invited',
              invitedBy: participant.joinedAt ? null : participant.invitedBy,
            },
          },
        })),
      );
    },

    removed: (roomId: number, userIds: number[]) => audience.cutOff(roomId, userIds, 'room:removed', { roomId }),

    regrouped: (userId: number, roomId: number, group: ListenerGroup) => audience.regroup(userId, roomId, group),

    segmentsDeleted(roomId: number, segmentIds: number[]) {
      if (segmentIds.length) audience.announce(roomId, 'segments:deleted', { roomId, segmentIds });
    },

    participantsChanged(roomId: number) {
      audience.announce(roomId, 'participants:changed', { roomId });
    },
  };
}

export type RoomsLive = ReturnType<typeof createRoomsLive>;
