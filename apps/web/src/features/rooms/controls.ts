// Which controls a room role sees (product.md "Roles and permissions", as the server's policy
// applies it): the OWNER edits and deletes the room, changes its state (only the allowed changes
// of ROOM_STATE_TRANSITIONS) and manages participants (adds members, removes anyone but
// themself, hands ownership over); everyone reads, speaks while Live, edits their own segments,
// edits their own settings and leaves. The server checks all of it again.
import { ROOM_ROLE, ROOM_STATE, ROOM_STATE_TRANSITIONS, type RoomRole, type RoomState } from '@parla/contract/constants';

export type StateAction = 'start' | 'end' | 'reopen' | 'cancel';

/** What each allowed change is called: going live from Start, ending, reopening, cancelling a room never started. */
export function stateAction(from: RoomState, to: RoomState): StateAction {
  if (to === ROOM_STATE.LIVE) return from === ROOM_STATE.END ? 'reopen' : 'start';
  return from === ROOM_STATE.START ? 'cancel' : 'end';
}

/** The state changes offered to a role in a state: the OWNER's allowed ones, nothing for others. */
export function stateActions(role: RoomRole | undefined, state: RoomState): { to: RoomState; action: StateAction }[] {
  if (role !== ROOM_ROLE.OWNER) return [];
  return ROOM_STATE_TRANSITIONS[state].map((to) => ({ to, action: stateAction(state, to) }));
}

/** Changes that stop a call or close a room ask first. */
export const needsConfirmation = (action: StateAction) => action === 'end' || action === 'cancel';

export interface RoomControls {
  editRoom: boolean;
  deleteRoom: boolean;
  manageParticipants: boolean;
  /** Roles offered when adding someone (ownership is handed over, never given on adding). */
  addRoles: readonly RoomRole[];
}

export function roomControls(role: RoomRole | undefined): RoomControls {
  const owner = role === ROOM_ROLE.OWNER;
  return { editRoom: owner, deleteRoom: owner, manageParticipants: owner, addRoles: owner ? [ROOM_ROLE.MEMBER] : [] };
}

type Who = { id: number; roomRole: RoomRole };

/** Whether the viewer may remove `target` (the OWNER, anyone but themself). */
export const canRemoveParticipant = (viewer: Who, target: { id: number }) => target.id !== viewer.id && roomControls(viewer.roomRole).manageParticipants;

/** Whether the viewer may hand ownership to `target`. */
export const canHandOver = (viewer: Who, target: Who) => target.id !== viewer.id && target.roomRole !== ROOM_ROLE.OWNER && roomControls(viewer.roomRole).manageParticipants;

/** The call is open while the room is Live. */
export const canJoinCall = (state: RoomState) => state === ROOM_STATE.LIVE;

/** Only the speaker corrects a segment, once its transcription is over (or none could be made: they may write it). */
export const canEditSegment = (segment: { isMe: boolean; transcription: string }) => segment.isMe && segment.transcription !== 'pending';

/** The translation key of a role's name. */
export const roleKey = (role: RoomRole) => (role === ROOM_ROLE.OWNER ? 'rooms.roles.owner' : 'rooms.roles.member') as 'rooms.roles.owner' | 'rooms.roles.member';

/** The translation key of a state's name. */
export function stateKey(state: RoomState): 'rooms.states.start' | 'rooms.states.live' | 'rooms.states.end' {
  switch (state) {
    case ROOM_STATE.START:
      return 'rooms.states.start';
    case ROOM_STATE.LIVE:
      return 'rooms.states.live';
    case ROOM_STATE.END:
      return 'rooms.states.end';
  }
}
