// Builders of room API bodies for the room and call tests.
import { ROOM_ROLE } from '@parla/contract/constants';
import type { Segment, SegmentsPage } from '@parla/contract/rooms';
import type { SegmentPages } from '../src/features/rooms/segments';

const base = Date.parse('2026-11-20T10:00:00Z');
export const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();
export const BASE_TIME = base;

/** A segment of Ana (participant 7, English) as a Spanish listener gets it once everything is done. */
export function segment(id: number, overrides: Partial<Segment> = {}): Segment {
  return {
    id,
    audioFile: `/api/rooms/1/audio/${String(id).padStart(24, '0')}.ogg`,
    created: at(id),
    isMe: false,
    language: 'es',
    rawSegment: { id, language: 'en', transcript: `utterance ${id}`, created: at(id) },
    speaker: { id: 7, alias: 'Ana', language: 'en', roomRole: ROOM_ROLE.MEMBER, tone: 'DEFAULT', maleVoice: false },
    tone: 'DEFAULT',
    transcript: `frase ${id}`,
    transcriptDiff: [],
    transcription: 'done',
    translation: 'done',
    speech: 'done',
    edited: false,
    duration: 2,
    correction: null,
    missedTerms: [],
    ...overrides,
  };
}

/** The same segment while its transcription is pending (the original, nothing rendered yet). */
export function pendingSegment(id: number, overrides: Partial<Segment> = {}): Segment {
  return segment(id, { language: 'en', rawSegment: null, transcript: '', transcription: 'pending', translation: 'pending', speech: 'pending', audioFile: null, ...overrides });
}

export function page(results: Segment[], next: string | null = null, count = results.length): SegmentsPage {
  return { count, next, previous: null, results };
}

export function pages(...list: SegmentsPage[]): SegmentPages {
  return { pages: list, pageParams: list.map((_, index) => index * 50) };
}
