// A hand-written statement (one drizzle's builders cannot express: a CTE of writes) prepared once
// by name, as drizzle prepares its built queries: PostgreSQL parses and plans it once per
// connection instead of on every call. Drizzle offers no public way to prepare raw SQL; this uses
// its session's `prepareQuery`, the path its own `execute` takes, with a name.
import type { SQL } from 'drizzle-orm';
import type { Db } from './index';

interface Internals {
  session: { prepareQuery(query: unknown, fields: undefined, name: string, isResponseInArrayMode: boolean): { execute(placeholders: Record<string, unknown>): Promise<unknown> } };
  dialect: { sqlToQuery(query: SQL): unknown };
}

/** `query` uses `sql.placeholder(...)` for its values; `execute` fills them and answers the driver's rows. */
export function preparedSql<Row>(db: Db, name: string, query: SQL) {
  const { session, dialect } = db as unknown as Internals;
  const prepared = session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  return {
    async execute(values: Record<string, unknown>): Promise<Row[]> {
      const result = (await prepared.execute(values)) as { rows: Row[] };
      return result.rows;
    },
  };
}
