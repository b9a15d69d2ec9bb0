import { describe, expect, it } from 'vitest';
import { CHAT_ROLE } from '@parla/contract/constants';
import { canChangeRole, canDeleteMessage, canEditMessage, canRemove, chatControls } from '../src/features/chats/permissions';

const { OWNER, ADMIN, MEMBER } = CHAT_ROLE;

describe('controls by role', () => {
  it('a MEMBER sees the members list only', () => {
    expect(chatControls(MEMBER)).toEqual({
      addMembers: false,
      removeMembers: false,
      changeRoles: false,
      editChat: false,
      deleteChat: false,
      addRoles: [],
      deleteAnyMessage: false,
      editGlossary: false,
      withdrawCorrections: false,
      pinMessages: false,
    });
  });

  it('an ADMIN adds and removes members (not admins) and edits the glossary, but does not change roles or the chat', () => {
    expect(chatControls(ADMIN)).toMatchObject({ addMembers: true, removeMembers: true, changeRoles: false, editChat: false, deleteChat: false, deleteAnyMessage: true, editGlossary: true, withdrawCorrections: true, pinMessages: true });
    expect(chatControls(ADMIN).addRoles).toEqual([MEMBER]);
  });

  it('the OWNER does everything', () => {
    expect(chatControls(OWNER)).toMatchObject({ addMembers: true, removeMembers: true, changeRoles: true, editChat: true, deleteChat: true, deleteAnyMessage: true, editGlossary: true, withdrawCorrections: true, pinMessages: true });
    expect(chatControls(OWNER).addRoles).toEqual([MEMBER, ADMIN]);
  });

  it('nobody removes the OWNER or themself (they leave); only the OWNER removes admins', () => {
    const owner = { id: 1, chatRole: OWNER };
    const admin = { id: 2, chatRole: ADMIN };
    const member = { id: 3, chatRole: MEMBER };
    expect(canRemove(owner, admin)).toBe(true);
    expect(canRemove(owner, member)).toBe(true);
    expect(canRemove(owner, owner)).toBe(false);
    expect(canRemove(admin, owner)).toBe(false);
    expect(canRemove(admin, member)).toBe(true);
    expect(canRemove(admin, { id: 4, chatRole: ADMIN })).toBe(false);
    expect(canRemove(admin, admin)).toBe(false);
    expect(canRemove(member, { id: 5, chatRole: MEMBER })).toBe(false);
  });

  it('only the OWNER changes roles, of others', () => {
    expect(canChangeRole({ id: 1, chatRole: OWNER }, { id: 2 })).toBe(true);
    expect(canChangeRole({ id: 1, chatRole: OWNER }, { id: 1 })).toBe(false);
    expect(canChangeRole({ id: 2, chatRole: ADMIN }, { id: 3 })).toBe(false);
  });

  it('one edits one’s own messages; deletes them, or anyone’s as ADMIN or OWNER', () => {
    expect(canEditMessage({ isMe: true })).toBe(true);
    expect(canEditMessage({ isMe: false })).toBe(false);
    expect(canDeleteMessage(MEMBER, { isMe: true })).toBe(true);
    expect(canDeleteMessage(MEMBER, { isMe: false })).toBe(false);
    expect(canDeleteMessage(ADMIN, { isMe: false })).toBe(true);
    expect(canDeleteMessage(OWNER, { isMe: false })).toBe(true);
  });
});
