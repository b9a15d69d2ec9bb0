// The call's video and the speakers' own voices through LiveKit (livekit-client with
// @livekit/components-react's hooks), with `lkToken` and `lkUrl` from the own participation.
// Without a LiveKit server, or one that cannot be reached, it says so plainly; the rest of the
// call (transcript, translated voices, speech capture) does not depend on it.
import { useEffect, useState } from 'react';
import { RoomAudioRenderer, RoomContext, VideoTrack, isTrackReference, useIsSpeaking, useRemoteParticipants, useTracks, type TrackReferenceOrPlaceholder } from '@livekit/components-react';
import { Room, RoomEvent, Track } from 'livekit-client';
import { useTranslation } from 'react-i18next';
import type { Segment } from '@parla/contract/rooms';
import { Button } from '../../../components/ui';
import { speakerVolumes } from './voice-queue';

export type StageStatus = 'unconfigured' | 'connecting' | 'connected' | 'failed' | 'disconnected';

/** How long a connection may take before the call says LiveKit cannot be reached. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * One LiveKit room for the call: connected while the page shows it, again on `retry`. Tokens are
 * short-lived (10 minutes): `retry` asks for a fresh one (`refreshToken`: the participation
 * fetched again) before it connects again.
 */
export function useLivekitRoom(
  url: string | null,
  token: string | null,
  media: { microphone: boolean; camera: boolean },
  /** The participation fetched again: its lkToken (undefined when that failed). */
  refreshToken: () => Promise<string | null | undefined> = () => Promise.resolve(undefined),
) {
  const [room, setRoom] = useState<Room | null>(null);
  const [status, setStatus] = useState<StageStatus>(url && token ? 'connecting' : 'unconfigured');
  const [error, setError] = useState('');
  const [attempt, setAttempt] = useState(0);
  /** The browser holds the speakers' voices back until a gesture (autoplay policy). */
  const [audioBlocked, setAudioBlocked] = useState(false);

  useEffect(() => {
    if (!url || !token) {
      setStatus('unconfigured');
      return;
    }
    const created = new Room({ adaptiveStream: true, dynacast: true });
    let cancelled = false;
    setStatus('connecting');
    setError('');
    created.on(RoomEvent.AudioPlaybackStatusChanged, () => {
      if (!cancelled) setAudioBlocked(!created.canPlaybackAudio);
    });
    created.on(RoomEvent.Disconnected, () => {
      if (cancelled) return;
      setRoom(null);
      setStatus((current) => (current === 'connected' ? 'disconnected' : current));
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), CONNECT_TIMEOUT_MS);
    });
    Promise.race([created.connect(url, token, { autoSubscribe: true, maxRetries: 0 }), timeout])
      .finally(() => clearTimeout(timer))
      .then(() => {
        if (cancelled) return;
        setRoom(created);
        setStatus('connected');
      })
      .catch((failure: unknown) => {
        void created.disconnect();
        if (cancelled) return;
        setError(failure instanceof Error ? failure.message : String(failure));
        setStatus('failed');
      });
    return () => {
      cancelled = true;
      setRoom(null);
      void created.disconnect();
    };
  }, [url, token, attempt]);

  // The microphone and camera follow the call's buttons.
  useEffect(() => {
    if (!room) return;
    room.localParticipant.setMicrophoneEnabled(media.microphone).catch(() => undefined);
  }, [room, media.microphone]);
  useEffect(() => {
    if (!room) return;
    room.localParticipant.setCameraEnabled(media.camera).catch(() => undefined);
  }, [room, media.camera]);

  return {
    room,
    status,
    error,
    audioBlocked: audioBlocked && status === 'connected',
    retry: () => {
      setStatus('connecting');
      // A new token connects by itself (it is the effect's input); the same one, or none fetched, connects again here.
      void refreshToken().then((fresh) => {
        if (fresh === undefined || fresh === token) setAttempt((value) => value + 1);
      });
    },
    /** Called from a click: lets the speakers' voices play. */
    startAudio: () => void room?.startAudio().then(() => setAudioBlocked(false)).catch(() => undefined),
  };
}

export function LivekitStage({
  livekit,
  url,
  playing,
}: {
  livekit: ReturnType<typeof useLivekitRoom>;
  url: string | null;
  /** The segment whose translated voice plays now: its speaker's own voice is lowered. */
  playing: Segment | null;
}) {
  const { t } = useTranslation();
  const { room, status } = livekit;
  if (room && status === 'connected') {
    return (
      <RoomContext.Provider value={room}>
        <StageGrid />
        <RoomAudioRenderer />
        <Ducking playing={playing} />
      </RoomContext.Provider>
    );
  }
  return (
    <div className={`stage-notice stage-${status}`} role="status">
      {status === 'connecting' ? (
        <p>
          <span className="spinner spinner-small" aria-hidden="true" /> {t('call.stage.connecting')}
        </p>
      ) : (
        <>
          <p className="stage-notice-title">
            {status === 'unconfigured' ? t('call.stage.unconfigured') : status === 'disconnected' ? t('call.stage.disconnected') : t('call.stage.unreachable', { url: url ?? '' })}
          </p>
          <p>{t('call.stage.stillWorks')}</p>
          {status !== 'unconfigured' && (
            <Button variant="secondary" className="btn-small" onClick={livekit.retry}>
              {t('call.stage.retry')}
            </Button>
          )}
        </>
      )}
    </div>
  );
}

function StageGrid() {
  const { t } = useTranslation();
  const tracks = useTracks([{ source: Track.Source.Camera, withPlaceholder: true }], { onlySubscribed: false });
  return (
    <ul className="stage-grid" data-count={Math.min(tracks.length, 9)} aria-label={t('call.stage.people', { count: tracks.length })}>
      {tracks.map((trackRef) => (
        <Tile key={`${trackRef.participant.identity}:${trackRef.source}`} trackRef={trackRef} />
      ))}
    </ul>
  );
}

function Tile({ trackRef }: { trackRef: TrackReferenceOrPlaceholder }) {
  const { t } = useTranslation();
  const participant = trackRef.participant;
  const speaking = useIsSpeaking(participant);
  const name = participant.name || participant.identity;
  const video = isTrackReference(trackRef) && !trackRef.publication.isMuted;
  const micOff = !participant.isMicrophoneEnabled;
  return (
    <li className={`stage-tile${speaking ? ' speaking' : ''}`}>
      {video ? <VideoTrack trackRef={trackRef} className="stage-video" /> : <span className="stage-avatar" aria-hidden="true">{(Array.from(name)[0] ?? '?').toLocaleUpperCase()}</span>}
      <span className="stage-name" dir="auto">
        {participant.isLocal ? t('call.stage.you', { name }) : name}
        {micOff && <span className="stage-muted">{t('call.stage.muted')}</span>}
        {speaking && <span className="visually-hidden">{t('call.stage.speaking')}</span>}
      </span>
    </li>
  );
}

/** Lowers the speaker's own voice while their translation plays. */
function Ducking({ playing }: { playing: Segment | null }) {
  const remotes = useRemoteParticipants();
  useEffect(() => {
    const volumes = speakerVolumes(
      remotes.map((participant) => participant.identity),
      playing,
    );
    for (const participant of remotes) participant.setVolume(volumes.get(participant.identity) ?? 1);
  }, [remotes, playing]);
  return null;
}
