// The floor for bench/request-cost.ts: the least a Node server can do for an authenticated
// `GET /api/accounts/user/` on PostgreSQL. Plain Fastify 5 (no logger, no plugins, no schemas) and
// a `pg` Pool of the server's size (10); one route that verifies the same HS256 Bearer JWT with
// an HMAC of node:crypto (the cheapest correct check), runs the same two statements as the real
// server (the session check of `isSessionActive` and `findUserById`) as named prepared statements
// with `pool.query`, and answers the same JSON with JSON.stringify. The SQL text is drizzle's for
// the repository's two builders, generated once at start from the server's schema (so a new
// column follows); nothing of drizzle runs per request.
//
// Environment: PORT, DATABASE_URL, SECRET_KEY, PUBLIC_URL (for avatar URLs). Started as a child
// process by request-cost.ts: `node --import tsx bench/bare-server.ts`. SIGTERM/SIGINT end it with
// process.exit, so `--cpu-prof` profiles are written.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import Fastify from 'fastify';
import pg from 'pg';
import { sessions, users } from '../apps/server/src/core/db/schema';

/**
 * The statements of AccountsRepository.isSessionActive and findUserById, as drizzle writes them:
 *   select "id" from "sessions" where ("sessions"."id" = $1 and "sessions"."user_id" = $2 and
 *     "sessions"."revoked_at" is null and "sessions"."refresh_expires_at" > $3) limit $4
 *   select "id", "email", ... from "users" where "users"."id" = $1 limit $2
 */
function statements(pool: pg.Pool) {
  const db = drizzle({ client: pool });
  const session = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, ''), eq(sessions.userId, 0), isNull(sessions.revokedAt), gt(sessions.refreshExpiresAt, sql`now()`)))
    .limit(1)
    .toSQL().sql;
  const user = db.select().from(users).where(eq(users.id, 0)).limit(1).toSQL().sql;
  return { session, user };
}

interface UserRow {
  id: number;
  email: string;
  full_name: string | null;
  avatar_key: string | null;
}

const UNAUTHORIZED = JSON.stringify({ type: 'client_error', errors: [{ code: 'token_not_valid', attr: null, detail: 'Token is invalid or expired.' }] });

async function main() {
  const port = Number(process.env.PORT ?? 0);
  const secret = process.env.SECRET_KEY;
  const databaseUrl = process.env.DATABASE_URL;
  const publicUrl = (process.env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!secret || !databaseUrl) throw new Error('SECRET_KEY and DATABASE_URL are required');
  /** The claims of a valid HS256 access token, else null: signature, algorithm, expiry, type. */
  const verify = (token: string): { userId: number; sessionId: string } | null => {
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
  };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const { session: SESSION_SQL, user: USER_SQL } = statements(pool);
  const app = Fastify({ logger: false });

  app.get('/user/', async (request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    const header = request.headers.authorization;
    if (!header?.toLowerCase().startsWith('bearer ')) return reply.code(401).send(UNAUTHORIZED);
    const claims = verify(header.slice(7).trim());
    if (!claims) return reply.code(401).send(UNAUTHORIZED);
    const { userId, sessionId } = claims;
    const session = await pool.query({ name: 'bare_session', text: SESSION_SQL, values: [sessionId, userId, 1] });
    if (session.rowCount === 0) return reply.code(401).send(UNAUTHORIZED);
    const { rows } = await pool.query<UserRow>({ name: 'bare_user', text: USER_SQL, values: [userId, 1] });
    const user = rows[0];
    if (!user) return reply.code(401).send(UNAUTHORIZED);
    return reply.send(
      JSON.stringify({
        id: user.id,
        email: user.email,
        fullName: user.full_name,
        avatarImage: user.avatar_key ? `${publicUrl}/media/${user.avatar_key}` : null,
      }),
    );
  });

  const stop = () => {
    void app
      .close()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await app.listen({ port, host: '127.0.0.1' });
  console.log(`bare server listening on ${port}\n${SESSION_SQL}\n${USER_SQL}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
