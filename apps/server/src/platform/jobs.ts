// Durable background work on pg-boss (10.x, the line that runs on Node 20): jobs live in the
// database, survive a restart, are retried with back-off, and are shared by every worker process
// on PostgreSQL (SKIP LOCKED). On PGlite pg-boss runs over the same in-process database through
// its `db` option. A job whose last try failed calls its `onGiveUp`, so the work it stood for is
// settled (e.g. a message delivered in its original, marked failed) rather than lost; a handler
// that knows trying again cannot help throws PermanentJobFailure, and that try is the last; one
// told when to try again (a provider's 429 with Retry-After) throws RetryLater, and the next try
// waits at least that long.
// Jobs sent with fairness keys (a room, a user...) are taken in turn across keys: pg-boss fetches
// by priority, then age, and a job's priority is minus the number of unfinished jobs already
// queued under its busiest key, counted in the database, so it holds across server processes.
import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/index';
import { PG_BOSS_SCHEMA, pgBossTable } from './pg-boss-table';

/**
 * Thrown by a handler to fail its job for good now: its `onGiveUp` runs at once and pg-boss does
 * not retry it (e.g. the input itself is at fault and would fail the same way again).
 */
export class PermanentJobFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobFailure';
  }
}

/** The longest wait a RetryLater may ask for (a provider's Retry-After of an hour is not waited out). */
export const RETRY_LATER_MAX_SECONDS = 600;

/**
 * Thrown by a handler, or by a provider under it, when the next try must not come before
 * `seconds` (a provider answered 429 with Retry-After): the job is retried as usual (the try
 * counts), but no sooner than that. On the last try it fails like any other error.
 */
export class RetryLater extends Error {
  readonly seconds: number;
  constructor(message: string, seconds: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RetryLater';
    this.seconds = Math.min(Math.max(0, seconds), RETRY_LATER_MAX_SECONDS);
  }
}

/** The wait a failed try asked for: a RetryLater thrown, or one it was caused by. */
function requestedWait(error: unknown): number | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof RetryLater) return cause.seconds;
  }
  return undefined;
}

export interface SendOptions {
  /** With the `stately` policy: a job with the same key already waiting is not queued twice. */
  singletonKey?: string | undefined;
  /**
   * Keys this job is counted under (e.g. `room:12`, `user:7`). It is queued behind the unfinished
   * jobs of this queue that share a key with it (the most under any one key), and ahead of older
   * jobs that have more of their own: one key's backlog does not hold up another key's first job.
   */
  fairnessKeys?: readonly string[] | undefined;
  /**
   * A repair, not a change (a read found work missing): not sent when a job with this singleton key
   * is unfinished in any state (waiting, running or waiting out a retry), since that job does the
   * key's current work; a read cannot hurry a retry a provider asked to wait for.
   */
  onlyIfIdle?: boolean | undefined;
  /**
   * A lease: the job waits this long before a worker may take it. The sender does the work at once
   * itself and then `release`s the job (it runs then, and finds what the sender left, or what was
   * asked for meanwhile: a send with the same key while it waits is dropped); if the sender's
   * process dies, the job runs when the lease ends.
   */
  leaseSeconds?: number | undefined;
}

/** Where a job's fairness keys are kept in its stored data (taken out before its handler sees it). */
const FAIRNESS_FIELD = '$fairnessKeys';

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
  /**
   * Queues a job; a job with the same `singletonKey` already waiting is not queued twice. The new
   * job's id, or null when none was queued.
   */
  send(name: string, data: object, options?: SendOptions): Promise<string | null>;
  /** A leased job may run `afterSeconds` from now (at once by default), no longer at its lease's end. */
  release(name: string, id: string, afterSeconds?: number): Promise<void>;
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
  const common = { schema: PG_BOSS_SCHEMA, schedule: false, supervise: true, maintenanceIntervalSeconds: options.maintenanceIntervalSeconds };
  const boss = databaseUrl
    ? new PgBoss({ ...common, connectionString: databaseUrl, max: 4 })
    : new PgBoss({ ...common, db: pgliteAdapter(database) });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  let started = false;
  /** Which local worker of a queue is woken next (each in turn: an idle one takes the job at once). */
  const nextWorker = new Map<string, number>();

  /** What pg-boss's public API lacks, done on its table (pg-boss-table.ts): made once the boss has its database. */
  let tableOf: ReturnType<typeof pgBossTable> | undefined;
  const table = () => (tableOf ??= pgBossTable(boss.getDb()));

  /**
   * Fails this active try as pg-boss would (its retry count and back-off), then moves the retry to
   * no sooner than `seconds` from now. Between the two statements the retry is already due no
   * sooner than pg-boss's back-off (at least `retryDelay`), so no worker takes it early.
   */
  async function retryNoSooner(name: string, id: string, seconds: number, error: unknown) {
    await boss.fail(name, id, { message: error instanceof Error ? error.message : String(error), retryAfterSeconds: seconds });
    await table().putOffRetry(name, id, seconds);
  }

  /** The job's data as it was sent (without the fairness keys kept with it). */
  function dataOf(job: PgBoss.JobWithMetadata<unknown>): unknown {
    if (!job.data || typeof job.data !== 'object' || !(FAIRNESS_FIELD in job.data)) return job.data;
    const { [FAIRNESS_FIELD]: _keys, ...data } = job.data as Record<string, unknown>;
    return data;
  }

  async function runOne(name: string, definition: Definition, job: PgBoss.JobWithMetadata<unknown>) {
    const isLastTry = job.retryCount >= job.retryLimit;
    const data = dataOf(job);
    try {
      await definition.run(data, { id: job.id, attempt: job.retryCount, isLastTry });
    } catch (error) {
      const permanent = error instanceof PermanentJobFailure;
      const last = isLastTry || permanent;
      const wait = last ? undefined : requestedWait(error);
      log.warn(
        { err: error, queue: name, attempt: job.retryCount, ...(wait === undefined ? {} : { retryAfterSeconds: wait }) },
        permanent ? 'job failed for good (not worth retrying)' : isLastTry ? 'job failed for good' : wait !== undefined ? 'job failed, will retry when asked' : 'job failed, will retry',
      );
      if (wait !== undefined) {
        await retryNoSooner(name, job.id, wait, error);
        // pg-boss then completes this try: it finds the job no longer active and leaves it be.
        return;
      }
      if (permanent && !isLastTry) await table().endRetries(name, job.id);
      if (last && definition.onGiveUp) await definition.onGiveUp(data, error);
      throw error;
    }
  }

  /** One of this process's workers of the queue looks for a job now (each in turn: an idle one takes it at once). */
  function wake(name: string) {
    const local = workerIds.get(name) ?? [];
    if (!local.length) return;
    const turn = ((nextWorker.get(name) ?? -1) + 1) % local.length;
    nextWorker.set(name, turn);
    boss.notifyWorker(local[turn]!);
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
      const { fairnessKeys, singletonKey, onlyIfIdle, leaseSeconds } = sendOptions;
      // pg-boss's `stately` keeps one job per key in each state, so a job waiting out its back-off
      // (state `retry`) and a new one (`created`) could both wait, and the new one would run at
      // once, hurrying what a provider asked to wait for. Jobs here do the key's current work when
      // they run, so the retry that waits already covers what this send asks for.
      if (singletonKey !== undefined && definition.policy.policy === 'stately' && (await table().unfinished(name, singletonKey, onlyIfIdle ? 'any' : 'retry'))) return null;
      const options: PgBoss.SendOptions = {
        retryLimit,
        retryDelay,
        retryBackoff,
        expireInSeconds,
        ...(singletonKey === undefined ? {} : { singletonKey }),
        ...(leaseSeconds === undefined ? {} : { startAfter: leaseSeconds }),
      };
      let stored = data;
      if (fairnessKeys?.length) {
        // Two sends at the same moment may count the same backlog: fairness is approximate, order is not lost.
        options.priority = -(await table().backlog(name, fairnessKeys, FAIRNESS_FIELD));
        stored = { ...data, [FAIRNESS_FIELD]: [...fairnessKeys] };
      }
      const id = await boss.send(name, stored, options);
      // This process's workers pick it up now rather than at their next poll (a leased one later).
      if (id !== null && leaseSeconds === undefined) wake(name);
      return id;
    },

    async release(name, id, afterSeconds = 0) {
      if ((await table().release(name, id, afterSeconds)) && afterSeconds === 0) wake(name);
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
