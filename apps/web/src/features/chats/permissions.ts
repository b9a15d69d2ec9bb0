// Which controls a chat role sees: the contract's policy (packages/contract/src/policies.ts), the
// same table the server enforces; the server checks all of it again.
import { CHAT_ROLE, type ChatRole } from '@parla/contract/constants';
import { chatRolesToAdd, mayChangeRole, mayInChat, mayRemoveMember } from '@parla/contract/policies';

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
  /** Adds, changes and removes the glossary's terms (everyone reads it). */
  editGlossary: boolean;
  /** Withdraws any reader's correction of a translation. */
  withdrawCorrections: boolean;
  /** Pins and unpins messages (every member reads the pinned ones). */
  pinMessages: boolean;
}

export function chatControls(role: ChatRole | undefined): ChatControls {
  return {
    addMembers: mayInChat(role, 'addMember'),
    removeMembers: mayInChat(role, 'removeMember'),
    changeRoles: mayInChat(role, 'changeRole'),
    editChat: mayInChat(role, 'editChat'),
    deleteChat: mayInChat(role, 'deleteChat'),
    addRoles: chatRolesToAdd(role),
    deleteAnyMessage: mayInChat(role, 'deleteAnyMessage'),
    editGlossary: mayInChat(role, 'editGlossary'),
    withdrawCorrections: mayInChat(role, 'withdrawCorrections'),
    pinMessages: mayInChat(role, 'pinMessage'),
  };
}

/** Whether the viewer may remove `target` (oneself leaves instead; nobody removes the OWNER; admins only the OWNER). */
export const canRemove = mayRemoveMember;

/** Whether the viewer may change `target`'s role (the OWNER, for anyone but themself). */
export const canChangeRole = mayChangeRole;

export const canEditMessage = (message: { isMe: boolean }) => message.isMe;

/** Whether the viewer may withdraw every reader's correction of a message (owners and admins). */
export const canWithdrawCorrections = (role: ChatRole | undefined) => mayInChat(role, 'withdrawCorrections');

/** Whether the viewer may pin and unpin messages (owners and admins). */
export const canPinMessages = (role: ChatRole | undefined) => mayInChat(role, 'pinMessage');

export const canDeleteMessage = (role: ChatRole | undefined, message: { isMe: boolean }) => message.isMe || mayInChat(role, 'deleteAnyMessage');

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
