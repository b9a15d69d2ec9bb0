import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS, ROOM_ROLE } from '@parla/contract/constants';
import type { RoomsPage } from '@parla/contract/rooms';
import { ChevronIcon, CrownIcon, GlobeIcon, UsersIcon } from '../../components/icons';
import { Button, Card } from '../../components/ui';
import { fetchOrThrow } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';

const recentRoomsQuery = queryOptions({
  queryKey: ['rooms', 'list', { limit: LIMITS.homeRecentRooms }],
  queryFn: () => fetchOrThrow<RoomsPage>({ method: 'GET', url: '/api/rooms/', params: { limit: LIMITS.homeRecentRooms } }),
});

export function HomePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const name = user.data?.fullName || user.data?.email;
  return (
    <main className="page">
      <h1 className="greeting">{name ? t('home.greeting', { name }) : <span className="skeleton skeleton-title" aria-label={t('common.loading')} />}</h1>
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
  const rooms = useQuery(recentRoomsQuery);
  return (
    <section aria-labelledby="recent-rooms">
      <h2 id="recent-rooms">{t('home.recentRooms')}</h2>
      {rooms.isPending ? (
        <ul className="room-list" aria-busy="true">
          {Array.from({ length: 3 }, (_, i) => (
            <li key={i} className="room-card skeleton" />
          ))}
        </ul>
      ) : rooms.isError ? (
        <Card>
          <p>{t('home.roomsFailed')}</p>
          <Button variant="secondary" onClick={() => void rooms.refetch()}>
            {t('common.retry')}
          </Button>
        </Card>
      ) : rooms.data.results.length === 0 ? (
        <Card className="empty-state">
          <UsersIcon width={32} height={32} />
          <p>{t('home.noRooms')}</p>
          <Link to="/room" className="btn btn-secondary">
            {t('home.goToRooms')}
          </Link>
        </Card>
      ) : (
        <ul className="room-list">
          {rooms.data.results.map((room) => (
            <li key={room.id}>
              <Link to="/room/$roomId" params={{ roomId: String(room.id) }} className="room-card">
                {room.roomRole === ROOM_ROLE.OWNER ? <CrownIcon title={t('rooms.owner')} /> : <UsersIcon title={t('rooms.member')} />}
                <span className="room-title">{room.title}</span>
                <ChevronIcon className="chevron" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
