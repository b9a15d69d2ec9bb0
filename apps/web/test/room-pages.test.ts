// The room list and the transcript follow each page's `next` link: the next offset is read from
// it (full URL or path), and a page without one is the last.
import { describe, expect, it } from 'vitest';
import { nextOffset } from '../src/features/rooms/api';

describe('nextOffset', () => {
  it('reads the offset of the next page from its link', () => {
    expect(nextOffset({ next: 'http://127.0.0.1:8000/api/rooms/?limit=20&offset=20', results: [1, 2] }, 0)).toBe(20);
    expect(nextOffset({ next: '/api/rooms/7/segments/?offset=100&limit=50', results: [1] }, 50)).toBe(100);
  });

  it('stops at the last page', () => {
    expect(nextOffset({ next: null, results: [1, 2, 3] }, 40)).toBeUndefined();
  });

  it('counts on from the page when the link carries no usable offset', () => {
    expect(nextOffset({ next: 'http://x/api/rooms/?limit=20', results: [1, 2, 3] }, 20)).toBe(23);
    expect(nextOffset({ next: 'http://x/api/rooms/?offset=0', results: [] }, 20)).toBeUndefined();
  });
});
