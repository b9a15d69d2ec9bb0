// The transcript as pure functions: the cached pages of segments (oldest first, as the API
// answers) changed by live events, each segment once by id, a late view never replacing a newer
// one; and what a segment's pipeline states mean for its reader.
import type { InfiniteData } from '@tanstack/react-query';
import type { PipelineState, Segment, SegmentsPage } from '@parla/contract/rooms';
import { newerView, type ViewOrder } from '../../lib/late-views';

export type SegmentPages = InfiniteData<SegmentsPage>;

const STEP: Record<PipelineState, number> = { pending: 0, failed: 1, none: 1, done: 1 };

/** How far a view of a segment has come: each finished step counts one. */
export const progress = (segment: Segment) => STEP[segment.transcription] + STEP[segment.translation] + STEP[segment.speech];

/** The text as its speaker said it (whatever rendering the reader got). */
export const originalTranscript = (segment: Segment) => segment.rawSegment?.transcript ?? segment.transcript;

/**
 * The view to keep when `incoming` arrives for a segment shown as `existing`. A view from before
 * the transcription (it happens once: a correction never starts it again) or a view of the same
 * text that has come less far is a late one (an upload's answer after its first push, a push
 * overtaken by a fetch): the newer stays. A different text (a correction) always wins.
 */
export function mergeSegment(existing: Segment | undefined, incoming: Segment): Segment {
  if (!existing || existing.id !== incoming.id) return incoming;
  if (incoming.transcription === 'pending' && existing.transcription !== 'pending') return existing;
  return newerView(existing, incoming, SEGMENT_ORDER);
}

const SEGMENT_ORDER: ViewOrder<Segment> = { original: originalTranscript, edited: (segment) => segment.edited, progress };

/**
 * The pages with `segment` merged into the one holding its id; a new one goes to the last page
 * when no page is left to fetch (else it comes with a later page). Without cached pages there is
 * nothing to change: the next fetch brings it.
 */
export function upsertSegment(data: SegmentPages | undefined, segment: Segment): SegmentPages | undefined {
  if (!data) return data;
  let found = false;
  const pages = data.pages.map((page) => {
    const index = page.results.findIndex((item) => item.id === segment.id);
    if (index < 0) return page;
    found = true;
    const merged = mergeSegment(page.results[index], segment);
    if (merged === page.results[index]) return page;
    return { ...page, results: page.results.map((item, at) => (at === index ? merged : item)) };
  });
  if (found) return pages.every((page, index) => page === data.pages[index]) ? data : { ...data, pages };
  const last = data.pages.at(-1);
  if (!last) return { ...data, pages: [{ count: 1, next: null, previous: null, results: [segment] }], pageParams: [0] };
  if (last.next !== null) return data;
  const results = [...last.results, segment].sort((a, b) => a.id - b.id);
  return { ...data, pages: [...data.pages.slice(0, -1), { ...last, count: last.count + 1, results }] };
}

/** The pages without these segments (a participant removed for good took them along); counts follow. */
export function removeSegments(data: SegmentPages | undefined, segmentIds: readonly number[]): SegmentPages | undefined {
  if (!data) return data;
  const gone = new Set(segmentIds);
  const held = data.pages.reduce((sum, page) => sum + page.results.filter((item) => gone.has(item.id)).length, 0);
  if (held === 0) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, count: Math.max(0, page.count - held), results: page.results.filter((item) => !gone.has(item.id)) })),
  };
}

/** Every segment once, oldest first. */
export function segmentsOf(data: SegmentPages | undefined): Segment[] {
  const seen = new Map<number, Segment>();
  for (const page of data?.pages ?? []) for (const segment of page.results) seen.set(segment.id, mergeSegment(seen.get(segment.id), segment));
  return [...seen.values()].sort((a, b) => a.id - b.id);
}

/** The language the speaker spoke in (a view without `rawSegment` is the original). */
export const sourceLanguage = (segment: Segment) => segment.rawSegment?.language ?? segment.language;

/** Whether the recogniser heard no words (a finished transcription with an empty text). */
export const heardNothing = (segment: Segment) => segment.transcription === 'done' && originalTranscript(segment).trim() === '';

/**
 * What the reader is told about a segment, besides its text: one step at work (`busy`) or one
 * note on what will not come. `language` is the reader's.
 */
export type SegmentStatus =
  | { kind: 'busy'; step: 'transcribing' | 'translating' | 'voicing' }
  | { kind: 'note'; note: 'transcriptionFailed' | 'noTranscriber' | 'nothingHeard' | 'translationFailed' | 'notTranslated' | 'voiceFailed' | 'noVoice' }
  | null;

export function segmentStatus(segment: Segment, readerLanguage: string): SegmentStatus {
  switch (segment.transcription) {
    case 'pending':
      return { kind: 'busy', step: 'transcribing' };
    case 'failed':
      return { kind: 'note', note: 'transcriptionFailed' };
    case 'none':
      return { kind: 'note', note: 'noTranscriber' };
    case 'done':
      break;
  }
  if (heardNothing(segment)) return { kind: 'note', note: 'nothingHeard' };
  const foreign = sourceLanguage(segment) !== readerLanguage;
  switch (segment.translation) {
    case 'pending':
      return { kind: 'busy', step: 'translating' };
    case 'failed':
      return { kind: 'note', note: 'translationFailed' };
    case 'none':
      return foreign ? { kind: 'note', note: 'notTranslated' } : null;
    case 'done':
      break;
  }
  // Only a reader of another language gets a voice; the speaker and the others heard the speaker.
  if (segment.isMe || !foreign) return null;
  switch (segment.speech) {
    case 'pending':
      return { kind: 'busy', step: 'voicing' };
    case 'failed':
      return { kind: 'note', note: 'voiceFailed' };
    case 'none':
      return { kind: 'note', note: 'noVoice' };
    case 'done':
      return null;
  }
}
