// What the rooms calls do (product.md "Rooms, participants, segments"). Every call starts from
// `load` (404 for strangers and those who left), asks the policy, then works. Utterances go
// through durable jobs: transcribe, then translate for every listening group in one translator
// call and speak each group's voice; every step is pushed to the listeners as it lands.
// Each use case has its part beside this file (pipeline.ts, participants-service.ts,
// segments-service.ts, sharing service-shared.ts); this holds the rooms themselves and composes them into one.
import { API } from '@parla/contract/api';
import { roomStatesFor } from '@parla/contract/policies';
import { ROOM_ROLE, ROOM_STATE, type Domain, type Language, type RoomRole, type RoomState } from '@parla/contract/constants';
import type { Room, RoomCreateRequest, RoomPatchRequest, RoomsPage } from '@parla/contract/rooms';
import { changedFields, isEmpty } from '../../platform/changes';
import { fieldError, notFound } from '../../platform/errors';
import { offsetPage, pageLink } from '../../platform/pages';
import { fillPath } from '../../platform/routes';
import { translate } from '../../platform/i18n';
import type { GlossaryAccess } from '../../domain/glossary/glossary';
import { displayName } from '../../domain/people/users';
import { createParticipants } from './participants-service';
import { createRoomsPipeline } from './pipeline';
import { roomPolicy } from './policy';
import type { ParticipantRow, RoomRow } from './repository';
import { createSegments } from './segments-service';
import { stateOf, type RoomsDeps, type RoomsShared } from './service-shared';

export { CACHED_UTTERANCE_MAX, RENDER_QUEUE, RENDERS_AT_ONCE, STALE_PENDING_MS, TRANSCRIBE_QUEUE, type SegmentJob } from './pipeline';
export type { RoomsDeps } from './service-shared';

export function createRoomsService(deps: RoomsDeps) {
  const { repo, users, live, recordings, publicUrl } = deps;
  const link = (urlPath: string) => (query: Record<string, string | number | undefined>) => pageLink(publicUrl, urlPath, query);

  /** A room as a participant sees it; one only invited sees its title and languages, not its description (answers and pushes alike). */
  const presentRoom = (room: RoomRow, participant: Pick<ParticipantRow, 'roomRole' | 'joinedAt' | 'invitedBy'>): Room => ({
    id: room.id,
    title: room.title,
    description: participant.joinedAt ? room.description : null,
    languages: room.languages as Language[],
    domain: room.domain as Domain,
    created: room.createdAt.toISOString(),
    modified: room.modifiedAt.toISOString(),
    state: room.state as RoomState,
    roomRole: participant.roomRole as RoomRole,
    memberState: stateOf(participant),
    invitedBy: participant.joinedAt ? null : participant.invitedBy,
  });

  /**
   * The caller's participation: 404 for strangers and those who left, and for those only invited
   * unless `invited` allows them (they see the room's name, their invitation, and nothing more).
   */
  async function load(roomId: number, userId: number, options: { invited?: boolean } = {}) {
    const found = await repo.findParticipation(roomId, userId);
    if (!found || (!found.participant.joinedAt && !options.invited)) throw notFound();
    return found;
  }

  const pipeline = createRoomsPipeline(deps);
  const shared: RoomsShared = { deps, load, presentRoom, link };

  const rooms = {
    /** The caller's access to the room's glossary: participants read it, the OWNER edits it (404 for strangers). */
    async glossaryAccess(roomId: number, userId: number): Promise<GlossaryAccess> {
      const { participant } = await load(roomId, userId);
      return { scope: { roomId }, mayEdit: roomPolicy.may(participant.roomRole as RoomRole, 'editGlossary'), names: () => repo.participantNames(roomId, false) };
    },

    async listRooms(userId: number, query: { limit: number; offset: number }): Promise<RoomsPage> {
      const { count, rows } = await repo.listForUser(userId, query.limit, query.offset);
      return offsetPage(link(fillPath(API.listRooms, {})), query, count, rows.map((row) => presentRoom(row.room, row.participant)));
    },

    async createRoom(userId: number, body: RoomCreateRequest): Promise<Room> {
      const user = await users.byId(userId);
      if (!user) throw notFound();
      const languages = body.languages ?? [user.language as Language];
      const { room, participant } = await repo.createWithOwner(
        { title: body.title, description: body.description ?? null, languages, domain: body.domain },
        {
          userId,
          roomRole: ROOM_ROLE.OWNER,
          alias: displayName(user),
          language: languages.includes(user.language as Language) ? user.language : languages[0]!,
        },
      );
      return presentRoom(room, participant);
    },

    async getRoom(roomId: number, userId: number): Promise<Room> {
      const { room, participant } = await load(roomId, userId, { invited: true });
      return presentRoom(room, participant);
    },

    async updateRoom(roomId: number, userId: number, changes: RoomPatchRequest): Promise<Room> {
      const found = await load(roomId, userId);
      const { participant } = found;
      roomPolicy.require(participant.roomRole as RoomRole, 'editRoom');
      const values = changedFields(found.room, changes, ['title', 'description', 'languages', 'domain']);
      if (isEmpty(values)) return presentRoom(found.room, participant);
      const room = await repo.updateRoom(roomId, values);
      if (!room) throw notFound();
      live.roomUpdated(presentRoom(room, participant), await repo.everyone(roomId));
      return presentRoom(room, participant);
    },

    async deleteRoom(roomId: number, userId: number): Promise<void> {
      const { participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'deleteRoom');
      const userIds = (await repo.everyone(roomId)).map((p) => p.userId);
      await repo.deleteRoom(roomId);
      // The call ends with the room, for everyone in it (awaited, never thrown: see livekit.ts).
      const callClosed = deps.calls.closeRoom(roomId);
      await recordings.removeAll(`rooms/${roomId}`);
      await live.removed(roomId, userIds);
      await callClosed;
    },

    /** Only the changes the contract allows the caller (roomStatesFor); anything else is a 400 on `state`. */
    async changeState(roomId: number, userId: number, state: RoomState): Promise<Room> {
      const { room, participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'changeState');
      const from = room.state as RoomState;
      if (!roomStatesFor(participant.roomRole as RoomRole, from).includes(state)) throw fieldError('state', 'stateChange', { from, to: state }, 'invalid_transition');
      const changed = await repo.changeState(roomId, from, state);
      if (!changed) throw fieldError('state', 'stateChange', { from, to: state }, 'invalid_transition');
      // Ended: the call is closed for everyone in it (no token is given until it is Live again).
      const callClosed = state === ROOM_STATE.END ? deps.calls.closeRoom(roomId) : undefined;
      const everyone = await repo.everyone(roomId);
      live.roomUpdated(presentRoom(changed, participant), everyone);
      // Live: the other participants are told on their devices (those with no tab open).
      if (state === ROOM_STATE.LIVE) {
        const others = everyone.filter((row) => row.joinedAt && row.id !== participant.id).map((row) => row.userId);
        deps.push.notifyOffline(others, (language) => ({
          kind: 'live',
          title: translate(language, 'pushLiveTitle', { title: changed.title }),
          body: translate(language, 'pushLiveBody', { name: participant.alias }),
          lang: language,
          url: `/room/${roomId}`,
          tag: `room-${roomId}`,
        }));
      }
      await callClosed;
      return presentRoom(changed, participant);
    },
  };

  return {
    ...rooms,
    ...createParticipants(shared, pipeline),
    ...createSegments(shared, pipeline, rooms.glossaryAccess),
    ...pipeline.handlers,
  };
}

export type RoomsService = ReturnType<typeof createRoomsService>;
