// What the participants calls do: one's own participation (accept, change, leave) and the
// managers' (list, invite, remove, change a role), each told live to the room and to the call.
import { API } from '@parla/contract/api';
import { callOpen, mayRemoveParticipant } from '@parla/contract/policies';
import { ROOM_ROLE, type Language, type RoomRole, type RoomState, type Tone } from '@parla/contract/constants';
import type { ManageParticipant, Participant, ParticipantPatchRequest, ParticipantsPage } from '@parla/contract/rooms';
import { changedFields, isEmpty } from '../../platform/changes';
import { fieldError, formError, notFound } from '../../platform/errors';
import { indexedPage } from '../../platform/pages';
import { fillPath } from '../../platform/routes';
import { notifyInvitation } from '../../domain/invitations/invitations';
import { displayName, invitedName } from '../../domain/people/users';
import { listenerGroup } from '../../domain/rendering/reader-group';
import type { RoomsPipeline } from './pipeline';
import { roomPolicy } from './policy';
import type { ParticipantRow, ParticipantView, RoomRow, WithdrawnCorrection } from './repository';
import { stateOf, type RoomsShared } from './service-shared';

export function createParticipants({ deps, load, presentRoom, link }: RoomsShared, { announceWithdrawn }: Pick<RoomsPipeline, 'announceWithdrawn'>) {
  const { repo, users, live, recordings, log } = deps;

  async function presentParticipant(room: RoomRow, participant: ParticipantRow): Promise<Participant> {
    // The call is theirs once they accepted: an invitation gets no token.
    const isLive = callOpen(room.state as RoomState) && participant.joinedAt !== null;
    return {
      id: participant.id,
      alias: participant.alias,
      roomRole: participant.roomRole as RoomRole,
      language: participant.language as Language,
      // No LiveKit server, no token for one (the call is the mesh, features/rooms/mesh.ts).
      lkToken: isLive && deps.calls.url !== null ? await deps.calls.mint(room.id, participant) : null,
      lkUrl: deps.calls.url,
      maleVoice: participant.maleVoice,
      tone: participant.tone as Tone,
      memberState: stateOf(participant),
    };
  }

  const presentManaged = (participant: ParticipantView): ManageParticipant => ({
    id: participant.id,
    user: participant.email,
    roomRole: participant.roomRole as RoomRole,
    alias: participant.alias,
    // Someone invited shows nothing of their account but the address.
    avatarImage: participant.joinedAt && participant.avatarKey ? deps.avatars.url(participant.avatarKey) : null,
    memberState: stateOf(participant),
  });

  /** What went with participants removed for good: their files off the disk, their segments off every screen. */
  async function purge(roomId: number, removal: { segmentIds: number[]; files: string[]; withdrawn: readonly WithdrawnCorrection[] }) {
    for (const key of removal.files) await recordings.remove(key).catch((error: unknown) => log.warn({ err: error, key }, 'a removed recording could not be deleted'));
    live.segmentsDeleted(roomId, removal.segmentIds);
    await announceWithdrawn(roomId, removal.withdrawn);
  }

  /** How a participant listens by default: in their interface language when the room has it, else in the room's first. */
  const defaultLanguage = (room: RoomRow, user: { language: string }) => (room.languages.includes(user.language) ? user.language : (room.languages[0] ?? user.language));

  return {
    async getParticipant(roomId: number, userId: number): Promise<Participant> {
      const { room, participant } = await load(roomId, userId, { invited: true });
      return presentParticipant(room, participant);
    },

    /**
     * The invited participant accepts: they join, shown by their name and listening in their
     * language (when the room has it). Accepting again changes nothing.
     */
    async acceptInvitation(roomId: number, userId: number): Promise<Participant> {
      const { room, participant } = await load(roomId, userId, { invited: true });
      if (participant.joinedAt) return presentParticipant(room, participant);
      const user = await users.byId(userId);
      if (!user) throw notFound();
      // The language the invitation was made with (someone invited again keeps the one they had
      // chosen: issue 37), unless the room no longer has it.
      const language = room.languages.includes(participant.language) ? participant.language : defaultLanguage(room, user);
      const joined = await repo.acceptInvitation(participant.id, { alias: displayName(user), language });
      if (!joined) return presentParticipant(room, (await load(roomId, userId)).participant);
      live.participantsChanged(roomId);
      live.roomUpdated(presentRoom(room, joined), [joined]);
      return presentParticipant(room, joined);
    },

    async updateParticipant(roomId: number, userId: number, changes: ParticipantPatchRequest): Promise<Participant> {
      const { room, participant } = await load(roomId, userId);
      if (changes.language !== undefined && !room.languages.includes(changes.language)) {
        throw fieldError('language', 'languageNotInRoom', { language: changes.language }, 'invalid_choice');
      }
      const values = changedFields(participant, changes, ['alias', 'language', 'tone', 'maleVoice']);
      const updated = isEmpty(values) ? participant : await repo.updateParticipant(participant.id, values);
      if (!updated) throw notFound();
      const before = listenerGroup(participant);
      const after = listenerGroup(updated);
      if (before.language !== after.language || before.tone !== after.tone || before.male !== after.male) await live.regrouped(userId, roomId, after);
      if (updated.alias !== participant.alias) live.participantsChanged(roomId);
      return presentParticipant(room, updated);
    },

    /** Leaves the room, or declines the invitation. */
    async leave(roomId: number, userId: number, permanent: boolean): Promise<void> {
      const { participant } = await load(roomId, userId, { invited: true });
      let roomDeleted = false;
      if (participant.roomRole === ROOM_ROLE.OWNER) {
        const heir = await repo.successor(roomId, participant.id);
        if (heir) await repo.updateParticipant(heir.id, { roomRole: ROOM_ROLE.OWNER });
        else {
          await repo.deleteRoom(roomId);
          roomDeleted = true;
          await recordings.removeAll(`rooms/${roomId}`);
        }
      }
      const removal = await repo.removeParticipants(roomId, [participant.id], permanent);
      // Out of the call too (the whole call when the room went with them).
      const callLeft = roomDeleted ? deps.calls.closeRoom(roomId) : deps.calls.removeParticipants(roomId, [participant.id]);
      await purge(roomId, removal);
      await live.removed(roomId, [userId]);
      live.participantsChanged(roomId);
      await callLeft;
    },

    async listParticipants(roomId: number, userId: number, query: { pageIndex: number; pageSize: number; q?: string | undefined }): Promise<ParticipantsPage> {
      const { participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'listParticipants');
      const { count, rows } = await repo.listParticipants(roomId, { offset: query.pageIndex * query.pageSize, limit: query.pageSize, q: query.q });
      return indexedPage(link(fillPath(API.listParticipants, { roomId })), query, count, rows.map(presentManaged));
    },

    /**
     * Invites someone by e-mail: the same answer whether or not the address has an account (one
     * without gets an account waiting to be signed up for), and nothing of their account shown
     * until they accept. They are told by e-mail when `notify` (the address's e-mail budget).
     */
    async addParticipant(roomId: number, userId: number, body: { user: string; roomRole: RoomRole }, options: { lang: Language; notify: boolean }): Promise<ManageParticipant> {
      const { room, participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'manageParticipants');
      if (body.roomRole === ROOM_ROLE.OWNER) throw fieldError('roomRole', 'ownerByHandOver', undefined, 'invalid_choice');
      const invitee = await users.byEmailOrInvited(body.user, options.lang);
      const added = await repo.addParticipant({ roomId, userId: invitee.id, roomRole: body.roomRole, alias: invitedName(invitee.email), language: defaultLanguage(room, invitee), invitedBy: participant.alias });
      if (!added) throw fieldError('user', 'alreadyParticipant', undefined, 'unique');
      live.participantsChanged(roomId);
      // The invitee's open tabs learn of the invitation at once.
      live.roomUpdated(presentRoom(room, added), [added]);
      if (options.notify) deps.invitations.send({ invitee, inviterUserId: userId, inviter: participant.alias, title: room.title, path: `/room/${roomId}`, lang: options.lang });
      notifyInvitation(deps.push, { userId: invitee.id, inviter: participant.alias, title: room.title, url: `/room/${roomId}`, tag: `room-${roomId}` });
      const [view] = await repo.findParticipants(roomId, [added.id]);
      return presentManaged(view!);
    },

    async removeParticipants(roomId: number, userId: number, ids: number[], permanent: boolean, from: 'path' | 'list'): Promise<void> {
      const { participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'manageParticipants');
      const targets = await repo.findParticipants(roomId, ids);
      const unknown = ids.filter((id) => !targets.some((target) => target.id === id));
      if (unknown.length) {
        if (from === 'path') throw notFound();
        throw fieldError('ids', 'noSuchParticipants', { ids: unknown.join(', ') }, 'does_not_exist');
      }
      // The manager may remove anyone but themselves.
      if (!targets.every((target) => mayRemoveParticipant({ id: participant.id, roomRole: participant.roomRole as RoomRole }, target))) throw formError('removeSelf', 'invalid');
      const removal = await repo.removeParticipants(roomId, ids, permanent);
      // Out of the call at once, not when their token expires.
      const callLeft = deps.calls.removeParticipants(roomId, ids);
      await purge(roomId, removal);
      await live.removed(roomId, targets.map((target) => target.userId));
      live.participantsChanged(roomId);
      await callLeft;
    },

    async changeRole(roomId: number, userId: number, targetId: number, roomRole: RoomRole): Promise<ManageParticipant> {
      const { participant } = await load(roomId, userId);
      roomPolicy.require(participant.roomRole as RoomRole, 'manageParticipants');
      const [target] = await repo.findParticipants(roomId, [targetId]);
      if (!target) throw notFound();
      if (target.id === participant.id) throw fieldError('roomRole', 'ownRole', undefined, 'invalid');
      // The room is handed over only to someone who has accepted.
      if (roomRole === ROOM_ROLE.OWNER && !target.joinedAt) throw fieldError('roomRole', 'invitationPending', undefined, 'invalid');
      if (roomRole === ROOM_ROLE.OWNER) await repo.handOver(roomId, participant.id, target.id, ROOM_ROLE.OWNER, ROOM_ROLE.MEMBER);
      else await repo.updateParticipant(target.id, { roomRole });
      live.participantsChanged(roomId);
      const [view] = await repo.findParticipants(roomId, [target.id]);
      return presentManaged(view!);
    },
  };
}
