// Who may do what (product.md "Roles and permissions"), written once for the server, which enforces
// it, and the web client, which shows only the controls it allows: one role × action table per
// kind of topic, and the rules that also depend on the target (whom one removes or promotes).
// Plain values, no schemas: the client's smallest chunks may import it.
import { CHAT_ROLE, ROOM_ROLE, ROOM_STATE, ROOM_STATE_TRANSITIONS, type ChatRole, type RoomRole, type RoomState } from './constants';

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
  | 'deleteChat'
  | 'editGlossary'
  | 'withdrawCorrections'
  | 'pinMessage';

export type RoomAction = 'read' | 'speak' | 'listParticipants' | 'editRoom' | 'deleteRoom' | 'changeState' | 'manageParticipants' | 'editGlossary' | 'withdrawCorrections';

export type PolicyTable<Role extends number, Action extends string> = Readonly<Record<Role, readonly Action[]>>;

const chatEveryone: ChatAction[] = ['read', 'post', 'editOwnMembership', 'leave', 'listMembers'];

/**
 * Any member reads, writes, edits and deletes their own messages, edits their own settings and
 * leaves; ADMIN and OWNER add and remove members and delete any message; only the OWNER adds or
 * removes admins, changes roles (handing ownership over), edits or deletes the chat. OWNER and
 * ADMIN edit the chat's glossary (every member reads it), withdraw any reader's correction and
 * pin messages (every member reads the pinned ones).
 */
export const CHAT_POLICY: PolicyTable<ChatRole, ChatAction> = {
  [CHAT_ROLE.OWNER]: [...chatEveryone, 'addMember', 'addAdmin', 'removeMember', 'removeAdmin', 'changeRole', 'deleteAnyMessage', 'editChat', 'deleteChat', 'editGlossary', 'withdrawCorrections', 'pinMessage'],
  [CHAT_ROLE.ADMIN]: [...chatEveryone, 'addMember', 'removeMember', 'deleteAnyMessage', 'editGlossary', 'withdrawCorrections', 'pinMessage'],
  [CHAT_ROLE.MEMBER]: chatEveryone,
};

const roomEveryone: RoomAction[] = ['read', 'speak', 'listParticipants'];

/** Everyone reads, speaks while Live and lists the participants; the OWNER edits, deletes, changes the state, manages participants and the glossary, and withdraws any listener's correction. */
export const ROOM_POLICY: PolicyTable<RoomRole, RoomAction> = {
  [ROOM_ROLE.OWNER]: [...roomEveryone, 'editRoom', 'deleteRoom', 'changeState', 'manageParticipants', 'editGlossary', 'withdrawCorrections'],
  [ROOM_ROLE.MEMBER]: roomEveryone,
};

/** Whether `role` may do `action` by `table` (an unknown role may do nothing). */
export function may<Role extends number, Action extends string>(table: PolicyTable<Role, Action>, role: Role | undefined, action: Action): boolean {
  return role !== undefined && (table[role]?.includes(action) ?? false);
}

export const mayInChat = (role: ChatRole | undefined, action: ChatAction) => may(CHAT_POLICY, role, action);
export const mayInRoom = (role: RoomRole | undefined, action: RoomAction) => may(ROOM_POLICY, role, action);

/** Roles a chat role may give when adding someone (ownership is handed over, never given on adding). */
export const chatRolesToAdd = (role: ChatRole | undefined): ChatRole[] =>
  mayInChat(role, 'addAdmin') ? [CHAT_ROLE.MEMBER, CHAT_ROLE.ADMIN] : mayInChat(role, 'addMember') ? [CHAT_ROLE.MEMBER] : [];

/** Roles a room role may give when adding someone. */
export const roomRolesToAdd = (role: RoomRole | undefined): RoomRole[] => (mayInRoom(role, 'manageParticipants') ? [ROOM_ROLE.MEMBER] : []);

type ChatWho = { id: number; chatRole: ChatRole };
type RoomWho = { id: number; roomRole: RoomRole };

/** Whether `viewer` may remove `target` from a chat: never themself (they leave) nor the OWNER; an ADMIN only by the OWNER. */
export function mayRemoveMember(viewer: ChatWho, target: ChatWho): boolean {
  if (target.id === viewer.id || target.chatRole === CHAT_ROLE.OWNER) return false;
  return mayInChat(viewer.chatRole, target.chatRole === CHAT_ROLE.ADMIN ? 'removeAdmin' : 'removeMember');
}

/** Whether `viewer` may change `target`'s role in a chat (the OWNER, for anyone but themself). */
export const mayChangeRole = (viewer: ChatWho, target: { id: number }) => target.id !== viewer.id && mayInChat(viewer.chatRole, 'changeRole');

/** Whether `viewer` may remove `target` from a room (the OWNER, anyone but themself). */
export const mayRemoveParticipant = (viewer: RoomWho, target: { id: number }) => target.id !== viewer.id && mayInRoom(viewer.roomRole, 'manageParticipants');

/** Whether `viewer` may hand the room to `target`. */
export const mayHandOver = (viewer: RoomWho, target: RoomWho) => target.id !== viewer.id && target.roomRole !== ROOM_ROLE.OWNER && mayInRoom(viewer.roomRole, 'manageParticipants');

/** The states a room role may move a room to from `state` (ROOM_STATE_TRANSITIONS, for the OWNER only). */
export const roomStatesFor = (role: RoomRole | undefined, state: RoomState): readonly RoomState[] => (mayInRoom(role, 'changeState') ? ROOM_STATE_TRANSITIONS[state] : []);

/** The call is open while the room is Live. */
export const callOpen = (state: RoomState) => state === ROOM_STATE.LIVE;
