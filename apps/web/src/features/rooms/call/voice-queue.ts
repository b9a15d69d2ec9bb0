// The translated voices of a call as pure decisions: which segment's voice plays next (in the
// order they were said, a moment's wait for an earlier one still being made), which ones never
// play (said before the listener joined, their own, already heard, or heard while voices were
// off), and how loud each speaker's own voice (their LiveKit audio) is while one plays.
import type { Segment } from '@parla/contract/rooms';
import { sourceLanguage } from '../segments';

/** How long a later voice waits for an earlier segment whose voice is still being made. */
export const ORDER_WAIT_MS = 8_000;
/** Segments said this long before the listener joined are history, not news: never played on their own. */
export const HISTORY_MS = 60_000;
/**
 * A ready voice waiting longer than this while a newer one is ready too means the voices run behind
 * the room (a long backlog after a busy spell): the older ones are skipped, said so, never read out.
 */
export const BEHIND_MAX_MS = 6_000;
/** The volume of the speaker's own voice while their translation plays. */
export const DUCKED_VOLUME = 0.15;

export interface VoiceQueue {
  /** Segment ids that will not be played automatically (again). */
  heard: ReadonlySet<number>;
  /** When each segment was first seen by this listener (ms), for the order wait. */
  seenAt: ReadonlyMap<number, number>;
}

/** A segment whose translated voice is ready for this listener. */
export const hasVoice = (segment: Segment) => !segment.isMe && segment.speech === 'done' && !!segment.audioFile && !!segment.rawSegment;

/** A segment of another language whose voice may still come (a step still at work). */
export function mayGetVoice(segment: Segment, readerLanguage: string): boolean {
  if (segment.isMe || sourceLanguage(segment) === readerLanguage) return false;
  if (segment.transcription === 'pending') return true;
  if (segment.transcription !== 'done' || !segment.transcript.trim()) return false;
  return segment.translation === 'pending' || (segment.translation === 'done' && segment.speech === 'pending');
}

/** The queue on joining: what was said before (long enough ago, or already voiced) is not played. */
export function startQueue(segments: readonly Segment[], now: number): VoiceQueue {
  const heard = new Set<number>();
  const seenAt = new Map<number, number>();
  for (const segment of segments) {
    seenAt.set(segment.id, now);
    if (hasVoice(segment) || segment.isMe || now - Date.parse(segment.created) > HISTORY_MS) heard.add(segment.id);
  }
  return { heard, seenAt };
}

/** Notes when new segments were first seen. */
export function seeSegments(queue: VoiceQueue, segments: readonly Segment[], now: number): VoiceQueue {
  const fresh = segments.filter((segment) => !queue.seenAt.has(segment.id));
  if (fresh.length === 0) return queue;
  const seenAt = new Map(queue.seenAt);
  for (const segment of fresh) seenAt.set(segment.id, now);
  return { ...queue, seenAt };
}

/** Marks segments heard (played, skipped, or ready while voices were off). */
export function markHeard(queue: VoiceQueue, ids: readonly number[]): VoiceQueue {
  if (ids.every((id) => queue.heard.has(id))) return queue;
  return { ...queue, heard: new Set([...queue.heard, ...ids]) };
}

export type NextVoice = { play: Segment; skip?: number[] } | { waitUntil: number } | null;

/**
 * What to do now: play the earliest segment with a ready voice not yet heard; but when an earlier
 * segment of another language is still on its way (and has not waited ORDER_WAIT_MS yet), wait
 * for it so the voices keep the order things were said in. Null: nothing to play.
 */
export function nextVoice(queue: VoiceQueue, segments: readonly Segment[], readerLanguage: string, now: number): NextVoice {
  const ordered = [...segments].sort((a, b) => a.id - b.id);
  // Catching up: with a backlog whose oldest has waited past BEHIND_MAX_MS, only the newest plays.
  const ready = ordered.filter((segment) => !queue.heard.has(segment.id) && hasVoice(segment));
  const oldest = ready[0];
  if (ready.length >= 2 && oldest && now - (queue.seenAt.get(oldest.id) ?? now) > BEHIND_MAX_MS) {
    const newest = ready.at(-1)!;
    return { play: newest, skip: ready.slice(0, -1).map((segment) => segment.id) };
  }
  for (const segment of ordered) {
    if (queue.heard.has(segment.id)) continue;
    if (hasVoice(segment)) return { play: segment };
    if (mayGetVoice(segment, readerLanguage)) {
      const since = queue.seenAt.get(segment.id) ?? now;
      if (now - since < ORDER_WAIT_MS) return { waitUntil: since + ORDER_WAIT_MS };
    }
  }
  return null;
}

/** Ready voices to drop without playing (voices switched off): from now on only new ones play. */
export const readyVoices = (queue: VoiceQueue, segments: readonly Segment[]) => segments.filter((segment) => hasVoice(segment) && !queue.heard.has(segment.id)).map((segment) => segment.id);

/** The LiveKit identity of a participant (as the server names it in the token: `participant-{id}`). */
export const livekitIdentity = (participantId: number) => `participant-${participantId}`;

/**
 * The volume of each remote participant's own voice: the speaker whose translation plays now is
 * lowered so the translation is heard; everyone else stays as they are.
 */
export function speakerVolumes(identities: readonly string[], playing: Segment | null): Map<string, number> {
  const ducked = playing ? livekitIdentity(playing.speaker.id) : null;
  return new Map(identities.map((identity) => [identity, identity === ducked ? DUCKED_VOLUME : 1]));
}
