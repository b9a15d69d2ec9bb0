// Durable background work on pg-boss (10.x, the line that runs on Node 20): jobs live in the
// database, survive a restart, are retried with back-off, and are shared by every worker process
// on PostgreSQL (SKIP LOCKED). On PGlite pg-boss runs over the same in-process database through
// its `db` option. A job whose last try failed calls its `onGiveUp`, so the work it stood for is
// settled (e.g. a message delivered in its original, marked failed) rather than lost.
import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/index';

export interface JobPolicy {
  /** Tries after the first one. */
  retryLimit: number;
  /** Seconds before the first retry; doubled each time (with jitter) when `retryBackoff`. */
  retryDelay: number;
  retryBackoff: boolean;
  /** A try that runs longer is taken as failed. */
  expireInSeconds: number;
  /** Jobs of this queue run at once in this process. */
  concurrency: number;
  /**
   * `stately`: one waiting job per `singletonKey` (a second send while one waits is dropped);
   * `standard`: every send is a job.
   */
  policy: 'standard' | 'stately';
}

export interface JobContext {
  id: string;
  /** 0 on the first try. */
  attempt: number;
  isLastTry: boolean;
}

interface Definition {
  policy: JobPolicy;
  run: (data: unknown, context: JobContext) => Promise<void>;
  onGiveUp?: ((data: unknown, error: unknown) => Promise<void>) | undefined;
}

export interface Jobs {
  /** Declares a queue and its handler (before `start`). */
  define<T extends object>(
    name: string,
    policy: JobPolicy,
    run: (data: T, context: JobContext) => Promise<void>,
    onGiveUp?: (data: T, error: unknown) => Promise<void>,
  ): void;
  /** Queues a job; a job with the same `singletonKey` already waiting is not queued twice. */
  send(name: string, data: object, options?: { singletonKey?: string }): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** PGlite as pg-boss's `db`: statements with parameters one by one, scripts through exec. */
function pgliteAdapter(database: Database): PgBoss.Db {
  const client = database.pglite!;
  return {
    async executeSql(text: string, values: unknown[]) {
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: results[results.length - 1]?.rows ?? [] };
      }
      const result = await client.query(text, values);
      return { rows: result.rows };
    },
  };
}

export function createJobs(options: {
  database: Database;
  databaseUrl: string | undefined;
  log: FastifyBaseLogger;
  /** How often expired tries (a crashed worker's) are failed and retried; about half the shortest expiry. */
  maintenanceIntervalSeconds: number;
}): Jobs {
  const { database, databaseUrl, log } = options;
  const definitions = new Map<string, Definition>();
  const workerIds = new Map<string, string[]>();
  const common = { schema: 'pgboss', schedule: false, supervise: true, maintenanceIntervalSeconds: options.maintenanceIntervalSeconds };
  const boss = databaseUrl
    ? new PgBoss({ ...common, connectionString: databaseUrl, max: 4 })
    : new PgBoss({ ...common, db: pgliteAdapter(database) });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  let started = false;
  /** Which local worker of a queue is woken next (each in turn: an idle one takes the job at once). */
  const nextWorker = new Map<string, number>();

  async function runOne(name: string, definition: Definition, job: PgBoss.JobWithMetadata<unknown>) {
    const isLastTry = job.retryCount >= job.retryLimit;
    try {
      await definition.run(job.data, { id: job.id, attempt: job.retryCount, isLastTry });
    } catch (error) {
      log.warn({ err: error, queue: name, attempt: job.retryCount }, isLastTry ? 'job failed for good' : 'job failed, will retry');
      if (isLastTry && definition.onGiveUp) await definition.onGiveUp(job.data, error);
      throw error;
    }
  }

  return {
    define(name, policy, run, onGiveUp) {
      if (started) throw new Error(`job queue ${name} defined after start`);
      definitions.set(name, {
        policy,
        run: run as Definition['run'],
        onGiveUp: onGiveUp as Definition['onGiveUp'],
      });
    },

    async send(name, data, sendOptions = {}) {
      const definition = definitions.get(name);
      if (!definition) throw new Error(`no job queue ${name}`);
      const { retryLimit, retryDelay, retryBackoff, expireInSeconds } = definition.policy;
      if (!started) throw new Error(`job queue ${name} used before start`);
      await boss.send(name, data, { retryLimit, retryDelay, retryBackoff, expireInSeconds, ...sendOptions });
      // This process's workers pick it up now rather than at their next poll.
      const local = workerIds.get(name) ?? [];
      if (local.length) {
        const turn = ((nextWorker.get(name) ?? -1) + 1) % local.length;
        nextWorker.set(name, turn);
        boss.notifyWorker(local[turn]!);
      }
    },

    async start() {
      await boss.start();
      started = true;
      for (const [name, definition] of definitions) {
        await boss.createQueue(name, { name, policy: definition.policy.policy });
        const ids: string[] = [];
        for (let i = 0; i < definition.policy.concurrency; i++) {
          ids.push(
            await boss.work(name, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: 2 }, async ([job]) => {
              if (!job) return;
              try {
                await runOne(name, definition, job);
              } finally {
                // A worker that found a job looks for the next one at once instead of after its
                // polling interval: a burst sent faster than the workers woke (their notices fold
                // into one) drains at the workers' pace, not one job per worker every 2 s.
                const self = ids[i];
                if (self) boss.notifyWorker(self);
              }
            }),
          );
        }
        workerIds.set(name, ids);
      }
    },

    async close() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, wait: true, timeout: 5000, close: true });
    },
  };
}
