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
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import Fastify from 'fastify';
import pg from 'pg';
import { sessions, users } from '../apps/server/src/platform/db/schema';
import { bareEnv, bearer, serveUntilSignalled, UNAUTHORIZED, verifyAccessToken } from './lib/bare';

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
  reading_language: string | null;
}

async function main() {
  const { port, secret, databaseUrl, publicUrl } = bareEnv();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const { session: SESSION_SQL, user: USER_SQL } = statements(pool);
  const app = Fastify({ logger: false });

  app.get('/user/', async (request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    const token = bearer(request.headers.authorization);
    const claims = token === undefined ? null : verifyAccessToken(token, secret);
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
        readingLanguage: user.reading_language,
      }),
    );
  });

  await serveUntilSignalled(app, pool, port, `bare server listening on ${port}\n${SESSION_SQL}\n${USER_SQL}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
