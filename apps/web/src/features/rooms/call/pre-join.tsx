// Before entering the call: the own camera's picture, the microphone's level moving as one
// speaks, the microphone and camera to use (and whether each starts on), and that what is said is
// recorded (what the server cannot do with one's language is said in the call's header). "Join now" enters with these choices
// and hands the devices over to the call (asked once).
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui';
import { useLevels } from './use-mesh-call';

export interface JoinChoice {
  /** The devices asked for (null: neither could be had); the call keeps and stops them. */
  stream: MediaStream | null;
  microphone: boolean;
  camera: boolean;
}

interface Devices {
  microphones: MediaDeviceInfo[];
  cameras: MediaDeviceInfo[];
}

/** Asks for the chosen devices (both, else each alone); null when none can be had. */
async function openDevices(microphoneId: string, cameraId: string): Promise<MediaStream | null> {
  const audio: MediaTrackConstraints | boolean = microphoneId ? { deviceId: { exact: microphoneId } } : true;
  const video: MediaTrackConstraints | boolean = cameraId ? { deviceId: { exact: cameraId } } : true;
  for (const constraints of [{ audio, video }, { audio }, { video }] satisfies MediaStreamConstraints[]) {
    try {
      return await navigator.mediaDevices.getUserMedia(constraints);
    } catch {
      // The next, smaller ask.
    }
  }
  return null;
}

export function PreJoin({ onJoin }: { onJoin: (choice: JoinChoice) => void }) {
  const { t } = useTranslation();
  const [microphoneId, setMicrophoneId] = useState('');
  const [cameraId, setCameraId] = useState('');
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [ready, setReady] = useState(false);
  const [devices, setDevices] = useState<Devices>({ microphones: [], cameras: [] });
  const [microphone, setMicrophone] = useState(true);
  const [camera, setCamera] = useState(true);
  /** The stream given to the call on "Join now": no longer this screen's to stop. */
  const handedOver = useRef<MediaStream | null>(null);

  useEffect(() => {
    if (!navigator.mediaDevices?.getUserMedia) {
      setReady(true);
      return;
    }
    let cancelled = false;
    let opened: MediaStream | null = null;
    setReady(false);
    void openDevices(microphoneId, cameraId).then(async (found) => {
      opened = found;
      if (cancelled) return found?.getTracks().forEach((track) => track.stop());
      setStream(found);
      setReady(true);
      // Names are given once a device was allowed.
      const all = await navigator.mediaDevices.enumerateDevices().catch(() => [] as MediaDeviceInfo[]);
      if (!cancelled) setDevices({ microphones: all.filter((item) => item.kind === 'audioinput'), cameras: all.filter((item) => item.kind === 'videoinput') });
    });
    return () => {
      cancelled = true;
      setStream(null);
      if (opened !== handedOver.current) opened?.getTracks().forEach((track) => track.stop());
    };
  }, [microphoneId, cameraId]);

  const hasMicrophone = !!stream?.getAudioTracks().length;
  const hasCamera = !!stream?.getVideoTracks().length;
  const level = useLevels([{ id: 'self', stream: hasMicrophone && microphone ? stream : null }]).get('self') ?? 0;
  const currentMicrophone = stream?.getAudioTracks()[0]?.getSettings().deviceId ?? '';
  const currentCamera = stream?.getVideoTracks()[0]?.getSettings().deviceId ?? '';

  const join = () => {
    // Handed over: the call stops them when it ends; this screen must not.
    const given = stream;
    handedOver.current = given;
    for (const track of given?.getAudioTracks() ?? []) track.enabled = microphone;
    for (const track of given?.getVideoTracks() ?? []) track.enabled = camera;
    setStream(null);
    onJoin({ stream: given, microphone: microphone && hasMicrophone, camera: camera && hasCamera });
  };

  return (
    <section className="prejoin" aria-labelledby="prejoin-title">
      <h2 id="prejoin-title" className="prejoin-title">
        {t('call.prejoin.title')}
      </h2>
      <div className="prejoin-body">
        <div className="prejoin-preview">
          {/* Until the browser has answered (opening devices can take long on a busy machine), nothing is "missing" yet (issue 37). */}
          {!ready ? (
            <p className="prejoin-no-video prejoin-checking" role="status">
              <span className="spinner spinner-small" aria-hidden="true" /> {t('call.prejoin.checking')}
            </p>
          ) : hasCamera && camera ? (
            <Preview stream={stream!} />
          ) : (
            <p className="prejoin-no-video">{hasCamera ? t('call.prejoin.cameraOff') : t('call.cameraMissing')}</p>
          )}
        </div>
        <div className="prejoin-settings">
          <DeviceField
            id="prejoin-microphone"
            label={t('call.microphone')}
            devices={devices.microphones}
            value={currentMicrophone}
            onChange={setMicrophoneId}
            on={microphone && hasMicrophone}
            onToggle={() => setMicrophone((value) => !value)}
            available={hasMicrophone}
            missing={ready ? t('call.capture.error.noMicrophone') : t('call.prejoin.checkingShort')}
          />
          {hasMicrophone && (
            <div className="prejoin-level">
              <label htmlFor="prejoin-level">{t('call.prejoin.level')}</label>
              <meter id="prejoin-level" min={0} max={1} low={0.05} high={0.8} optimum={0.3} value={microphone ? level : 0} />
            </div>
          )}
          <DeviceField
            id="prejoin-camera"
            label={t('call.camera')}
            devices={devices.cameras}
            value={currentCamera}
            onChange={setCameraId}
            on={camera && hasCamera}
            onToggle={() => setCamera((value) => !value)}
            available={hasCamera}
            missing={ready ? t('call.cameraMissing') : t('call.prejoin.checkingShort')}
          />
          {ready && !stream && <p className="prejoin-note">{t('call.mesh.receiveOnly')}</p>}
          <Button onClick={join} disabled={!ready} className="prejoin-join">
            {t('call.prejoin.join')}
          </Button>
          <p className="prejoin-note prejoin-recorded">{t('call.prejoin.recorded')}</p>
        </div>
      </div>
    </section>
  );
}

function DeviceField({
  id,
  label,
  devices,
  value,
  onChange,
  on,
  onToggle,
  available,
  missing,
}: {
  id: string;
  label: string;
  devices: MediaDeviceInfo[];
  value: string;
  onChange: (deviceId: string) => void;
  on: boolean;
  onToggle: () => void;
  available: boolean;
  missing: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="prejoin-device">
      <div className="prejoin-device-head">
        <label htmlFor={id} id={`${id}-label`}>
          {label}
        </label>
        <span className="prejoin-toggle">
          <input type="checkbox" id={`${id}-on`} checked={on} onChange={onToggle} disabled={!available} aria-labelledby={`${id}-label ${id}-on-text`} />
          <label htmlFor={`${id}-on`} id={`${id}-on-text`}>
            {t('call.microphoneOn')}
          </label>
        </span>
      </div>
      {available ? (
        <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
          {devices.map((device, index) => (
            <option key={device.deviceId || index} value={device.deviceId}>
              {device.label || `${label} ${index + 1}`}
            </option>
          ))}
        </select>
      ) : (
        <p id={id} className="prejoin-note">
          {missing}
        </p>
      )}
    </div>
  );
}

function Preview({ stream }: { stream: MediaStream }) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  useEffect(() => {
    if (video && video.srcObject !== stream) video.srcObject = stream;
  }, [video, stream]);
  return <video ref={setVideo} className="prejoin-video" autoPlay playsInline muted />;
}
