// Home: a greeting, what Parla does, and the reader's recent rooms (pending invitations first,
// answered in place).
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@parla/contract/constants';
import type { Room, RoomsPage } from '@parla/contract/rooms';
import { GlobeIcon, UsersIcon } from '../../components/icons';
import { RoomList } from '../../components/room-list';
import { Card, LoadFailed } from '../../components/ui';
import { endpoint, fetchOrThrow } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { acceptInvitation, declineInvitation } from '../../lib/invitations';
import { roomKeys } from '../../lib/query-keys';
import { notify } from '../../lib/toast';

/**
 * The page holds no live connection (it stays light): like the unread count, it asks again every
 * half minute and on coming back to the tab, so an invitation made while it is open shows up
 * (issue 37: a second one stayed missing until the page was opened again).
 */
const recentRoomsQuery = queryOptions({
  queryKey: roomKeys.recent(LIMITS.homeRecentRooms),
  queryFn: () => fetchOrThrow<RoomsPage>(endpoint('GET', '/api/rooms/', { query: { limit: LIMITS.homeRecentRooms } })),
  refetchInterval: 30_000,
  refetchOnWindowFocus: true,
});

export function HomePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const name = user.data?.fullName || user.data?.email;
  return (
    <main className="page">
      <h1 className="greeting">{name ? t('home.greeting', { name }) : <span className="skeleton skeleton-title"><span className="visually-hidden">{t('common.loading')}</span></span>}</h1>
      <section className="hero">
        <GlobeIcon width={40} height={40} className="hero-icon" />
        <div>
          <h2>{t('home.headline')}</h2>
          <p>{t('home.intro')}</p>
        </div>
      </section>
      <RecentRooms />
    </main>
  );
}

function RecentRooms() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const rooms = useQuery(recentRoomsQuery);
  const accept = async (room: Room) => {
    if (!(await acceptInvitation('room', room.id))) return;
    notify.success(t('invitations.accepted', { title: room.title }));
    // The room's own queries (fetched as an invitation, if opened) and every list.
    await queryClient.invalidateQueries({ queryKey: roomKeys.room(room.id) });
    await queryClient.invalidateQueries({ queryKey: roomKeys.lists() });
  };
  const decline = async (room: Room) => {
    if (!(await declineInvitation('room', room.id))) return;
    notify.success(t('invitations.declined', { title: room.title }));
    queryClient.removeQueries({ queryKey: roomKeys.room(room.id) });
    await queryClient.invalidateQueries({ queryKey: roomKeys.lists() });
  };
  return (
    <section aria-labelledby="recent-rooms">
      <h2 id="recent-rooms">{t('home.recentRooms')}</h2>
      {rooms.isPending ? (
        <ul className="room-list" aria-busy="true">
          {Array.from({ length: 3 }, (_, i) => (
            <li key={i} className="room-card skeleton" />
          ))}
        </ul>
      ) : rooms.data === undefined ? (
        <LoadFailed message={t('home.roomsFailed')} retryLabel={t('common.retry')} onRetry={() => void rooms.refetch()} />
      ) : rooms.data.results.length === 0 ? (
        <Card className="empty-state">
          <UsersIcon width={32} height={32} />
          <p>{t('home.noRooms')}</p>
          <Link to="/room" className="btn btn-secondary">
            {t('home.goToRooms')}
          </Link>
        </Card>
      ) : (
        <RoomList rooms={rooms.data.results} onAccept={accept} onDecline={decline} />
      )}
    </section>
  );
}
