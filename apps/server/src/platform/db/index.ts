// The database: PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set. Same schema,
// same migrations, same queries.
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PGlite as PGliteClient } from '@electric-sql/pglite';
import * as schema from './schema';
import { serverPaths } from '../paths';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The in-process database itself (PGlite only), for tools that speak SQL directly (jobs). */
  pglite?: PGliteClient;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const migrationsFolder = serverPaths.migrations;

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  pgliteDir: string;
  /** PGlite only: start from this dump of a data directory (`dumpDataDir`) instead of an empty one. */
  pgliteTemplate?: Blob | undefined;
  /**
   * PostgreSQL only: an idle pooled connection that the server ended (a restart, an administrator,
   * a dropped database). The pool replaces it on the next query; without a listener the error
   * would end the process.
   */
  onIdleError?: ((error: Error) => void) | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.onIdleError) : openPglite(options.pgliteDir, options.pgliteTemplate);
}

async function openPostgres(url: string, onIdleError: DatabaseOptions['onIdleError']): Promise<Database> {
  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', (error) => onIdleError?.(error));
  const db = drizzle(pool, { schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    ping: () => ping(db as unknown as Db),
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string, template?: Blob): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = template ? new PGlite({ dataDir, loadDataDir: template }) : new PGlite(dataDir);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    pglite: client,
    ping: () => ping(db as unknown as Db),
    close: () => client.close(),
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
