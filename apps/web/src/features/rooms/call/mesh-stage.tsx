// The call's video and the speakers' own voices without a call server: a tile per person (their
// camera or their initial, their name, a muted microphone marked, the one speaking now
// highlighted), their voices played (the one whose translation plays lowered), and a line when
// someone joins or leaves. What keeps the call from being whole is said plainly.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Segment } from '@parla/contract/rooms';
import { MESH } from '@parla/contract/constants';
import { Button } from '../../../components/ui';
import type { MeshPeer } from './mesh';
import { useActiveSpeaker, useLevels, type LocalMedia, type useMeshCall } from './use-mesh-call';
import { DUCKED_VOLUME } from './voice-queue';

type Mesh = ReturnType<typeof useMeshCall>;

export function MeshStage({
  mesh,
  local,
  alias,
  media,
  playing,
}: {
  mesh: Mesh;
  local: LocalMedia;
  alias: string;
  media: { microphone: boolean; camera: boolean };
  /** The segment whose translated voice plays now: its speaker's own voice is lowered. */
  playing: Segment | null;
}) {
  const { t } = useTranslation();
  const levels = useLevels([{ id: 'self', stream: media.microphone ? local.stream : null }, ...mesh.others.map((peer) => ({ id: String(peer.participantId), stream: peer.stream }))]);
  const speaking = useActiveSpeaker(levels);
  const blocking = mesh.status !== 'connected' && mesh.status !== 'joining';
  return (
    <>
      {blocking ? (
        <div className={`stage-notice stage-${mesh.status}`} role="status">
          <p className="stage-notice-title">{mesh.status === 'full' ? t('call.mesh.full', { max: MESH.maxPeers }) : t(`call.mesh.${mesh.status === 'elsewhere' || mesh.status === 'removed' ? mesh.status : 'failed'}`)}</p>
          {mesh.status === 'elsewhere' && (
            <Button variant="secondary" className="btn-small" onClick={mesh.joinHere}>
              {t('call.mesh.joinHere')}
            </Button>
          )}
        </div>
      ) : (
        <ul className="stage-grid" data-count={Math.min(mesh.others.length + 1, 9)} aria-label={t('call.stage.people', { count: mesh.others.length + 1 })}>
          <SelfTile stream={local.stream} alias={alias} media={media} speaking={speaking === 'self'} />
          {mesh.others.map((peer) => (
            <PeerTile key={peer.participantId} peer={peer} speaking={speaking === String(peer.participantId)} volume={playing?.speaker.id === peer.participantId ? DUCKED_VOLUME : 1} />
          ))}
        </ul>
      )}
      {local.ready && !local.stream && !blocking && <p className="stage-hint">{t('call.mesh.receiveOnly')}</p>}
      <div className="stage-presence" role="status" aria-live="polite">
        {mesh.notices.map((notice) => (
          <p key={notice.id} dir="auto">
            {t(notice.kind === 'joined' ? 'call.mesh.joined' : 'call.mesh.left', { name: notice.alias })}
          </p>
        ))}
      </div>
    </>
  );
}

function SelfTile({ stream, alias, media, speaking }: { stream: MediaStream | null; alias: string; media: { microphone: boolean; camera: boolean }; speaking: boolean }) {
  const { t } = useTranslation();
  const showVideo = !!stream?.getVideoTracks().length && media.camera;
  return (
    <li className={`stage-tile self${speaking ? ' speaking' : ''}`}>
      {showVideo ? <StreamVideo stream={stream} mirrored /> : <Initial name={alias} />}
      <span className="stage-name" dir="auto">
        {t('call.stage.you', { name: alias })}
        {!media.microphone && <span className="stage-muted">{t('call.stage.muted')}</span>}
        {speaking && <span className="visually-hidden">{t('call.stage.speaking')}</span>}
      </span>
    </li>
  );
}

function PeerTile({ peer, speaking, volume }: { peer: MeshPeer; speaking: boolean; volume: number }) {
  const { t } = useTranslation();
  const audio = useRef<HTMLAudioElement>(null);
  const hasVideo = peer.camera && peer.stream.getVideoTracks().length > 0;
  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    if (element.srcObject !== peer.stream) element.srcObject = peer.stream;
    void element.play().catch(() => undefined);
  }, [peer.stream]);
  useEffect(() => {
    if (audio.current) audio.current.volume = volume;
  }, [volume]);
  const connecting = peer.connection !== 'connected';
  return (
    <li className={`stage-tile${speaking ? ' speaking' : ''}`} data-participant={peer.participantId} data-connection={peer.connection}>
      {hasVideo ? <StreamVideo stream={peer.stream} /> : <Initial name={peer.alias} />}
      <audio ref={audio} autoPlay className="peer-audio" aria-hidden="true" />
      <span className="stage-name" dir="auto">
        {peer.alias}
        {!peer.microphone && <span className="stage-muted">{t('call.stage.muted')}</span>}
        {connecting && <span className="stage-muted">{t('call.mesh.connecting')}</span>}
        {speaking && <span className="visually-hidden">{t('call.stage.speaking')}</span>}
      </span>
    </li>
  );
}

/** A stream's picture (its sound plays elsewhere, or not at all for one's own). */
function StreamVideo({ stream, mirrored = false }: { stream: MediaStream; mirrored?: boolean }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = video.current;
    if (element && element.srcObject !== stream) element.srcObject = stream;
  }, [stream]);
  return <video ref={video} className={`stage-video${mirrored ? ' mirrored' : ''}`} autoPlay playsInline muted />;
}

function Initial({ name }: { name: string }) {
  return (
    <span className="stage-avatar" aria-hidden="true">
      {(Array.from(name)[0] ?? '?').toLocaleUpperCase()}
    </span>
  );
}
