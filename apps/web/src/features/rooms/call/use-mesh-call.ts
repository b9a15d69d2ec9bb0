// The mesh call (mesh.ts) for the call screen: entered with the devices the check screen opened
// (pre-join.tsx) while the screen shows it, entered again after the live connection came back,
// and how loud each person is now (the active speaker is highlighted).
import { useEffect, useRef, useState } from 'react';
import { useLiveStatus } from '../../../lib/live';
import { MeshCall, type MeshPeer, type MeshStatus } from './mesh';

export interface LocalMedia {
  /** The own microphone and camera; null until asked, or when neither could be had. */
  stream: MediaStream | null;
  hasMicrophone: boolean;
  hasCamera: boolean;
  ready: boolean;
}

export interface PresenceNotice {
  id: number;
  kind: 'joined' | 'left';
  alias: string;
}

export function useMeshCall(roomId: number, local: LocalMedia, media: { microphone: boolean; camera: boolean }, enabled: boolean) {
  const [, setVersion] = useState(0);
  const [notices, setNotices] = useState<PresenceNotice[]>([]);
  const call = useRef<MeshCall | null>(null);
  const mediaRef = useRef(media);
  mediaRef.current = media;
  const live = useLiveStatus();

  useEffect(() => {
    if (!enabled || !local.ready) return;
    let noticeId = 0;
    const created = new MeshCall(
      roomId,
      local.stream,
      () => setVersion((value) => value + 1),
      (change) => {
        const notice = { id: ++noticeId, ...change };
        setNotices((shown) => [...shown.slice(-2), notice]);
        setTimeout(() => setNotices((shown) => shown.filter((item) => item.id !== notice.id)), 6_000);
      },
    );
    created.setMedia(mediaRef.current);
    call.current = created;
    void created.join();
    return () => {
      created.leave();
      call.current = null;
    };
  }, [roomId, local, enabled]);

  useEffect(() => {
    call.current?.setMedia(media);
  }, [media]);

  // The live connection came back: the others were told this tab left.
  const wasConnected = useRef(live === 'connected');
  useEffect(() => {
    const connected = live === 'connected';
    // (A call still entering waits for the connection itself.)
    const current = call.current;
    if (connected && !wasConnected.current && current && current.status !== 'elsewhere' && current.status !== 'joining') void current.rejoin();
    wasConnected.current = connected;
  }, [live]);

  const current = call.current;
  return {
    status: (current?.status ?? 'joining') as MeshStatus,
    self: current?.self ?? null,
    others: current?.others ?? ([] as MeshPeer[]),
    notices,
    /** This tab enters again (after the call was taken over by another tab). */
    joinHere: () => void current?.rejoin(),
  };
}

/** How often each stream is sampled: about once per analyser window, so even a short sound is caught. */
const LEVEL_SAMPLE_MS = 50;
/** How often the levels are published (a re-render). */
const LEVEL_PUBLISH_MS = 200;
/** What is left of a level after one publishing step without a louder sound: meters fall, not blink. */
const LEVEL_DECAY = 0.6;

/** The level shown next: the loudest moment since the last step, or what was shown, falling. */
export function nextLevel(shown: number, peak: number): number {
  const fallen = shown * LEVEL_DECAY;
  return Math.min(1, Math.max(peak, fallen < 0.01 ? 0 : fallen));
}

/**
 * How loud each stream is now (0..1): the loudest moment since the last look, falling off
 * gradually, as a level meter does (a short sound sampled now and then was often missed, and
 * the meter blinked); the loudest above a floor speaks.
 */
export function useLevels(streams: readonly { id: string; stream: MediaStream | null }[]): Map<string, number> {
  const [levels, setLevels] = useState<Map<string, number>>(new Map());
  const key = streams.map(({ id, stream }) => `${id}:${stream?.getAudioTracks()[0]?.id ?? ''}`).join('|');
  const current = useRef(streams);
  current.current = streams;
  useEffect(() => {
    const AudioContextClass = window.AudioContext as typeof AudioContext | undefined;
    if (!AudioContextClass) return;
    const context = new AudioContextClass();
    const meters: { id: string; analyser: AnalyserNode; samples: Float32Array<ArrayBuffer>; peak: number; shown: number }[] = [];
    for (const { id, stream } of current.current) {
      if (!stream?.getAudioTracks().length) continue;
      const analyser = context.createAnalyser();
      analyser.fftSize = 2048;
      context.createMediaStreamSource(stream).connect(analyser);
      meters.push({ id, analyser, samples: new Float32Array(analyser.fftSize), peak: 0, shown: 0 });
    }
    const sampler = setInterval(() => {
      if (context.state === 'suspended') void context.resume().catch(() => undefined);
      for (const meter of meters) {
        // The peak of the last ~45 ms of sound.
        meter.analyser.getFloatTimeDomainData(meter.samples);
        for (const sample of meter.samples) meter.peak = Math.max(meter.peak, Math.abs(sample));
      }
    }, LEVEL_SAMPLE_MS);
    const publisher = setInterval(() => {
      const next = new Map<string, number>();
      for (const meter of meters) {
        meter.shown = nextLevel(meter.shown, meter.peak);
        meter.peak = 0;
        next.set(meter.id, meter.shown);
      }
      setLevels(next);
    }, LEVEL_PUBLISH_MS);
    return () => {
      clearInterval(sampler);
      clearInterval(publisher);
      void context.close().catch(() => undefined);
    };
  }, [key]);
  return levels;
}

/** The id of whoever is loudest above the floor now, if anyone. */
export function activeSpeaker(levels: ReadonlyMap<string, number>, floor = 0.08): string | null {
  let loudest: string | null = null;
  let level = floor;
  for (const [id, value] of levels) {
    if (value > level) {
      loudest = id;
      level = value;
    }
  }
  return loudest;
}

/** How long a speaker stays highlighted after their last loud moment (speech has gaps between words). */
const SPEAKER_HOLD_MS = 1_200;

/** The active speaker, held through the short gaps of speech so the highlight does not flicker. */
export function useActiveSpeaker(levels: ReadonlyMap<string, number>): string | null {
  const held = useRef<{ id: string; at: number } | null>(null);
  const loudest = activeSpeaker(levels);
  const now = Date.now();
  if (loudest) held.current = { id: loudest, at: now };
  else if (held.current && now - held.current.at > SPEAKER_HOLD_MS) held.current = null;
  return held.current?.id ?? null;
}
