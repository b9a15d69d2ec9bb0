// The invitee's answers to an invitation to a room (lib/invitations.ts), in the room's cache.
import { useInvitationAnswers, type InvitationCache } from '../../lib/invitations';
import { roomKeys } from './api';
import { expectRemoval, mapRoomLists } from './live-sync';

type RoomLists = Parameters<typeof mapRoomLists>[0];

const roomCache: InvitationCache = {
  ownKey: roomKeys.participant,
  topicKey: roomKeys.room,
  lists: roomKeys.lists(),
  markJoined: (queryClient, id) =>
    queryClient.setQueriesData({ queryKey: roomKeys.lists() }, (data: RoomLists) =>
      mapRoomLists(data, (rooms) => rooms.map((item) => (item.id === id ? { ...item, memberState: 'joined' as const } : item))),
    ),
  drop: (queryClient, id) => queryClient.setQueriesData({ queryKey: roomKeys.lists() }, (data: RoomLists) => mapRoomLists(data, (rooms) => rooms.filter((item) => item.id !== id))),
  expectRemoval,
};

export const useRoomInvitationAnswers = () => useInvitationAnswers('room', roomCache);
