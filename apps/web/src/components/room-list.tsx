// A list of room cards: role icon, title, chevron; each opens /room/{id}. A room the reader is
// only invited to is an invitation card instead, answered in place.
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROOM_ROLE } from '@parla/contract/constants';
import type { Room } from '@parla/contract/rooms';
import { ChevronIcon, CrownIcon, UsersIcon } from './icons';
import { InvitationCard } from './invitation';

export function RoomList({ rooms, onAccept, onDecline }: { rooms: Room[]; onAccept: (room: Room) => Promise<unknown>; onDecline: (room: Room) => Promise<unknown> }) {
  const { t } = useTranslation();
  return (
    <ul className="room-list">
      {rooms.map((room) => (
        <li key={room.id}>
          {room.memberState === 'invited' ? (
            <InvitationCard title={room.title} hint={room.invitedBy ? t('invitations.roomHintBy', { name: room.invitedBy }) : t('invitations.roomHint')} link={{ to: '/room/$roomId', params: { roomId: String(room.id) } }} onAccept={() => onAccept(room)} onDecline={() => onDecline(room)} />
          ) : (
            <Link to="/room/$roomId" params={{ roomId: String(room.id) }} className="room-card">
              {room.roomRole === ROOM_ROLE.OWNER ? <CrownIcon title={t('rooms.owner')} /> : <UsersIcon title={t('rooms.member')} />}
              <span className="room-title">{room.title}</span>
              <ChevronIcon className="chevron" />
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
