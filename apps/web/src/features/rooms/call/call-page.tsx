// The live call (/room/{roomId}/connect, full screen): the video grid (LiveKit's when one is
// configured, else the participants connected directly, mesh-stage.tsx), the live
// transcript in the listener's language, the others' translated voices played in order (their own
// voices lowered meanwhile), and the listener's own speech captured by voice activity detection
// and sent utterance by utterance. Microphone, camera, voices and leave at the bottom. LiveKit,
// vad-web and onnxruntime load with this route only.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ROOM_STATE, SPEECH_STREAM } from '@parla/contract/constants';
import type { Participant, Room, Segment } from '@parla/contract/rooms';
import { Button, Spinner } from '../../../components/ui';
import { BackIcon } from '../../../components/icons';
import { languageName } from '../../../lib/languages';
import { translationInfoQuery } from '../../../lib/queries';
import { transcribes } from '../../../lib/translation-info';
import { useLiveStatus } from '../../../lib/live';
import { participantQuery, roomKeys, roomQuery, segmentsQuery } from '../api';
import { useRoomLiveSync, useWatchRooms } from '../live-sync';
import { parseRoomId, useLeaveWhenRemoved } from '../room-access';
import { segmentsOf, upsertSegment, type SegmentPages } from '../segments';
import { SegmentItem, TranscriptAnnouncer, useClipPlayer, useTranslator } from '../transcript';
import { coveredSegments, useRoomPartials, type ShownPartial } from '../partials';
import { PartialItem } from '../partial-item';
import { CameraIcon, CameraOffIcon, LeaveIcon, MicIcon, MicOffIcon, SpeakerIcon, SpeakerOffIcon } from './icons';
import { LivekitStage, useLivekitRoom } from './livekit-stage';
import { MeshStage } from './mesh-stage';
import { PreJoin, type JoinChoice } from './pre-join';
import { useMeshCall, type LocalMedia } from './use-mesh-call';
import { useSpeechCapture, type CaptureState } from './use-speech-capture';
import { useVoicePlayback } from './use-voice-playback';
import '../../../components/shared.css';
import '../rooms.css';
import './call.css';

const route = getRouteApi('/fullscreen/room/$roomId/connect');

export function CallPage() {
  const { roomId } = route.useParams();
  const id = parseRoomId(roomId);
  if (id === null) return <CallNotice roomId={roomId} title="call.unavailableTitle" text="call.unavailable" />;
  return <CallScreen key={id} roomId={id} />;
}

function CallNotice({ roomId, title, text, busy = false }: { roomId: string; title: string; text: string; busy?: boolean }) {
  const { t } = useTranslation();
  return (
    <main className="call-screen call-closed">
      <div className="call-closed-box">
        {busy ? <Spinner label={t('common.loading')} /> : <h1>{t(title)}</h1>}
        {!busy && <p>{t(text)}</p>}
        <Link to="/room/$roomId" params={{ roomId }} className="btn btn-secondary">
          {t('call.backToRoom')}
        </Link>
      </div>
    </main>
  );
}

function CallScreen({ roomId }: { roomId: number }) {
  useRoomLiveSync();
  useLeaveWhenRemoved(roomId);
  const room = useQuery(roomQuery(roomId));
  const participant = useQuery(participantQuery(roomId));
  // Watched once the reader is known to take part: someone only invited has no call to join.
  useWatchRooms(participant.data?.memberState === 'joined' ? [roomId] : []);
  if (room.isPending || participant.isPending) return <CallNotice roomId={String(roomId)} title="" text="" busy />;
  // Only a first load that failed: a failed refetch keeps the call going with the data it had.
  if (room.data === undefined || participant.data === undefined) return <CallNotice roomId={String(roomId)} title="call.unavailableTitle" text="call.unavailable" />;
  // Invited, not joined: the room's page offers the invitation.
  if (participant.data.memberState === 'invited') return <Navigate to="/room/$roomId" params={{ roomId: String(roomId) }} replace />;
  if (room.data.state !== ROOM_STATE.LIVE) {
    return <CallNotice roomId={String(roomId)} title={room.data.state === ROOM_STATE.END ? 'call.endedTitle' : 'call.notStartedTitle'} text={room.data.state === ROOM_STATE.END ? 'call.ended' : 'call.notStarted'} />;
  }
  // The token comes with Live: wait for the participation fetched after the change.
  if (!participant.data.lkToken && participant.data.lkUrl && participant.isFetching) return <CallNotice roomId={String(roomId)} title="" text="" busy />;
  return <LiveCall room={room.data} participant={participant.data} />;
}

function LiveCall({ room, participant }: { room: Room; participant: Participant }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [microphone, setMicrophone] = useState(true);
  const [camera, setCamera] = useState(false);
  const [voices, setVoices] = useState(true);
  const [voicesVolume, setVoicesVolume] = useState(1);
  // Nothing is sent before "Join now" on the check screen (pre-join.tsx).
  const [joined, setJoined] = useState<JoinChoice | null>(null);
  useEffect(() => () => joined?.stream?.getTracks().forEach((track) => track.stop()), [joined]);

  const query = useInfiniteQuery(segmentsQuery(room.id));
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  // The call shows the whole transcript so far, so new segments land after the last one held.
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);
  const segments = useMemo(() => (query.data && !hasNextPage ? segmentsOf(query.data) : undefined), [query.data, hasNextPage]);

  // A LiveKit token lives 10 minutes: a new connection (Retry, after a lost one) asks for a fresh one first.
  const refreshToken = useCallback(
    () =>
      queryClient
        .fetchQuery({ ...participantQuery(room.id), staleTime: 0 })
        .then((fresh) => fresh.lkToken)
        .catch(() => undefined),
    [queryClient, room.id],
  );
  const livekit = useLivekitRoom(joined ? participant.lkUrl : null, joined ? participant.lkToken : null, { microphone, camera }, refreshToken);
  // Without a call server the participants connect to each other directly (a mesh).
  const usesLivekit = participant.lkUrl !== null;
  const local = useMemo<LocalMedia>(
    () => ({ stream: joined?.stream ?? null, hasMicrophone: !!joined?.stream?.getAudioTracks().length, hasCamera: !!joined?.stream?.getVideoTracks().length, ready: !!joined }),
    [joined],
  );
  const meshMedia = useMemo(() => ({ microphone, camera }), [microphone, camera]);
  const mesh = useMeshCall(room.id, local, meshMedia, !usesLivekit && !!joined);
  const join = (choice: JoinChoice) => {
    setMicrophone(choice.microphone);
    setCamera(choice.camera);
    // LiveKit opens the devices itself.
    if (usesLivekit) choice.stream?.getTracks().forEach((track) => track.stop());
    setJoined(usesLivekit ? { ...choice, stream: null } : choice);
  };
  const player = useRef<HTMLAudioElement>(null);
  const playback = useVoicePlayback(player, segments, participant.language, voices, voicesVolume);
  const onUploaded = useCallback(
    (segment: Segment) => queryClient.setQueryData<SegmentPages>(roomKeys.segments(room.id), (data) => upsertSegment(data, segment)),
    [queryClient, room.id],
  );
  // The speech detector's model loads while the check screen is shown.
  const capture = useSpeechCapture(room.id, !!joined && microphone, onUploaded, true);
  // Words still being spoken (live interpreting), for this listener.
  const partials = useRoomPartials(room.id, segments);
  const transcribing = (segments ?? []).some((segment) => segment.isMe && segment.transcription === 'pending');
  // Said before anyone speaks: the server cannot transcribe this language (offline speech is US English only).
  const info = useQuery(translationInfoQuery).data;
  const notTranscribed = info && !transcribes(info, participant.language) ? t('call.notTranscribed', { language: languageName(participant.language, uiLang, { inSentence: true }) }) : null;
  const leave = () => void navigate({ to: '/room/$roomId', params: { roomId: String(room.id) } });

  return (
    <main className="call-screen">
      <header className="call-head">
        <Link to="/room/$roomId" params={{ roomId: String(room.id) }} className="icon-btn call-back" aria-label={t('call.backToRoom')}>
          <BackIcon />
        </Link>
        <div className="call-head-main">
          <h1 className="call-title">
            <span dir="auto">{room.title}</span>
          </h1>
          <p className="call-sub">
            <span className="state-badge state-3002">
              <span className="live-dot" aria-hidden="true" />
              {t('rooms.states.live')}
            </span>
            <span>{t('call.youSpeak', { language: languageName(participant.language, uiLang, { inSentence: true }) })}</span>
          </p>
          {notTranscribed && <p className="call-warning">{notTranscribed}</p>}
        </div>
      </header>
      <div className={`call-body${joined ? '' : ' call-body-prejoin'}`}>
        <section className="call-stage" aria-label={t('call.stage.label')}>
          {!joined ? (
            <PreJoin onJoin={join} />
          ) : usesLivekit ? (
            <LivekitStage livekit={livekit} url={participant.lkUrl} playing={voices ? playback.playing : null} />
          ) : (
            <MeshStage mesh={mesh} local={local} alias={participant.alias} media={meshMedia} playing={voices ? playback.playing : null} />
          )}
          {joined && <Caption segments={segments} partials={partials} selfId={participant.id} />}
        </section>
        <section className="call-transcript" aria-labelledby="call-transcript-title">
          <div className="call-section-head">
            <h2 id="call-transcript-title" className="call-section-title">
              {t('call.transcript')}
            </h2>
            <label className="voices-volume">
              <SpeakerIcon />
              <span className="visually-hidden">{t('call.voices.volume')}</span>
              <input type="range" min={0} max={100} step={5} value={Math.round(voicesVolume * 100)} onChange={(event) => setVoicesVolume(Number(event.target.value) / 100)} disabled={!voices} aria-valuetext={`${Math.round(voicesVolume * 100)} %`} />
            </label>
          </div>
          <CallTranscript room={room} participant={participant} segments={segments} partials={partials} failed={(query.isError && query.data === undefined) || isFetchNextPageError} onRetry={() => void query.refetch()} speakingId={playback.playing?.id} />
        </section>
      </div>
      {joined && <CaptureLine state={capture.state} transcribing={transcribing} error={capture.error?.kind} onRetry={capture.retry} streaming={capture.streaming} behindMs={capture.behindMs} />}
      {playback.skipped > 0 && (
        <p className="call-skipped" role="status">
          {t('call.voices.skipped', { count: playback.skipped })}
        </p>
      )}
      {(playback.blocked || livekit.audioBlocked) && (
        <div className="call-sound-blocked" role="alert">
          <span>{t('call.voices.blocked')}</span>
          <Button
            className="btn-small"
            onClick={() => {
              playback.unblock();
              livekit.startAudio();
            }}
          >
            {t('call.voices.turnOn')}
          </Button>
        </div>
      )}
      {joined && (
        <footer className="call-controls" aria-label={t('call.controls')}>
          <ControlButton
            on={microphone}
            onToggle={() => setMicrophone((value) => !value)}
            label={t('call.microphone')}
            onText={t('call.microphoneOn')}
            offText={t('call.microphoneOff')}
            icon={microphone ? <MicIcon /> : <MicOffIcon />}
            disabled={!usesLivekit && !local.hasMicrophone}
            title={!usesLivekit && !local.hasMicrophone ? t('call.capture.error.noMicrophone') : undefined}
          />
          <ControlButton
            on={camera}
            onToggle={() => setCamera((value) => !value)}
            label={t('call.camera')}
            onText={t('call.cameraOn')}
            offText={t('call.cameraOff')}
            icon={camera ? <CameraIcon /> : <CameraOffIcon />}
            disabled={usesLivekit ? livekit.status !== 'connected' : !local.hasCamera}
            title={usesLivekit ? (livekit.status !== 'connected' ? t('call.cameraNeedsLivekit') : undefined) : local.ready && !local.hasCamera ? t('call.cameraMissing') : undefined}
          />
          <ControlButton on={voices} onToggle={() => setVoices((value) => !value)} label={t('call.voices.label')} onText={t('call.voices.on')} offText={t('call.voices.off')} icon={voices ? <SpeakerIcon /> : <SpeakerOffIcon />} />
          <button type="button" className="call-control call-leave" onClick={leave}>
            <LeaveIcon />
            <span>{t('call.leave')}</span>
          </button>
        </footer>
      )}
      <audio ref={player} className="voice-player" aria-hidden="true" preload="auto" />
    </main>
  );
}

function ControlButton({
  on,
  onToggle,
  label,
  onText,
  offText,
  icon,
  disabled = false,
  title,
}: {
  on: boolean;
  onToggle: () => void;
  label: string;
  onText: string;
  offText: string;
  icon: React.ReactNode;
  disabled?: boolean;
  title?: string | undefined;
}) {
  return (
    <button type="button" className={`call-control${on ? ' on' : ' off'}`} aria-pressed={on} onClick={onToggle} disabled={disabled} title={title}>
      {icon}
      <span className="call-control-text">
        <span>{label}</span>
        <span className="call-control-state">{on ? onText : offText}</span>
      </span>
    </button>
  );
}

/** How long the last thing someone else said stays over the video. */
const CAPTION_MS = 8_000;

/**
 * The others' latest words over the video, in the listener's language (as the transcript shows
 * them), for a few seconds after they change. Screen readers get them from the transcript's own
 * announcements, so this is not announced again.
 */
function Caption({ segments, partials, selfId }: { segments: Segment[] | undefined; partials: readonly ShownPartial[]; selfId: number }) {
  // Someone speaking now comes first (their words so far), else the last thing said.
  const speaking = partials.findLast((partial) => partial.speaker.id !== selfId && partial.text.trim() !== '');
  const said = segments?.findLast((segment) => !segment.isMe && segment.transcription === 'done' && segment.transcript.trim() !== '');
  const last = speaking ? { id: speaking.utterance, transcript: speaking.text, speaker: speaking.speaker } : said;
  const key = last ? `${last.id}:${last.transcript}` : '';
  const [shown, setShown] = useState('');
  useEffect(() => {
    if (!key) return;
    setShown(key);
    const timer = setTimeout(() => setShown((current) => (current === key ? '' : current)), CAPTION_MS);
    return () => clearTimeout(timer);
  }, [key]);
  if (!last || shown !== key) return null;
  return (
    <p className={`stage-caption${speaking ? ' provisional' : ''}`} aria-hidden="true" dir="auto">
      <span className="stage-caption-who">{last.speaker.alias}</span> {last.transcript}
    </p>
  );
}

/** What happens to what the listener says, plainly: off, listening, hearing, sending, transcribing. */
function CaptureLine({
  state,
  transcribing,
  error,
  onRetry,
  streaming,
  behindMs,
}: {
  state: CaptureState;
  transcribing: boolean;
  error: string | undefined;
  onRetry: () => void;
  streaming: boolean;
  behindMs: number;
}) {
  const { t } = useTranslation();
  const text =
    state === 'error'
      ? t(`call.capture.error.${error ?? 'failed'}`)
      : streaming && behindMs > SPEECH_STREAM.behindNoticeMs && state !== 'off'
        ? t('call.capture.behind', { count: Math.round(behindMs / 1000) })
        : state === 'listening' && transcribing
          ? t('call.capture.transcribing')
          : state === 'listening' && streaming
            ? t('call.capture.listeningLive')
            : t(`call.capture.${state}`);
  return (
    <div className={`capture-line capture-${state}`} role="status" aria-live="polite">
      <span className="capture-dot" aria-hidden="true" />
      <span className="capture-text">{text}</span>
      {state === 'error' && (
        <Button variant="secondary" className="btn-small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      )}
    </div>
  );
}

/** The transcript of the call, newest at the bottom, kept in view while the listener is there. */
function CallTranscript({
  room,
  participant,
  segments,
  partials,
  failed,
  onRetry,
  speakingId,
}: {
  room: Room;
  participant: Participant;
  segments: Segment[] | undefined;
  partials: readonly ShownPartial[];
  failed: boolean;
  onRetry: () => void;
  speakingId: number | undefined;
}) {
  const { t } = useTranslation();
  const translator = useTranslator();
  const clip = useClipPlayer();
  const live = useLiveStatus();
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const last = segments?.at(-1);
  const lastPartial = partials.at(-1);
  const lastKey = `${last ? `${last.id}:${last.transcript.length}:${last.translation}:${segments?.length}` : ''}|${lastPartial ? `${lastPartial.utterance}:${lastPartial.text.length}:${partials.length}` : ''}`;
  // A stored utterance's partial stands in for its segment until the segment shows this listener's text.
  const covered = coveredSegments(partials);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && stick.current) element.scrollTop = element.scrollHeight;
  }, [lastKey]);

  return (
    <div
      ref={scroller}
      className="call-transcript-scroller"
      tabIndex={0}
      role="region"
      aria-label={t('call.transcript')}
      onScroll={(event) => {
        const element = event.currentTarget;
        stick.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
      }}
    >
      {live === 'reconnecting' && <p className="live-status">{t('chats.reconnecting')}</p>}
      <TranscriptAnnouncer roomId={room.id} readerLanguage={participant.language} />
      {failed ? (
        <div className="call-empty">
          <p>{t('rooms.transcript.failed')}</p>
          <Button variant="secondary" className="btn-small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </div>
      ) : !segments ? (
        <Spinner label={t('rooms.transcript.loading')} />
      ) : segments.length === 0 && partials.length === 0 ? (
        <p className="call-empty">{t('call.transcriptEmpty')}</p>
      ) : (
        <ol className="transcript call-lines">
          {segments
            .filter((segment) => !covered.has(segment.id))
            .map((segment) => (
              <SegmentItem key={segment.id} roomId={room.id} segment={segment} readerLanguage={participant.language} translator={translator} clip={clip} speaking={segment.id === speakingId} />
            ))}
          {partials.map((partial) => (
            <PartialItem key={partial.utterance} partial={partial} readerLanguage={participant.language} isMe={partial.speaker.id === participant.id} />
          ))}
        </ol>
      )}
    </div>
  );
}
