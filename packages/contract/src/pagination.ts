// Page shapes shared by the list calls.
import { z } from 'zod';
import { LIMITS } from './constants';

/** `{next, previous, results}`: cursor pages (chats, messages). */
export const cursorPageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

/** `{count, next, previous, results}`: counted pages (rooms, members, participants, segments). */
export const countedPageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int().nonnegative(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

export type CursorPage<T> = { next: string | null; previous: string | null; results: T[] };
export type CountedPage<T> = CursorPage<T> & { count: number };

/** `?limit=&offset=` */
export const limitOffsetQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(LIMITS.pageSizeDefault),
  offset: z.coerce.number().int().min(0).default(0),
});
export type LimitOffsetQuery = z.infer<typeof limitOffsetQuerySchema>;

/** `?pageIndex=&pageSize=&q=` (0-based pageIndex). */
export const pageIndexQuerySchema = z.object({
  pageIndex: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(LIMITS.pageSizeDefault),
  q: z.string().max(255).optional(),
});
export type PageIndexQuery = z.infer<typeof pageIndexQuerySchema>;
