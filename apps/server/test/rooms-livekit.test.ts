// The call follows access: whoever loses their place in a room (removed one by one or several at
// once, leaving, the owner leaving an empty room) is removed from the LiveKit room, and a room that
// ends or is deleted is closed on LiveKit, before the answer returns; a LiveKit server that fails,
// is down or hangs never changes the user's answer. Tokens are short-lived and signed with the
// configured secret; the development key and secret are refused for a LiveKit server elsewhere.
// The real server over real HTTP, with a stand-in of LiveKit's RoomService (test/stand-ins/livekit.ts).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { AccessToken, RoomServiceClient, TokenVerifier } from 'livekit-server-sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/platform/config';
import { person, send, type Person } from './chat-helpers';
import { freePort, startServer, type TestServer } from './harness';
import { addParticipant, createRoom, setState } from './room-helpers';
import { startLivekitStandIn, type LivekitStandIn } from './stand-ins/livekit';

const KEY = 'parla-test-key';
const SECRET = randomBytes(32).toString('base64url');
/** What the product promises: tokens that let their holder join for ten minutes. */
const TOKEN_TTL_SECONDS = 10 * 60;

const LIVE = 3002;
const END = 3003;

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});
const warnings = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string; roomId?: number }).filter((entry) => entry.level === 40);

const quiet = { TRANSLATION_PROVIDER: 'none', STT_PROVIDER: 'none', TTS_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0' };

let livekit: LivekitStandIn;
let server: TestServer;
beforeAll(async () => {
  livekit = await startLivekitStandIn({ apiKey: KEY, apiSecret: SECRET });
  server = await startServer({ ...quiet, LOG_LEVEL: 'warn', LIVEKIT_URL: livekit.url, LIVEKIT_API_KEY: KEY, LIVEKIT_API_SECRET: SECRET }, { logStream: capture });
});
afterAll(async () => {
  await server?.close();
  await livekit?.close();
});
beforeEach(() => {
  livekit.failAlways(false);
  livekit.delay(0);
});
afterEach(() => {
  // Every call the product made carried a token LiveKit would accept, with the right grant.
  expect(livekit.refused).toEqual([]);
});

const room = (roomId: number) => `room-${roomId}`;
const identity = (participantId: number) => `participant-${participantId}`;
/** The RoomService calls made so far about one room, as method and body. */
const callsAbout = (roomId: number) => livekit.calls.filter((call) => call.body.room === room(roomId)).map(({ method, body }) => ({ method, body }));
const removal = (roomId: number, participantId: number) => ({ method: 'RemoveParticipant', body: { room: room(roomId), identity: identity(participantId) } });
const closing = (roomId: number) => ({ method: 'DeleteRoom', body: { room: room(roomId) } });

async function ownId(who: Person, roomId: number): Promise<number> {
  const answer = await who.client.get(`/api/rooms/${roomId}/participant/`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.id as number;
}

/** A Live room of Ana (owner), Ben and Cy, on `on`. */
async function liveRoom(on: TestServer = server) {
  const [ana, ben, cy] = await Promise.all([person(on, 'Ana'), person(on, 'Ben'), person(on, 'Cy')]);
  const { id } = await createRoom(ana);
  const benId = await addParticipant(ana, id, ben);
  const cyId = await addParticipant(ana, id, cy);
  await setState(ana, id, LIVE);
  return { roomId: id, ana, ben, cy, anaId: await ownId(ana, id), benId, cyId };
}

describe('the LiveKit token', () => {
  it('is signed with the configured secret, for this room and identity only, and lives ten minutes', async () => {
    const { roomId, ben, benId } = await liveRoom();
    const answer = await ben.client.get(`/api/rooms/${roomId}/participant/`);
    expect(answer.body.lkUrl).toBe(livekit.url);
    const token = answer.body.lkToken as string;
    const claims = await new TokenVerifier(KEY, SECRET).verify(token, 0);
    expect(claims).toMatchObject({ iss: KEY, sub: identity(benId), name: 'Ben' });
    // Join this one room and take part; no admin or create rights.
    expect(claims.video).toEqual({ room: room(roomId), roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
    // The SDK writes nbf (issued now) and exp, no iat.
    expect(claims.exp! - claims.nbf!).toBe(TOKEN_TTL_SECONDS);
    expect(Math.abs(claims.nbf! - Date.now() / 1000)).toBeLessThan(30);
    // Another secret or another key does not verify it...
    await expect(new TokenVerifier(KEY, randomBytes(32).toString('base64url')).verify(token)).rejects.toThrow();
    await expect(new TokenVerifier('another-key', SECRET).verify(token)).rejects.toThrow();
    // ...and a token made with another secret does not pass for one of ours.
    const forged = new AccessToken(KEY, randomBytes(32).toString('base64url'), { identity: identity(benId), ttl: TOKEN_TTL_SECONDS });
    forged.addGrant({ room: room(roomId), roomJoin: true });
    await expect(new TokenVerifier(KEY, SECRET).verify(await forged.toJwt())).rejects.toThrow();
  });

  it('the stand-in refuses a RoomService call signed with another secret (so its check means something)', async () => {
    const client = new RoomServiceClient(livekit.url.replace(/^ws/, 'http'), KEY, randomBytes(32).toString('base64url'));
    await expect(client.removeParticipant('room-1', 'participant-1')).rejects.toMatchObject({ status: 401 });
    const admin = new RoomServiceClient(livekit.url.replace(/^ws/, 'http'), KEY, SECRET);
    await admin.removeParticipant('room-0', 'participant-0');
    expect(livekit.refused).toHaveLength(1);
    expect(livekit.calls.at(-1)).toMatchObject({ method: 'RemoveParticipant', body: { room: 'room-0', identity: 'participant-0' } });
    livekit.refused.splice(0);
  });
});

// Each call below is awaited by the product before it answers: the stand-in has recorded it by
// the time the HTTP answer arrives, so it is checked at once, without waiting.
describe('losing access ends the call for them at once', () => {
  it('removing a participant removes them from the LiveKit room', async () => {
    const { roomId, ana, ben, benId } = await liveRoom();
    const answer = await send(ana, 'DELETE', `/api/rooms/${roomId}/participants/${benId}/`);
    expect(answer.status).toBe(204);
    expect(callsAbout(roomId)).toEqual([removal(roomId, benId)]);
    expect((await ben.client.get(`/api/rooms/${roomId}/participant/`)).status).toBe(404);
  });

  it('removing several participants removes each from the LiveKit room', async () => {
    const { roomId, ana, benId, cyId } = await liveRoom();
    const answer = await send(ana, 'POST', `/api/rooms/${roomId}/participants/multi_delete/`, { ids: [benId, cyId], permanent: true });
    expect(answer.status).toBe(204);
    const calls = callsAbout(roomId);
    expect(calls).toHaveLength(2);
    expect(calls).toEqual(expect.arrayContaining([removal(roomId, benId), removal(roomId, cyId)]));
  });

  it('a participant who leaves is removed from the LiveKit room', async () => {
    const { roomId, cy, cyId } = await liveRoom();
    expect((await send(cy, 'DELETE', `/api/rooms/${roomId}/participant/`)).status).toBe(204);
    expect(callsAbout(roomId)).toEqual([removal(roomId, cyId)]);
  });

  it('an owner who leaves hands over and is removed from the LiveKit room; the call goes on', async () => {
    const { roomId, ana, anaId, ben } = await liveRoom();
    expect((await send(ana, 'DELETE', `/api/rooms/${roomId}/participant/`)).status).toBe(204);
    expect(callsAbout(roomId)).toEqual([removal(roomId, anaId)]);
    expect((await ben.client.get(`/api/rooms/${roomId}/`)).body).toMatchObject({ roomRole: 1001, state: LIVE });
  });

  it('the last one leaving deletes the room: the LiveKit room is closed', async () => {
    const ana = await person(server, 'Ana');
    const { id } = await createRoom(ana);
    await setState(ana, id, LIVE);
    expect((await send(ana, 'DELETE', `/api/rooms/${id}/participant/`)).status).toBe(204);
    expect(callsAbout(id)).toContainEqual(closing(id));
  });

  it('ending the room closes the LiveKit room, and no token is given until it is Live again', async () => {
    const { roomId, ana, ben } = await liveRoom();
    const answer = await send(ana, 'PATCH', `/api/rooms/${roomId}/state/`, { state: END });
    expect(answer.status).toBe(200);
    expect(callsAbout(roomId)).toEqual([closing(roomId)]);
    expect((await ben.client.get(`/api/rooms/${roomId}/participant/`)).body.lkToken).toBeNull();
  });

  it('deleting the room closes the LiveKit room', async () => {
    const { roomId, ana } = await liveRoom();
    expect((await send(ana, 'DELETE', `/api/rooms/${roomId}/`)).status).toBe(204);
    expect(callsAbout(roomId)).toEqual([closing(roomId)]);
  });

  it('removes with a roomAdmin token for that room and closes with a roomCreate token, short-lived, signed with the configured key', async () => {
    const { roomId, ana, benId } = await liveRoom();
    await send(ana, 'DELETE', `/api/rooms/${roomId}/participants/${benId}/`);
    await send(ana, 'DELETE', `/api/rooms/${roomId}/`);
    const calls = livekit.calls.filter((call) => call.body.room === room(roomId));
    const [remove, close] = [calls.find((c) => c.method === 'RemoveParticipant')!, calls.find((c) => c.method === 'DeleteRoom')!];
    expect(remove.claims).toMatchObject({ iss: KEY, video: { roomAdmin: true, room: room(roomId) } });
    expect(close.claims).toMatchObject({ iss: KEY, video: { roomCreate: true } });
    for (const call of [remove, close]) expect(call.claims.exp! - call.claims.nbf!).toBeLessThanOrEqual(TOKEN_TTL_SECONDS);
  });
});

describe('a LiveKit server that fails never fails the user', () => {
  it('answers 500: every call still answers 204/200, does its work, and logs a warning', async () => {
    livekit.failAlways(true);
    const { roomId, ana, ben, benId, cy, cyId } = await liveRoom();
    const other = await liveRoom();
    const before = warnings().length;
    expect((await send(ana, 'DELETE', `/api/rooms/${roomId}/participants/${benId}/`)).status).toBe(204);
    expect((await ben.client.get(`/api/rooms/${roomId}/participant/`)).status).toBe(404);
    expect((await send(cy, 'DELETE', `/api/rooms/${roomId}/participant/`)).status).toBe(204);
    expect((await cy.client.get(`/api/rooms/${roomId}/participant/`)).status).toBe(404);
    expect((await send(ana, 'PATCH', `/api/rooms/${roomId}/state/`, { state: END })).status).toBe(200);
    expect((await ana.client.get(`/api/rooms/${roomId}/`)).body.state).toBe(END);
    expect((await send(ana, 'DELETE', `/api/rooms/${roomId}/`)).status).toBe(204);
    expect((await ana.client.get(`/api/rooms/${roomId}/`)).status).toBe(404);
    expect((await send(other.ana, 'POST', `/api/rooms/${other.roomId}/participants/multi_delete/`, { ids: [other.benId, other.cyId] })).status).toBe(204);
    // Each was tried (and failed on LiveKit's side), each failure is in the log.
    expect(callsAbout(roomId)).toEqual([removal(roomId, benId), removal(roomId, cyId), closing(roomId), closing(roomId)]);
    expect(callsAbout(other.roomId)).toHaveLength(2);
    const logged = warnings().slice(before);
    expect(logged.filter((entry) => entry.roomId === roomId)).toHaveLength(4);
    expect(logged.filter((entry) => entry.roomId === other.roomId)).toHaveLength(2);
    for (const entry of logged) expect(entry.msg).toMatch(/LiveKit/);
  });

  it('hangs: the answer waits a few seconds at most, then goes on', async () => {
    const { roomId, ana, benId } = await liveRoom();
    livekit.delay(20_000);
    const before = lines.length;
    const started = Date.now();
    const answer = await send(ana, 'DELETE', `/api/rooms/${roomId}/participants/${benId}/`);
    const took = Date.now() - started;
    expect(answer.status, JSON.stringify(answer.body)).toBe(204);
    expect(callsAbout(roomId)).toEqual([removal(roomId, benId)]);
    expect(took).toBeLessThan(6000);
    // The timeout is logged as a warning like any other failure (and nothing worse).
    const logged = lines.slice(before).map((line) => JSON.parse(line) as { level: number; msg: string; roomId?: number; err?: { type?: string } });
    expect(logged.filter((entry) => entry.level >= 50)).toEqual([]);
    expect(logged).toContainEqual(expect.objectContaining({ level: 40, roomId, msg: expect.stringMatching(/LiveKit/) }));
  });

  it('is down: every call still answers 204/200 promptly', async () => {
    const down = await startServer({ ...quiet, LIVEKIT_URL: `ws://127.0.0.1:${await freePort()}`, LIVEKIT_API_KEY: KEY, LIVEKIT_API_SECRET: SECRET });
    try {
      const { roomId, ana, ben, benId, cy } = await liveRoom(down);
      const started = Date.now();
      expect((await send(ana, 'DELETE', `/api/rooms/${roomId}/participants/${benId}/`)).status).toBe(204);
      expect((await ben.client.get(`/api/rooms/${roomId}/participant/`)).status).toBe(404);
      expect((await send(cy, 'DELETE', `/api/rooms/${roomId}/participant/`)).status).toBe(204);
      expect((await cy.client.get(`/api/rooms/${roomId}/participant/`)).status).toBe(404);
      expect((await send(ana, 'PATCH', `/api/rooms/${roomId}/state/`, { state: END })).status).toBe(200);
      expect((await send(ana, 'DELETE', `/api/rooms/${roomId}/`)).status).toBe(204);
      expect((await ana.client.get(`/api/rooms/${roomId}/`)).status).toBe(404);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await down.close();
    }
  });
});

describe('LiveKit credentials at start', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'parla-livekit-config-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  const failure = (env: Record<string, string>): ConfigError => {
    try {
      loadConfig({ DATA_DIR: tmp, ...env });
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
  };

  it.each(['wss://lk.example.com', 'https://lk.example.com:7880', 'ws://10.0.0.5:7880', 'ws://192.168.1.20:7880', 'ws://localhost.example.com:7880', 'ws://127.0.0.1.nip.io:7880', 'ws://[::2]:7880', 'ws://0.0.0.0:7880'])(
    'refuses the development key and secret with LIVEKIT_URL=%s, naming each',
    (url) => {
      const both = failure({ LIVEKIT_URL: url });
      expect(both.message).toMatch(/^\s+LIVEKIT_API_KEY: /m);
      expect(both.message).toMatch(/^\s+LIVEKIT_API_SECRET: /m);
      const secret = failure({ LIVEKIT_URL: url, LIVEKIT_API_KEY: 'APIabc123' });
      expect(secret.message).toMatch(/^\s+LIVEKIT_API_SECRET: /m);
      expect(secret.message).not.toMatch(/LIVEKIT_API_KEY/);
      const key = failure({ LIVEKIT_URL: url, LIVEKIT_API_SECRET: SECRET });
      expect(key.message).toMatch(/^\s+LIVEKIT_API_KEY: /m);
      expect(key.message).not.toMatch(/LIVEKIT_API_SECRET/);
      // Written out explicitly, the defaults are refused all the same.
      expect(failure({ LIVEKIT_URL: url, LIVEKIT_API_KEY: 'devkey', LIVEKIT_API_SECRET: 'secret' }).message).toMatch(/LIVEKIT_API_SECRET/);
    },
  );

  it('accepts a remote LiveKit server with its own key and secret', () => {
    const config = loadConfig({ DATA_DIR: tmp, LIVEKIT_URL: 'wss://lk.example.com', LIVEKIT_API_KEY: 'APIabc123', LIVEKIT_API_SECRET: SECRET });
    expect(config.livekit).toEqual({ url: 'wss://lk.example.com', apiKey: 'APIabc123', apiSecret: SECRET });
  });

  it.each(['ws://localhost:7880', 'ws://LOCALHOST:7880', 'http://127.0.0.1:7880', 'ws://127.8.9.10:7880', 'ws://[::1]:7880'])(
    'keeps the development defaults for a LiveKit server on loopback (%s)',
    (url) => {
      expect(loadConfig({ DATA_DIR: tmp, LIVEKIT_URL: url }).livekit).toMatchObject({ apiKey: 'devkey', apiSecret: 'secret' });
    },
  );

  it('keeps the defaults without LIVEKIT_URL (no calls at all)', () => {
    expect(loadConfig({ DATA_DIR: tmp }).livekit).toEqual({ url: undefined, apiKey: 'devkey', apiSecret: 'secret' });
  });
});
