// Who may do what in a live room (product.md "Roles and permissions"): one table, role × action.
import { ROOM_ROLE, type RoomRole } from '@parla/contract/constants';
import { createPolicy } from '../../core/policy';

export type RoomAction = 'read' | 'speak' | 'listParticipants' | 'editRoom' | 'deleteRoom' | 'changeState' | 'manageParticipants';

const everyone: RoomAction[] = ['read', 'speak', 'listParticipants'];

export const roomPolicy = createPolicy<RoomRole, RoomAction>({
  [ROOM_ROLE.OWNER]: [...everyone, 'editRoom', 'deleteRoom', 'changeState', 'manageParticipants'],
  [ROOM_ROLE.MEMBER]: everyone,
});
