// The room list (/room): the reader's pending invitations first (accept or decline in place),
// then their rooms, newest first, more loaded by following each page's `next` link as the reader
// scrolls, their state kept live (a room going Live says so at once, a new invitation shows up);
// and the form to create a room.
import { useMemo, useState } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROOM_ROLE, ROOM_STATE } from '@parla/contract/constants';
import type { Room } from '@parla/contract/rooms';
import { ChevronIcon, CrownIcon, RoomIcon, UsersIcon } from '../../components/icons';
import { InvitationCard } from '../../components/invitation';
import { Button, Card, LoadFailed } from '../../components/ui';
import { useHeldConnection } from '../../lib/live';
import { INTERFACE_LANGUAGES } from '../../lib/i18n';
import { Dialog } from '../../components/dialog';
import { PlusIcon } from '../../components/icons';
import { LoadMore } from '../../components/load-more';
import { languageName } from '../../lib/languages';
import { createRoom, roomKeys, roomListQuery } from './api';
import { useRoomInvitationAnswers } from './invitations';
import { domainKey } from './labels';
import { useRoomLiveSync, useWatchRooms } from './live-sync';
import { RoomForm, newRoomValues } from './room-form';
import { StateBadge } from './state-badge';
import '../../components/shared.css';
import './rooms.css';

export function RoomsPage() {
  const { t } = useTranslation();
  useRoomLiveSync();
  const list = useInfiniteQuery({ ...roomListQuery, refetchOnWindowFocus: true });
  const rooms = useMemo(() => {
    const seen = new Map<number, Room>();
    for (const page of list.data?.pages ?? []) for (const room of page.results) if (!seen.has(room.id)) seen.set(room.id, room);
    return [...seen.values()];
  }, [list.data]);
  // Rooms the reader joined are watched; an invitation (or a new one) reaches the reader's own
  // connection, held open even when there is no room to watch.
  useWatchRooms(useMemo(() => rooms.filter((room) => room.memberState === 'joined').map((room) => room.id), [rooms]));
  useHeldConnection();
  const [creating, setCreating] = useState(false);

  return (
    <main className="page room-list-page">
      <div className="page-head">
        <h1>{t('rooms.title')}</h1>
        <Button onClick={() => setCreating(true)}>
          <PlusIcon />
          {t('rooms.new')}
        </Button>
      </div>
      <p className="muted">{t('rooms.intro')}</p>
      {list.isPending ? (
        <ul className="room-rows" aria-busy="true" aria-label={t('common.loading')}>
          {Array.from({ length: 4 }, (_, index) => (
            <li key={index} className="room-row skeleton" />
          ))}
        </ul>
      ) : list.data === undefined ? (
        <LoadFailed message={t('rooms.listFailed')} retryLabel={t('common.retry')} onRetry={() => void list.refetch()} />
      ) : rooms.length === 0 ? (
        <Card className="empty-state">
          <RoomIcon width={32} height={32} />
          <p>{t('rooms.empty')}</p>
          <Button variant="secondary" onClick={() => setCreating(true)}>
            {t('rooms.createFirst')}
          </Button>
        </Card>
      ) : (
        <>
          <p className="muted room-count" role="status">
            {t('rooms.count', { count: list.data.pages[0]?.count ?? rooms.length })}
          </p>
          <ul className="room-rows">
            {rooms.map((room) => (room.memberState === 'invited' ? <RoomInvitation key={room.id} room={room} /> : <RoomRow key={room.id} room={room} />))}
          </ul>
          <LoadMore pages={list} label={t('rooms.loadMore')} />
        </>
      )}
      <CreateRoomDialog open={creating} onClose={() => setCreating(false)} />
    </main>
  );
}

function RoomInvitation({ room }: { room: Room }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const answers = useRoomInvitationAnswers();
  return (
    <li>
      <InvitationCard
        title={room.title}
        hint={room.invitedBy ? t('invitations.roomHintBy', { name: room.invitedBy }) : t('invitations.roomHint')}
        link={{ to: '/room/$roomId', params: { roomId: String(room.id) } }}
        onAccept={() => answers.accept(room)}
        onDecline={async () => {
          if (await answers.decline(room)) queryClient.removeQueries({ queryKey: roomKeys.room(room.id) });
        }}
      />
    </li>
  );
}

function RoomRow({ room }: { room: Room }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const owner = room.roomRole === ROOM_ROLE.OWNER;
  return (
    <li>
      <Link to="/room/$roomId" params={{ roomId: String(room.id) }} className={`room-row${room.state === ROOM_STATE.LIVE ? ' live' : ''}`}>
        <span className="room-row-icon">{owner ? <CrownIcon title={t('rooms.owner')} /> : <UsersIcon title={t('rooms.member')} />}</span>
        <span className="room-row-main">
          <span className="room-row-top">
            <span className="room-row-title" dir="auto">
              {room.title}
            </span>
            <StateBadge state={room.state} />
          </span>
          {room.description && (
            <span className="room-row-description" dir="auto">
              {room.description}
            </span>
          )}
          <span className="room-row-meta">
            {room.languages.map((code) => languageName(code, uiLang)).join(' · ')}
            {room.domain !== 'DEFAULT' && <> — {t(domainKey(room.domain))}</>}
          </span>
        </span>
        <ChevronIcon className="chevron" />
      </Link>
    </li>
  );
}


function CreateRoomDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  return (
    <Dialog open={open} onClose={onClose} title={t('rooms.createTitle')} wide>
      <p className="muted">{t('rooms.createIntro')}</p>
      <RoomForm
        initial={newRoomValues(uiLang, INTERFACE_LANGUAGES)}
        submitLabel={t('rooms.create')}
        onSubmit={async (body) => {
          const room = await createRoom(body);
          if (!room) return false;
          queryClient.setQueryData(roomKeys.detail(room.id), room);
          void queryClient.invalidateQueries({ queryKey: roomKeys.lists() });
          onClose();
          // Said on the room's page, not in a toast over its buttons.
          await navigate({ to: '/room/$roomId', params: { roomId: String(room.id) }, state: (previous) => ({ ...previous, created: true }) });
          return true;
        }}
      />
    </Dialog>
  );
}
