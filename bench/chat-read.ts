// Report, not a test: what the message page read costs, `GET /api/chat/{id}/messages/` (20
// messages rendered for a Spanish reader, every rendering present and done) on PostgreSQL, against
// the floor of a bare Fastify + pg server running the same four statements (bench/bare-chat-read.ts:
// the session check, the membership check, the page with its quotes and the page's reactions, their SQL captured from the server's own
// repository functions). Target: the real server serves at least 0.8 × the requests per second of
// the bare one.
//
// Creates a throw-away database on DATABASE_URL / TEST_DATABASE_URL (else
// postgres://postgres@127.0.0.1:5432/postgres), starts the real server (`node --import tsx
// apps/server/src/main.ts`, NODE_ENV=production, LOG_LEVEL=info as in production and in
// request-cost.ts, translating through the OpenAI stand-in of apps/server/test/stand-ins so a
// missing rendering would be made; none is missing) and the bare one as child processes, writes the
// data straight into the database (lib/seed.ts: 3 users, a chat in en/es/fr, 30 messages from the
// English and French members with their done renderings, 2,000 messages of other chats around
// them), checks that both servers give the same page, then loads both with autocannon on
// loopback, alternating real/bare, each run after a warm-up. Prints each run, the medians and the
// ratio; exits 0 whatever the figure, 1 only when something fails to start.
//
//   npm run bench:chat-read -w @parla/bench [-- options]
//   --seconds 8 --warmup 3 --connections 10 --rounds 4     as in request-cost.ts
//   --profile [dir]       CPU-profile both servers during the measured runs (1 round by default)
//   --server-env K=V      extra environment for the real server (repeatable), e.g. LOG_LEVEL=warn
//   --server-main <file>  another main.ts for the real server (an experiment in a copy of apps/server)
//   --variant 'label=<main.ts> [K=V...]'   one more server in the rotation (repeatable); the label
//                         `bare-unprepared=bench/bare-chat-read.ts BARE_PREPARED=0` runs the bare
//                         server with unnamed statements (what drizzle sends for the chat queries)
//   --keep                keep the temporary folder (server logs, DATA_DIR)
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { startOpenAiStandIn } from '../apps/server/test/stand-ins/openai';
import {
  autocannonRun,
  backgroundLoad,
  call,
  createDatabase,
  freePort,
  lastProfiles,
  loadAverage,
  onCleanup,
  parlaEnv,
  parseEnv,
  printProfiles,
  printRun,
  reportRuns,
  ROOT,
  runMain,
  startServer,
  StartError,
  type Run,
  type Server,
  benchFolders,
  parseRequestBenchArgs,
  RUN_WARMUP_SECONDS,
} from './lib/harness';
import { analyze, openSeeder, seedChats, seedMessages, seedUsers, type SeededUser } from './lib/seed';

const TARGET_RATIO = 0.8;
const PAGE = 20;

const { options, seconds, warmup, connections, profiling, rounds } = parseRequestBenchArgs();

/** Messages of a lively chat: short and long lines. */
const LINES = [
  'Morning! Did anyone manage to look at the draft I sent yesterday?',
  'Yes, I left a few comments on the second section, mostly about the budget.',
  'Great, thanks. Can we meet on Thursday at 10 to go through them?',
  'Thursday works for me. I will book the small room on the third floor.',
  'Perfect 👍',
  'By the way, the client asked whether we could deliver the first part two weeks earlier. I told them we would check with the team before promising anything, since the testing phase is already tight.',
];

async function main(): Promise<number> {
  const { tmp, profileDir } = await benchFolders('chat-read', options);

  const databaseUrl = await createDatabase();
  const secretKey = randomBytes(48).toString('base64url');
  const standIn = await startOpenAiStandIn();
  onCleanup(() => standIn.close());
  const realPort = await freePort();
  const publicUrl = `http://127.0.0.1:${realPort}`;
  const extraEnv = parseEnv(options['server-env']);
  const serverEnv = (port: number, folder: string): Record<string, string> => ({
    ...parlaEnv({ port, publicUrl, dataDir: folder, databaseUrl, secretKey, logLevel: 'info' }),
    OPENAI_BASE_URL: standIn.baseUrl,
    TRANSLATION_MODEL: 'stand-in',
  });
  const status = (port: number) => `http://127.0.0.1:${port}/api/status/`;

  // The real server first: it migrates the database the data goes into.
  const real = await startServer({
    name: 'real',
    main: path.resolve(ROOT, options['server-main']),
    url: '',
    readyUrl: status(realPort),
    tmp,
    profileDir,
    env: { ...serverEnv(realPort, path.join(tmp, 'data')), ...extraEnv },
  });
  const seeded = await seed(databaseUrl, secretKey);
  const pagePath = `/api/chat/${seeded.chatId}/messages/`;
  real.url = `http://127.0.0.1:${realPort}${pagePath}`;

  const variants: Server[] = [];
  for (const spec of options.variant) {
    const at = spec.indexOf('=');
    const label = spec.slice(0, at).trim();
    const [main = '', ...env] = spec.slice(at + 1).trim().split(/\s+/);
    if (at <= 0 || !main || ['real', 'bare'].includes(label)) throw new StartError(`--variant wants 'label=<main.ts> [K=V...]', got ${spec}`);
    const port = await freePort();
    const isBare = main.includes('bare-');
    variants.push(
      await startServer({
        name: label,
        main: path.resolve(ROOT, main),
        url: `http://127.0.0.1:${port}${pagePath}`,
        readyUrl: isBare ? `http://127.0.0.1:${port}${pagePath}` : status(port),
        tmp,
        profileDir,
        env: isBare
          ? { PORT: String(port), DATABASE_URL: databaseUrl, SECRET_KEY: secretKey, PUBLIC_URL: publicUrl, ...parseEnv(env) }
          : { ...serverEnv(port, path.join(tmp, `data-${variants.length + 1}`)), ...parseEnv(env) },
      }),
    );
  }
  const barePort = await freePort();
  const bareUrl = `http://127.0.0.1:${barePort}${pagePath}`;
  const bare = await startServer({
    name: 'bare',
    main: path.join(ROOT, 'bench/bare-chat-read.ts'),
    url: bareUrl,
    readyUrl: bareUrl,
    tmp,
    profileDir,
    env: { PORT: String(barePort), DATABASE_URL: databaseUrl, SECRET_KEY: secretKey, PUBLIC_URL: publicUrl },
  });
  const servers = [real, ...variants, bare];
  const nameWidth = Math.max(...servers.map((server) => server.name.length));

  const token = seeded.readerToken;
  for (const server of [...variants, bare]) await checkSameAnswer(real, server, token, seeded.strangerToken);
  const sample = (await call('GET', real.url, undefined, token)).json as { results: { translation: string }[] };
  const completionsBefore = standIn.completions().length;
  const background = await backgroundLoad();

  console.log(
    `\nGET ${pagePath} (Bearer; ${PAGE} messages rendered for a Spanish reader, ${sample.results.filter((m) => m.translation === 'done').length} done) on PostgreSQL: ` +
      `real server vs bare Fastify + pg (same 4 statements); autocannon ${connections} connections; ` +
      `${warmup} s warm-up per server, then ${rounds} round(s) of ${servers.map((server) => server.name).join(', ')}, ` +
      `each run ${RUN_WARMUP_SECONDS} s warm-up + ${seconds} s measured; ${os.cpus().length} CPUs, load average ${loadAverage()}, ` +
      `machine ${background?.toFixed(0) ?? '-'}% busy before the load (other work); PostgreSQL's CPU counts every backend of the machine` +
      (Object.keys(extraEnv).length ? `; real server env: ${options['server-env'].join(' ')}` : '') +
      (options['server-main'] !== 'apps/server/src/main.ts' ? `; real server: ${options['server-main']}` : '') +
      variants.map((server, index) => `; ${server.name}: ${options.variant[index]!.slice(options.variant[index]!.indexOf('=') + 1).trim()}`).join('') +
      (profiling ? '; CPU PROFILING ON (figures slowed by the profiler)' : '') +
      '\n',
  );
  const headers = { authorization: `Bearer ${token}` };
  for (const server of servers) await autocannon({ url: server.url, connections, duration: warmup, headers });
  const runs: Run[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const server of servers) {
      const run = await autocannonRun(server, { round, connections, seconds, warmupSeconds: RUN_WARMUP_SECONDS, headers, postgres: true });
      runs.push(run);
      printRun(run, nameWidth);
    }
  }
  reportRuns(runs, servers.map((server) => server.name), { target: TARGET_RATIO, nameWidth, profiling });
  const calls = standIn.completions().length - completionsBefore;
  if (calls) console.log(`WARNING: the real server asked the provider ${calls} time(s) during the load: renderings were missing`);
  console.log(`load average at the end: ${loadAverage()}`);
  if (profileDir) printProfiles(lastProfiles(runs, servers.map((server) => server.name)));
  return 0;
}

/** The item at `index`, which must be there. */
function at<T>(items: T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

/** The chat the reader reads, written straight into the database; returns its id and the tokens. */
async function seed(databaseUrl: string, secretKey: string) {
  const seeder = openSeeder(databaseUrl);
  try {
    const languages = ['en', 'es', 'fr'];
    const people = await seedUsers(seeder, secretKey, 4, {
      prefix: 'read',
      language: (index) => at(languages, index % 3),
      avatar: (index) => (index === 0 ? 'avatars/bench-ana.webp' : null),
      fullName: (index) => at(['Ana Bench', 'Bea Banco', 'Chloé Banc', 'Stranger'], index),
    });
    const [ana, bea, chloe, stranger] = [0, 1, 2, 3].map((index) => at(people, index)) as [SeededUser, SeededUser, SeededUser, SeededUser];
    const chats = await seedChats(seeder, [
      {
        title: 'Project Atlas',
        languages,
        members: [
          { user: ana, language: 'en' },
          { user: bea, language: 'es' },
          { user: chloe, language: 'fr' },
        ],
      },
      ...Array.from({ length: 10 }, (_, index) => ({
        title: `Other ${index}`,
        languages,
        members: [
          { user: ana, language: 'en' },
          { user: stranger, language: 'fr' },
        ],
      })),
    ]);
    const groups = languages.map((language) => ({ language, tone: 'DEFAULT' }));
    // Other chats first (older ids), then the chat read.
    for (const other of chats.slice(1)) {
      const sender = (index: number) => at(other.members, index % 2);
      await seedMessages(seeder, other, Array.from({ length: 200 }, (_, index) => ({ sender: sender(index), content: at(LINES, index % LINES.length) })), groups);
    }
    const chat = at(chats, 0);
    // Written by the English and the French member: the Spanish reader gets every one rendered.
    const sender = (index: number) => at(chat.members, index % 3 === 2 ? 2 : 0);
    await seedMessages(
      seeder,
      chat,
      Array.from({ length: 30 }, (_, index) => ({ sender: sender(index), content: `${at(LINES, index % LINES.length)} (${index + 1})` })),
      groups,
    );
    await analyze(seeder);
    return { chatId: chat.chatId, readerToken: bea.token, strangerToken: stranger.token };
  } finally {
    await seeder.close();
  }
}

/** Both servers must give the same page to the same token, and refuse a bad token and a stranger, or the comparison means nothing. */
async function checkSameAnswer(real: Server, other: Server, token: string, strangerToken: string) {
  const a = await call('GET', real.url, undefined, token);
  const b = await call('GET', other.url, undefined, token);
  const results = (a.json as { results?: { translation?: string }[] }).results ?? [];
  if (a.status !== 200 || results.length !== PAGE || results.some((message) => message.translation !== 'done')) {
    throw new StartError(`the real server's page is not ${PAGE} done renderings: ${a.status} ${JSON.stringify(a.json).slice(0, 500)}`);
  }
  if (b.status !== 200 || !isDeepStrictEqual(a.json, b.json)) {
    throw new StartError(`real and ${other.name} disagree: real ${a.status} ${JSON.stringify(a.json)}\n${other.name} ${b.status} ${JSON.stringify(b.json)}`);
  }
  const c = await call('GET', other.url, undefined, `${token}x`);
  if (c.status !== 401) throw new StartError(`the ${other.name} server accepted a bad token (${c.status})`);
  const d = await call('GET', other.url, undefined, strangerToken);
  if (d.status !== 404) throw new StartError(`the ${other.name} server showed the chat to a stranger (${d.status})`);
}

runMain(main);
