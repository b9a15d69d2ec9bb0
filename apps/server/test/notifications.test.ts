// Web Push notifications (issue 18): a local https receiver stands in for the browser's push
// service; what it receives is decrypted as the browser would (RFC 8291) and its VAPID header
// checked (RFC 8292). A message reaches a member with no tab open, in their reading language
// (real Apertium) or as the original with its language named; muted chats, the account's switch
// and open tabs hold notifications back; a mention, an invitation and a room going live notify;
// subscriptions the push service answers 404 or 410 for are removed; endpoints on this machine or
// a private network are refused, at subscription and again when a name resolves there.
import os from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_STATE } from '@parla/contract/constants';
import { mentionToken } from '@parla/contract/markup';
import { pushSubscriptions, users } from '../src/platform/db/schema';
import { addMember, createChat, person, post, send, setReading, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect } from './live-helpers';
import { isPrivateAddress, publicLookup } from '../src/domain/delivery/push';
import { browserKeys, decrypt, makeCertificate, startPushService, vapidClaims } from './push-receiver';
import { addParticipant, createRoom, setState } from './room-helpers';
import { RENDER_WAIT_MS } from '../src/features/chats/notify';

const certificate = makeCertificate();

describe('Web Push notifications', () => {
  let server: TestServer;
  let service: Awaited<ReturnType<typeof startPushService>>;
  beforeAll(async () => {
    service = await startPushService(certificate);
    server = await startServer({ TRANSLATION_PROVIDER: 'apertium', PUSH_ALLOW_PRIVATE_HOSTS: '1' }, { pushCa: certificate.cert });
  });
  afterAll(async () => {
    await server.close();
    await service.close();
  });

  /** A member whose browser subscribed to notifications at `name` on the receiver. */
  async function subscribed(who: Person, name: string) {
    const keys = browserKeys();
    const answer = await send(who, 'POST', '/api/notifications/subscriptions/', keys.json(service.endpoint(name)));
    expect(answer.status).toBe(201);
    return { keys, id: answer.body.id as number, path: `/push/${name}` };
  }
  const setInterface = (who: Person, language: string) => server.app.ctx.db.update(users).set({ language }).where(eq(users.id, who.userId));
  const payloadOf = (body: Buffer, keys: ReturnType<typeof browserKeys>) => JSON.parse(decrypt(body, keys)) as Record<string, string>;

  it('tells a member with no tab open of a new message, in their reading language, encrypted for their browser and signed by the server', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    await setInterface(ben, 'es');
    const chat = await createChat(ana, { title: 'Planning', languages: ['en', 'es'] });
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    const device = await subscribed(ben, 'ben-1');
    const settings = await ben.client.get('/api/notifications/');
    expect(settings.body).toMatchObject({ enabled: true, devices: 1 });

    const posted = Date.now();
    const message = await post(ana, chat.id, 'The meeting is at ten.');
    const [request] = await service.waitFor(device.path);
    // Sent when the render saved Ben's Spanish, not when the longest wait for it ends.
    expect(Date.now() - posted).toBeLessThan(RENDER_WAIT_MS);
    expect(request!.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request!.headers.ttl)).toBeGreaterThan(0);
    const { claims, key } = vapidClaims(request!.headers.authorization as string);
    expect(key).toBe(settings.body.publicKey);
    expect(claims.aud).toBe(`https://127.0.0.1:${service.port}`);
    expect(claims.sub).toMatch(/^mailto:/);
    const payload = payloadOf(request!.body, device.keys);
    expect(payload).toMatchObject({ kind: 'message', lang: 'es', url: `/chat/${chat.id}?message=${message.id}`, tag: `chat-${chat.id}` });
    expect(payload.body).toMatch(/reunión/i);
    expect(payload.title).toContain('Ana');
    expect(payload.title).toContain('Planning');
    // Ana's own message notifies none of her devices (she has none here; nothing else arrived).
    expect(service.requests.filter((r) => r.path === device.path)).toHaveLength(1);
    expect(payload.messageId).toBe(message.id);

    // Deleted: Ben's device is told to close the notification showing it, and gets none of its text (issue 34).
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/messages/${message.id}/`)).status).toBe(204);
    const [, retraction] = await service.waitFor(device.path, 2);
    const retracted = payloadOf(retraction!.body, device.keys);
    expect(retracted).toMatchObject({ kind: 'retract', tag: `chat-${chat.id}`, messageId: message.id, title: '', body: '' });
  });

  it('names the original’s language when no rendering can be made, and mentions notify even in a muted chat', async () => {
    const ana = await person(server, 'Ana');
    const kai = await person(server, 'Kai');
    await setInterface(kai, 'en');
    // Apertium has no English → Japanese pair: Kai reads the original.
    const chat = await createChat(ana, { title: 'Design', languages: ['en', 'ja'] });
    const kaiMember = await addMember(ana, chat.id, kai);
    await setReading(kai, chat.id, 'ja');
    const device = await subscribed(kai, 'kai-1');
    await post(ana, chat.id, 'Hello from the design team.');
    const [first] = await service.waitFor(device.path);
    expect(payloadOf(first!.body, device.keys)).toMatchObject({ kind: 'message', lang: 'en', body: 'In English: Hello from the design team.' });

    const muted = await send(kai, 'PATCH', `/api/chat/${chat.id}/member/`, { muted: true });
    expect(muted.status).toBe(200);
    expect(muted.body.muted).toBe(true);
    await post(ana, chat.id, 'Nobody needs to hear about this.');
    await post(ana, chat.id, `${mentionToken(kaiMember)} can you look?`);
    const [, second] = await service.waitFor(device.path, 2);
    const mention = payloadOf(second!.body, device.keys);
    expect(mention.kind).toBe('mention');
    expect(mention.body).toBe('In English: @Kai can you look?');
    expect(mention.title).toContain('mentioned you');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // The muted chat's ordinary message sent nothing.
    expect(service.requests.filter((r) => r.path === device.path)).toHaveLength(2);
  });

  it('sends nothing while the member has a tab open, or has turned notifications off', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben);
    const device = await subscribed(ben, 'ben-2');
    const tab = await connect(server.url, ben);
    await post(ana, chat.id, 'While you look.');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    tab.close();
    // Socket.IO tells the server of the closed tab at once; the next message notifies.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await post(ana, chat.id, 'After you left.');
    const [only] = await service.waitFor(device.path);
    expect(payloadOf(only!.body, device.keys).body).toBe('After you left.');

    const off = await send(ben, 'PATCH', '/api/notifications/', { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, devices: 1 });
    await post(ana, chat.id, 'Switched off.');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(service.requests.filter((r) => r.path === device.path)).toHaveLength(1);
  });

  it('notifies an invitation and a room going live', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const device = await subscribed(ben, 'ben-3');
    const chat = await createChat(ana, { title: 'Launch', languages: ['en'] });
    const invited = await send(ana, 'POST', `/api/chat/${chat.id}/members/`, { user: ben.email, chatRole: 2003 });
    expect(invited.status).toBe(201);
    const [invitation] = await service.waitFor(device.path);
    expect(payloadOf(invitation!.body, device.keys)).toMatchObject({ kind: 'invitation', url: `/chat/${chat.id}`, title: 'Invitation to "Launch"' });

    const room = await createRoom(ana, { title: 'Standup', languages: ['en'] });
    await addParticipant(ana, room.id, ben);
    const [, roomInvitation] = await service.waitFor(device.path, 2);
    await setState(ana, room.id, ROOM_STATE.LIVE);
    const [, , live] = await service.waitFor(device.path, 3);
    expect(payloadOf(roomInvitation!.body, device.keys)).toMatchObject({ kind: 'invitation', url: `/room/${room.id}` });
    expect(payloadOf(live!.body, device.keys)).toMatchObject({ kind: 'live', url: `/room/${room.id}`, title: '"Standup" is live' });
  });

  it('removes subscriptions the push service no longer knows (404, 410)', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben);
    const gone = await subscribed(ben, 'ben-gone');
    const missing = await subscribed(ben, 'ben-missing');
    service.statuses.set(gone.path, 410);
    service.statuses.set(missing.path, 404);
    await post(ana, chat.id, 'Anyone there?');
    await service.waitFor(gone.path);
    await service.waitFor(missing.path);
    const rows = async () => server.app.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, ben.userId));
    for (let tries = 0; (await rows()).length > 0 && tries < 50; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await rows()).toHaveLength(0);
    expect((await ben.client.get('/api/notifications/')).body.devices).toBe(0);
  });

  it('keeps one subscription per browser, moves it to the account signed in, and lets only its owner remove it', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const keys = browserKeys();
    const body = keys.json(service.endpoint('shared-browser'));
    const first = await send(ana, 'POST', '/api/notifications/subscriptions/', body);
    expect(first.status).toBe(201);
    const again = await send(ana, 'POST', '/api/notifications/subscriptions/', body);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    // Ben signs in on the same browser: the subscription is his now.
    const moved = await send(ben, 'POST', '/api/notifications/subscriptions/', body);
    expect(moved.body.id).toBe(first.body.id);
    expect((await ana.client.get('/api/notifications/')).body.devices).toBe(0);
    expect((await send(ana, 'DELETE', `/api/notifications/subscriptions/${first.body.id}/`)).status).toBe(404);
    expect((await send(ben, 'DELETE', `/api/notifications/subscriptions/${first.body.id}/`)).status).toBe(204);
    expect((await send(ben, 'DELETE', `/api/notifications/subscriptions/${first.body.id}/`)).status).toBe(404);
  });
});

describe('push endpoints: no request forgery', () => {
  let server: TestServer;
  let service: Awaited<ReturnType<typeof startPushService>>;
  let ana: Person;
  beforeAll(async () => {
    service = await startPushService(certificate);
    server = await startServer({ TRANSLATION_PROVIDER: 'none' }, { pushCa: certificate.cert });
    ana = await person(server, 'Ana');
  });
  afterAll(async () => {
    await server.close();
    await service.close();
  });

  it.each([
    ['http://push.example.com/x', 'https'],
    ['https://127.0.0.1/push', 'private network'],
    ['https://localhost:8443/push', 'private network'],
    ['https://[::1]/push', 'private network'],
    ['https://10.1.2.3/push', 'private network'],
    ['https://192.168.0.10/push', 'private network'],
    ['https://169.254.169.254/latest/meta-data', 'private network'],
    ['https://[::ffff:127.0.0.1]/push', 'private network'],
    // A name that resolves to this machine (its own name, in /etc/hosts).
    [`https://${os.hostname()}/push`, 'private network'],
    ['https://user:secret@push.example.com/x', 'https'],
  ])('refuses %s', async (endpoint, reason) => {
    const answer = await send(ana, 'POST', '/api/notifications/subscriptions/', browserKeys().json(endpoint));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ attr: 'endpoint', code: 'invalid' });
    expect(answer.body.errors[0].detail).toContain(reason);
  });

  // Issue 31 (5): every public IPv4 address was taken for a private one (the IPv6 rule ::ffff:0:0/96
  // matched IPv4 too). Subscribing makes no connection, so public addresses can be used here.
  it.each(['https://8.8.8.8/push/abc', 'https://142.250.185.78/push', 'https://[2606:4700:4700::1111]/push', 'https://[::ffff:8.8.8.8]/push'])('takes the public address %s', async (endpoint) => {
    const answer = await send(ana, 'POST', '/api/notifications/subscriptions/', browserKeys().json(endpoint));
    expect(answer.status).toBe(201);
    expect((await send(ana, 'DELETE', `/api/notifications/subscriptions/${answer.body.id}/`)).status).toBe(204);
  });

  it('refuses bad keys and unknown hosts with a clear error', async () => {
    const noKeys = await send(ana, 'POST', '/api/notifications/subscriptions/', { endpoint: 'https://push.example.com/x' });
    expect(noKeys.status).toBe(400);
    const unknown = await send(ana, 'POST', '/api/notifications/subscriptions/', browserKeys().json('https://push.invalid/x'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].detail).toMatch(/could not be found/);
  });

  it('does not post to a name that resolves to this machine, even when it got in before', async () => {
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben);
    const keys = browserKeys();
    // As if stored while the operator allowed private hosts: the connection's own lookup still refuses it.
    await server.app.ctx.db.insert(pushSubscriptions).values({ userId: ben.userId, endpoint: service.endpoint('sneaky', os.hostname()), p256dh: keys.json('x').keys.p256dh, auth: keys.json('x').keys.auth });
    await post(ana, chat.id, 'Hello');
    await post(ana, chat.id, 'Hello again');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(service.requests).toHaveLength(0);
  });
});

describe('The push address check (no connection made)', () => {
  it.each(['8.8.8.8', '1.1.1.1', '142.250.185.78', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001:80b::200a', '::ffff:8.8.8.8', '64:ff9b::808:808'])('takes the public address %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
  it.each(['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd12::1', '2001:db8::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:a00:1', '64:ff9b::a00:1', 'ff02::1', 'not an address'])(
    'refuses the private or reserved address %s',
    (address) => {
      expect(isPrivateAddress(address)).toBe(true);
    },
  );
  it('resolves a host with only public IPv4 addresses, and refuses one with only private ones', async () => {
    const records: Record<string, { address: string; family: number }[]> = {
      'push.v4only.example': [{ address: '93.184.215.14', family: 4 }],
      'mixed.example': [{ address: '10.0.0.5', family: 4 }, { address: '2606:4700:4700::1111', family: 6 }],
      'inside.example': [{ address: '192.168.0.3', family: 4 }, { address: '::1', family: 6 }],
    };
    const lookup = publicLookup(false, (host, _options, callback) => callback(null, records[host] ?? []));
    const ask = (host: string) =>
      new Promise<{ error: unknown; address?: unknown }>((resolve) => lookup(host, {}, (error: unknown, address?: unknown) => resolve({ error, address })));
    expect(await ask('push.v4only.example')).toEqual({ error: null, address: '93.184.215.14' });
    expect(await ask('mixed.example')).toEqual({ error: null, address: '2606:4700:4700::1111' });
    expect(((await ask('inside.example')).error as { code: string }).code).toBe('EPRIVATEHOST');
  });
});
