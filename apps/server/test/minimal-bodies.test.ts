// Empty and minimal bodies sent to every operation of the OpenAPI document in a seeded world: the
// caller owns a chat with a message and a member, and a Live room with a participant and a segment,
// so each request reaches the service behind the membership check instead of stopping at a 404.
// `{}`, `null`, `[]`, a body of unknown keys only and no body at all: never a 5xx, every 4xx in the
// standard error body, and a PATCH of nothing changes nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send as sendRaw } from './fuzz/http';
import { operationsOf, type Operation } from './fuzz/operations';
import { GOOD_PASSWORD, startServer, type TestServer } from './harness';
import { addMember, createChat, person, post, send, type Person } from './chat-helpers';
import { browserKeys } from './push-receiver';
import { addParticipant, createRoom, setState, toneWav, upload, uploadForm } from './room-helpers';

let server: TestServer;
beforeAll(async () => {
  // No transcriber: the segment stays as uploaded (nothing runs behind the test's back).
  // Push endpoints on this machine are allowed (the world's device subscription points at a closed port).
  server = await startServer({ STT_PROVIDER: 'none', TTS_PROVIDER: 'none', TRANSLATION_PROVIDER: 'none', PUSH_ALLOW_PRIVATE_HOSTS: '1' });
});
afterAll(() => server?.close());

interface World {
  owner: Person;
  other: Person;
  chatId: number;
  memberId: number;
  messageId: number;
  attachmentId: number;
  roomId: number;
  participantId: number;
  segmentId: number;
  audioName: string;
  subscriptionId: number;
  /** A glossary entry of the chat, and one of the room. */
  chatEntryId: number;
  roomEntryId: number;
}

/** A world of the owner's (a new chat and room, with `other` in both). */
async function seed(owner?: Person, otherPerson?: Person): Promise<World> {
  const me = owner ?? (await person(server, 'Owner'));
  const other = otherPerson ?? (await person(server, 'Other'));
  const chat = await createChat(me);
  const memberId = await addMember(me, chat.id, other);
  const message = await post(me, chat.id, 'Hello there');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(Buffer.from('notes'))], { type: 'text/plain' }), 'notes.txt');
  const attachment = await me.client.request('POST', `/api/chat/${chat.id}/attachments/`, { form, xsrf: true });
  expect(attachment.status, JSON.stringify(attachment.body)).toBe(201);
  await send(me, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'A file', attachments: [attachment.body.id] });
  const room = await createRoom(me);
  const participantId = await addParticipant(me, room.id, other);
  await setState(me, room.id, 3002);
  const uploaded = await upload(me, room.id, uploadForm(toneWav(1)));
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const audioName = String(uploaded.body.audioFile).split('/').pop()!;
  const chatEntry = await send(me, 'POST', `/api/chat/${chat.id}/glossary/`, { term: 'standup', language: 'en', keep: true });
  expect(chatEntry.status, JSON.stringify(chatEntry.body)).toBe(201);
  const roomEntry = await send(me, 'POST', `/api/rooms/${room.id}/glossary/`, { term: 'standup', language: 'en', keep: true });
  expect(roomEntry.status, JSON.stringify(roomEntry.body)).toBe(201);
  const subscribed = await send(me, 'POST', '/api/notifications/subscriptions/', browserKeys().json(`https://127.0.0.1:9/push/${randomUUID()}`));
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
  return { owner: me, other, chatId: chat.id, memberId, messageId: message.id, attachmentId: attachment.body.id as number, roomId: room.id, participantId, segmentId: uploaded.body.id, audioName, subscriptionId: subscribed.body.id as number, chatEntryId: chatEntry.body.id as number, roomEntryId: roomEntry.body.id as number };
}

/** The operation's path with the world's ids in it. */
function pathIn(op: Operation, world: World): string {
  const chat = op.path.startsWith('/api/chat/');
  const room = op.path.startsWith('/api/rooms/');
  return op.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    if (name === 'groupChatId' || (chat && name === 'id' && /^\/api\/chat\/\{id\}\//.test(op.path))) return String(world.chatId);
    if (name === 'roomId' || (room && name === 'id' && /^\/api\/rooms\/\{id\}\//.test(op.path))) return String(world.roomId);
    if (name === 'name') return world.audioName;
    if (name === 'id' && op.path.includes('/members/')) return String(world.memberId);
    if (name === 'id' && op.path.includes('/messages/')) return String(world.messageId);
    if (name === 'id' && op.path.includes('/participants/')) return String(world.participantId);
    if (name === 'id' && op.path.includes('/segments/')) return String(world.segmentId);
    if (name === 'id' && op.path.includes('/attachments/')) return String(world.attachmentId);
    if (name === 'variant') return 'file';
    if (name === 'id' && op.path.includes('/subscriptions/')) return String(world.subscriptionId);
    if (name === 'id' && op.path.includes('/glossary/')) return String(chat ? world.chatEntryId : world.roomEntryId);
    throw new Error(`no value for {${name}} in ${op.key}`);
  });
}

/** A request as a signed-in browser sends it, body bytes exactly as given (a GET may carry one too). */
async function request(who: Person, method: string, url: string, raw: string | undefined) {
  const jar = [...who.client.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const headers: Record<string, string> = { cookie: jar, 'x-xsrf-token': who.client.cookie('XSRF-TOKEN') ?? '' };
  if (raw !== undefined) headers['content-type'] = 'application/json';
  const sent = await sendRaw(new URL(server.url), { method, path: url, headers, body: raw === undefined ? undefined : Buffer.from(raw) }, 30_000);
  if (!sent.answer) return { status: 0, body: sent.error as unknown };
  let body: unknown = sent.answer.body;
  try {
    body = JSON.parse(sent.answer.body);
  } catch {
    // not JSON (an audio file)
  }
  return { status: sent.answer.status, body: body as any };
}

const BODIES: { label: string; raw: string | undefined }[] = [
  { label: '{}', raw: '{}' },
  { label: 'null', raw: 'null' },
  { label: '[]', raw: '[]' },
  { label: 'unknown keys only', raw: '{"guardUnknown":"x","another":1}' },
  { label: 'no body', raw: undefined },
];

/** Operations that end what later requests need (the chat, the room) go last, each in a fresh world. */
const ENDS_SOMETHING = (op: Operation) => op.method === 'DELETE' || op.path.includes('multi_delete') || op.path.includes('/state/');
/** Account operations (logout, refresh, password change...) each get a new person, whose session they may end. */
const ACCOUNT = (op: Operation) => op.path.startsWith('/api/accounts/');

describe('empty and minimal bodies in a seeded world', () => {
  it('never answer 5xx, answer 4xx in the standard body, and a PATCH of nothing changes nothing', async () => {
    const docs = await server.client().get('/api/docs/json');
    const operations = operationsOf(docs.body);
    expect(operations.length).toBeGreaterThan(40);
    const problems: string[] = [];
    const world = await seed();
    const ordered = [...operations.filter((op) => !ENDS_SOMETHING(op)), ...operations.filter(ENDS_SOMETHING)];
    let reached = 0;
    for (const op of ordered) {
      const account = ACCOUNT(op) ? await person(server) : undefined;
      for (const body of BODIES) {
        if (account && (await send(account, 'GET', '/api/accounts/user/')).status === 401) {
          // The previous body ended the session (logout): sign in again.
          const login = await account.client.post('/api/accounts/login/', { email: account.email, password: GOOD_PASSWORD });
          expect(login.status).toBe(200);
        }
        const here = account ? { ...world, owner: account } : ENDS_SOMETHING(op) ? await seed(world.owner, world.other) : world;
        const url = pathIn(op, here);
        const before = op.method === 'PATCH' ? await send(here.owner, 'GET', url) : undefined;
        const answer = await request(here.owner, op.method, url, body.raw);
        const where = `${op.key} with ${body.label}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
        if (answer.status >= 500 || answer.status === 0) problems.push(where);
        if (answer.status === 404 && !op.path.includes('logout')) problems.push(`${where} (the seeded object was not reached)`);
        if (answer.status >= 400 && answer.status < 500) {
          const shaped = answer.body && typeof answer.body === 'object' && ['validation_error', 'client_error'].includes(answer.body.type) && Array.isArray(answer.body.errors) && answer.body.errors.length > 0;
          if (!shaped) problems.push(`${where} (not the standard error body)`);
        } else if (answer.status < 300) reached++;
        if (op.method === 'PATCH' && before && before.status === 200 && answer.status === 200 && body.raw !== undefined) {
          const after = await send(here.owner, 'GET', url);
          // Only what the caller could not have changed may differ (a rendering that finished meanwhile).
          if (JSON.stringify(after.body) !== JSON.stringify(before.body)) problems.push(`${where} (changed the object: ${JSON.stringify(before.body)} → ${JSON.stringify(after.body)})`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Some minimal bodies are valid (no body to a GET, {} to a PATCH): those went through.
    expect(reached).toBeGreaterThan(operations.length);
  }, 240_000);
});
