// The participants of a room (components/people-panel.tsx): the OWNER invites people (as members:
// ownership is handed over, never given on adding), removes them and hands ownership over; anyone
// can leave.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROOM_ROLE, type RoomRole } from '@parla/contract/constants';
import { roomRoleField } from '@parla/contract/fields';
import type { ManageParticipant, Participant, Room } from '@parla/contract/rooms';
import { Dialog } from '../../components/dialog';
import { InviteForm, LeaveButton, PeoplePanel } from '../../components/people-panel';
import { Button } from '../../components/ui';
import { PARTICIPANT_PAGE_SIZE, addParticipant, changeParticipantRole, leaveRoom, participantsQuery, removeParticipant, removeParticipants, roomKeys } from './api';
import { canHandOver, canRemoveParticipant, roleKey, roomControls } from './controls';
import { expectRemoval, mapRoomLists } from './live-sync';

export function ParticipantsDialog({ open, onClose, room, participant }: { open: boolean; onClose: () => void; room: Room; participant: Participant }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} title={t('rooms.participants.title')} wide>
      <ParticipantsPanel room={room} participant={participant} />
    </Dialog>
  );
}

function ParticipantsPanel({ room, participant }: { room: Room; participant: Participant }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const controls = roomControls(participant.roomRole);
  const viewer = { id: participant.id, roomRole: participant.roomRole };

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: roomKeys.participants(room.id) });
    void queryClient.invalidateQueries({ queryKey: roomKeys.participant(room.id) });
    void queryClient.invalidateQueries({ queryKey: roomKeys.detail(room.id) });
  };

  return (
    <PeoplePanel<ManageParticipant>
      texts="rooms.participants"
      pageSize={PARTICIPANT_PAGE_SIZE}
      usePage={(query) => useQuery({ ...participantsQuery(room.id, query), placeholderData: keepPreviousData })}
      person={(item) => ({ id: item.id, name: item.alias, user: item.user, avatarImage: item.avatarImage, memberState: item.memberState, role: item.roomRole })}
      viewerId={participant.id}
      removes={controls.manageParticipants}
      mayRemove={(item) => canRemoveParticipant(viewer, item)}
      remove={(ids, permanent) => {
        const [only] = ids;
        return ids.length === 1 && only !== undefined ? removeParticipant(room.id, only, permanent) : removeParticipants(room.id, ids, permanent);
      }}
      handOver={async (item) => (await changeParticipantRole(room.id, item.id, ROOM_ROLE.OWNER)) !== undefined}
      roleControl={(item, actions) => (
        <>
          <span className={`role-badge room-role-${item.roomRole}`}>{t(roleKey(item.roomRole))}</span>
          {canHandOver(viewer, item) && (
            <Button variant="ghost" className="btn-small" onClick={actions.handOver} aria-label={t('rooms.participants.handOverTo', { name: item.alias })}>
              {t('rooms.participants.makeOwner')}
            </Button>
          )}
        </>
      )}
      refresh={refresh}
      invite={
        controls.manageParticipants && (
          <InviteForm<RoomRole>
            roleField="roomRole"
            roleSchema={roomRoleField}
            roles={controls.addRoles}
            roleName={(role) => t(roleKey(role))}
            roleLabel={t('rooms.participants.role')}
            roleHint={t('rooms.participants.roleHint')}
            invite={({ user, role }) => addParticipant(room.id, { user, roomRole: role })}
            onInvited={refresh}
          />
        )
      }
      leave={
        <LeaveButton
          texts="rooms"
          owner={participant.roomRole === ROOM_ROLE.OWNER}
          title={room.title}
          expect={() => expectRemoval(room.id)}
          leave={(permanent) => leaveRoom(room.id, permanent)}
          left={async () => {
            queryClient.setQueriesData({ queryKey: roomKeys.lists() }, (data: Parameters<typeof mapRoomLists>[0]) => mapRoomLists(data, (rooms) => rooms.filter((item) => item.id !== room.id)));
            await navigate({ to: '/room' });
            queryClient.removeQueries({ queryKey: roomKeys.room(room.id) });
          }}
        />
      }
    />
  );
}
