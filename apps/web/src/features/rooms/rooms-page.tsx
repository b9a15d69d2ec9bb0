// Room list (the user's rooms) and room detail. Creating and running rooms come with the rooms
// work; until then the detail says so.
import { useQuery } from '@tanstack/react-query';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { RoomsPage as RoomsPageBody } from '@parla/contract/rooms';
import { UsersIcon } from '../../components/icons';
import { RoomList } from '../../components/room-list';
import { Card, LoadFailed, Spinner } from '../../components/ui';
import { fetchOrThrow } from '../../lib/api';

export function RoomsPage() {
  const { t } = useTranslation();
  const rooms = useQuery({
    queryKey: ['rooms', 'list', { limit: 50 }],
    queryFn: () => fetchOrThrow<RoomsPageBody>({ method: 'GET', url: '/api/rooms/', params: { limit: 50 } }),
  });
  return (
    <main className="page">
      <h1>{t('rooms.title')}</h1>
      <p className="muted">{t('rooms.intro')}</p>
      {rooms.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : rooms.isError ? (
        <LoadFailed message={t('home.roomsFailed')} retryLabel={t('common.retry')} onRetry={() => void rooms.refetch()} />
      ) : rooms.data.results.length === 0 ? (
        <Card className="empty-state">
          <UsersIcon width={32} height={32} />
          <p>{t('rooms.empty')}</p>
        </Card>
      ) : (
        <RoomList rooms={rooms.data.results} />
      )}
    </main>
  );
}

const roomRoute = getRouteApi('/protected/room/$roomId');

export function RoomPage() {
  const { t } = useTranslation();
  const { roomId } = roomRoute.useParams();
  return (
    <main className="page">
      <h1>{t('rooms.detailTitle', { id: roomId })}</h1>
      <Card>
        <p>{t('rooms.detailComing')}</p>
        <Link to="/room" className="btn btn-secondary">
          {t('rooms.back')}
        </Link>
      </Card>
    </main>
  );
}
