// Row mapping for the hottest prepared reads (a page of messages, a membership). Drizzle maps
// every row generically: for each column it checks the field's kind, walks its path and tracks
// left joins, which costs more than the query itself for a page of 20 joined rows (measured by
// bench/chat-read.ts: about a quarter of the server's time per request). Here the same mapping is
// planned once per prepared query and compiled to one function that builds each row as an object
// literal (a left-joined object whose columns are all null is null, as drizzle makes it); columns
// drizzle passes through as they come are not decoded again. A field may also be an sql
// expression (`sql<string>\`coalesce(...)\``, aliased or not): its decoder is drizzle's.
//
// On node-postgres such a query is also sent straight to the pool, as drizzle's own execute sends
// it (same name, text, array rows and type parsers; a failure wrapped as drizzle wraps it), without
// its per-call layers (tracing spans, the query cache check, the logger): only when the database
// has no logger and no cache, so nothing they would do is lost.
import { Column, DrizzleQueryError, entityKind, fillPlaceholders, getTableColumns, is, NoopLogger, SQL, type Table } from 'drizzle-orm';
import { NoopCache } from 'drizzle-orm/cache/core';
import { PgTimestamp } from 'drizzle-orm/pg-core';

interface Field {
  path: string[];
  field: unknown;
}

/** What this module needs of a drizzle prepared select (internal, stable across 0.3x–0.4x: `fields`, `customResultMapper`; node-postgres: `client`, `queryConfig`, `params`, `logger`, `cache`). */
interface PreparedInternals {
  fields?: Field[];
  customResultMapper?: (rows: unknown[][]) => unknown;
  execute?: (values?: Record<string, unknown>) => Promise<unknown>;
  client?: { query(config: unknown, values: unknown[]): Promise<{ rows: unknown[][] }> };
  queryConfig?: { text?: string; rowMode?: string };
  params?: unknown[];
  logger?: unknown;
  cache?: unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** How drizzle decodes a selected field: a column by itself, an sql expression by its decoder (`.mapWith`); undefined for anything else. */
function decoderOf(field: unknown): Decoder | undefined {
  if (field instanceof Column) return field;
  // `decoder` is internal to drizzle's types (what `.mapWith` sets), read as its mapResultRow reads it.
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, SQL.Aliased)) return (field.sql as unknown as { decoder: Decoder }).decoder;
  return undefined;
}

/** The digit at `at` (0-9), else something out of that range. */
const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
/** The two digits at `at` as a number, else -1. */
function two(text: string, at: number): number {
  const a = digit(text, at), b = digit(text, at + 1);
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}
/**
 * A `timestamp with time zone` as PostgreSQL writes it (ISO DateStyle: `2026-11-28 15:49:52.123456+00`,
 * an offset of `+HH` or `+HH:MM`) as the Date `new Date(text)` makes of it (milliseconds cut, not
 * rounded), read digit by digit at twice its speed; any other shape (BC, infinity, a year past
 * 9999 or before 1000) goes to `new Date` itself. A page reads some hundred of them.
 */
export function parseTimestamptz(text: string): Date {
  const length = text.length;
  if (length < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return new Date(text);
  const century = two(text, 0), yy = two(text, 2), month = two(text, 5), day = two(text, 8), hour = two(text, 11), minute = two(text, 14), second = two(text, 17);
  if (century < 10 || yy < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return new Date(text);
  let at = 19;
  let ms = 0;
  if (text.charCodeAt(at) === 46) {
    at++;
    const start = at;
    while (at < length) {
      const c = digit(text, at);
      if (c < 0 || c > 9) break;
      if (at - start < 3) ms = ms * 10 + c;
      at++;
    }
    const count = at - start;
    if (count === 0 || count > 6) return new Date(text);
    if (count === 1) ms *= 100;
    else if (count === 2) ms *= 10;
  }
  const sign = text.charCodeAt(at);
  if ((sign !== 43 && sign !== 45) || (length !== at + 3 && length !== at + 6)) return new Date(text);
  const offsetHours = two(text, at + 1);
  let offsetMinutes = 0;
  if (length === at + 6) {
    if (text.charCodeAt(at + 3) !== 58) return new Date(text);
    offsetMinutes = two(text, at + 4);
  }
  if (offsetHours < 0 || offsetMinutes < 0 || offsetMinutes > 59) return new Date(text);
  const offset = (offsetHours * 60 + offsetMinutes) * (sign === 45 ? -60_000 : 60_000);
  return new Date(Date.UTC(century * 100 + yy, month - 1, day, hour, minute, second, ms) - offset);
}

/** Drizzle's decoder of a timestamptz column read as a Date, with the parse above (a value that is no string is given back, as drizzle does). */
const timestamptz: Decoder = { mapFromDriverValue: (value) => (typeof value === 'string' ? parseTimestamptz(value) : value) };

/** The decoder the plan uses for a field: drizzle's, but for timestamptz columns read as Dates. */
const planDecoder = (decoder: Decoder): Decoder => (is(decoder, PgTimestamp) && decoder.withTimezone ? timestamptz : decoder);

/** A decoder that gives the driver's value back as it is (text, varchar, boolean...): no call needed. */
const passesThrough = (decoder: Decoder) => decoder instanceof Column && decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue;

/**
 * The row mapper of a plan, compiled once: `rows => rows.map(r => ({ key: decode(r[0]), group: {...} }))`
 * written out, so every row is built by the same object literals (keys are quoted with
 * JSON.stringify; values are only read from the row and decoded by the plan's decoders).
 */
function compileMapper(plan: { group: string | null; key: string; column: Decoder }[], optional: readonly string[]): (rows: unknown[][]) => unknown[] {
  const value = (index: number) => (passesThrough(plan[index]!.column) ? `n(r[${index}])` : `d(${index}, r[${index}])`);
  const entries: string[] = [];
  const done = new Set<string>();
  plan.forEach((step, index) => {
    if (step.group === null) {
      entries.push(`${JSON.stringify(step.key)}: ${value(index)}`);
      return;
    }
    if (done.has(step.group)) return;
    done.add(step.group);
    const members = plan.flatMap((other, at) => (other.group === step.group ? [at] : []));
    const object = `{ ${members.map((at) => `${JSON.stringify(plan[at]!.key)}: ${value(at)}`).join(', ')} }`;
    const empty = members.map((at) => `n(r[${at}]) === null`).join(' && ');
    entries.push(`${JSON.stringify(step.group)}: ${optional.includes(step.group) ? `(${empty}) ? null : ${object}` : object}`);
  });
  const decoders = plan.map((step) => step.column);
  const n = (raw: unknown) => (raw === undefined ? null : raw);
  const d = (index: number, raw: unknown) => (raw === null || raw === undefined ? null : decoders[index]!.mapFromDriverValue(raw));
  // Code made here from the plan only (no value of a request): the fastest way to build rows of one shape.
  const build = new Function('n', 'd', `return function mapRows(rows) {
    const out = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      out[i] = { ${entries.join(', ')} };
    }
    return out;
  };`) as (nn: typeof n, dd: typeof d) => (rows: unknown[][]) => unknown[];
  return build(n, d);
}

/** A node-postgres prepared query (`client.query(config, values)`; PGlite's takes the text first). */
const isNodePg = (prepared: unknown) => (prepared as { constructor?: Record<symbol, unknown> }).constructor?.[entityKind] === 'NodePgPreparedQuery';

/** What `withFastRows` did to each prepared select: mapped by a plan, and sent straight to the pool. */
const applied = new WeakMap<object, { mapped: boolean; direct: boolean }>();

/**
 * Whether the fast paths are taken for this prepared select. They rest on drizzle's internals (see
 * PreparedInternals): a drizzle upgrade that changes them makes `withFastRows` fall back to
 * drizzle's own mapping silently, so test/fast-rows.test.ts asserts both are taken.
 */
export const fastRowsOf = (prepared: object) => applied.get(prepared) ?? { mapped: false, direct: false };

/**
 * Gives a prepared select (made of tables' columns and sql expressions, grouped one level deep:
 * `{ message: table, sender: {...} }`) a mapper planned once. `nullable` names the left-joined
 * objects. A query it cannot plan keeps drizzle's own mapping.
 */
export function withFastRows<T>(prepared: T, nullable: readonly string[] = []): T {
  const internals = prepared as PreparedInternals;
  const fields = internals.fields;
  if (!Array.isArray(fields) || !fields.every((item) => decoderOf(item.field) !== undefined && item.path.length >= 1 && item.path.length <= 2)) return prepared;
  const plan = fields.map(({ path, field }) => ({ group: path.length === 2 ? path[0]! : null, key: path[path.length - 1]!, column: planDecoder(decoderOf(field)!) }));
  const groups = [...new Set(plan.flatMap((step) => (step.group === null ? [] : [step.group])))];
  const mapper = compileMapper(plan, groups.filter((group) => nullable.includes(group)));
  internals.customResultMapper = mapper;
  const { client, queryConfig, params, logger, cache } = internals;
  if (isNodePg(prepared) && client && queryConfig?.rowMode === 'array' && typeof queryConfig.text === 'string' && Array.isArray(params) && is(logger, NoopLogger) && (cache === undefined || is(cache, NoopCache))) {
    internals.execute = async (values = {}) => {
      const filled = fillPlaceholders(params, values);
      let result: { rows: unknown[][] };
      try {
        result = await client.query(queryConfig, filled);
      } catch (error) {
        throw new DrizzleQueryError(queryConfig.text ?? '', filled, error as Error);
      }
      return mapper(result.rows);
    };
    applied.set(internals, { mapped: true, direct: true });
  } else {
    applied.set(internals, { mapped: true, direct: false });
  }
  return prepared;
}

/**
 * A decoder (for `sql\`...\`.mapWith`) of a JSON array of a table's rows, as `json_agg(t)` makes it
 * (keys are column names): each row mapped by the table's columns, planned once, as drizzle maps
 * the same columns read plainly (dates as Dates, arrays as arrays, nulls as null).
 */
export function jsonRowsOf<T extends Table>(table: T): { mapFromDriverValue(value: unknown): T['$inferSelect'][] } {
  const plan = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, name: column.name, column: column as Column }));
  return {
    mapFromDriverValue(value) {
      const list = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>[] | null;
      return (list ?? []).map((raw) => {
        const row: Record<string, unknown> = {};
        for (const step of plan) {
          const field = raw[step.name];
          row[step.key] = field === null || field === undefined ? null : step.column.mapFromDriverValue(field);
        }
        return row as T['$inferSelect'];
      });
    },
  };
}
