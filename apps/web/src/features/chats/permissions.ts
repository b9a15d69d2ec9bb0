// Which controls a chat role sees (product.md "Roles and permissions", as the server's policy
// applies it): any member reads, writes, edits and deletes its own messages, edits its own
// settings and leaves; ADMIN and OWNER add and remove members and delete any message, but only
// the OWNER adds or removes admins, changes roles (handing ownership over makes them ADMIN),
// edits or deletes the chat; nobody removes the OWNER. The server checks all of it again.
import { CHAT_ROLE, type ChatRole } from '@parla/contract/constants';

export interface ChatControls {
  addMembers: boolean;
  /** May remove some members (which ones: canRemove). */
  removeMembers: boolean;
  changeRoles: boolean;
  editChat: boolean;
  deleteChat: boolean;
  /** Roles offered when adding someone. */
  addRoles: readonly ChatRole[];
  /** Deletes other members' messages too. */
  deleteAnyMessage: boolean;
}

export function chatControls(role: ChatRole | undefined): ChatControls {
  const owner = role === CHAT_ROLE.OWNER;
  const manager = owner || role === CHAT_ROLE.ADMIN;
  return {
    addMembers: manager,
    removeMembers: manager,
    changeRoles: owner,
    editChat: owner,
    deleteChat: owner,
    addRoles: owner ? [CHAT_ROLE.MEMBER, CHAT_ROLE.ADMIN] : manager ? [CHAT_ROLE.MEMBER] : [],
    deleteAnyMessage: manager,
  };
}

/** Whether the viewer may remove `target` (oneself leaves instead; nobody removes the OWNER; admins only the OWNER). */
export function canRemove(viewer: { id: number; chatRole: ChatRole }, target: { id: number; chatRole: ChatRole }): boolean {
  if (target.id === viewer.id || target.chatRole === CHAT_ROLE.OWNER) return false;
  if (target.chatRole === CHAT_ROLE.ADMIN) return viewer.chatRole === CHAT_ROLE.OWNER;
  return chatControls(viewer.chatRole).removeMembers;
}

/** Whether the viewer may change `target`'s role (the OWNER, for anyone but themself). */
export const canChangeRole = (viewer: { id: number; chatRole: ChatRole }, target: { id: number }) =>
  target.id !== viewer.id && chatControls(viewer.chatRole).changeRoles;

export const canEditMessage = (message: { isMe: boolean }) => message.isMe;

export const canDeleteMessage = (role: ChatRole | undefined, message: { isMe: boolean }) => message.isMe || chatControls(role).deleteAnyMessage;

/** The translation key of a role's name. */
export function roleKey(role: ChatRole): 'chats.roles.owner' | 'chats.roles.admin' | 'chats.roles.member' {
  switch (role) {
    case CHAT_ROLE.OWNER:
      return 'chats.roles.owner';
    case CHAT_ROLE.ADMIN:
      return 'chats.roles.admin';
    case CHAT_ROLE.MEMBER:
      return 'chats.roles.member';
  }
}
