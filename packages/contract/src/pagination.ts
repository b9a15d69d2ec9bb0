// Page shapes shared by the list calls.
import * as z from 'zod/mini';
import { LIMITS } from './constants';
import { searchQueryField } from './fields';

/** `{next, previous, results}`: cursor pages (chats, messages). */
export const cursorPageSchema = <T extends z.core.$ZodType>(item: T) =>
  z.object({
    next: z.nullable(z.string()),
    previous: z.nullable(z.string()),
    results: z.array(item),
  });

/** `{count, next, previous, results}`: counted pages (rooms, members, participants, segments). */
export const countedPageSchema = <T extends z.core.$ZodType>(item: T) =>
  z.object({
    count: z.int().check(z.nonnegative()),
    next: z.nullable(z.string()),
    previous: z.nullable(z.string()),
    results: z.array(item),
  });

export type CursorPage<T> = { next: string | null; previous: string | null; results: T[] };
export type CountedPage<T> = CursorPage<T> & { count: number };

/** `?limit=&offset=` */
export const limitOffsetQuerySchema = z.object({
  limit: z._default(
    z.coerce.number().check(z.int(), z.minimum(1), z.maximum(LIMITS.pageSizeMax)),
    LIMITS.pageSizeDefault,
  ),
  offset: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(LIMITS.idMax)), 0),
});
export type LimitOffsetQuery = z.infer<typeof limitOffsetQuerySchema>;

/** `?pageIndex=&pageSize=&q=` (0-based pageIndex). */
export const pageIndexQuerySchema = z.object({
  pageIndex: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(LIMITS.idMax)), 0),
  pageSize: z._default(
    z.coerce.number().check(z.int(), z.minimum(1), z.maximum(LIMITS.pageSizeMax)),
    LIMITS.pageSizeDefault,
  ),
  q: z.optional(searchQueryField),
});
export type PageIndexQuery = z.infer<typeof pageIndexQuerySchema>;
