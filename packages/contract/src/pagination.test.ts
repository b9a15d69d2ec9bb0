import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  countedPageSchema,
  cursorPageSchema,
  limitOffsetQuerySchema,
  pageIndexQuerySchema,
} from './pagination';

function issuePaths(schema: z.ZodMiniType, input: unknown): string[] {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.map(String).join('.'));
}

const item = z.object({ id: z.number() });

describe('cursorPageSchema', () => {
  const page = cursorPageSchema(item);

  it('parses {next, previous, results} with null links', () => {
    const body = { next: 'https://x.test/api/chat/?limit=20&lastModified=2024', previous: null, results: [{ id: 1 }] };
    expect(page.parse(body)).toEqual(body);
    expect(page.parse({ next: null, previous: null, results: [] }).results).toEqual([]);
  });

  it('validates every result with the item schema', () => {
    expect(
      issuePaths(page, { next: null, previous: null, results: [{ id: 1 }, { id: 'two' }] }),
    ).toEqual(['results.1.id']);
  });

  it('requires the links to be present (null, not missing)', () => {
    expect(issuePaths(page, { results: [] }).sort()).toEqual(['next', 'previous']);
  });
});

describe('countedPageSchema', () => {
  const page = countedPageSchema(item);

  it('parses {count, next, previous, results}', () => {
    const body = { count: 41, next: 'https://x.test/api/rooms/?limit=20&offset=20', previous: null, results: [{ id: 3 }] };
    expect(page.parse(body)).toEqual(body);
  });

  it('requires a non-negative integer count', () => {
    expect(issuePaths(page, { next: null, previous: null, results: [] })).toEqual(['count']);
    expect(issuePaths(page, { count: -1, next: null, previous: null, results: [] })).toEqual(['count']);
    expect(issuePaths(page, { count: 1.5, next: null, previous: null, results: [] })).toEqual(['count']);
  });
});

describe('limitOffsetQuerySchema', () => {
  it('coerces query strings', () => {
    expect(limitOffsetQuerySchema.parse({ limit: '5', offset: '20' })).toEqual({ limit: 5, offset: 20 });
  });

  it('defaults to limit 20 and offset 0', () => {
    expect(limitOffsetQuerySchema.parse({})).toEqual({ limit: 20, offset: 0 });
  });

  it('bounds limit to 1..100 and offset to 0 or more', () => {
    expect(issuePaths(limitOffsetQuerySchema, { limit: '0' })).toEqual(['limit']);
    expect(issuePaths(limitOffsetQuerySchema, { limit: '101' })).toEqual(['limit']);
    expect(issuePaths(limitOffsetQuerySchema, { offset: '-1' })).toEqual(['offset']);
    expect(issuePaths(limitOffsetQuerySchema, { limit: 'many' })).toEqual(['limit']);
  });
});

describe('pageIndexQuerySchema', () => {
  it('coerces query strings and keeps q', () => {
    expect(pageIndexQuerySchema.parse({ pageIndex: '2', pageSize: '50', q: 'ana' })).toEqual({
      pageIndex: 2,
      pageSize: 50,
      q: 'ana',
    });
  });

  it('defaults to the first page of 20 without a search', () => {
    expect(pageIndexQuerySchema.parse({})).toEqual({ pageIndex: 0, pageSize: 20 });
  });

  it('rejects a negative page, a page size over 100 and an overlong search', () => {
    expect(issuePaths(pageIndexQuerySchema, { pageIndex: '-1' })).toEqual(['pageIndex']);
    expect(issuePaths(pageIndexQuerySchema, { pageSize: '101' })).toEqual(['pageSize']);
    expect(issuePaths(pageIndexQuerySchema, { q: 'q'.repeat(256) })).toEqual(['q']);
  });
});
