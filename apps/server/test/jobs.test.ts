// The durable job queue (pg-boss) on its own database: a handler can fail a job for good (its
// onGiveUp runs at once, no retry), and jobs sent with fairness keys are taken in turn across
// keys, so one key's backlog does not hold up another key's first job. PGlite, or PostgreSQL with
// TEST_DATABASE=postgres.
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/platform/db/index';
import { createJobs, PermanentJobFailure, type JobPolicy, type Jobs } from '../src/platform/jobs';
import { PG_BOSS_SCHEMA, RELIED_ON } from '../src/platform/pg-boss-table';
import { openTestDatabase } from './harness';

const log = pino({ level: 'silent' });
const policy: JobPolicy = { retryLimit: 2, retryDelay: 1, retryBackoff: false, expireInSeconds: 60, concurrency: 1, policy: 'standard' };

let database: Database;
let jobs: Jobs;
let closeDatabase: (() => Promise<void>) | undefined;

/** Calls of each handler, and what each onGiveUp received. */
const tries: Record<string, unknown[]> = { permanent: [], transient: [], fair: [], leased: [] };
const gaveUp: Record<string, { data: unknown; error: unknown }[]> = { permanent: [], transient: [] };
let release: () => void = () => undefined;
const blocked = new Promise<void>((resolve) => (release = resolve));
let firstStarted: () => void = () => undefined;
const started = new Promise<void>((resolve) => (firstStarted = resolve));

beforeAll(async () => {
  const opened = await openTestDatabase();
  ({ database } = opened);
  const { databaseUrl } = opened;
  closeDatabase = opened.close;
  jobs = createJobs({ database, databaseUrl, log, maintenanceIntervalSeconds: 30 });
  jobs.define<{ n: number }>(
    'permanent',
    policy,
    async (data) => {
      tries.permanent!.push(data);
      throw new PermanentJobFailure('this input will never work');
    },
    async (data, error) => {
      gaveUp.permanent!.push({ data, error });
    },
  );
  jobs.define<{ n: number }>(
    'transient',
    { ...policy, retryLimit: 1 },
    async (data) => {
      tries.transient!.push(data);
      throw new Error('the network is down');
    },
    async (data, error) => {
      gaveUp.transient!.push({ data, error });
    },
  );
  jobs.define<{ label: string }>('fair', policy, async (data) => {
    tries.fair!.push(data);
    if (data.label === 'a1') {
      firstStarted();
      await blocked;
    }
  });
  jobs.define<{ key: string }>('leased', { ...policy, policy: 'stately' }, async (data) => {
    tries.leased!.push(data);
  });
  await jobs.start();
});

afterAll(async () => {
  release();
  await jobs?.close();
  await closeDatabase?.();
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The jobs of a queue once none is being worked on (pg-boss records a try's end just after the handler's). */
async function settledJobs(name: string): Promise<{ state: string; retry_count: number }[]> {
  let rows: { state: string; retry_count: number }[] = [];
  await until(async () => {
    rows = await jobStates(name);
    return rows.every((row) => row.state !== 'active');
  });
  return rows;
}

async function jobStates(name: string): Promise<{ state: string; retry_count: number }[]> {
  const result = await database.db.execute(sql`select state::text as state, retry_count from pgboss.job where name = ${name} order by created_on`);
  return (result as unknown as { rows: { state: string; retry_count: number }[] }).rows;
}

describe('what the queue relies on of pg-boss’s own table (platform/pg-boss-table.ts)', () => {
  it('has the columns and the ordered states it reads and writes, in the installed pg-boss', async () => {
    const rowsOf = async <T>(query: ReturnType<typeof sql>) => (((await database.db.execute(query)) as unknown as { rows: T[] }).rows);
    const columns = await rowsOf<{ name: string }>(sql`select column_name as name from information_schema.columns where table_schema = ${PG_BOSS_SCHEMA} and table_name = 'job'`);
    expect(columns.map((column) => column.name)).toEqual(expect.arrayContaining([...RELIED_ON.columns]));
    // `state < 'completed'` means unfinished: the enum's order must put these states in this order.
    const states = await rowsOf<{ label: string }>(
      sql`select e.enumlabel as label from pg_enum e join pg_type t on t.oid = e.enumtypid join pg_namespace n on n.oid = t.typnamespace where n.nspname = ${PG_BOSS_SCHEMA} and t.typname = 'job_state' order by e.enumsortorder`,
    );
    const order = states.map((state) => state.label);
    expect(order).toEqual(expect.arrayContaining([...RELIED_ON.states]));
    const positions = RELIED_ON.states.map((state) => order.indexOf(state));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});

describe('failing for good', () => {
  it('runs onGiveUp at once and does not retry a job whose handler threw PermanentJobFailure', async () => {
    await jobs.send('permanent', { n: 1 });
    await until(() => gaveUp.permanent!.length === 1);
    expect(gaveUp.permanent![0]!.data).toEqual({ n: 1 });
    expect(gaveUp.permanent![0]!.error).toBeInstanceOf(PermanentJobFailure);
    // pg-boss ends it failed (not waiting for a retry), after one try.
    expect(await settledJobs('permanent')).toEqual([{ state: 'failed', retry_count: 0 }]);
    expect(tries.permanent).toEqual([{ n: 1 }]);
  });

  it('still retries any other failure, and gives up after the last try', async () => {
    await jobs.send('transient', { n: 2 });
    await until(() => gaveUp.transient!.length === 1);
    expect(tries.transient).toEqual([{ n: 2 }, { n: 2 }]);
    expect(await settledJobs('transient')).toEqual([{ state: 'failed', retry_count: 1 }]);
  });
});

describe('fairness keys', () => {
  it('takes the first job of a key before the backlog of another, counting every key of a job', async () => {
    // a1 is being worked on (the only worker is held) while the rest are queued.
    await jobs.send('fair', { label: 'a1' }, { fairnessKeys: ['room:a', 'user:1'] });
    await started;
    for (const label of ['a2', 'a3', 'a4']) await jobs.send('fair', { label }, { fairnessKeys: ['room:a', 'user:1'] });
    // Another room's first job, by another user: next.
    await jobs.send('fair', { label: 'b1' }, { fairnessKeys: ['room:b', 'user:2'] });
    // The busy user's first job in a third room: behind that user's own backlog (4 unfinished).
    await jobs.send('fair', { label: 'c1' }, { fairnessKeys: ['room:c', 'user:1'] });
    release();
    await until(() => tries.fair!.length === 6);
    // The handler gets its data as sent.
    expect(tries.fair).toEqual(['a1', 'b1', 'a2', 'a3', 'a4', 'c1'].map((label) => ({ label })));
  });
});

describe('leases', () => {
  it('keeps a leased job from the workers until it is released, drops a send of its key meanwhile, and runs it once released', async () => {
    const id = await jobs.send('leased', { key: 'one' }, { singletonKey: 'one', leaseSeconds: 60 });
    expect(id).toEqual(expect.any(String));
    // What is asked meanwhile is the leased job's to do: not queued twice.
    expect(await jobs.send('leased', { key: 'one' }, { singletonKey: 'one' })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(tries.leased).toEqual([]);
    await jobs.release('leased', id!);
    await until(() => tries.leased!.length === 1);
    expect(await settledJobs('leased')).toEqual([{ state: 'completed', retry_count: 0 }]);
  });

  it('runs a leased job no one released when its lease ends (its sender died), and later when released with a delay', async () => {
    const start = Date.now();
    await jobs.send('leased', { key: 'two' }, { singletonKey: 'two', leaseSeconds: 1 });
    const delayed = await jobs.send('leased', { key: 'three' }, { singletonKey: 'three', leaseSeconds: 60 });
    await jobs.release('leased', delayed!, 1);
    // Workers poll every 2 s: both run within a few seconds, not after a minute.
    await until(() => tries.leased!.length === 3, 10_000);
    expect(tries.leased!.slice(1)).toEqual(expect.arrayContaining([{ key: 'two' }, { key: 'three' }]));
    expect(Date.now() - start).toBeGreaterThanOrEqual(1000);
  });
});
