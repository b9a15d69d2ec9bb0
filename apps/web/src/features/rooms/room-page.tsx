// The room detail (/room/{roomId}): what the room is, its state with the OWNER's controls and a
// clear way into the call while Live, the reader's own settings, the participants, and the
// transcript so far (oldest first, page after page) with its downloads. Live: new and corrected
// segments, state and detail changes, participants; a removed room (or reader) leaves the page.
// Someone only invited sees the invitation instead (what the room is, Accept or Decline) and
// nothing of its content.
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROOM_ROLE, ROOM_STATE, type RoomState } from '@parla/contract/constants';
import type { Participant, Room } from '@parla/contract/rooms';
import { BookIcon, UsersIcon } from '../../components/icons';
import type { GlossaryDraft } from '../../components/glossary';
import { loadChunk } from '../../lib/load-chunk';
import { InvitationPanel } from '../../components/invitation';
import { Button, Card, LoadFailed, Spinner } from '../../components/ui';
import { notify } from '../../lib/toast';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { BackIcon, PencilIcon } from '../../components/icons';
import { LoadMore } from '../../components/load-more';
import { languageName } from '../../lib/languages';
import { useHeldConnection, useLiveStatus } from '../../lib/live';
import { useRoomInvitationAnswers } from './invitations';
import { changeRoomState, freshSession, participantQuery, roomGlossary, roomKeys, roomQuery, segmentsQuery, transcriptUrl } from './api';
import { canJoinCall, needsConfirmation, roomControls, stateActions, type StateAction } from './controls';
import { formatDate, formatList } from '../../lib/format';
import { domainKey } from './labels';
import { EditRoomDialog } from './edit-room-dialog';
import { mapRoomLists, useRoomLiveSync, useWatchRooms } from './live-sync';
import { ParticipantSettings } from './participant-settings';
import { ParticipantsDialog } from './participants-dialog';
import { RoomUnavailable, parseRoomId, useLeaveWhenRemoved } from './room-access';
import { StateBadge } from './state-badge';
import { segmentsOf } from './segments';
import { SegmentItem, TranscriptAnnouncer, useClipPlayer, useTranslator } from './transcript';
import '../../components/shared.css';
import './rooms.css';
import { CreatedNotice } from '../../components/created-notice';

const roomRoute = getRouteApi('/protected/room/$roomId');

export function RoomPage() {
  const { roomId } = roomRoute.useParams();
  const id = parseRoomId(roomId);
  if (id === null) return <RoomUnavailable />;
  return <RoomScreen key={id} roomId={id} />;
}

type Panel = 'participants' | 'edit' | 'glossary' | null;

// The glossary is opened now and then: its code loads with the dialog.
const GlossaryDialog = lazy(() => loadChunk(() => import('../../components/glossary').then((module) => ({ default: module.GlossaryDialog }))));

function RoomScreen({ roomId }: { roomId: number }) {
  const { t } = useTranslation();
  // Just created (room-list-page.tsx): what to do next, said once on its page.
  const created = useRouterState({ select: (state) => state.location.state.created === true });
  useRoomLiveSync();
  useLeaveWhenRemoved(roomId);
  const room = useQuery(roomQuery(roomId));
  const participant = useQuery(participantQuery(roomId));
  const [panel, setPanel] = useState<Panel>(null);
  // The "what next" notice goes once it was followed (the participants opened, the room Live) or
  // dismissed, and the address forgets it (it stayed for good: issue 37).
  const navigate = useNavigate();
  const [createdNotice, setCreatedNotice] = useState(created);
  const dismissCreated = useCallback(() => {
    setCreatedNotice(false);
    void navigate({ to: '/room/$roomId', params: { roomId: String(roomId) }, search: true, state: {}, replace: true, resetScroll: false });
  }, [navigate, roomId]);
  const live = room.data?.state === ROOM_STATE.LIVE;
  useEffect(() => {
    if (createdNotice && (panel === 'participants' || live)) dismissCreated();
  }, [panel, live, createdNotice, dismissCreated]);
  /** A term to add to the glossary, from a listener's correction. */
  const [glossaryDraft, setGlossaryDraft] = useState<GlossaryDraft | undefined>(undefined);
  const glossary = useMemo(() => roomGlossary(roomId), [roomId]);
  const openGlossary = useCallback((draft?: GlossaryDraft) => {
    setGlossaryDraft(draft);
    setPanel('glossary');
  }, []);
  // The room's events once the reader is known to take part (the server refuses someone only
  // invited); until they accept, only their own events (the invitation withdrawn, say).
  const state = participant.data?.memberState;
  useWatchRooms(state === 'joined' ? [roomId] : []);
  useHeldConnection(state === 'invited');

  if (room.isPending || participant.isPending) {
    return (
      <main className="page">
        <Spinner label={t('common.loading')} />
      </main>
    );
  }
  // Only a first load that failed: a failed refetch keeps the room on screen with its data.
  if (room.data === undefined || participant.data === undefined) {
    return (
      <RoomUnavailable
        onRetry={() => {
          void room.refetch();
          void participant.refetch();
        }}
      />
    );
  }
  if (participant.data.memberState === 'invited') return <RoomInvitation room={room.data} />;
  const controls = roomControls(participant.data.roomRole);
  return (
    <main className="page room-page">
      <RoomHeader room={room.data} onEdit={controls.editRoom ? () => setPanel('edit') : undefined} />
      {createdNotice && <CreatedNotice text={t('rooms.created')} onDismiss={dismissCreated} />}
      <div className="room-layout">
        <div className="room-aside">
          <StateCard room={room.data} participant={participant.data} />
          <Card className="room-card-section">
            <div className="section-head">
              <h2>{t('rooms.participants.title')}</h2>
            </div>
            <p className="muted">{controls.manageParticipants ? t('rooms.participants.ownerIntro') : t('rooms.participants.memberIntro')}</p>
            <Button variant="secondary" onClick={() => setPanel('participants')}>
              <UsersIcon />
              {controls.manageParticipants ? t('rooms.participants.manage') : t('rooms.participants.see')}
            </Button>
          </Card>
          <OwnSettingsCard room={room.data} participant={participant.data} />
          <Card className="room-card-section">
            <div className="section-head">
              <h2>{t('glossary.title')}</h2>
            </div>
            <p className="muted">{t('glossary.roomIntro')}</p>
            <Button variant="secondary" onClick={() => openGlossary()}>
              <BookIcon />
              {controls.editGlossary ? t('glossary.edit') : t('glossary.see')}
            </Button>
          </Card>
        </div>
        <TranscriptSection room={room.data} participant={participant.data} onAddToGlossary={controls.editGlossary ? openGlossary : undefined} mayWithdraw={controls.withdrawCorrections} />
      </div>
      {panel === 'glossary' && (
        <Suspense fallback={null}>
          <GlossaryDialog open onClose={() => setPanel(null)} api={glossary} languages={room.data.languages} kind="room" draft={glossaryDraft} />
        </Suspense>
      )}
      <ParticipantsDialog open={panel === 'participants'} onClose={() => setPanel(null)} room={room.data} participant={participant.data} />
      {controls.editRoom && <EditRoomDialog open={panel === 'edit'} onClose={() => setPanel(null)} room={room.data} />}
    </main>
  );
}

/** The invitation in place of the room: what it is, and the two answers. Accepted, the room itself shows. */
function RoomInvitation({ room }: { room: Room }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const answers = useRoomInvitationAnswers();
  return (
    <InvitationPanel
      title={room.title}
      intro={t('invitations.roomIntro')}
      by={room.invitedBy}
      description={room.description}
      languages={room.languages}
      back={
        <Link to="/room" className="back-link">
          <BackIcon width={18} height={18} />
          {t('rooms.back')}
        </Link>
      }
      onAccept={() => answers.accept(room)}
      onDecline={async () => {
        if (!(await answers.decline(room))) return;
        await navigate({ to: '/room' });
        queryClient.removeQueries({ queryKey: roomKeys.room(room.id) });
      }}
    />
  );
}

/** The reader's own settings said in one sentence; the form opens on demand. */
function OwnSettingsCard({ room, participant }: { room: Room; participant: Participant }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const [open, setOpen] = useState(false);
  const formArea = useRef<HTMLDivElement>(null);
  // The form opens where it is seen, its first field ready to type in.
  useEffect(() => {
    if (!open || !formArea.current) return;
    formArea.current.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
    formArea.current.querySelector<HTMLElement>('input, select, textarea')?.focus({ preventScroll: true });
  }, [open]);
  return (
    <Card className="room-card-section">
      <h2>{t('rooms.settings.title')}</h2>
      <p>
        {t(participant.maleVoice ? 'rooms.settings.summaryMale' : 'rooms.settings.summaryFemale', {
          alias: participant.alias,
          language: languageName(participant.language, uiLang, { inSentence: true }),
        })}
      </p>
      {open ? (
        <div ref={formArea}>
          <p className="muted">{t('rooms.settings.intro')}</p>
          <ParticipantSettings room={room} participant={participant} onSaved={() => setOpen(false)} />
          <Button variant="ghost" className="settings-close" onClick={() => setOpen(false)}>
            {t('chats.cancel')}
          </Button>
        </div>
      ) : (
        <Button variant="secondary" aria-expanded={false} onClick={() => setOpen(true)}>
          <PencilIcon width={16} height={16} />
          {t('rooms.settings.change')}
        </Button>
      )}
    </Card>
  );
}

function RoomHeader({ room, onEdit }: { room: Room; onEdit: (() => void) | undefined }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  return (
    <header className="room-head">
      <Link to="/room" className="back-link">
        <BackIcon width={18} height={18} />
        {t('rooms.back')}
      </Link>
      <div className="room-head-title">
        <h1 dir="auto">{room.title}</h1>
        <StateBadge state={room.state} />
      </div>
      {room.description && (
        <p className="room-description" dir="auto">
          {room.description}
        </p>
      )}
      <dl className="room-facts">
        <div>
          <dt>{t('rooms.facts.languages')}</dt>
          <dd>{formatList(room.languages.map((code) => languageName(code, uiLang)), uiLang)}</dd>
        </div>
        <div>
          <dt>{t('rooms.facts.domain')}</dt>
          <dd>{t(domainKey(room.domain))}</dd>
        </div>
        <div>
          <dt>{t('rooms.facts.role')}</dt>
          <dd>{room.roomRole === ROOM_ROLE.OWNER ? t('rooms.facts.owner') : t('rooms.facts.member')}</dd>
        </div>
        <div>
          <dt>{t('rooms.facts.created')}</dt>
          <dd>{formatDate(room.created, uiLang)}</dd>
        </div>
      </dl>
      {onEdit && (
        <Button variant="secondary" className="btn-small" onClick={onEdit}>
          <PencilIcon width={16} height={16} />
          {t('rooms.edit')}
        </Button>
      )}
    </header>
  );
}

/** The state, what it means for the reader, the OWNER's allowed changes, and the way into the call. */
function StateCard({ room, participant }: { room: Room; participant: Participant }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<{ to: RoomState; action: StateAction } | null>(null);
  const [busy, setBusy] = useState<StateAction | null>(null);
  const actions = stateActions(participant.roomRole, room.state);
  const owner = participant.roomRole === ROOM_ROLE.OWNER;

  const change = async (to: RoomState, action: StateAction) => {
    setBusy(action);
    const changed = await changeRoomState(room.id, to);
    setBusy(null);
    setAsking(null);
    if (!changed) return;
    queryClient.setQueryData(roomKeys.detail(room.id), changed);
    queryClient.setQueriesData({ queryKey: roomKeys.lists() }, (data: Parameters<typeof mapRoomLists>[0]) => mapRoomLists(data, (rooms) => rooms.map((item) => (item.id === changed.id ? changed : item))));
    // Live brings the LiveKit token (and Ended takes it away).
    void queryClient.invalidateQueries({ queryKey: roomKeys.participant(room.id) });
    notify.success(t(`rooms.state.done.${action}`));
  };

  const explanation =
    room.state === ROOM_STATE.LIVE
      ? t('rooms.state.liveText', { language: languageName(participant.language, uiLang, { inSentence: true }) })
      : room.state === ROOM_STATE.START
        ? owner
          ? t('rooms.state.startOwnerText')
          : t('rooms.state.startText')
        : owner
          ? t('rooms.state.endOwnerText')
          : t('rooms.state.endText');

  return (
    <Card className={`room-card-section state-card state-card-${room.state}`}>
      <div className="section-head">
        <h2>{t('rooms.state.title')}</h2>
        <StateBadge state={room.state} />
      </div>
      <p>{explanation}</p>
      {canJoinCall(room.state) && (
        <Link to="/room/$roomId/connect" params={{ roomId: String(room.id) }} className="btn btn-primary btn-join">
          {t('rooms.join')}
        </Link>
      )}
      {actions.length > 0 && (
        <div className="state-actions" role="group" aria-label={t('rooms.state.actionsLabel')}>
          {actions.map(({ to, action }) => (
            <Button
              key={action}
              variant={action === 'start' || action === 'reopen' ? (canJoinCall(room.state) ? 'secondary' : 'primary') : 'danger'}
              busy={busy === action}
              onClick={() => (needsConfirmation(action) ? setAsking({ to, action }) : void change(to, action))}
            >
              {t(`rooms.state.action.${action}`)}
            </Button>
          ))}
        </div>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={asking ? t(`rooms.state.confirm.${asking.action}Title`) : ''}
        message={asking ? t(`rooms.state.confirm.${asking.action}Text`) : ''}
        confirmLabel={asking ? t(`rooms.state.action.${asking.action}`) : ''}
        busy={busy !== null}
        onConfirm={() => asking && void change(asking.to, asking.action)}
        onClose={() => setAsking(null)}
      />
    </Card>
  );
}

function TranscriptSection({
  room,
  participant,
  onAddToGlossary,
  mayWithdraw,
}: {
  room: Room;
  participant: Participant;
  onAddToGlossary?: ((draft: GlossaryDraft) => void) | undefined;
  mayWithdraw: boolean;
}) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const query = useInfiniteQuery(segmentsQuery(room.id));
  const segments = useMemo(() => segmentsOf(query.data), [query.data]);
  const translator = useTranslator();
  const clip = useClipPlayer();
  const live = useLiveStatus();
  const total = query.data?.pages.at(-1)?.count ?? segments.length;
  return (
    <section className="transcript-section card" aria-labelledby="transcript-title">
      <div className="section-head">
        <h2 id="transcript-title">{t('rooms.transcript.title')}</h2>
        {segments.length > 0 && <TranscriptDownloads roomId={room.id} />}
      </div>
      <p className="muted">
        {t('rooms.transcript.intro', { language: languageName(participant.language, uiLang, { inSentence: true }) })}
      </p>
      {live === 'reconnecting' && <p className="live-status">{t('chats.reconnecting')}</p>}
      <TranscriptAnnouncer roomId={room.id} readerLanguage={participant.language} />
      {query.isPending ? (
        <Spinner label={t('rooms.transcript.loading')} />
      ) : query.data === undefined ? (
        <LoadFailed message={t('rooms.transcript.failed')} retryLabel={t('common.retry')} onRetry={() => void query.refetch()} />
      ) : segments.length === 0 ? (
        <p className="transcript-empty">{room.state === ROOM_STATE.LIVE ? t('rooms.transcript.emptyLive') : t('rooms.transcript.empty')}</p>
      ) : (
        <>
          <p className="muted transcript-count">{t('rooms.transcript.count', { count: total })}</p>
          <ol className="transcript" aria-label={t('rooms.transcript.title')}>
            {segments.map((segment) => (
              <SegmentItem key={segment.id} roomId={room.id} segment={segment} readerLanguage={participant.language} translator={translator} clip={clip} onAddToGlossary={onAddToGlossary} mayWithdraw={mayWithdraw} />
            ))}
          </ol>
          <LoadMore pages={query} label={t('rooms.transcript.loadMore')} loadingLabel={t('rooms.transcript.loadingMore')} />
        </>
      )}
    </section>
  );
}

/** The .txt and .srt downloads of the whole transcript in the reader's language. */
function TranscriptDownloads({ roomId }: { roomId: number }) {
  const { t } = useTranslation();
  const download = (format: 'txt' | 'srt') => async (event: React.MouseEvent<HTMLAnchorElement>) => {
    // The browser fetches the file with the access cookie: refresh it first when due.
    event.preventDefault();
    await freshSession();
    window.location.assign(transcriptUrl(roomId, format));
  };
  return (
    <div className="transcript-downloads" role="group" aria-label={t('rooms.transcript.download')}>
      <a className="btn btn-secondary btn-small" href={transcriptUrl(roomId, 'txt')} download onClick={(event) => void download('txt')(event)}>
        {t('rooms.transcript.txt')}
      </a>
      <a className="btn btn-secondary btn-small" href={transcriptUrl(roomId, 'srt')} download onClick={(event) => void download('srt')(event)}>
        {t('rooms.transcript.srt')}
      </a>
    </div>
  );
}
