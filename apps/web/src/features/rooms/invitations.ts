// The invitee's answers to an invitation to a room, from the list or the room's page: accepted,
// the room becomes theirs (their participation as the server answered, the lists and the room's
// queries fetched again); declined, it leaves every list.
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Participant } from '@parla/contract/rooms';
import { acceptInvitation, declineInvitation } from '../../lib/invitations';
import { notify } from '../../lib/toast';
import { roomKeys } from './api';
import { expectRemoval, mapRoomLists } from './live-sync';

export function useRoomInvitationAnswers() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return {
    /** True once accepted. */
    async accept(room: { id: number; title: string }): Promise<boolean> {
      const participant = await acceptInvitation('room', room.id);
      if (!participant) return false;
      queryClient.setQueryData<Participant>(roomKeys.participant(room.id), participant);
      queryClient.setQueriesData({ queryKey: roomKeys.lists() }, (data: Parameters<typeof mapRoomLists>[0]) =>
        mapRoomLists(data, (rooms) => rooms.map((item) => (item.id === room.id ? { ...item, memberState: 'joined' as const } : item))),
      );
      void queryClient.invalidateQueries({ queryKey: roomKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: roomKeys.room(room.id), predicate: (query) => query.queryKey[2] !== 'participant' });
      notify.success(t('invitations.accepted', { title: room.title }));
      return true;
    },
    /** True once declined (the caller leaves the room's page, if it is on it, and drops its queries). */
    async decline(room: { id: number; title: string }): Promise<boolean> {
      // The server says `room:removed` to the reader's tabs: expected here, not news.
      const forget = expectRemoval(room.id);
      const done = await declineInvitation('room', room.id);
      if (!done) {
        forget();
        return false;
      }
      queryClient.setQueriesData({ queryKey: roomKeys.lists() }, (data: Parameters<typeof mapRoomLists>[0]) => mapRoomLists(data, (rooms) => rooms.filter((item) => item.id !== room.id)));
      // Counted lists: their counts too.
      void queryClient.invalidateQueries({ queryKey: roomKeys.lists() });
      notify.success(t('invitations.declined', { title: room.title }));
      // Still expected a moment: the push may come after the answer.
      setTimeout(forget, 5_000);
      return true;
    },
  };
}
