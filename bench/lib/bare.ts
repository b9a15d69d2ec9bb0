// Pieces of the bare reference servers (bench/bare-*.ts): the cheapest correct HS256 check of an
// access token (node:crypto), and the SQL the real server really runs,
// captured once at start by drizzle's logger from the server's own repository functions (so a
// changed query follows without touching the bench) and replayed with plain `pg`, nothing of
// drizzle per request.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Db } from '../../apps/server/src/platform/db/index';
import * as schema from '../../apps/server/src/platform/db/schema';

export interface AccessClaims {
  userId: number;
  sessionId: string;
}

export const UNAUTHORIZED = JSON.stringify({ type: 'client_error', errors: [{ code: 'token_not_valid', attr: null, detail: 'Token is invalid or expired.' }] });

/** The claims of a valid HS256 access token, else null: signature, algorithm, expiry, type. */
export function verifyAccessToken(token: string, secret: string): AccessClaims | null {
  const [header = '', body = '', signature = '', extra] = token.split('.');
  if (extra !== undefined) return null;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    if ((JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string }).alg !== 'HS256') return null;
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { exp?: number; sub?: string; sid?: string; typ?: string };
    const userId = Number(payload.sub);
    if (payload.typ !== 'access' || typeof payload.exp !== 'number' || payload.exp <= Date.now() / 1000 || !Number.isInteger(userId)) return null;
    return { userId, sessionId: String(payload.sid) };
  } catch {
    return null;
  }
}

/** The bearer token of an Authorization header, else undefined. */
export function bearer(header: string | undefined): string | undefined {
  return header?.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : undefined;
}

export interface CapturedStatement<A extends Record<string, unknown>> {
  text: string;
  /** The parameters for these arguments, in the statement's order (constants such as `limit 1` kept). */
  values(args: A): unknown[];
  /** Position of `"table"."column"` in the select list (for `rowMode: 'array'`). */
  column(table: string, column: string): number;
}

/**
 * Runs `call` against a drizzle of the server's schema on `pool` with a logger, and returns the
 * first statement it sent. `sentinels` are the argument values given to `call` (distinct, not
 * otherwise in the query): each parameter equal to one becomes that argument.
 */
export async function captureStatement<A extends Record<string, unknown>>(
  pool: pg.Pool,
  sentinels: A,
  call: (db: Db) => Promise<unknown>,
): Promise<CapturedStatement<A>> {
  const logged: { text: string; params: unknown[] }[] = [];
  const db = drizzle({ client: pool, schema, logger: { logQuery: (text, params) => logged.push({ text, params }) } }) as unknown as Db;
  // The statement is logged before it runs; whether it finds anything does not matter.
  await call(db).catch(() => undefined);
  const first = logged[0];
  if (!first) throw new Error('the call sent no statement');
  const names = Object.keys(sentinels) as (keyof A)[];
  const slots = first.params.map((param) => names.find((name) => sentinels[name] === param));
  for (const name of names) if (!slots.includes(name)) throw new Error(`argument ${String(name)} is not a parameter of: ${first.text}`);
  const selectList = first.text.slice(0, first.text.search(/ from "/));
  const columns = [...selectList.matchAll(/"(\w+)"\."(\w+)"/g)].map(([, table, column]) => `${table}.${column}`);
  return {
    text: first.text,
    values: (args) => slots.map((slot, index) => (slot === undefined ? first.params[index] : args[slot])),
    column(table, column) {
      const at = columns.indexOf(`${table}.${column}`);
      if (at < 0) throw new Error(`"${table}"."${column}" is not selected by: ${first.text}`);
      return at;
    },
  };
}

/** What a bare server is started with (PORT, SECRET_KEY, DATABASE_URL, PUBLIC_URL for avatar URLs). */
export function bareEnv() {
  const port = Number(process.env.PORT ?? 0);
  const secret = process.env.SECRET_KEY;
  const databaseUrl = process.env.DATABASE_URL;
  const publicUrl = (process.env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!secret || !databaseUrl) throw new Error('SECRET_KEY and DATABASE_URL are required');
  return { port, secret, databaseUrl, publicUrl };
}

/**
 * Listens on loopback until SIGTERM/SIGINT, which close the app and the pool and end the process
 * with process.exit (so `--cpu-prof` profiles are written); `banner` is printed once listening.
 */
export async function serveUntilSignalled(app: FastifyInstance, pool: pg.Pool, port: number, banner: string): Promise<void> {
  const stop = () => {
    void app
      .close()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await app.listen({ port, host: '127.0.0.1' });
  console.log(banner);
}
