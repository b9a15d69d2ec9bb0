// Partial captions (issue 33): each utterance once, updated in place; a stored one keeps its last
// words until its segment shows the listener's text; a dropped or stale one goes.
import { describe, expect, it } from 'vitest';
import type { PartialSegmentEvent } from '@parla/contract/interpreting';
import { applyPartial, coveredSegments, PARTIAL_STALE_MS, visiblePartials } from '../src/features/rooms/partials';
import { BASE_TIME, pendingSegment, segment } from './room-fixtures';

const event = (utterance: string, overrides: Partial<PartialSegmentEvent> = {}): PartialSegmentEvent => ({
  roomId: 1,
  utterance,
  speaker: { id: 7, alias: 'Ana' },
  language: 'en',
  text: 'buenos días',
  translated: true,
  state: 'speaking',
  segmentId: null,
  behindMs: 0,
  ...overrides,
});

describe('partial captions', () => {
  it('updates an utterance in place and keeps the order they began in', () => {
    let shown = applyPartial([], event('a'), BASE_TIME);
    shown = applyPartial(shown, event('b', { speaker: { id: 8, alias: 'Ben' }, text: 'hola' }), BASE_TIME + 100);
    shown = applyPartial(shown, event('a', { text: 'buenos días a todos' }), BASE_TIME + 200);
    expect(shown.map((item) => [item.utterance, item.text])).toEqual([
      ['a', 'buenos días a todos'],
      ['b', 'hola'],
    ]);
  });

  it('a stored partial keeps its words until its segment shows the listener’s text', () => {
    let shown = applyPartial([], event('a', { text: 'buenos días a todos' }), BASE_TIME);
    shown = applyPartial(shown, event('a', { state: 'stored', segmentId: 5, text: '', translated: false }), BASE_TIME + 100);
    expect(shown[0]).toMatchObject({ state: 'stored', segmentId: 5, text: 'buenos días a todos', translated: true });
    // Its segment not there yet, or still being translated: the partial stands in for it.
    expect(visiblePartials(shown, [])).toHaveLength(1);
    expect(visiblePartials(shown, [pendingSegment(5)])).toHaveLength(1);
    expect(coveredSegments(visiblePartials(shown, [pendingSegment(5)]))).toEqual(new Set([5]));
    // Translated: the segment takes its place.
    expect(visiblePartials(shown, [segment(5)])).toEqual([]);
  });

  it('drops a dropped utterance, and one without news for a while', () => {
    let shown = applyPartial([], event('a'), BASE_TIME);
    shown = applyPartial(shown, event('b'), BASE_TIME + PARTIAL_STALE_MS - 1000);
    expect(applyPartial(shown, event('b', { state: 'dropped', text: '' }), BASE_TIME + PARTIAL_STALE_MS - 500).map((item) => item.utterance)).toEqual(['a']);
    expect(applyPartial(shown, event('c'), BASE_TIME + PARTIAL_STALE_MS + 1).map((item) => item.utterance)).toEqual(['b', 'c']);
    // A stored end of an utterance never shown (no words): nothing to show.
    expect(applyPartial([], event('d', { state: 'stored', segmentId: 9, text: '' }), BASE_TIME)).toEqual([]);
  });
});
