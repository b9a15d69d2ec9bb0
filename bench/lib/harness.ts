// Shared plumbing of the server benchmarks (request-cost.ts, chat-read.ts, chat-fanout.ts): a
// throw-away PostgreSQL database, servers as child processes (with the CPU-profile hook), their
// CPU time from /proc, autocannon rounds alternating servers, medians and ratios, access tokens
// signed like the server's, and the clean-up of all that on exit or Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { SignJWT } from 'jose';
import pg from 'pg';
import { ROOT } from '@parla/e2e/stack';
import { formatComparison, formatSummary, readProfile, summariseProfile } from '../profile-summary';

export { freePort, ROOT } from '@parla/e2e/stack';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const CLK_TCK = 100; // Linux USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s

/** A failure to set up (a server that does not start, a bad option): reported without a stack. */
export class StartError extends Error {}

// ---- clean-up ----

const cleanups: (() => Promise<void>)[] = [];

/** Registers work for the end (run last registered first: servers, then the database, then the folder). */
export function onCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

export async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup().catch((error: unknown) => console.error('clean-up:', error));
  }
}

/** Runs a bench's main: cleans up on exit, on SIGINT/SIGTERM and on failure (exit 1, a StartError without its stack). */
export function runMain(main: () => Promise<number>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void cleanUp().finally(() => process.exit(130));
    });
  }
  // Output piped into `head` that has had enough: stop the servers rather than leave them running.
  process.stdout.once('error', () => {
    void cleanUp().finally(() => process.exit(1));
  });
  main().then(
    async (code) => {
      await cleanUp();
      process.exit(code);
    },
    async (error: unknown) => {
      console.error(error instanceof StartError ? error.message : error);
      await cleanUp();
      process.exit(1);
    },
  );
}

// ---- small things ----

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const loadAverage = () => os.loadavg().map((value) => value.toFixed(1)).join(' ');

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The p-th percentile (0..100) of sorted values, nearest rank. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** `K=V` pairs (command-line options) as an environment. */
export function parseEnv(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new StartError(`environment wants K=V, got ${pair}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

// ---- CPU time ----

/** CPU time (user + system) of a process so far, in µs; undefined off Linux or when it is gone. */
export function cpuTimeUs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime field 15
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** CPU time so far (µs) of each process of this machine named `postgres` (the cluster's backends), by pid. */
export function postgresCpuUs(): Map<number, number> {
  const times = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return times;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    times.set(Number(entry), ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK);
  }
  return times;
}

/**
 * PostgreSQL's CPU time between two postgresCpuUs() readings (µs): what the processes alive at the
 * second used since the first (all of it for those started in between). A backend that ended in
 * between takes its time with it, so keep the pools open around the window.
 */
export function postgresCpuBetween(before: Map<number, number>, after: Map<number, number>): number | undefined {
  if (after.size === 0) return undefined;
  let total = 0;
  for (const [pid, time] of after) total += time - (before.get(pid) ?? 0);
  return total;
}

/** The machine's CPU time so far from /proc/stat, in µs summed over cores: busy and all, and the busy time by kind. */
export function machineCpuUs(): { busy: number; total: number; user: number; system: number; softirq: number; steal: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const us = (jiffies: number) => (jiffies * 1e6) / CLK_TCK;
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = values;
    // guest time is already counted in user
    const total = user + nice + system + idle + iowait + irq + softirq + steal;
    return { busy: us(total - idle - iowait), total: us(total), user: us(user + nice), system: us(system + irq), softirq: us(softirq), steal: us(steal) };
  } catch {
    return undefined;
  }
}

/** How busy the machine is (% of all cores) over `ms`, measured while the bench itself is idle: other work on it. */
export async function backgroundLoad(ms = 1000): Promise<number | undefined> {
  const before = machineCpuUs();
  await sleep(ms);
  const after = machineCpuUs();
  return before && after && after.total > before.total ? (100 * (after.busy - before.busy)) / (after.total - before.total) : undefined;
}

// ---- database ----

/** `create database parla_bench_<random>` on DATABASE_URL / TEST_DATABASE_URL / the default; dropped at the end. */
export async function createDatabase(): Promise<string> {
  const base = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const name = `parla_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  onCleanup(async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

// ---- servers ----

export interface Server {
  /** 'real', 'bare' or a variant's label. */
  name: string;
  /** What the bench loads (a route, or the base URL). */
  url: string;
  child: ChildProcess;
  log: string;
  exited: Promise<void>;
  hasExited: () => boolean;
  profilePrefix: string | undefined;
}

/** The environment of a real Parla server for a bench (high rate limits; LOG_LEVEL as given). */
export function parlaEnv(options: {
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string;
  secretKey: string;
  logLevel: string;
}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: options.logLevel,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    // Every Parla server of a run answers with the first one's address, so avatar URLs match.
    PUBLIC_URL: options.publicUrl,
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    SECRET_KEY: options.secretKey,
    WEB_DIST_DIR: path.join(ROOT, 'apps/web/dist'),
    RATE_LIMIT_LOGIN: '100000',
    RATE_LIMIT_LOGIN_PER_ADDRESS: '100000',
    RATE_LIMIT_REGISTRATION: '100000',
    RATE_LIMIT_EMAIL: '100000',
    RATE_LIMIT_CREATIONS: '100000',
    RATE_LIMIT_INVITATIONS: '100000',
    RATE_LIMIT_WRITES: '100000',
    RATE_LIMIT_EXPORTS: '100000',
    RATE_LIMIT_LIVE_EVENTS: '100000',
  };
}

/**
 * Starts `node --import tsx <main>` (with bench/cpu-profile-hook.ts when profiling) from the
 * repository's root, its output in `<tmp>/<name>.log`, and waits until `readyUrl` answers below 500.
 */
export async function startServer(options: {
  name: string;
  main: string;
  url: string;
  readyUrl: string;
  tmp: string;
  profileDir?: string | undefined;
  env: Record<string, string>;
  /** Seconds to wait for `readyUrl` (60). */
  timeoutSeconds?: number;
}): Promise<Server> {
  const { name, main, url, readyUrl, tmp, profileDir, env } = options;
  const log = path.join(tmp, `${name}.log`);
  const profilePrefix = profileDir ? path.join(profileDir, name) : undefined;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.REDIS_URL;
  delete childEnv.SMTP_URL;
  if (profilePrefix) childEnv.BENCH_CPU_PROFILE = profilePrefix;
  const nodeArgs = ['--import', 'tsx', ...(profilePrefix ? ['--import', path.join(ROOT, 'bench/cpu-profile-hook.ts')] : []), main];
  const fd = openSync(log, 'a');
  const child = spawn(process.execPath, nodeArgs, { cwd: ROOT, env: childEnv, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  let done = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => (done = true));
  const server: Server = { name, url, child, log, exited, hasExited: () => done, profilePrefix };
  onCleanup(() => stopServer(server));

  const deadline = Date.now() + (options.timeoutSeconds ?? 60) * 1000;
  for (;;) {
    if (done) throw new StartError(`the ${name} server stopped at start:\n${tail(log)}`);
    try {
      const response = await fetch(readyUrl);
      await response.arrayBuffer();
      if (response.status < 500) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new StartError(`the ${name} server did not answer ${readyUrl} within ${options.timeoutSeconds ?? 60} s:\n${tail(log)}`);
    await sleep(200);
  }
}

export async function stopServer(server: Server): Promise<void> {
  if (server.hasExited() || server.child.pid === undefined) return;
  server.child.kill('SIGTERM');
  const killer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
  await server.exited;
  clearTimeout(killer);
}

/** Profiles each server has written: the hook numbers its files by its own count of stops (cpu-profile-hook.ts). */
const profilesWritten = new WeakMap<Server, number>();

/** Starts (first call) or stops and writes (second call) the server's CPU profile; returns the file written. */
export async function toggleProfile(server: Server, stopping: boolean): Promise<string | undefined> {
  if (!server.profilePrefix) return undefined;
  process.kill(server.child.pid!, 'SIGUSR2');
  if (!stopping) return undefined;
  const count = (profilesWritten.get(server) ?? 0) + 1;
  profilesWritten.set(server, count);
  const profile = `${server.profilePrefix}-${count}.cpuprofile`;
  const deadline = Date.now() + 30_000;
  while (!existsSync(profile)) {
    if (Date.now() > deadline) throw new Error(`${profile} was not written`);
    await sleep(100);
  }
  return profile;
}

// ---- HTTP ----

export async function call(method: string, url: string, body?: unknown, token?: string): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, json };
}

/**
 * An access token as apps/server/src/platform/auth.ts signs one (HS256 by jose's SignJWT: typ=access,
 * sid, sub, jti, iat, exp), for a session row written by the bench itself. The lifetime is the
 * bench's choice (the server checks the expiry, not how far away it is).
 */
export async function signAccessToken(secretKey: string, userId: number, sessionId: string, lifetimeMs = 60 * 60_000): Promise<string> {
  return new SignJWT({ typ: 'access', sid: sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(Math.floor((Date.now() + lifetimeMs) / 1000))
    .sign(new TextEncoder().encode(secretKey));
}

// ---- autocannon rounds ----

export interface Run {
  round: number;
  name: string;
  rps: number;
  requests: number;
  duration: number;
  p50: number;
  p99: number;
  bad: number;
  cpuUsPerRequest: number | undefined;
  /** PostgreSQL's CPU per request (every backend of the machine), when asked for. */
  postgresUsPerRequest?: number | undefined;
  profile: string | undefined;
}

/** One measured autocannon run on `server.url`: `warmupSeconds` of load, then `seconds` measured (profiled when the server is). */
export async function autocannonRun(
  server: Server,
  options: { round: number; connections: number; seconds: number; warmupSeconds: number; headers: Record<string, string>; postgres?: boolean },
): Promise<Run> {
  const { round, connections, seconds, warmupSeconds, headers } = options;
  if (warmupSeconds > 0) await autocannon({ url: server.url, connections, duration: warmupSeconds, headers });
  await toggleProfile(server, false);
  const postgresBefore = options.postgres ? postgresCpuUs() : undefined;
  const cpuBefore = cpuTimeUs(server.child.pid);
  const result = await autocannon({ url: server.url, connections, duration: seconds, headers });
  const cpuAfter = cpuTimeUs(server.child.pid);
  const postgres = postgresBefore ? postgresCpuBetween(postgresBefore, postgresCpuUs()) : undefined;
  const profile = await toggleProfile(server, true);
  const ok = result['2xx'];
  const bad = result.non2xx + result.errors + result.timeouts;
  return {
    round,
    name: server.name,
    rps: ok / result.duration,
    requests: ok,
    duration: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad,
    cpuUsPerRequest: cpuBefore !== undefined && cpuAfter !== undefined && ok > 0 ? (cpuAfter - cpuBefore) / ok : undefined,
    ...(options.postgres ? { postgresUsPerRequest: postgres !== undefined && ok > 0 ? postgres / ok : undefined } : {}),
    profile,
  };
}

export function printRun(run: Run, nameWidth: number): void {
  const cpu =
    (run.cpuUsPerRequest === undefined ? '' : `, server CPU ${run.cpuUsPerRequest.toFixed(0)} µs/request`) +
    (run.postgresUsPerRequest === undefined ? '' : `, PostgreSQL ${run.postgresUsPerRequest.toFixed(0)} µs`);
  console.log(
    `round ${run.round} ${run.name.padEnd(nameWidth)}  ${run.rps.toFixed(0).padStart(6)} requests/s  (${run.requests} in ${run.duration.toFixed(1)} s, ` +
      `latency p50 ${run.p50} ms p99 ${run.p99} ms${cpu}${run.bad ? `, ${run.bad} NOT 2xx OR ERRORS` : ''})`,
  );
}

/** Medians per server, the ratio of each to `bare`, and the verdict line of `real` against `target`. */
export function reportRuns(runs: Run[], names: string[], options: { target: number; nameWidth: number; profiling: boolean }): number {
  const { target, nameWidth, profiling } = options;
  const of = (name: string) => runs.filter((run) => run.name === name);
  const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}..${Math.max(...values).toFixed(0)}`;
  const medianRps = (name: string) => median(of(name).map((run) => run.rps));
  const bareMedian = medianRps('bare');
  console.log('');
  for (const name of names) {
    const rps = of(name).map((run) => run.rps);
    const cpu = of(name).flatMap((run) => (run.cpuUsPerRequest === undefined ? [] : [run.cpuUsPerRequest]));
    const postgres = of(name).flatMap((run) => (run.postgresUsPerRequest === undefined ? [] : [run.postgresUsPerRequest]));
    const perRound = of(name).map((run) => run.rps / (of('bare').find((other) => other.round === run.round)?.rps ?? NaN));
    console.log(
      `median ${name.padEnd(nameWidth)}  ${medianRps(name).toFixed(0).padStart(6)} requests/s (runs ${spread(rps)})` +
        (cpu.length ? `, server CPU ${median(cpu).toFixed(0)} µs/request` : '') +
        (postgres.length ? `, PostgreSQL ${median(postgres).toFixed(0)} µs` : '') +
        (name === 'bare' ? '' : `; ratio to bare ${(medianRps(name) / bareMedian).toFixed(2)}, per round ${perRound.map((value) => value.toFixed(2)).join(' ')}`),
    );
  }
  const bad = runs.reduce((sum, run) => sum + run.bad, 0);
  if (bad) console.log(`WARNING: ${bad} responses were not 2xx or failed; the figures are not valid`);
  const ratio = medianRps('real') / bareMedian;
  console.log(
    `\nratio real/bare (medians): ${ratio.toFixed(2)}; target: at least ${target}; ` +
      `${ratio >= target ? 'MEETS the target' : `BELOW the target (the real server would need ${(target * bareMedian).toFixed(0)} requests/s)`}` +
      (profiling ? ' [profiled run: not the figure]' : ''),
  );
  return ratio;
}

/** Prints profile-summary.ts's tables for the last profiled run of each server, and each against `bare`. */
export function printProfiles(profiles: { name: string; file: string; units: number }[], unit = 'requests'): void {
  const summaries = profiles.map(({ name, file, units }) => ({ title: name, file, summary: summariseProfile(readProfile(file), units) }));
  for (const { title, file, summary } of summaries) {
    const note = unit === 'requests' ? '' : `; the "per request" columns are per ${unit.replace(/s$/, '')}`;
    console.log(`\n=== CPU profile of the ${title} server (${file}${note}) ===\n`);
    console.log(formatSummary(title, summary, 30));
  }
  const bare = summaries.find((entry) => entry.title === 'bare');
  for (const entry of summaries) {
    if (entry === bare || !bare) continue;
    console.log('');
    console.log(formatComparison(entry, bare));
  }
}

/** The last profiled run of each server, for printProfiles. */
export function lastProfiles(runs: Run[], names: string[]): { name: string; file: string; units: number }[] {
  return names.flatMap((name) => {
    const run = runs.filter((each) => each.name === name && each.profile).at(-1);
    return run?.profile ? [{ name, file: run.profile, units: run.requests }] : [];
  });
}

// ---- the arguments and folders every server bench shares ----

/**
 * What every bench that starts servers takes besides its own options: `--profile [dir]` (a bare
 * flag too), `--server-env K=V` (repeatable), `--server-main <file>`, `--variant 'label=<main.ts>
 * [K=V...]'` (repeatable) and `--keep`.
 */
const SHARED_OPTIONS = {
  profile: { type: 'string' },
  'server-env': { type: 'string', multiple: true, default: [] as string[] },
  'server-main': { type: 'string', default: 'apps/server/src/main.ts' },
  variant: { type: 'string', multiple: true, default: [] as string[] },
  keep: { type: 'boolean', default: false },
} as const;

/** Parses a bench's arguments: its own options and the shared ones. */
export function parseBenchArgs<Own extends NonNullable<ParseArgsConfig['options']>>(own: Own) {
  return parseArgs({
    options: { ...SHARED_OPTIONS, ...own },
    // `--profile` with no folder: parseArgs needs a value, so a bare flag becomes an empty one.
    args: process.argv.slice(2).map((arg, index, all) => (arg === '--profile' && (all[index + 1] ?? '--').startsWith('--') ? '--profile=' : arg)),
  });
}

/**
 * The options of the request benches (autocannon against the real server and a bare one, in
 * rounds; bench/request-cost.ts, bench/chat-read.ts): `--seconds 8 --warmup 3 --connections 10
 * --rounds 4` (one round when profiling). Each run is RUN_WARMUP_SECONDS of warm-up, then measured.
 */
export function parseRequestBenchArgs() {
  const { values: options } = parseBenchArgs({
    seconds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string' },
  });
  const profiling = options.profile !== undefined;
  return {
    options,
    seconds: Number(options.seconds),
    warmup: Number(options.warmup),
    connections: Number(options.connections),
    profiling,
    rounds: Number(options.rounds ?? (profiling ? 1 : 4)),
  };
}

/** Seconds of load before each measured request run (not counted). */
export const RUN_WARMUP_SECONDS = 1;

/**
 * The bench's temporary folder (removed at the end unless `keep`) and, when profiling, the folder
 * for CPU profiles (`--profile <dir>`, else inside the kept temporary folder).
 */
export async function benchFolders(name: string, options: { keep?: boolean | undefined; profile?: string | undefined }) {
  const tmp = await mkdtemp(path.join(os.tmpdir(), `parla-${name}-`));
  const profileDir = options.profile !== undefined ? path.resolve(options.profile || path.join(tmp, 'profiles')) : undefined;
  const keep = options.keep || (profileDir !== undefined && !options.profile);
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  onCleanup(async () => {
    if (keep) console.log(`kept ${tmp}`);
    else await rm(tmp, { recursive: true, force: true });
  });
  return { tmp, profileDir };
}
