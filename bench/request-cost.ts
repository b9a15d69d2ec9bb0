// Report, not a test: what an authenticated `GET /api/accounts/user/` costs on PostgreSQL, against
// the floor of a bare Fastify + pg server doing the same work (bench/bare-server.ts: same JWT
// check, same two statements, same JSON). Target: the real server serves at least 0.8 × the
// requests per second of the bare one.
//
// Creates a throw-away database `parla_bench_<random>` on DATABASE_URL / TEST_DATABASE_URL (else
// postgres://postgres@127.0.0.1:5432/postgres), starts the real server (`node --import tsx
// apps/server/src/main.ts`, NODE_ENV=production, LOG_LEVEL=info, its log in a file) and the bare
// one as child processes, signs a user up through the API, then loads both with autocannon on
// loopback, alternating real/bare, each run after a warm-up. Prints each run, the medians and
// the ratio; exits 0 whatever the figure, 1 only when something fails to start.
//
//   npm run bench:request-cost -w @parla/bench [-- options]
//   --seconds 8 --warmup 3 --connections 10 --rounds 4
//                         each server gets `--warmup` seconds of load once, then every run is 1 s
//                         of warm-up and `--seconds` measured; rounds alternate the servers
//   --profile [dir]       CPU-profile the servers during the measured runs (bench/cpu-profile-hook.ts)
//                         and print bench/profile-summary.ts's tables; profiling slows them down,
//                         so the ratio of such a run is not the figure (1 round by default). The
//                         .cpuprofile files stay in dir (relative to the current folder, bench/
//                         under npm -w; a kept temporary folder when not given)
//   --server-env K=V      extra environment for the real server (repeatable), e.g. LOG_LEVEL=warn
//   --server-main <file>  another main.ts for the real server
//   --variant 'label=<main.ts> [K=V...]'
//                         one more server in the rotation (repeatable): an experiment in a copy of
//                         apps/server, or the same main.ts with other environment, e.g.
//                         --variant 'warn=apps/server/src/main.ts LOG_LEVEL=warn'
//   --keep                keep the temporary folder (server logs, DATA_DIR)
//
// The machine's other work moves every figure: compare within one run (the ratio, the per-round
// ratios), not across runs. Each run line also gives the server process's CPU time per request.
// The plumbing (database, child servers, autocannon rounds, /proc CPU times) is bench/lib/harness.ts,
// shared with chat-read.ts and chat-fanout.ts.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import {
  autocannonRun,
  call,
  createDatabase,
  freePort,
  lastProfiles,
  loadAverage,
  parlaEnv,
  parseEnv,
  printProfiles,
  printRun,
  reportRuns,
  ROOT,
  runMain,
  sleep,
  startServer as startChild,
  StartError,
  type Run,
  type Server,
  benchFolders,
  parseRequestBenchArgs,
  RUN_WARMUP_SECONDS,
} from './lib/harness';

const TARGET_RATIO = 0.8;
const PASSWORD = 'violet-harbour-42';

const { options, seconds, warmup, connections, profiling, rounds } = parseRequestBenchArgs();

async function main(): Promise<number> {
  const { tmp, profileDir } = await benchFolders('request-cost', options);

  const databaseUrl = await createDatabase();
  const secretKey = randomBytes(48).toString('base64url');
  const realPort = await freePort();
  const publicUrl = `http://127.0.0.1:${realPort}`;
  const dataDir = path.join(tmp, 'data');

  const extraEnv = parseEnv(options['server-env']);
  const serverEnv = (port: number, folder: string): Record<string, string> =>
    parlaEnv({ port, publicUrl, dataDir: folder, databaseUrl, secretKey, logLevel: 'info' });
  const parla = (port: number) => ({ url: `http://127.0.0.1:${port}/api/accounts/user/`, ready: `http://127.0.0.1:${port}/api/status/` });

  const real = await startServer('real', path.resolve(ROOT, options['server-main']), parla(realPort).url, parla(realPort).ready, tmp, profileDir, {
    ...serverEnv(realPort, dataDir),
    ...extraEnv,
  });
  const variants: Server[] = [];
  for (const spec of options.variant) {
    const at = spec.indexOf('=');
    const label = spec.slice(0, at).trim();
    const [main = '', ...env] = spec.slice(at + 1).trim().split(/\s+/);
    if (at <= 0 || !main || ['real', 'bare'].includes(label)) throw new StartError(`--variant wants 'label=<main.ts> [K=V...]', got ${spec}`);
    const port = await freePort();
    variants.push(
      await startServer(label, path.resolve(ROOT, main), parla(port).url, parla(port).ready, tmp, profileDir, {
        ...serverEnv(port, path.join(tmp, `data-${variants.length + 1}`)),
        ...parseEnv(env),
      }),
    );
  }
  const barePort = await freePort();
  const bareUrl = `http://127.0.0.1:${barePort}/user/`;
  const bare = await startServer('bare', path.join(ROOT, 'bench/bare-server.ts'), bareUrl, bareUrl, tmp, profileDir, {
    PORT: String(barePort),
    DATABASE_URL: databaseUrl,
    SECRET_KEY: secretKey,
    PUBLIC_URL: publicUrl,
  });
  const servers = [real, ...variants, bare];
  nameWidth = Math.max(...servers.map((server) => server.name.length));

  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  await signUp(publicUrl, dataDir, email);
  let token = await logIn(publicUrl, email);
  for (const server of [...variants, bare]) await checkSameAnswer(real, server, token);

  console.log(
    `\nGET /api/accounts/user/ (Bearer) on PostgreSQL: real server vs bare Fastify + pg; autocannon ${connections} connections; ` +
      `${warmup} s warm-up per server, then ${rounds} round(s) of ${servers.map((server) => server.name).join(', ')}, ` +
      `each run ${RUN_WARMUP_SECONDS} s warm-up + ${seconds} s measured; ${os.cpus().length} CPUs, load average ${loadAverage()}` +
      (Object.keys(extraEnv).length ? `; real server env: ${options['server-env'].join(' ')}` : '') +
      (options['server-main'] !== 'apps/server/src/main.ts' ? `; real server: ${options['server-main']}` : '') +
      variants.map((server, index) => `; ${server.name}: ${options.variant[index]!.slice(options.variant[index]!.indexOf('=') + 1).trim()}`).join('') +
      (profiling ? '; CPU PROFILING ON (figures slowed by the profiler)' : '') +
      '\n',
  );
  for (const server of servers) {
    await autocannon({ url: server.url, connections, duration: warmup, headers: { authorization: `Bearer ${token}` } });
  }
  const runs: Run[] = [];
  for (let round = 1; round <= rounds; round++) {
    if (round > 1) token = await logIn(publicUrl, email); // access tokens live 5 minutes
    for (const server of servers) {
      const run = await load(server, token, round);
      runs.push(run);
      printRun(run, nameWidth);
    }
  }
  reportRuns(runs, servers.map((server) => server.name), { target: TARGET_RATIO, nameWidth, profiling });
  console.log(`load average at the end: ${loadAverage()}`);

  if (profileDir) printProfiles(lastProfiles(runs, servers.map((server) => server.name)));
  return 0;
}

/** Starts a server as a child process (lib/harness.ts) with the profile folder of this run. */
const startServer = (name: string, main: string, url: string, readyUrl: string, tmp: string, profileDir: string | undefined, env: Record<string, string>) =>
  startChild({ name, main, url, readyUrl, tmp, profileDir, env });

/** Registers and activates a user through the API (the key comes from the outbox's .eml). */
async function signUp(base: string, dataDir: string, email: string) {
  const registered = await call('POST', `${base}/api/accounts/registration/`, { email, password1: PASSWORD, password2: PASSWORD, fullName: 'Ada Bench' });
  if (registered.status !== 201) throw new StartError(`registration answered ${registered.status}: ${JSON.stringify(registered.json)}`);
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + 15_000;
  let key: string | undefined;
  while (!key) {
    if (existsSync(outbox)) {
      for (const file of readdirSync(outbox).filter((name) => name.endsWith('.eml'))) {
        const text = readFileSync(path.join(outbox, file), 'utf8').replace(/\n[ \t]+/g, '');
        key = /\/signup\/activation\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
        if (key) break;
      }
    }
    if (!key) {
      if (Date.now() > deadline) throw new StartError(`no activation e-mail in ${outbox}`);
      await sleep(100);
    }
  }
  const verified = await call('POST', `${base}/api/accounts/registration/verify-email/`, { key });
  if (verified.status !== 200) throw new StartError(`activation answered ${verified.status}: ${JSON.stringify(verified.json)}`);
}

async function logIn(base: string, email: string): Promise<string> {
  const login = await call('POST', `${base}/api/accounts/login/`, { email, password: PASSWORD });
  const access = (login.json as { access?: unknown }).access;
  if (login.status !== 200 || typeof access !== 'string') throw new StartError(`login answered ${login.status}: ${JSON.stringify(login.json)}`);
  return access;
}

/** Both servers must give the same answer to the same token, or the comparison means nothing. */
async function checkSameAnswer(real: Server, other: Server, token: string) {
  const a = await call('GET', real.url, undefined, token);
  const b = await call('GET', other.url, undefined, token);
  if (a.status !== 200 || b.status !== 200 || !isDeepStrictEqual(a.json, b.json)) {
    throw new StartError(`real and ${other.name} disagree: real ${a.status} ${JSON.stringify(a.json)}, ${other.name} ${b.status} ${JSON.stringify(b.json)}`);
  }
  const c = await call('GET', other.url, undefined, `${token}x`);
  if (c.status !== 401) throw new StartError(`the ${other.name} server accepted a bad token (${c.status})`);
}

let nameWidth = 4;

const load = (server: Server, token: string, round: number): Promise<Run> =>
  autocannonRun(server, { round, connections, seconds, warmupSeconds: RUN_WARMUP_SECONDS, headers: { authorization: `Bearer ${token}` } });

runMain(main);
