// The live call screen (full screen, no navigation chrome). The call itself comes with the rooms
// and speech work.
import { Link, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

const route = getRouteApi('/fullscreen/room/$roomId/connect');

export function CallPage() {
  const { t } = useTranslation();
  const { roomId } = route.useParams();
  return (
    <main className="call-screen">
      <h1>{t('call.title')}</h1>
      <p>{t('call.coming')}</p>
      <Link to="/room/$roomId" params={{ roomId }} className="btn btn-secondary">
        {t('call.leave')}
      </Link>
    </main>
  );
}
