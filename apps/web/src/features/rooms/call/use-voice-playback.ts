// Plays the others' translated voices one after another as they become ready (voice-queue.ts
// decides which and when) on one audio element; switched off, ready voices are let go unheard.
// A browser that refuses to play without a gesture is reported (`blocked`) until one comes.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { Segment } from '@parla/contract/rooms';
import { freshSession } from '../api';
import { markHeard, nextVoice, readyVoices, seeSegments, startQueue, type VoiceQueue } from './voice-queue';

/** How long "older voices were skipped" stays shown. */
const SKIPPED_SHOWN_MS = 8_000;

export function useVoicePlayback(player: RefObject<HTMLAudioElement | null>, segments: readonly Segment[] | undefined, readerLanguage: string, enabled: boolean, volume = 1) {
  useEffect(() => {
    if (player.current) player.current.volume = Math.min(1, Math.max(0, volume));
  }, [player, volume]);
  const queue = useRef<VoiceQueue | null>(null);
  const [playing, setPlaying] = useState<Segment | null>(null);
  const [blocked, setBlocked] = useState(false);
  /** Voices skipped to catch up with the room (how many, and when: shown for a while). */
  const [skipped, setSkipped] = useState<{ count: number; at: number } | null>(null);
  const [tick, setTick] = useState(0);
  const playingId = playing?.id;
  const current = useRef<Segment | null>(null);
  current.current = playing;

  const finish = useCallback((segmentId: number) => {
    if (queue.current) queue.current = markHeard(queue.current, [segmentId]);
    setPlaying((shown) => (shown?.id === segmentId ? null : shown));
  }, []);

  // What plays next (or when to look again).
  useEffect(() => {
    if (!segments) return;
    const now = Date.now();
    queue.current = queue.current ? seeSegments(queue.current, segments, now) : startQueue(segments, now);
    if (!enabled) {
      queue.current = markHeard(queue.current, readyVoices(queue.current, segments));
      return;
    }
    if (playingId !== undefined || blocked) return;
    const next = nextVoice(queue.current, segments, readerLanguage, now);
    if (!next) return;
    if ('play' in next) {
      if (next.skip?.length) {
        queue.current = markHeard(queue.current, next.skip);
        setSkipped((before) => ({ count: next.skip!.length + (before && now - before.at < SKIPPED_SHOWN_MS ? before.count : 0), at: now }));
      }
      return setPlaying(next.play);
    }
    const timer = setTimeout(() => setTick((value) => value + 1), Math.max(0, next.waitUntil - now) + 20);
    return () => clearTimeout(timer);
  }, [segments, readerLanguage, enabled, playingId, blocked, tick]);

  // Playing it: ended, failed, or switched off midway, on to the next.
  useEffect(() => {
    const audio = player.current;
    const segment = current.current;
    if (!audio || !segment?.audioFile || playingId === undefined) return;
    let cancelled = false;
    const ended = () => {
      audio.dataset.ended = String(Number(audio.dataset.ended ?? 0) + 1);
      finish(segment.id);
    };
    const failed = () => finish(segment.id);
    audio.addEventListener('ended', ended);
    audio.addEventListener('error', failed);
    void (async () => {
      // The browser fetches the file with the access cookie: refresh it first when due.
      await freshSession();
      if (cancelled) return;
      audio.src = segment.audioFile ?? '';
      audio.dataset.segment = String(segment.id);
      try {
        await audio.play();
      } catch (error) {
        if (cancelled) return;
        if (error instanceof DOMException && error.name === 'NotAllowedError') {
          setBlocked(true);
          setPlaying(null);
        } else {
          finish(segment.id);
        }
      }
    })();
    return () => {
      cancelled = true;
      audio.removeEventListener('ended', ended);
      audio.removeEventListener('error', failed);
      if (!audio.paused) audio.pause();
    };
  }, [playingId, player, finish]);

  useEffect(() => {
    if (!enabled && playingId !== undefined) finish(playingId);
  }, [enabled, playingId, finish]);

  /** After a gesture (the "turn on sound" button) the browser lets the voices play. */
  const unblock = useCallback(() => {
    setBlocked(false);
  }, []);
  // The notice of skipped voices goes after a while.
  useEffect(() => {
    if (!skipped) return;
    const timer = setTimeout(() => setSkipped(null), SKIPPED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [skipped]);
  return { playing, blocked, unblock, skipped: skipped?.count ?? 0 };
}
