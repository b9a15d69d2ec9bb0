// /api/rooms/* over real HTTP: detail, edits, the state machine, own participation with its
// LiveKit token, participants, segments' validation, the transcript, and every role's rights.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person, send, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { addParticipant, createRoom, inviteParticipant, setState, toneWav, upload, uploadForm } from './room-helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    TRANSLATION_PROVIDER: 'none',
    STT_PROVIDER: 'none',
    TTS_PROVIDER: 'none',
    RATE_LIMIT_MESSAGES: '0',
    LIVEKIT_URL: 'wss://livekit.example.test',
    LIVEKIT_API_KEY: 'test-key',
    LIVEKIT_API_SECRET: 'test-secret-that-is-long-enough-for-hs256',
  });
});
afterAll(() => server.close());

const OWNER = 1001;
const MEMBER = 1002;
const START = 3001;
const LIVE = 3002;
const END = 3003;

const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, any>;

describe('rooms', () => {
  it('answers 401 signed out on every rooms call', async () => {
    for (const [method, url] of [
      ['GET', '/api/rooms/1/'],
      ['PATCH', '/api/rooms/1/state/'],
      ['GET', '/api/rooms/1/participant/'],
      ['GET', '/api/rooms/1/participants/'],
      ['GET', '/api/rooms/1/segments/'],
      ['POST', '/api/rooms/1/segments/'],
      ['GET', '/api/rooms/1/transcript/'],
    ] as const) {
      const answer = await server.client().request(method, url, method === 'GET' ? {} : { json: {} });
      expect(answer.status, `${method} ${url}`).toBe(401);
    }
  });

  it('reads, edits (PUT defaults the domain, PATCH keeps it) and deletes a room', async () => {
    const ana = await person(server);
    const room = await createRoom(ana, { title: 'Board', languages: ['en'], domain: 'FINANCE' });
    expect((await ana.client.get(`/api/rooms/${room.id}/`)).body).toMatchObject({ title: 'Board', domain: 'FINANCE', state: START, roomRole: OWNER });
    const patched = await send(ana, 'PATCH', `/api/rooms/${room.id}/`, { description: 'Q3' });
    expect(patched.body).toMatchObject({ description: 'Q3', domain: 'FINANCE' });
    const put = await send(ana, 'PUT', `/api/rooms/${room.id}/`, { title: 'Board 2' });
    expect(put.body).toMatchObject({ title: 'Board 2', domain: 'DEFAULT' });
    const bad = await send(ana, 'PATCH', `/api/rooms/${room.id}/`, { domain: 'SPACE', languages: [] });
    expect(bad.body.errors.map((e: { attr: string }) => e.attr).sort()).toEqual(['domain', 'languages']);
    expect((await send(ana, 'DELETE', `/api/rooms/${room.id}/`)).status).toBe(204);
    expect((await ana.client.get(`/api/rooms/${room.id}/`)).status).toBe(404);
  });
});

describe('the state machine', () => {
  const allowed = new Set([`${START}>${LIVE}`, `${START}>${END}`, `${LIVE}>${END}`, `${END}>${LIVE}`]);
  const pairs = [START, LIVE, END].flatMap((from) => [START, LIVE, END].map((to) => [from, to] as const));
  let ana: Person;
  let ben: Person;
  beforeAll(async () => {
    [ana, ben] = await Promise.all([person(server), person(server)]);
  });

  async function roomIn(state: number) {
    const room = await createRoom(ana);
    await addParticipant(ana, room.id, ben);
    if (state === LIVE) await setState(ana, room.id, LIVE);
    if (state === END) await setState(ana, room.id, END);
    return room.id;
  }

  it.each(pairs)('from %i to %i: the owner only where allowed, a member never', async (from, to) => {
    const asMember = await send(ben, 'PUT', `/api/rooms/${await roomIn(from)}/state/`, { state: to });
    expect(asMember.status).toBe(403);
    const roomId = await roomIn(from);
    const asOwner = await send(ana, 'PUT', `/api/rooms/${roomId}/state/`, { state: to });
    if (allowed.has(`${from}>${to}`)) {
      expect(asOwner.status).toBe(200);
      expect(asOwner.body.state).toBe(to);
    } else {
      expect(asOwner.status).toBe(400);
      expect(asOwner.body.errors[0]).toMatchObject({ attr: 'state', code: 'invalid_transition' });
      expect((await ana.client.get(`/api/rooms/${roomId}/`)).body.state).toBe(from);
    }
  });

  it('refuses an unknown state with 400 on state', async () => {
    const roomId = await roomIn(START);
    const answer = await send(ana, 'PATCH', `/api/rooms/${roomId}/state/`, { state: 3004 });
    expect(answer.body.errors[0]).toMatchObject({ attr: 'state', code: 'invalid_choice' });
  });
});

describe('own participation and the LiveKit token', () => {
  it('issues a token only while Live: room, identity, name, grants and a lifetime of ten minutes', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const room = await createRoom(ana);
    const benId = await addParticipant(ana, room.id, ben);
    const before = await ben.client.get(`/api/rooms/${room.id}/participant/`);
    expect(before.body).toEqual({ id: benId, alias: 'Ben', roomRole: MEMBER, language: 'en', lkToken: null, lkUrl: 'wss://livekit.example.test', maleVoice: false, tone: 'DEFAULT', memberState: 'joined' });
    await setState(ana, room.id, LIVE);
    const live = await ben.client.get(`/api/rooms/${room.id}/participant/`);
    const claims = decode(live.body.lkToken);
    expect(claims).toMatchObject({
      iss: 'test-key',
      sub: `participant-${benId}`,
      name: 'Ben',
      video: { room: `room-${room.id}`, roomJoin: true, canPublish: true, canSubscribe: true },
    });
    // Short-lived: LiveKit checks it when joining only (a connected client gets fresh ones from LiveKit).
    expect(claims.exp - claims.nbf).toBe(10 * 60);
    await setState(ana, room.id, END);
    expect((await ben.client.get(`/api/rooms/${room.id}/participant/`)).body.lkToken).toBeNull();
    await setState(ana, room.id, LIVE);
    await send(ana, 'DELETE', `/api/rooms/${room.id}/participants/${benId}/`);
    expect((await ben.client.get(`/api/rooms/${room.id}/participant/`)).status).toBe(404);
  });

  it('edits alias, language (one of the room’s), voice and tone; the own role is not editable', async () => {
    const ana = await person(server);
    const room = await createRoom(ana, { title: 'R', languages: ['en', 'de'] });
    const updated = await send(ana, 'PUT', `/api/rooms/${room.id}/participant/`, { alias: ' Annie ', language: 'de', maleVoice: true, tone: 'FORMAL', roomRole: MEMBER });
    expect(updated.body).toMatchObject({ alias: 'Annie', language: 'de', maleVoice: true, tone: 'FORMAL', roomRole: OWNER });
    const wrong = await send(ana, 'PATCH', `/api/rooms/${room.id}/participant/`, { language: 'fr' });
    expect(wrong.body.errors[0]).toMatchObject({ attr: 'language', code: 'invalid_choice' });
    const missing = await send(ana, 'PUT', `/api/rooms/${room.id}/participant/`, { alias: 'x' });
    expect(missing.body.errors.map((e: { attr: string }) => e.attr).sort()).toEqual(['language', 'maleVoice', 'tone']);
  });
});

describe('participants', () => {
  it('lists with search and pages, adds by e-mail, hands over ownership, removes all or none', async () => {
    const ana = await person(server, 'Ana');
    const [ben, cy] = await Promise.all([person(server, 'Ben'), person(server, 'Zoë')]);
    const room = await createRoom(ana);
    const benId = await addParticipant(ana, room.id, ben);
    const cyId = await addParticipant(ana, room.id, cy);
    const page = await ana.client.get(`/api/rooms/${room.id}/participants/?pageSize=2&q=`);
    expect(page.body).toMatchObject({ count: 3, previous: null });
    expect(page.body.next).toBe(`${server.url}/api/rooms/${room.id}/participants/?pageIndex=1&pageSize=2`);
    // A search term no generated e-mail can hold (they are base-36 letters and digits).
    expect((await ana.client.get(`/api/rooms/${room.id}/participants/?q=${encodeURIComponent('zoë')}`)).body.results).toEqual([
      { id: cyId, user: cy.email, roomRole: MEMBER, alias: 'Zoë', avatarImage: null, memberState: 'joined' },
    ]);
    const wrong = await send(ana, 'POST', `/api/rooms/${room.id}/participants/multi_delete/`, { ids: [benId, 2147483647] });
    expect(wrong.body.errors[0]).toMatchObject({ attr: 'ids' });
    const handed = await send(ana, 'PATCH', `/api/rooms/${room.id}/participants/${benId}/`, { roomRole: OWNER });
    expect(handed.body.roomRole).toBe(OWNER);
    expect((await ana.client.get(`/api/rooms/${room.id}/`)).body.roomRole).toBe(MEMBER);
    expect((await send(ben, 'POST', `/api/rooms/${room.id}/participants/multi_delete/`, { ids: [cyId] })).status).toBe(204);
    expect((await cy.client.get(`/api/rooms/${room.id}/`)).status).toBe(404);
  });
});

describe('segments: what is refused', () => {
  it('takes an utterance only while Live, only audio by content, at most 30 s, and stores nothing otherwise', async () => {
    const ana = await person(server);
    const room = await createRoom(ana);
    const notLive = await upload(ana, room.id, uploadForm(toneWav(1)));
    expect(notLive.status).toBe(400);
    expect(notLive.body.errors[0]).toMatchObject({ attr: 'audio', code: 'room_not_live' });
    await setState(ana, room.id, LIVE);
    const text = await upload(ana, room.id, uploadForm(Buffer.from('this is not audio at all'), 'speech.wav'));
    expect(text.body.errors[0]).toMatchObject({ attr: 'audio', code: 'invalid_audio' });
    const long = await upload(ana, room.id, uploadForm(toneWav(31)));
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toMatchObject({ attr: 'audio' });
    const big = await upload(ana, room.id, uploadForm(Buffer.alloc(2 * 1024 * 1024 + 1)));
    expect(big.body.errors[0]).toMatchObject({ attr: 'audio', code: 'file_too_large' });
    const none = await send(ana, 'POST', `/api/rooms/${room.id}/segments/`, {});
    expect(none.body.errors[0]).toMatchObject({ attr: 'audio', code: 'required' });
    expect((await ana.client.get(`/api/rooms/${room.id}/segments/`)).body.count).toBe(0);

    const ok = await upload(ana, room.id, uploadForm(toneWav(1.5)));
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ isMe: true, transcription: 'none', transcript: '', duration: 1.5, transcriptDiff: [] });
    // The speaker hears their own recording back, through a route that checks participation.
    const audio = await ana.client.get(new URL(ok.body.audioFile).pathname);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toMatch(/audio\/(wav|x-wav|wave)/);
    const stranger = await person(server);
    expect((await stranger.client.get(new URL(ok.body.audioFile).pathname)).status).toBe(404);
    expect((await stranger.client.get(`/media/${new URL(ok.body.audioFile).pathname.split('/').pop()}`)).status).toBe(404);
  });

  it('lists oldest first with offsets and full links; only the speaker corrects a transcript', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const room = await createRoom(ana);
    await addParticipant(ana, room.id, ben);
    await setState(ana, room.id, LIVE);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await upload(ana, room.id, uploadForm(toneWav(1)))).body.id);
    const page = await ben.client.get(`/api/rooms/${room.id}/segments/?limit=2`);
    expect(page.body.count).toBe(3);
    expect(page.body.results.map((s: { id: number }) => s.id)).toEqual(ids.slice(0, 2));
    expect(page.body.next).toBe(`${server.url}/api/rooms/${room.id}/segments/?limit=2&offset=2`);
    const byBen = await send(ben, 'PATCH', `/api/rooms/${room.id}/segments/${ids[0]}/`, { transcript: 'not mine' });
    expect(byBen.status).toBe(403);
    const fixed = await send(ana, 'PATCH', `/api/rooms/${room.id}/segments/${ids[0]}/`, { transcript: 'hello there everyone' });
    expect(fixed.body).toMatchObject({ transcript: 'hello there everyone', edited: true, transcription: 'done' });
    const again = await send(ana, 'PUT', `/api/rooms/${room.id}/segments/${ids[0]}/`, { transcript: 'hello everyone again' });
    expect(again.body.transcriptDiff).toEqual(['hello', '-there', 'everyone', '+again']);
    const empty = await send(ana, 'PATCH', `/api/rooms/${room.id}/segments/${ids[0]}/`, {});
    expect(empty.status).toBe(400);
    const tone = await send(ben, 'PATCH', `/api/rooms/${room.id}/segments/${ids[0]}/`, { tone: 'FORMAL' });
    expect(tone.status).toBe(200);
  });

  it('exports the transcript as text and as SubRip', async () => {
    const ana = await person(server, 'Ana');
    const room = await createRoom(ana, { title: 'Weekly Sync', languages: ['en'] });
    await setState(ana, room.id, LIVE);
    const first = (await upload(ana, room.id, uploadForm(toneWav(2)))).body.id;
    await send(ana, 'PATCH', `/api/rooms/${room.id}/segments/${first}/`, { transcript: 'Good morning' });
    const text = await ana.client.get(`/api/rooms/${room.id}/transcript/`);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text.headers.get('content-disposition')).toBe(`attachment; filename="weekly-sync-${room.id}-en.txt"`);
    expect(text.body).toMatch(/^Weekly Sync\n\n\[00:00:00\] Ana: Good morning\n$/);
    const srt = await ana.client.get(`/api/rooms/${room.id}/transcript/?format=srt`);
    expect(srt.body).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\nAna: Good morning\n$/);
    expect((await ana.client.get(`/api/rooms/${room.id}/transcript/?format=pdf`)).status).toBe(400);
  });

  // Issue 37 (5): times were upload times, so utterances uploaded late bunched up in the transcript.
  it('times each utterance when it was said (spokenAgoMs), not when its upload arrived, in the order said', async () => {
    const ana = await person(server, 'Ana');
    const room = await createRoom(ana, { title: 'Slow network', languages: ['en'] });
    await setState(ana, room.id, LIVE);
    const said = async (seconds: number, agoMs: number, transcript: string) => {
      const form = uploadForm(toneWav(seconds));
      form.append('spokenAgoMs', String(agoMs));
      const answer = await upload(ana, room.id, form);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      await send(ana, 'PATCH', `/api/rooms/${room.id}/segments/${answer.body.id}/`, { transcript });
      return answer.body as { created: string };
    };
    // Said 30 s and 20 s ago, both uploaded now (the first one arriving second).
    const second = await said(2, 20_000, 'Second thing');
    const first = await said(2, 30_000, 'First thing');
    expect(Date.now() - Date.parse(first.created)).toBeGreaterThanOrEqual(30_000);
    expect(Date.now() - Date.parse(first.created)).toBeLessThan(32_000);
    expect(Date.parse(second.created) - Date.parse(first.created)).toBeGreaterThanOrEqual(9_000);
    const srt = (await ana.client.get(`/api/rooms/${room.id}/transcript/?format=srt`)).body as string;
    expect(srt).toMatch(/^1\n00:00:00,000 --> 00:00:02,000\nAna: First thing\n\n2\n00:00:(09|10),\d{3} --> 00:00:1[12],\d{3}\nAna: Second thing\n$/);
    const txt = (await ana.client.get(`/api/rooms/${room.id}/transcript/`)).body as string;
    expect(txt).toMatch(/\[00:00:00\] Ana: First thing\n\[00:00:(09|10)\] Ana: Second thing\n$/);
    // Out of range: a clear error on the field.
    const form = uploadForm(toneWav(1));
    form.append('spokenAgoMs', '-5');
    const refused = await upload(ana, room.id, form);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].attr).toBe('spokenAgoMs');
  });

  it('keeps what participants wrote on its own line: no forged cue, timing, speaker line or styling', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const room = await createRoom(ana, { title: 'Weekly Sync', languages: ['en'] });
    await addParticipant(ana, room.id, ben);
    await setState(ana, room.id, LIVE);
    // Names are single-line fields: a line break is refused, not stored.
    const alias = await send(ben, 'PATCH', `/api/rooms/${room.id}/participant/`, { alias: 'Ben\n[00:00:09] Ana: I resign' });
    expect(alias.status).toBe(400);
    expect(alias.body.errors).toEqual([{ code: 'single_line', attr: 'alias', detail: 'This field must be a single line.' }]);
    expect((await send(ana, 'PATCH', `/api/rooms/${room.id}/`, { title: 'Weekly\nSync' })).body.errors[0]).toMatchObject({ attr: 'title', code: 'single_line' });
    // A transcript may hold line breaks; in the files it stays one line of its speaker.
    const id = (await upload(ben, room.id, uploadForm(toneWav(2)))).body.id;
    const forged = 'fine\n\n2\n00:00:05,000 --> 00:00:09,000\n<b>Ana</b>: {\\an8}I resign\n[00:00:09] Ana: I resign';
    expect((await send(ben, 'PATCH', `/api/rooms/${room.id}/segments/${id}/`, { transcript: forged })).status).toBe(200);
    const srt = (await ana.client.get(`/api/rooms/${room.id}/transcript/?format=srt`)).body as string;
    const cues = srt.trimEnd().split('\n\n');
    expect(cues).toHaveLength(1);
    const [number, timing, ...text] = cues[0]!.split('\n');
    expect(number).toBe('1');
    expect(timing).toMatch(/^\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}$/);
    expect(text).toHaveLength(1);
    expect(text[0]!.startsWith('Ben: fine 2 00:00:05,000 --> 00:00:09,000 ')).toBe(true);
    expect(text[0]).not.toMatch(/<[a-z/]|\{\\/i);
    const txt = (await ana.client.get(`/api/rooms/${room.id}/transcript/`)).body as string;
    const lines = txt.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^\[00:00:00\] Ben: fine 2 00:00:05,000 --> 00:00:09,000 <b>Ana<\/b>: \{\\an8\}I resign \[00:00:09\] Ana: I resign$/);
  });
});

describe('permissions by role', () => {
  let people: Record<'owner' | 'member' | 'removed' | 'stranger' | 'invited' | 'extra', Person>;
  beforeAll(async () => {
    const names = ['owner', 'member', 'removed', 'stranger', 'invited', 'extra'] as const;
    const made = await Promise.all(names.map((name) => person(server, name)));
    people = Object.fromEntries(names.map((name, index) => [name, made[index]!])) as typeof people;
  });

  async function scene() {
    const { owner, member, removed, invited } = people;
    const room = await createRoom(owner);
    const ids = {
      member: await addParticipant(owner, room.id, member),
      removed: await addParticipant(owner, room.id, removed),
      // Invited and not accepted yet: nothing of the room but its name and the invitation.
      invited: await inviteParticipant(owner, room.id, invited.email),
    };
    await send(owner, 'DELETE', `/api/rooms/${room.id}/participants/${ids.removed}/`);
    await setState(owner, room.id, LIVE);
    const membersSegment = (await upload(member, room.id, uploadForm(toneWav(1)))).body.id as number;
    return { roomId: room.id, ids, membersSegment };
  }
  type Scene = Awaited<ReturnType<typeof scene>>;
  const who = ['owner', 'member', 'stranger', 'removed', 'invited'] as const;
  const matrix: [string, (s: Scene) => [string, string, unknown?], number[]][] = [
    ['read the room', (s) => ['GET', `/api/rooms/${s.roomId}/`], [200, 200, 404, 404, 200]],
    ['edit the room', (s) => ['PATCH', `/api/rooms/${s.roomId}/`, { title: 'x' }], [200, 403, 404, 404, 404]],
    ['delete the room', (s) => ['DELETE', `/api/rooms/${s.roomId}/`], [204, 403, 404, 404, 404]],
    ['change the state', (s) => ['PATCH', `/api/rooms/${s.roomId}/state/`, { state: END }], [200, 403, 404, 404, 404]],
    ['read own participation', (s) => ['GET', `/api/rooms/${s.roomId}/participant/`], [200, 200, 404, 404, 200]],
    ['edit own participation', (s) => ['PATCH', `/api/rooms/${s.roomId}/participant/`, { alias: 'Me' }], [200, 200, 404, 404, 404]],
    ['leave', (s) => ['DELETE', `/api/rooms/${s.roomId}/participant/`], [204, 204, 404, 404, 204]],
    ['list participants', (s) => ['GET', `/api/rooms/${s.roomId}/participants/`], [200, 200, 404, 404, 404]],
    ['add a participant', (s) => ['POST', `/api/rooms/${s.roomId}/participants/`, { user: people.extra.email, roomRole: MEMBER }], [201, 403, 404, 404, 404]],
    ['change a role', (s) => ['PATCH', `/api/rooms/${s.roomId}/participants/${s.ids.member}/`, { roomRole: OWNER }], [200, 403, 404, 404, 404]],
    ['remove a participant', (s) => ['DELETE', `/api/rooms/${s.roomId}/participants/${s.ids.member}/`], [204, 403, 404, 404, 404]],
    ['remove many', (s) => ['POST', `/api/rooms/${s.roomId}/participants/multi_delete/`, { ids: [s.ids.member] }], [204, 403, 404, 404, 404]],
    ['list segments', (s) => ['GET', `/api/rooms/${s.roomId}/segments/`], [200, 200, 404, 404, 404]],
    ['read a segment', (s) => ['GET', `/api/rooms/${s.roomId}/segments/${s.membersSegment}/`], [200, 200, 404, 404, 404]],
    ['correct the member’s transcript', (s) => ['PATCH', `/api/rooms/${s.roomId}/segments/${s.membersSegment}/`, { transcript: 'fixed' }], [403, 200, 404, 404, 404]],
    ['change one’s tone of a segment', (s) => ['PATCH', `/api/rooms/${s.roomId}/segments/${s.membersSegment}/`, { tone: 'CASUAL' }], [200, 200, 404, 404, 404]],
    ['export the transcript', (s) => ['GET', `/api/rooms/${s.roomId}/transcript/`], [200, 200, 404, 404, 404]],
  ];

  /** Everything of the room as its owner sees it. */
  const snapshot = async (s: Scene) => {
    const read = async (url: string) => (await people.owner.client.get(url)).body;
    return JSON.stringify([
      await read(`/api/rooms/${s.roomId}/`),
      await read(`/api/rooms/${s.roomId}/participants/?pageSize=100`),
      await read(`/api/rooms/${s.roomId}/segments/?limit=100`),
    ]);
  };

  it.each(matrix)('%s: OWNER, MEMBER, stranger, removed participant, invited', async (_name, call, expected) => {
    const got: number[] = [];
    for (const role of who) {
      const s = await scene();
      const [method, url, body] = call(s);
      const before = method === 'GET' ? undefined : await snapshot(s);
      const answer = await send(people[role], method, url, body);
      got.push(answer.status);
      // A refused write leaves the room as it was.
      if (before !== undefined && (answer.status === 403 || answer.status === 404)) expect(await snapshot(s), `${role}: ${method} ${url}`).toBe(before);
    }
    expect(got).toEqual(expected);
  });

  it('upload an utterance: OWNER, MEMBER, stranger, removed participant, invited', async () => {
    const got: number[] = [];
    for (const role of who) {
      const s = await scene();
      got.push((await upload(people[role], s.roomId, uploadForm(toneWav(1)))).status);
    }
    expect(got).toEqual([201, 201, 404, 404, 404]);
  });
});

describe('room events', () => {
  it('tells participants the room went Live (with their role), and cuts off a removed participant at once', async () => {
    const { connect, marker } = await import('./live-helpers');
    const ana = await person(server);
    const ben = await person(server);
    const room = await createRoom(ana);
    const benId = await addParticipant(ana, room.id, ben);
    const socket = await connect(server.url, ben);
    try {
      expect(await socket.socket.timeout(5000).emitWithAck('room:subscribe', { roomId: room.id })).toEqual({ ok: true });
      const stranger = await connect(server.url, await person(server));
      expect(await stranger.socket.timeout(5000).emitWithAck('room:subscribe', { roomId: room.id })).toEqual({ ok: false, error: 'not_found' });
      stranger.close();
      await setState(ana, room.id, LIVE);
      expect((await socket.next('room:updated')).room).toMatchObject({ id: room.id, state: LIVE, roomRole: MEMBER });
      await send(ana, 'DELETE', `/api/rooms/${room.id}/participants/${benId}/`);
      expect(await socket.next('room:removed')).toEqual({ roomId: room.id });
      const mark = socket.received.length;
      await upload(ana, room.id, uploadForm(toneWav(1)));
      const until = await marker(server, ana, ben, socket);
      expect(socket.received.slice(mark, until).filter((r) => r.event.startsWith('segment:'))).toEqual([]);
    } finally {
      socket.close();
    }
  });
});
