// Which controls a room role sees: the contract's policy (packages/contract/src/policies.ts), the
// same table and state changes the server enforces; the server checks all of it again.
import { ROOM_ROLE, ROOM_STATE, type RoomRole, type RoomState } from '@parla/contract/constants';
import { callOpen, mayHandOver, mayInRoom, mayRemoveParticipant, roomRolesToAdd, roomStatesFor } from '@parla/contract/policies';

export type StateAction = 'start' | 'end' | 'reopen' | 'cancel';

/** What each allowed change is called: going live from Start, ending, reopening, cancelling a room never started. */
export function stateAction(from: RoomState, to: RoomState): StateAction {
  if (to === ROOM_STATE.LIVE) return from === ROOM_STATE.END ? 'reopen' : 'start';
  return from === ROOM_STATE.START ? 'cancel' : 'end';
}

/** The state changes offered to a role in a state: the OWNER's allowed ones, nothing for others. */
export function stateActions(role: RoomRole | undefined, state: RoomState): { to: RoomState; action: StateAction }[] {
  return roomStatesFor(role, state).map((to) => ({ to, action: stateAction(state, to) }));
}

/** Changes that stop a call or close a room ask first. */
export const needsConfirmation = (action: StateAction) => action === 'end' || action === 'cancel';

export interface RoomControls {
  editRoom: boolean;
  deleteRoom: boolean;
  manageParticipants: boolean;
  /** Roles offered when adding someone (ownership is handed over, never given on adding). */
  addRoles: readonly RoomRole[];
  /** Adds, changes and removes the glossary's terms (everyone reads it). */
  editGlossary: boolean;
  /** Withdraws any listener's correction of a translation. */
  withdrawCorrections: boolean;
}

export function roomControls(role: RoomRole | undefined): RoomControls {
  return {
    editRoom: mayInRoom(role, 'editRoom'),
    deleteRoom: mayInRoom(role, 'deleteRoom'),
    manageParticipants: mayInRoom(role, 'manageParticipants'),
    addRoles: roomRolesToAdd(role),
    editGlossary: mayInRoom(role, 'editGlossary'),
    withdrawCorrections: mayInRoom(role, 'withdrawCorrections'),
  };
}

/** Whether the viewer may remove `target` (the OWNER, anyone but themself). */
export const canRemoveParticipant = mayRemoveParticipant;

/** Whether the viewer may hand ownership to `target`. */
export const canHandOver = mayHandOver;

/** The call is open while the room is Live. */
export const canJoinCall = callOpen;

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
