// Report, not a test: what read receipts and presence cost in a chat of 1,000 members (by
// default), against what a message costs in the same chat, on the same server in the same run (the
// reference). Every member holds a live connection subscribed to the chat, as 1,000 open chat
// pages would. Three phases, each timed until every socket got what it should:
//   - messages: `--count` messages posted one after the other (POST), each until `message:created`
//     reached all 1,000 sockets;
//   - read markers: `--count` members each move their read marker (PATCH …/member/) to the last
//     message; receipts go out at once for the first, then in one batch per window (AWARENESS_BATCH: 10 s
//     for 1,000 members), timed until every socket got every member's marker;
//   - presence: `--count` members' connections say they are idle (`presence:away`), each a change
//     announced to the chat in batches as receipts are, timed until every socket got each of them.
// For each phase: the server's CPU (ms) per unit, the pushes delivered per unit (one push reaching
// one socket), and the ratio of the CPU per unit to a message's. Setup (users, chat and members
// written straight into a throw-away PostgreSQL database, sockets opened before they subscribe) is
// not measured. Loopback only; about a minute.
//
//   npm run bench:awareness -w @parla/bench [-- --members 1000 --count 50 --keep]
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { AWARENESS_BATCH } from '@parla/contract/constants';
import { LIVE_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@parla/contract/live';
import { benchFolders, call, cpuTimeUs, createDatabase, freePort, loadAverage, parlaEnv, parseBenchArgs, ROOT, runMain, sleep, startServer, StartError } from './lib/harness';
import { openSeeder, seedChats, seedUsers } from './lib/seed';

const { values: options } = parseBenchArgs({
  members: { type: 'string', default: '1000' },
  count: { type: 'string', default: '50' },
});

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Waits until `done` holds (checked every 10 ms), or throws after `seconds`. */
async function until(done: () => boolean, seconds: number, what: string) {
  const deadline = Date.now() + seconds * 1000;
  while (!done()) {
    if (Date.now() > deadline) throw new StartError(`${what}: not done in ${seconds} s`);
    await sleep(10);
  }
}

async function main(): Promise<number> {
  const memberCount = Number(options.members);
  const count = Number(options.count);
  if (!(memberCount >= 2 && count >= 1 && count < memberCount)) throw new StartError('want --members of 2 or more and --count below it');
  const { tmp } = await benchFolders('awareness', options);
  const databaseUrl = await createDatabase();
  const secretKey = randomBytes(48).toString('base64url');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer({
    name: 'real',
    main: path.join(ROOT, 'apps/server/src/main.ts'),
    url: base,
    readyUrl: `${base}/api/status/`,
    tmp,
    env: {
      ...parlaEnv({ port, publicUrl: base, dataDir: path.join(tmp, 'data'), databaseUrl, secretKey, logLevel: 'warn' }),
      TRANSLATION_PROVIDER: 'none',
      RATE_LIMIT_MESSAGES: '0',
    },
  });
  const pid = server.child.pid;

  const seeder = openSeeder(databaseUrl);
  const users = await seedUsers(seeder, secretKey, memberCount, { prefix: 'aware' });
  const [chat] = await seedChats(seeder, [{ title: 'Everyone', languages: ['en'], members: users.map((user) => ({ user, language: 'en' })) }]);
  await seeder.close();
  if (!chat) throw new StartError('no chat seeded');
  const chatId = chat.chatId;

  // Every member's socket; what each received, by event.
  const received = new Map<string, number>();
  const frames = new Map<string, number>();
  const got = (event: string) => received.get(event) ?? 0;
  const pushes = (event: string) => frames.get(event) ?? 0;
  const sockets: Client[] = [];
  for (const user of users) {
    const socket: Client = io(base, { path: LIVE_PATH, transports: ['websocket'], reconnection: false, auth: { token: user.token }, autoConnect: false });
    socket.onAny((event: string, payload: { receipts?: unknown[]; presence?: unknown[] }) => {
      // A batch of receipts or presences counts each of them.
      const items = payload.receipts?.length ?? payload.presence?.length ?? 1;
      received.set(event, got(event) + items);
      frames.set(event, pushes(event) + 1);
    });
    sockets.push(socket);
  }
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
          socket.connect();
        }),
    ),
  );
  // Their arrivals are announced before they subscribe (to nobody), the last batch once the chat's
  // window ended (10 s for 1,000 members): not part of what is measured.
  await sleep(AWARENESS_BATCH.batchMs * Math.ceil(memberCount / AWARENESS_BATCH.membersPerBatch) + 2_000);
  const answers = await Promise.all(sockets.map((socket) => socket.timeout(30_000).emitWithAck('chat:subscribe', { chatId })));
  if (answers.some((answer) => !answer.ok)) throw new StartError('a subscription was refused');
  await sleep(1_000);
  received.clear();
  frames.clear();
  console.log(`awareness: 1 chat of ${memberCount} members, every one subscribed on a socket; ${count} units a phase; load ${loadAverage()}`);

  const phase = async (name: string, run: () => Promise<void>) => {
    const cpuBefore = cpuTimeUs(pid);
    const started = performance.now();
    await run();
    const ms = performance.now() - started;
    const cpuUs = (cpuTimeUs(pid) ?? 0) - (cpuBefore ?? 0);
    return { name, ms, cpuMsPerUnit: cpuUs / 1000 / count };
  };

  const sender = users[0]!;
  let lastMessage = 0;
  const messages = await phase('message', async () => {
    for (let index = 0; index < count; index++) {
      const before = got('message:created');
      const answer = await call('POST', `${base}/api/chat/${chatId}/messages/`, { content: `Message ${index}` }, sender.token);
      if (answer.status !== 201) throw new StartError(`post: ${answer.status}`);
      lastMessage = (answer.json as { id: number }).id;
      await until(() => got('message:created') >= before + memberCount, 30, 'message delivery');
    }
  });
  const messageDeliveries = pushes('message:created') / count;

  const readers = users.slice(1, count + 1);
  const receipts = await phase('read marker', async () => {
    for (const reader of readers) {
      const answer = await call('PATCH', `${base}/api/chat/${chatId}/member/`, { lastReadMessage: lastMessage }, reader.token);
      if (answer.status !== 200) throw new StartError(`read: ${answer.status}`);
    }
    // Every socket gets every reader's marker (the first at once, the rest in the next batch).
    await until(() => got('receipts') >= count * memberCount, 60, 'receipts delivery');
  });
  const receiptEvents = pushes('receipts') / count;

  const idle = sockets.slice(1, count + 1);
  const presence = await phase('presence change', async () => {
    for (const socket of idle) socket.emit('presence:away', { away: true });
    await until(() => got('presence') >= count * memberCount, 60, 'presence delivery');
  });
  const presenceDeliveries = pushes('presence') / count;

  for (const socket of sockets) socket.close();
  const line = (result: { name: string; ms: number; cpuMsPerUnit: number }, deliveries: number) =>
    `  ${result.name.padEnd(16)} server CPU ${result.cpuMsPerUnit.toFixed(2).padStart(7)} ms/unit, ${deliveries.toFixed(0).padStart(6)} pushes delivered/unit, ` +
    `${(result.ms / count).toFixed(0).padStart(6)} ms/unit wall, CPU ratio to a message ${(result.cpuMsPerUnit / messages.cpuMsPerUnit).toFixed(2)}`;
  console.log(line(messages, messageDeliveries));
  console.log(line(receipts, receiptEvents));
  console.log(line(presence, presenceDeliveries));
  return 0;
}

runMain(main);
