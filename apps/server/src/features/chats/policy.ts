// Who may do what in a chat (product.md "Roles and permissions"): one table, role × action.
import { CHAT_ROLE, type ChatRole } from '@parla/contract/constants';
import { createPolicy } from '../../core/policy';

export type ChatAction =
  | 'read'
  | 'post'
  | 'editOwnMembership'
  | 'leave'
  | 'listMembers'
  | 'addMember'
  | 'addAdmin'
  | 'removeMember'
  | 'removeAdmin'
  | 'changeRole'
  | 'deleteAnyMessage'
  | 'editChat'
  | 'deleteChat';

const everyone: ChatAction[] = ['read', 'post', 'editOwnMembership', 'leave', 'listMembers'];

export const chatPolicy = createPolicy<ChatRole, ChatAction>({
  [CHAT_ROLE.OWNER]: [...everyone, 'addMember', 'addAdmin', 'removeMember', 'removeAdmin', 'changeRole', 'deleteAnyMessage', 'editChat', 'deleteChat'],
  [CHAT_ROLE.ADMIN]: [...everyone, 'addMember', 'removeMember', 'deleteAnyMessage'],
  [CHAT_ROLE.MEMBER]: everyone,
});
