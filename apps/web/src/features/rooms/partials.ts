// Partial captions (issue 33): the words of utterances still being spoken, as the live connection
// brings them (`segment:partial`), for this listener, updated in place. A partial ends when its
// utterance is stored (it stays until its segment shows this listener's text, so the words do not
// blink away) or dropped (nothing was kept); one left without news for a while is let go.
import { useEffect, useMemo, useState } from 'react';
import type { PartialSegmentEvent } from '@parla/contract/interpreting';
import type { Segment } from '@parla/contract/rooms';
import { addLiveListener } from '../../lib/live';

/** A partial without news for this long is let go (its end was lost with a connection). */
export const PARTIAL_STALE_MS = 20_000;

export interface ShownPartial extends PartialSegmentEvent {
  /** When it last changed (ms). */
  seenAt: number;
}

/** The partials after `event`: each utterance once, in the order they began. */
export function applyPartial(partials: readonly ShownPartial[], event: PartialSegmentEvent, now: number): ShownPartial[] {
  const fresh = partials.filter((item) => now - item.seenAt < PARTIAL_STALE_MS);
  const index = fresh.findIndex((item) => item.utterance === event.utterance);
  if (event.state === 'dropped') return index < 0 ? fresh : fresh.filter((_, at) => at !== index);
  const before = index < 0 ? undefined : fresh[index];
  // A stored partial keeps the words last shown (its end carries none).
  const next: ShownPartial = { ...event, text: event.state === 'stored' ? (before?.text ?? '') : event.text, translated: event.state === 'stored' ? (before?.translated ?? false) : event.translated, seenAt: now };
  if (event.state === 'stored' && !next.text) return index < 0 ? fresh : fresh.filter((_, at) => at !== index);
  return index < 0 ? [...fresh, next] : fresh.map((item, at) => (at === index ? next : item));
}

/**
 * What is shown now: partials still being spoken, and stored ones whose segment has not yet reached
 * this listener with its text (not there, or its translation still on its way).
 */
export function visiblePartials(partials: readonly ShownPartial[], segments: readonly Segment[] | undefined): ShownPartial[] {
  return partials.filter((partial) => {
    if (partial.state !== 'stored') return true;
    const segment = segments?.find((item) => item.id === partial.segmentId);
    return !segment || segment.translation === 'pending' || segment.transcription === 'pending';
  });
}

/** The segments a shown partial stands for (not listed twice). */
export const coveredSegments = (shown: readonly ShownPartial[]) => new Set(shown.flatMap((partial) => (partial.segmentId === null ? [] : [partial.segmentId])));

/** The room's partials for this listener, while the calling screen is shown. */
export function useRoomPartials(roomId: number, segments: readonly Segment[] | undefined) {
  const [partials, setPartials] = useState<ShownPartial[]>([]);
  useEffect(
    () =>
      addLiveListener({
        'segment:partial': (event) => {
          if (event.roomId === roomId) setPartials((current) => applyPartial(current, event, Date.now()));
        },
      }),
    [roomId],
  );
  // Stale ones go even when no news comes.
  useEffect(() => {
    if (partials.length === 0) return;
    const timer = setInterval(() => setPartials((current) => current.filter((item) => Date.now() - item.seenAt < PARTIAL_STALE_MS)), 5_000);
    return () => clearInterval(timer);
  }, [partials.length]);
  return useMemo(() => visiblePartials(partials, segments), [partials, segments]);
}
