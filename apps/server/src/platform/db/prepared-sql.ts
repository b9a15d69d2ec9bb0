// A hand-written statement (one drizzle's builders cannot express: a CTE of writes) prepared once
// by name: PostgreSQL parses and plans it once per connection instead of on every call. Only
// public APIs: drizzle's PgDialect writes the SQL as text and parameters, `fillPlaceholders` fills
// them, and the statement goes to the driver drizzle was given (`db.$client`): node-postgres with
// its `name` (a prepared statement), PGlite with its parameters. Dates, times and intervals come
// back as text, as drizzle reads them, so callers decode them as drizzle's columns do.
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Db } from './index';

const dialect = new PgDialect();

/**
 * PostgreSQL's ids of the types read as text (drizzle's own list): timestamp, timestamptz, date,
 * interval, and the arrays of those and of numeric. Built-in type ids never change.
 */
const AS_TEXT = [1114, 1184, 1082, 1186, 1115, 1185, 1182, 1187, 1231];
const asText = (value: unknown) => value;

type Client = pg.Pool | PGlite;
const isPglite = (client: Client): client is PGlite => typeof (client as PGlite).waitReady !== 'undefined';

/** node-postgres's own parsers for every other type (loaded only when node-postgres is the driver). */
let pgTypes: Promise<typeof pg.types> | undefined;

/** `query` uses `sql.placeholder(...)` for its values; `execute` fills them and answers the rows. */
export function preparedSql<Row>(db: Db, name: string, query: SQL) {
  const client = (db as unknown as { $client: Client }).$client;
  const { sql: text, params } = dialect.sqlToQuery(query);
  if (isPglite(client)) {
    const parsers = Object.fromEntries(AS_TEXT.map((id) => [id, asText]));
    return {
      async execute(values: Record<string, unknown>): Promise<Row[]> {
        const result = await client.query<Row>(text, fillPlaceholders(params, values), { parsers });
        return result.rows;
      },
    };
  }
  pgTypes ??= import('pg').then((driver) => driver.default.types);
  return {
    async execute(values: Record<string, unknown>): Promise<Row[]> {
      const types = await pgTypes!;
      const result = await client.query<Row & object>({
        name,
        text,
        values: fillPlaceholders(params, values),
        types: { getTypeParser: ((id: number, format?: string) => (AS_TEXT.includes(id) ? asText : types.getTypeParser(id, format as 'text'))) as typeof types.getTypeParser },
      });
      return result.rows;
    },
  };
}
