// Answering an invitation to a chat or a room (the chat list, the room list, the home page's rooms
// and the chat and room pages all offer it): accepting makes the reader a member (the answer is
// their membership, now `joined`); declining is leaving (DELETE on the own membership).
import type { ChatMember } from '@parla/contract/chat';
import type { Participant } from '@parla/contract/rooms';
import { call, endpoint } from './api';
import { succeeded } from './queries';

export type InvitationKind = 'chat' | 'room';

/** The own membership, now joined; undefined when refused (the error catalogue said why). */
export function acceptInvitation(kind: 'chat', id: number): Promise<ChatMember | undefined>;
export function acceptInvitation(kind: 'room', id: number): Promise<Participant | undefined>;
export function acceptInvitation(kind: InvitationKind, id: number): Promise<ChatMember | Participant | undefined> {
  return kind === 'chat'
    ? call<ChatMember>(endpoint('POST', '/api/chat/{groupChatId}/member/accept/', { path: { groupChatId: id } }))
    : call<Participant>(endpoint('POST', '/api/rooms/{roomId}/participant/accept/', { path: { roomId: id } }));
}

/** True once declined; false when it failed (shown as the catalogue does). */
export const declineInvitation = (kind: InvitationKind, id: number) =>
  succeeded(
    kind === 'chat'
      ? endpoint('DELETE', '/api/chat/{groupChatId}/member/', { path: { groupChatId: id } })
      : endpoint('DELETE', '/api/rooms/{roomId}/participant/', { path: { roomId: id } }),
  );
