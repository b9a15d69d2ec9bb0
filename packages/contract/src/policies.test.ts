import { describe, expect, it } from 'vitest';
import { CHAT_ROLE, ROOM_ROLE, ROOM_STATE } from './constants';
import { chatRolesToAdd, mayChangeRole, mayHandOver, mayInChat, mayInRoom, mayRemoveMember, mayRemoveParticipant, roomRolesToAdd, roomStatesFor } from './policies';

describe('chat policy', () => {
  it('lets every member read, post and leave, admins manage members, and only the owner edit the chat or change roles', () => {
    for (const role of [CHAT_ROLE.OWNER, CHAT_ROLE.ADMIN, CHAT_ROLE.MEMBER]) {
      expect(mayInChat(role, 'post')).toBe(true);
      expect(mayInChat(role, 'leave')).toBe(true);
    }
    expect(mayInChat(CHAT_ROLE.ADMIN, 'addMember')).toBe(true);
    expect(mayInChat(CHAT_ROLE.MEMBER, 'addMember')).toBe(false);
    expect(mayInChat(CHAT_ROLE.ADMIN, 'editChat')).toBe(false);
    expect(mayInChat(CHAT_ROLE.OWNER, 'changeRole')).toBe(true);
    expect(mayInChat(undefined, 'read')).toBe(false);
    expect(chatRolesToAdd(CHAT_ROLE.OWNER)).toEqual([CHAT_ROLE.MEMBER, CHAT_ROLE.ADMIN]);
    expect(chatRolesToAdd(CHAT_ROLE.ADMIN)).toEqual([CHAT_ROLE.MEMBER]);
    expect(chatRolesToAdd(CHAT_ROLE.MEMBER)).toEqual([]);
  });

  it('never removes oneself or the owner; an admin only by the owner', () => {
    const owner = { id: 1, chatRole: CHAT_ROLE.OWNER };
    const admin = { id: 2, chatRole: CHAT_ROLE.ADMIN };
    const member = { id: 3, chatRole: CHAT_ROLE.MEMBER };
    expect(mayRemoveMember(owner, admin)).toBe(true);
    expect(mayRemoveMember(admin, member)).toBe(true);
    expect(mayRemoveMember(admin, { id: 4, chatRole: CHAT_ROLE.ADMIN })).toBe(false);
    expect(mayRemoveMember(admin, owner)).toBe(false);
    expect(mayRemoveMember(owner, owner)).toBe(false);
    expect(mayRemoveMember(member, { id: 5, chatRole: CHAT_ROLE.MEMBER })).toBe(false);
    expect(mayChangeRole(owner, member)).toBe(true);
    expect(mayChangeRole(owner, owner)).toBe(false);
    expect(mayChangeRole(admin, member)).toBe(false);
  });
});

describe('room policy', () => {
  it('lets everyone speak and only the owner manage the room, its state and its participants', () => {
    expect(mayInRoom(ROOM_ROLE.MEMBER, 'speak')).toBe(true);
    expect(mayInRoom(ROOM_ROLE.MEMBER, 'changeState')).toBe(false);
    expect(mayInRoom(ROOM_ROLE.OWNER, 'manageParticipants')).toBe(true);
    expect(roomRolesToAdd(ROOM_ROLE.OWNER)).toEqual([ROOM_ROLE.MEMBER]);
    expect(roomRolesToAdd(ROOM_ROLE.MEMBER)).toEqual([]);
    expect(roomStatesFor(ROOM_ROLE.OWNER, ROOM_STATE.START)).toContain(ROOM_STATE.LIVE);
    expect(roomStatesFor(ROOM_ROLE.MEMBER, ROOM_STATE.START)).toEqual([]);
    const owner = { id: 1, roomRole: ROOM_ROLE.OWNER };
    const member = { id: 2, roomRole: ROOM_ROLE.MEMBER };
    expect(mayRemoveParticipant(owner, member)).toBe(true);
    expect(mayRemoveParticipant(owner, owner)).toBe(false);
    expect(mayRemoveParticipant(member, owner)).toBe(false);
    expect(mayHandOver(owner, member)).toBe(true);
    expect(mayHandOver(member, owner)).toBe(false);
  });
});
