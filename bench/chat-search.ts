// Report, not a test: what a search costs the user, `GET /api/chat/search/?q=` over 100,000
// messages (10 chats of 10,000, every message written in English with a done Spanish rendering,
// as the render job stores them), for a Spanish reader, on PostgreSQL, against the floor of the
// same search as bare SQL: the server's own statement (ChatsRepository.search, captured through
// drizzle's logger as chat-read's bare server does) run through a plain `pg` pool in this process.
// Requests and bare queries alternate in rounds, one at a time (a person searching), each after a
// warm-up. Prints p50 and p95 of each, per query, and the ratio of the p95s; exits 0 whatever the
// figure, 1 only when something fails to start.
//
//   npm run bench:chat-search -w @parla/bench [-- --rounds 4 --count 50 --keep]
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createChatsRepository } from '../apps/server/src/features/chats/repository';
import { chatMessages, messageRenderings } from '../apps/server/src/platform/db/schema';
import { captureStatement } from './lib/bare';
import {
  benchFolders,
  call,
  createDatabase,
  freePort,
  loadAverage,
  parlaEnv,
  parseBenchArgs,
  percentile,
  ROOT,
  runMain,
  startServer,
} from './lib/harness';
import { analyze, openSeeder, seedChats, seedUsers } from './lib/seed';

const { values: options } = parseBenchArgs({
  rounds: { type: 'string', default: '4' },
  count: { type: 'string', default: '50' },
  messages: { type: 'string', default: '100000' },
});

/** English sentences and their Spanish renderings; a number makes each message its own. */
const CORPUS: [string, string][] = [
  ['The meeting with the client is on Thursday at ten.', 'La reunión con el cliente es el jueves a las diez.'],
  ['Did anyone manage to read the draft I sent yesterday?', '¿Alguien pudo leer el borrador que envié ayer?'],
  ['I left a few comments about the budget in the second section.', 'Dejé algunos comentarios sobre el presupuesto en la segunda sección.'],
  ['Thursday works for me, I will book the small room.', 'El jueves me va bien, reservaré la sala pequeña.'],
  ['The testing phase is already tight, we should not promise anything.', 'La fase de pruebas ya es ajustada, no deberíamos prometer nada.'],
  ['Lunch is ready in the kitchen on the third floor.', 'El almuerzo está listo en la cocina del tercer piso.'],
  ['Please send me the invoice before Friday.', 'Por favor, envíame la factura antes del viernes.'],
  ['The train was late again this morning.', 'El tren llegó tarde otra vez esta mañana.'],
  ['Great work on the presentation, everyone liked it.', 'Buen trabajo con la presentación, a todos les gustó.'],
  ['We need more chairs for the workshop next week.', 'Necesitamos más sillas para el taller de la próxima semana.'],
];
/** The searches: a word in 1 message of 10 (Spanish, found through the renderings), its English original, a rare one. */
const QUERIES = [
  { q: 'reuniones', what: 'Spanish word of 1 message in 10 (renderings)' },
  { q: 'meetings', what: 'its English original (originals)' },
  { q: 'factura viernes', what: 'two Spanish words, 1 in 10' },
  { q: 'zanahoria', what: 'a word no message has' },
];

async function main(): Promise<number> {
  const rounds = Number(options.rounds);
  const count = Number(options.count);
  const total = Number(options.messages);
  const { tmp } = await benchFolders('chat-search', options);
  const databaseUrl = await createDatabase();
  const secretKey = randomBytes(48).toString('base64url');
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const real = await startServer({
    name: 'real',
    main: path.join(ROOT, 'apps/server/src/main.ts'),
    url: publicUrl,
    readyUrl: `${publicUrl}/api/status/`,
    tmp,
    env: { ...parlaEnv({ port, publicUrl, dataDir: path.join(tmp, 'data'), databaseUrl, secretKey, logLevel: 'warn' }), TRANSLATION_PROVIDER: 'none', RATE_LIMIT_SEARCHES: '0' },
  });

  // The data, straight into the database the server migrated.
  const started = Date.now();
  const seeder = openSeeder(databaseUrl);
  const [writer, reader] = await seedUsers(seeder, secretKey, 2, { prefix: 'search', language: (index) => (index === 0 ? 'en' : 'es') });
  const chatCount = 10;
  const chats = await seedChats(
    seeder,
    Array.from({ length: chatCount }, (_, index) => ({
      title: `Team ${index + 1}`,
      languages: ['en', 'es'],
      members: [
        { user: writer!, language: 'en' },
        { user: reader!, language: 'es' },
      ],
    })),
  );
  for (let at = 0; at < total; at += 2000) {
    const rows = Array.from({ length: Math.min(2000, total - at) }, (_, offset) => {
      const index = at + offset;
      const chat = chats[index % chatCount]!;
      return { index, chat, pair: CORPUS[index % CORPUS.length]! };
    });
    const inserted = await seeder.db
      .insert(chatMessages)
      .values(rows.map(({ index, chat, pair }) => ({ chatId: chat.chatId, senderId: chat.members[0]!.memberId, language: 'en', content: `${pair[0]} (${index})`, createdAt: new Date(started - total + index) })))
      .returning({ id: chatMessages.id });
    await seeder.db.insert(messageRenderings).values(
      rows.map(({ index, pair }, offset) => ({ messageId: inserted[offset]!.id, language: 'es', tone: 'DEFAULT', version: 1, state: 'done' as const, content: `${pair[1]} (${index})`, renderedTone: 'DEFAULT' })),
    );
  }
  await analyze(seeder);
  await seeder.close();
  {
    // Planner statistics and the visibility map, as autovacuum leaves a table that has settled.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('vacuum analyze chat_messages');
    await client.query('vacuum analyze message_renderings');
    await client.end();
  }
  console.log(`seeded ${total} messages with their Spanish renderings in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // The floor: the server's own search statement, through a plain pool.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const sentinel = { userId: 2_147_480_001, q: 'bench-sentinel-query', limit: 2_147_480_002 };
  const statement = await captureStatement(pool, sentinel, (db) => createChatsRepository(db).search(sentinel.userId, sentinel.q, { limit: sentinel.limit }));
  const bare = async (q: string) => (await pool.query({ name: 'bare_search', text: statement.text, values: statement.values({ userId: reader!.userId, q, limit: 20 }) })).rowCount ?? 0;
  const viaApi = async (q: string) => {
    const answer = await call('GET', `${publicUrl}/api/chat/search/?q=${encodeURIComponent(q)}&limit=20`, undefined, reader!.token);
    if (answer.status !== 200) throw new Error(`search answered ${answer.status}: ${JSON.stringify(answer.json)}`);
    return (answer.json as { results: unknown[] }).results.length;
  };
  for (const { q } of QUERIES) {
    const [a, b] = [await viaApi(q), await bare(q)];
    if (a !== b) throw new Error(`the API found ${a} and the bare query ${b} for "${q}"`);
  }

  const time = async (run: () => Promise<unknown>) => {
    const start = process.hrtime.bigint();
    await run();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  console.log(
    `\nGET /api/chat/search/?q=…&limit=20 for a Spanish reader over ${total} messages in ${chatCount} chats (each with a Spanish rendering) on PostgreSQL, ` +
      `against the same statement as bare SQL through pg; one at a time, ${rounds} rounds of ${count} per query and side after a warm-up; ` +
      `${os.cpus().length} CPUs, load average ${loadAverage()}\n`,
  );
  for (const { q, what } of QUERIES) {
    for (let i = 0; i < 10; i++) {
      await viaApi(q);
      await bare(q);
    }
    const api: number[] = [];
    const floor: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < count; i++) api.push(await time(() => viaApi(q)));
      for (let i = 0; i < count; i++) floor.push(await time(() => bare(q)));
    }
    api.sort((a, b) => a - b);
    floor.sort((a, b) => a - b);
    const found = await bare(q);
    const p95 = percentile(api, 95);
    const floorP95 = percentile(floor, 95);
    console.log(
      `"${q}" (${what}; ${found} results): API p50 ${percentile(api, 50).toFixed(1)} ms p95 ${p95.toFixed(1)} ms; ` +
        `bare SQL p50 ${percentile(floor, 50).toFixed(1)} ms p95 ${floorP95.toFixed(1)} ms; ratio of p95s ${(p95 / floorP95).toFixed(2)}`,
    );
  }
  await pool.end();
  console.log(`\nload average at the end: ${loadAverage()}`);
  void real;
  return 0;
}

runMain(main);
