// The transcript's cache: each segment once by id, oldest first; a late view of the same text
// never replaces one that came further; a correction always does; new segments join the last
// page only when no page is left to fetch. And what each pipeline state says to the reader.
import { describe, expect, it } from 'vitest';
import { mergeSegment, progress, removeSegments, segmentStatus, segmentsOf, upsertSegment } from '../src/features/rooms/segments';
import { page, pages, pendingSegment, segment } from './room-fixtures';

describe('merging segments by id', () => {
  it('keeps the view that came further when a late one of the same text arrives', () => {
    const done = segment(1);
    const translating = segment(1, { translation: 'pending', speech: 'pending', audioFile: null });
    expect(progress(done)).toBeGreaterThan(progress(translating));
    expect(mergeSegment(done, translating)).toBe(done);
    expect(mergeSegment(translating, done)).toBe(done);
  });

  it('takes a correction even though its translation starts over', () => {
    const done = segment(1);
    const corrected = segment(1, { rawSegment: null, language: 'en', transcript: 'utterance one, corrected', translation: 'pending', speech: 'pending', edited: true });
    expect(mergeSegment(done, corrected)).toBe(corrected);
  });

  it('replaces by id in its page, leaving the others alone', () => {
    const data = pages(page([segment(1), pendingSegment(2)], 'http://x/api/rooms/1/segments/?limit=2&offset=2', 3), page([segment(3)]));
    const rendered = segment(2);
    const next = upsertSegment(data, rendered)!;
    expect(next.pages[0]!.results[1]).toBe(rendered);
    expect(next.pages[1]).toBe(data.pages[1]);
    expect(segmentsOf(next).map((item) => item.id)).toEqual([1, 2, 3]);
  });

  it('keeps the transcript when the upload\'s answer (still transcribing) arrives after it', () => {
    const data = pages(page([segment(1)]));
    expect(upsertSegment(data, pendingSegment(1))).toBe(data);
  });

  it('adds a new segment at the end once every page is loaded', () => {
    const data = pages(page([segment(1), segment(2)]));
    const next = upsertSegment(data, pendingSegment(3))!;
    expect(segmentsOf(next).map((item) => item.id)).toEqual([1, 2, 3]);
    expect(next.pages[0]!.count).toBe(3);
  });

  it('leaves a new segment to a later page while one is left to fetch', () => {
    const data = pages(page([segment(1)], 'http://x/api/rooms/1/segments/?limit=1&offset=1', 5));
    expect(upsertSegment(data, pendingSegment(9))).toBe(data);
    expect(upsertSegment(undefined, segment(1))).toBeUndefined();
  });

  it('shows each segment once, oldest first, even when pages overlap', () => {
    const data = pages(page([segment(2), segment(1)]), page([segment(2), segment(3)]));
    expect(segmentsOf(data).map((item) => item.id)).toEqual([1, 2, 3]);
  });
});

describe('segments removed with their speaker (segments:deleted)', () => {
  it('drops them from every page and counts them out', () => {
    const data = pages(page([segment(1), segment(2)], 'http://x/?offset=2', 4), page([segment(3), segment(4)], null, 4));
    const after = removeSegments(data, [2, 3, 99]);
    expect(segmentsOf(after).map((item) => item.id)).toEqual([1, 4]);
    expect(after?.pages.map((item) => item.count)).toEqual([2, 2]);
  });

  it('changes nothing when none of them is held', () => {
    const data = pages(page([segment(1)]));
    expect(removeSegments(data, [5])).toBe(data);
    expect(removeSegments(undefined, [5])).toBeUndefined();
  });
});

describe('what a segment says to its reader', () => {
  it('names the step at work', () => {
    expect(segmentStatus(pendingSegment(1), 'es')).toEqual({ kind: 'busy', step: 'transcribing' });
    expect(segmentStatus(segment(1, { translation: 'pending', speech: 'pending', rawSegment: null, language: 'en' }), 'es')).toEqual({ kind: 'busy', step: 'translating' });
    expect(segmentStatus(segment(1, { speech: 'pending' }), 'es')).toEqual({ kind: 'busy', step: 'voicing' });
    expect(segmentStatus(segment(1), 'es')).toBeNull();
  });

  it('says plainly what will not come', () => {
    const japanese = segment(1, { transcription: 'none', translation: 'none', speech: 'none', rawSegment: null, language: 'ja', transcript: '' });
    expect(segmentStatus(japanese, 'es')).toEqual({ kind: 'note', note: 'noTranscriber' });
    expect(segmentStatus(segment(1, { transcription: 'failed', translation: 'none', speech: 'none' }), 'es')).toEqual({ kind: 'note', note: 'transcriptionFailed' });
    expect(segmentStatus(segment(1, { rawSegment: { id: 1, language: 'en', transcript: '', created: segment(1).created }, transcript: '' }), 'es')).toEqual({ kind: 'note', note: 'nothingHeard' });
    expect(segmentStatus(segment(1, { translation: 'failed', speech: 'none', rawSegment: null, language: 'en' }), 'es')).toEqual({ kind: 'note', note: 'translationFailed' });
    expect(segmentStatus(segment(1, { translation: 'none', speech: 'none', rawSegment: null, language: 'ja' }), 'es')).toEqual({ kind: 'note', note: 'notTranslated' });
    expect(segmentStatus(segment(1, { speech: 'failed', audioFile: null }), 'es')).toEqual({ kind: 'note', note: 'voiceFailed' });
    expect(segmentStatus(segment(1, { speech: 'none', audioFile: null }), 'es')).toEqual({ kind: 'note', note: 'noVoice' });
  });

  it('has nothing to say to a reader of the speaker\'s own language, nor to the speaker', () => {
    const original = segment(1, { rawSegment: null, language: 'en', translation: 'none', speech: 'none' });
    expect(segmentStatus(original, 'en')).toBeNull();
    expect(segmentStatus({ ...original, isMe: true }, 'en')).toBeNull();
  });
});
