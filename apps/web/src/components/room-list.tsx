// A list of room cards: role icon, title, chevron; each opens /room/{id}.
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROOM_ROLE } from '@parla/contract/constants';
import type { Room } from '@parla/contract/rooms';
import { ChevronIcon, CrownIcon, UsersIcon } from './icons';

export function RoomList({ rooms }: { rooms: Room[] }) {
  const { t } = useTranslation();
  return (
    <ul className="room-list">
      {rooms.map((room) => (
        <li key={room.id}>
          <Link to="/room/$roomId" params={{ roomId: String(room.id) }} className="room-card">
            {room.roomRole === ROOM_ROLE.OWNER ? <CrownIcon title={t('rooms.owner')} /> : <UsersIcon title={t('rooms.member')} />}
            <span className="room-title">{room.title}</span>
            <ChevronIcon className="chevron" />
          </Link>
        </li>
      ))}
    </ul>
  );
}
