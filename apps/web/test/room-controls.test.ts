// Which room controls each role sees in each state: only the OWNER changes the state, and only
// by the allowed changes (start → live or cancelled, live → ended, ended → reopened); only the
// OWNER manages participants; a speaker corrects their own segments once transcribed.
import { describe, expect, it } from 'vitest';
import { ROOM_ROLE, ROOM_STATE } from '@parla/contract/constants';
import { canEditSegment, canHandOver, canJoinCall, canRemoveParticipant, needsConfirmation, roomControls, stateActions } from '../src/features/rooms/controls';

describe('state controls', () => {
  it('offers the OWNER exactly the allowed changes of each state', () => {
    expect(stateActions(ROOM_ROLE.OWNER, ROOM_STATE.START)).toEqual([
      { to: ROOM_STATE.LIVE, action: 'start' },
      { to: ROOM_STATE.END, action: 'cancel' },
    ]);
    expect(stateActions(ROOM_ROLE.OWNER, ROOM_STATE.LIVE)).toEqual([{ to: ROOM_STATE.END, action: 'end' }]);
    expect(stateActions(ROOM_ROLE.OWNER, ROOM_STATE.END)).toEqual([{ to: ROOM_STATE.LIVE, action: 'reopen' }]);
  });

  it('offers a MEMBER none, in any state', () => {
    for (const state of [ROOM_STATE.START, ROOM_STATE.LIVE, ROOM_STATE.END]) expect(stateActions(ROOM_ROLE.MEMBER, state)).toEqual([]);
    expect(stateActions(undefined, ROOM_STATE.START)).toEqual([]);
  });

  it('asks before ending or cancelling, not before going live', () => {
    expect(['start', 'end', 'reopen', 'cancel'].map((action) => needsConfirmation(action as 'start'))).toEqual([false, true, false, true]);
  });

  it('opens the call only while Live', () => {
    expect([ROOM_STATE.START, ROOM_STATE.LIVE, ROOM_STATE.END].map(canJoinCall)).toEqual([false, true, false]);
  });
});

describe('participant controls', () => {
  const owner = { id: 1, roomRole: ROOM_ROLE.OWNER };
  const member = { id: 2, roomRole: ROOM_ROLE.MEMBER };
  const other = { id: 3, roomRole: ROOM_ROLE.MEMBER };

  it('lets the OWNER edit the room and manage participants, adding members only', () => {
    expect(roomControls(ROOM_ROLE.OWNER)).toEqual({ editRoom: true, deleteRoom: true, manageParticipants: true, addRoles: [ROOM_ROLE.MEMBER], editGlossary: true, withdrawCorrections: true });
    expect(roomControls(ROOM_ROLE.MEMBER)).toEqual({ editRoom: false, deleteRoom: false, manageParticipants: false, addRoles: [], editGlossary: false, withdrawCorrections: false });
  });

  it('lets the OWNER remove and hand over to anyone but themself', () => {
    expect(canRemoveParticipant(owner, member)).toBe(true);
    expect(canRemoveParticipant(owner, owner)).toBe(false);
    expect(canHandOver(owner, member)).toBe(true);
    expect(canHandOver(owner, owner)).toBe(false);
  });

  it('lets a MEMBER remove or hand over to nobody', () => {
    expect(canRemoveParticipant(member, other)).toBe(false);
    expect(canHandOver(member, other)).toBe(false);
  });

  it('lets only the speaker correct a segment, once its transcription is over', () => {
    expect(canEditSegment({ isMe: true, transcription: 'done' })).toBe(true);
    expect(canEditSegment({ isMe: true, transcription: 'none' })).toBe(true);
    expect(canEditSegment({ isMe: true, transcription: 'pending' })).toBe(false);
    expect(canEditSegment({ isMe: false, transcription: 'done' })).toBe(false);
  });
});
