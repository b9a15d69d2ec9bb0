// Page shapes of the list calls, with full links (the spec's client follows `next` as given).
import type { CountedPage, CursorPage } from '@parla/contract/pagination';

/** Text that URLSearchParams writes as it is (letters, digits, `_`, `.`, `-`, `*`). */
const PLAIN = /^[\w.*-]*$/;

/** A full link to `path` on this server with the given query (undefined values left out). */
export function pageLink(publicUrl: string, path: string, query: Record<string, string | number | undefined>): string {
  // Most links carry only numbers and plain words (a cursor, a limit): written directly, as
  // URLSearchParams would write them; anything else is encoded by URLSearchParams.
  let text = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined || value === '') continue;
    const written = typeof value === 'number' ? String(value) : value;
    if (!PLAIN.test(key) || !PLAIN.test(written)) return encodedLink(publicUrl, path, query);
    text += `${text ? '&' : '?'}${key}=${written}`;
  }
  return `${publicUrl}${path}${text}`;
}

function encodedLink(publicUrl: string, path: string, query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return `${publicUrl}${path}${text ? `?${text}` : ''}`;
}

/** `{count, next, previous, results}` for `?pageIndex=&pageSize=` (0-based pages). */
export function indexedPage<T>(
  link: (query: Record<string, string | number | undefined>) => string,
  query: { pageIndex: number; pageSize: number; q?: string | undefined },
  count: number,
  results: T[],
): CountedPage<T> {
  const { pageIndex, pageSize, q } = query;
  return {
    count,
    next: (pageIndex + 1) * pageSize < count ? link({ pageIndex: pageIndex + 1, pageSize, q }) : null,
    previous: pageIndex > 0 ? link({ pageIndex: Math.min(pageIndex - 1, Math.max(0, Math.ceil(count / pageSize) - 1)), pageSize, q }) : null,
    results,
  };
}

/** `{count, next, previous, results}` for `?limit=&offset=`. */
export function offsetPage<T>(
  link: (query: Record<string, string | number | undefined>) => string,
  query: { limit: number; offset: number },
  count: number,
  results: T[],
): CountedPage<T> {
  const { limit, offset } = query;
  return {
    count,
    next: offset + limit < count ? link({ limit, offset: offset + limit }) : null,
    previous: offset > 0 ? link({ limit, offset: Math.max(0, offset - limit) }) : null,
    results,
  };
}

/** `{next, previous, results}` of a cursor list: `next` continues after the last result when the page was full. */
export function cursorPage<T>(results: T[], limit: number, nextLink: (last: T) => string): CursorPage<T> {
  const last = results[results.length - 1];
  return { next: results.length === limit && last !== undefined ? nextLink(last) : null, previous: null, results };
}
