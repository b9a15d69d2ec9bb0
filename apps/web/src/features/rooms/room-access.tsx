// Opening a room's pages: a path id the API could hold, the page shown when the room cannot be
// opened, and leaving when the room is gone or the reader was removed. Shared by the room page and the call.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@parla/contract/constants';
import { LoadFailed } from '../../components/ui';
import { addLiveListener } from '../../lib/live';
import { notify } from '../../lib/toast';
import { roomKeys } from './api';
import { isRemovalExpected } from './live-sync';

/** A path id the API could hold (else the page says the room is not available without asking). */
export const parseRoomId = (value: string) => {
  const id = Number(value);
  return /^\d+$/.test(value) && id >= 1 && id <= LIMITS.idMax ? id : null;
};

export function RoomUnavailable({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <main className="page">
      <h1>{t('rooms.unavailableTitle')}</h1>
      {onRetry ? <LoadFailed message={t('rooms.unavailable')} retryLabel={t('common.retry')} onRetry={onRetry} /> : <p>{t('rooms.unavailable')}</p>}
      <p>
        <Link to="/room">{t('rooms.back')}</Link>
      </p>
    </main>
  );
}

/** Leaves a room page for the list when the room is gone or the reader was removed (not when they left themselves). */
export function useLeaveWhenRemoved(roomId: number) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const leave = (removedId: number) => {
      if (removedId !== roomId || isRemovalExpected(roomId)) return;
      notify.info(t('rooms.removedNotice'));
      void navigate({ to: '/room', replace: true }).then(() => queryClient.removeQueries({ queryKey: roomKeys.room(roomId) }));
    };
    return addLiveListener({ 'room:removed': ({ roomId: removedId }) => leave(removedId), refused: (topic) => topic.kind === 'room' && leave(topic.id) });
  }, [roomId, navigate, queryClient, t]);
}
