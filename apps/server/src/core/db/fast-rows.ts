// Row mapping for the hottest prepared reads (a page of messages, a membership). Drizzle maps
// every row generically: for each column it checks the field's kind, walks its path and tracks
// left joins, which costs more than the query itself for a page of 20 joined rows (measured by
// bench/chat-read.ts: about a quarter of the server's time per request). Here the same mapping is
// planned once per prepared query: each column's place and decoder are found at start, and a left
// joined object whose columns are all null is null, as drizzle makes it. A field may also be an
// sql expression (`sql<string>\`coalesce(...)\``, aliased or not): its decoder is drizzle's.
import { Column, getTableColumns, is, SQL, type Table } from 'drizzle-orm';

interface Field {
  path: string[];
  field: unknown;
}

/** What this module needs of a drizzle prepared select (internal, stable across 0.3x–0.4x: `fields`, `customResultMapper`). */
interface PreparedInternals {
  fields?: Field[];
  customResultMapper?: (rows: unknown[][]) => unknown;
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

/**
 * Gives a prepared select (made of tables' columns and sql expressions, grouped one level deep:
 * `{ message: table, sender: {...} }`) a mapper planned once. `nullable` names the left-joined
 * objects. A query it cannot plan keeps drizzle's own mapping.
 */
export function withFastRows<T>(prepared: T, nullable: readonly string[] = []): T {
  const internals = prepared as PreparedInternals;
  const fields = internals.fields;
  if (!Array.isArray(fields) || !fields.every((item) => decoderOf(item.field) !== undefined && item.path.length >= 1 && item.path.length <= 2)) return prepared;
  const plan = fields.map(({ path, field }) => ({ group: path.length === 2 ? path[0]! : null, key: path[path.length - 1]!, column: decoderOf(field)! }));
  const groups = [...new Set(plan.flatMap((step) => (step.group === null ? [] : [step.group])))];
  const optional = groups.filter((group) => nullable.includes(group));
  internals.customResultMapper = (rows) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      for (const group of groups) result[group] = {};
      for (let index = 0; index < plan.length; index++) {
        const step = plan[index]!;
        const raw = row[index];
        const value = raw === null || raw === undefined ? null : step.column.mapFromDriverValue(raw);
        if (step.group === null) result[step.key] = value;
        else (result[step.group] as Record<string, unknown>)[step.key] = value;
      }
      for (const group of optional) {
        const object = result[group] as Record<string, unknown>;
        let empty = true;
        for (const key in object) {
          if (object[key] !== null) {
            empty = false;
            break;
          }
        }
        if (empty) result[group] = null;
      }
      return result;
    });
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
