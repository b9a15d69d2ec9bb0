// The one place that reads and writes pg-boss's own job table (pg-boss 10, schema `pgboss`, table
// `job`), for what its public API does not offer: a try made the last (`endRetries`), a retry put
// off to a provider's Retry-After (`putOffRetry`), whether a key's job is unfinished (`unfinished`),
// a key's backlog for fair ordering (`backlog`), and a leased job let go early (`release`). It
// relies on the table's columns `name`, `id`, `state` (the enum `created` < `retry` < `active` <
// `completed`…), `singleton_key`, `start_after`, `retry_limit`, `retry_count` and `data`;
// test/jobs.test.ts checks them against the installed pg-boss (and the behaviours built on them),
// so an upgrade that changes them fails the tests instead of the queue.
import type PgBoss from 'pg-boss';

export const PG_BOSS_SCHEMA = 'pgboss';
const JOB = `${PG_BOSS_SCHEMA}.job`;

/** The columns and states this module relies on (the guard test reads them from the database). */
export const RELIED_ON = {
  columns: ['name', 'id', 'state', 'singleton_key', 'start_after', 'retry_limit', 'retry_count', 'data'],
  states: ['created', 'retry', 'active', 'completed'],
} as const;

export function pgBossTable(db: PgBoss.Db) {
  return {
    /** This active try is the job's last: pg-boss then fails it for good instead of retrying it. */
    async endRetries(name: string, id: string): Promise<void> {
      await db.executeSql(`UPDATE ${JOB} SET retry_limit = retry_count WHERE name = $1 AND id = $2 AND state = 'active'`, [name, id]);
    },

    /** A job waiting to be retried (`retry`) is not taken before `seconds` from now. */
    async putOffRetry(name: string, id: string, seconds: number): Promise<void> {
      await db.executeSql(
        `UPDATE ${JOB} SET start_after = GREATEST(start_after, now() + $3::float8 * interval '1 second') WHERE name = $1 AND id = $2 AND state = 'retry'`,
        [name, id, seconds],
      );
    },

    /** Whether a job of `name` with this singleton key waits to be retried (`retry`) or is unfinished in any state (`any`). */
    async unfinished(name: string, singletonKey: string, which: 'retry' | 'any'): Promise<boolean> {
      const state = which === 'retry' ? `state = 'retry'` : `state < 'completed'`;
      const { rows } = await db.executeSql(`SELECT 1 FROM ${JOB} WHERE name = $1 AND singleton_key = $2 AND ${state} LIMIT 1`, [name, singletonKey]);
      return rows.length > 0;
    },

    /** Unfinished jobs of `name` under each key (kept in the job's data under `field`): the most under any one. */
    async backlog(name: string, keys: readonly string[], field: string): Promise<number> {
      if (keys.length === 0) return 0;
      const { rows } = await db.executeSql(
        `SELECT count(j.id)::int AS waiting
           FROM unnest($2::text[]) AS k(key)
           LEFT JOIN ${JOB} j
             ON j.name = $1 AND j.state < 'completed' AND (j.data -> $3::text) @> jsonb_build_array(k.key)
          GROUP BY k.key`,
        [name, [...keys], field],
      );
      return Math.max(0, ...rows.map((row: { waiting: number | string }) => Number(row.waiting)));
    },

    /** A leased job still waiting may run `afterSeconds` from now; whether it was waiting. */
    async release(name: string, id: string, afterSeconds: number): Promise<boolean> {
      const { rows } = await db.executeSql(
        `UPDATE ${JOB} SET start_after = now() + $3::float8 * interval '1 second' WHERE name = $1 AND id = $2 AND state = 'created' RETURNING 1`,
        [name, id, afterSeconds],
      );
      return rows.length > 0;
    },
  };
}
