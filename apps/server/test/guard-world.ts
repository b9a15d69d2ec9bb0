// The seeded world of the bad-input guard: each operation's user owns a chat (with a message, a
// member and someone invited) and a Live room (with a participant and an utterance), made through
// the API, so the operation's valid request answers 2xx and its mutations reach the service. Account
// operations get what they need to be valid: the user's own credentials and tokens, a real
// activation key, a real reset link. Operations that use their target up (deletes, leaving, a state
// change, accepting an invitation) get a fresh target for every case.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { browserKeys } from './push-receiver';
import type { Operation } from './fuzz/operations';
import sharp from 'sharp';
import type { Session, WorldRequest } from './fuzz/guard';
import type { WorldFile } from './fuzz/cases';
import { runProcess } from '../src/platform/process';
import { alawWav, chunk, fmtBody, riff, twoFmtWav } from './crafted-audio';
import { GOOD_PASSWORD, activationKeyFrom, signedIn, uniqueEmail, type Client, type TestServer } from './harness';
import { toneWav, uploadForm } from './room-helpers';

const ffmpeg = async (input: Buffer, args: string[]) =>
  (await runProcess('ffmpeg', ['-v', 'error', '-f', 'wav', '-i', 'pipe:0', ...args, 'pipe:1'], { input, timeoutMs: 30_000 })).stdout;

/** A real utterance, and the wrong files a client might send in its place (made with the real encoders). */
export async function utteranceFiles(): Promise<WorldFile> {
  const wav = toneWav(1);
  const ogg = await ffmpeg(wav, ['-c:a', 'libopus', '-f', 'ogg']);
  const webm = await ffmpeg(wav, ['-c:a', 'libopus', '-f', 'webm']);
  const mp4 = await ffmpeg(wav, ['-c:a', 'aac', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4']);
  const half = (data: Buffer) => data.subarray(0, Math.floor(data.length / 2));
  const hugeData = Buffer.from(wav);
  hugeData.writeUInt32LE(0xffffffff, 40);
  const hugeRiff = Buffer.from(wav);
  hugeRiff.writeUInt32LE(0xffffffff, 4);
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  return {
    name: 'audio',
    data: wav,
    filename: 'utterance.wav',
    contentType: 'audio/wav',
    variants: [
      { label: 'WAV cut after 100 bytes', data: wav.subarray(0, 100) },
      { label: 'WAV header only', data: wav.subarray(0, 44) },
      { label: 'WAV declaring 4 GB of samples', data: hugeData },
      { label: 'WAV whose RIFF size says 4 GB', data: hugeRiff },
      { label: 'WAV with two fmt chunks (0.2 s by the last, 524 s decoded)', data: twoFmtWav() },
      { label: 'A-law WAV declaring 64-bit samples (8 s by header, 65 s decoded)', data: alawWav() },
      { label: 'WAV of 31 s (over the limit)', data: toneWav(31) },
      { label: 'WAV with 0 channels', data: riff([chunk('fmt ', fmtBody(1, 0, 16_000, 16)), chunk('data', Buffer.alloc(3200))]) },
      { label: 'WAV with data before fmt', data: riff([chunk('data', Buffer.alloc(3200)), chunk('fmt ', fmtBody(1, 1, 16_000, 16))]) },
      { label: 'RIFF WAVE then random bytes', data: Buffer.concat([Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVE', 'latin1'), Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 73) % 256))]) },
      { label: 'Ogg Opus cut in half', data: half(ogg), filename: 'utterance.ogg', contentType: 'audio/ogg' },
      { label: 'Ogg page header only', data: ogg.subarray(0, 27), filename: 'utterance.ogg', contentType: 'audio/ogg' },
      { label: 'WebM Opus cut in half', data: half(webm), filename: 'utterance.webm', contentType: 'audio/webm' },
      { label: 'WebM holding PCM (a codec not accepted)', data: await ffmpeg(wav, ['-c:a', 'pcm_s16le', '-f', 'matroska']), filename: 'utterance.webm', contentType: 'audio/webm' },
      { label: 'Ogg Vorbis (accepted)', data: await ffmpeg(wav, ['-c:a', 'libvorbis', '-f', 'ogg']), filename: 'utterance.ogg', contentType: 'audio/ogg', essential: false },
      { label: 'MP3', data: await ffmpeg(wav, ['-c:a', 'libmp3lame', '-f', 'mp3']), filename: 'utterance.mp3', contentType: 'audio/mpeg' },
      { label: 'MP4 AAC as Safari records it (accepted)', data: mp4, filename: 'utterance.mp4', contentType: 'audio/mp4', essential: false },
      { label: 'MP4 AAC cut in half', data: half(mp4), filename: 'utterance.mp4', contentType: 'audio/mp4' },
      { label: 'MP4 holding PCM (a codec not accepted)', data: await ffmpeg(wav, ['-c:a', 'pcm_s16le', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mov']), filename: 'utterance.mp4', contentType: 'audio/mp4' },
      { label: 'a PNG named .wav', data: png },
      { label: 'an empty file', data: Buffer.alloc(0) },
      { label: '2 MB + 1 byte', data: Buffer.concat([wav, Buffer.alloc(2 * 1024 * 1024 + 1 - wav.length)]) },
    ],
  };
}

/** A picture to attach, and the wrong files a client might send in its place. */
export async function attachmentFiles(): Promise<WorldFile> {
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg().toBuffer();
  const bomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png({ compressionLevel: 9 }).toBuffer();
  return {
    name: 'file',
    data: jpeg,
    filename: 'photo.jpg',
    contentType: 'image/jpeg',
    variants: [
      { label: 'a Windows program named .jpg', data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 0x90)]) },
      { label: 'an ELF program named .txt', data: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(300)]), filename: 'notes.txt', contentType: 'text/plain' },
      { label: 'a shell script', data: Buffer.from('#!/bin/sh\necho hi\n'), filename: 'run.sh', contentType: 'text/x-sh' },
      { label: 'a JPEG cut after its header', data: jpeg.subarray(0, 200) },
      { label: 'a PNG of 64 megapixels (a decompression bomb)', data: bomb, filename: 'bomb.png', contentType: 'image/png' },
      { label: 'an empty file', data: Buffer.alloc(0) },
      { label: '10 MB + 1 byte', data: Buffer.alloc(10 * 1024 * 1024 + 1, 7), filename: 'big.bin' },
      { label: 'an SVG with a script (kept as a download)', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), filename: 'x.svg', contentType: 'image/svg+xml', essential: false },
    ],
  };
}

interface Base {
  chatId: number;
  messageId: number;
  attachmentId: number;
  memberId: number;
  invitedMemberId: number;
  roomId: number;
  participantId: number;
  invitedParticipantId: number;
  segmentId: number;
  audioName: string;
  /** A message and an utterance of the member's (in Spanish) that the owner reads translated (a rendering to correct). */
  translatedMessageId: number;
  translatedSegmentId: number;
}

/** Sessions the guard asks for, and the worlds of their users. */
export function createGuardWorld(server: TestServer, utterance?: WorldFile, attachment?: WorldFile) {
  const emails = new WeakMap<Session, string>();
  const bases = new WeakMap<Session, Promise<Base>>();
  /** When each session's access token was issued (it lasts five minutes; a guard on PostgreSQL runs longer). */
  const issued = new WeakMap<Session, { at: number; pending?: Promise<void> }>();
  let host: { at: number; signed: Promise<{ client: Client; email: string }> } | undefined;

  async function newSession(): Promise<Session> {
    const { client, email, login } = await signedIn(server);
    const session: Session = { bearer: login.access, cookies: Object.fromEntries(client.jar), xsrf: client.cookie('XSRF-TOKEN') };
    emails.set(session, email);
    issued.set(session, { at: Date.now() });
    return session;
  }

  /**
   * Refreshes a session's tokens in place once its access token is three minutes old, as a browser
   * does before it expires (the seeding of a world and the guard's own cases use it). A session an
   * earlier case ended is left as it is: the guard renews it when a case meets its 401.
   */
  async function freshen(session: Session): Promise<void> {
    const state = issued.get(session);
    if (!state || Date.now() - state.at < 180_000) return;
    state.pending ??= (async () => {
      const client = clientOf(session);
      const answer = await client.request('POST', '/api/accounts/token/refresh/', { json: {}, xsrf: true });
      if (answer.status === 200) {
        session.bearer = answer.body.access;
        session.cookies = Object.fromEntries(client.jar);
        session.xsrf = client.cookie('XSRF-TOKEN');
      }
      state.at = Date.now();
    })().finally(() => {
      state.pending = undefined;
    });
    await state.pending;
  }

  /** A browser-like client of the session's user. */
  function clientOf(session: Session): Client {
    const client = server.client();
    for (const [name, value] of Object.entries(session.cookies)) client.jar.set(name, value);
    return client;
  }

  async function call<T = any>(client: Client, method: string, url: string, json?: unknown, expected = [200, 201, 204]): Promise<T> {
    const answer = await client.request(method, url, { ...(json === undefined ? {} : { json }), xsrf: true });
    expect(expected, `${method} ${url} while seeding: ${answer.status} ${JSON.stringify(answer.body)}`).toContain(answer.status);
    return answer.body as T;
  }

  const createChat = async (client: Client) => (await call<{ id: number }>(client, 'POST', '/api/chat/', { title: 'Guard chat', languages: ['en', 'es'] })).id;
  const createRoom = async (client: Client) => (await call<{ id: number }>(client, 'POST', '/api/rooms/', { title: 'Guard room', languages: ['en', 'es'] })).id;
  const inviteToChat = async (client: Client, chatId: number, email = uniqueEmail('guest')) =>
    (await call<{ id: number }>(client, 'POST', `/api/chat/${chatId}/members/`, { user: email, chatRole: 2003 })).id;
  const inviteToRoom = async (client: Client, roomId: number, email = uniqueEmail('guest')) =>
    (await call<{ id: number }>(client, 'POST', `/api/rooms/${roomId}/participants/`, { user: email, roomRole: 1002 })).id;

  /** Someone else's, who invites the users of accept operations (signed in anew every two minutes, as the member below). */
  function theHost() {
    if (!host || Date.now() - host.at > 120_000) host = { at: Date.now(), signed: signedIn(server, undefined, 'Guard Host').then(({ client, email }) => ({ client, email })) };
    return host.signed;
  }

  /**
   * The member of every world (each world's owner invites them, and they accept): signed in anew
   * every two minutes, as an access token lasts five and a guard on PostgreSQL runs longer.
   */
  let member: { at: number; signed: ReturnType<typeof signedIn> } | undefined;

  async function seed(session: Session): Promise<Base> {
    const owner = clientOf(session);
    if (!member || Date.now() - member.at > 120_000) member = { at: Date.now(), signed: signedIn(server, undefined, 'Guard Member') };
    const other = await member.signed;
    const chatId = await createChat(owner);
    const messageId = (await call<{ id: number }>(owner, 'POST', `/api/chat/${chatId}/messages/`, { content: 'Hello from the guard' })).id;
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from('guard notes'))], { type: 'text/plain' }), 'notes.txt');
    const attached = await owner.request('POST', `/api/chat/${chatId}/attachments/`, { form, xsrf: true });
    expect(attached.status, JSON.stringify(attached.body)).toBe(201);
    await call(owner, 'POST', `/api/chat/${chatId}/messages/`, { content: 'A file', attachments: [attached.body.id] });
    const memberId = await inviteToChat(owner, chatId, other.email);
    await call(other.client, 'POST', `/api/chat/${chatId}/member/accept/`);
    await call(other.client, 'PATCH', `/api/chat/${chatId}/member/`, { language: 'es' });
    const translatedMessageId = (await call<{ id: number }>(other.client, 'POST', `/api/chat/${chatId}/messages/`, { content: 'Hola desde el guardia' })).id;
    const invitedMemberId = await inviteToChat(owner, chatId);
    const roomId = await createRoom(owner);
    const participantId = await inviteToRoom(owner, roomId, other.email);
    await call(other.client, 'POST', `/api/rooms/${roomId}/participant/accept/`);
    await call(other.client, 'PATCH', `/api/rooms/${roomId}/participant/`, { language: 'es' });
    const invitedParticipantId = await inviteToRoom(owner, roomId);
    await call(owner, 'PATCH', `/api/rooms/${roomId}/state/`, { state: 3002 });
    const uploaded = await owner.request('POST', `/api/rooms/${roomId}/segments/`, { form: uploadForm(toneWav(1)), xsrf: true });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const spoken = await other.client.request('POST', `/api/rooms/${roomId}/segments/`, { form: uploadForm(toneWav(1)), xsrf: true });
    expect(spoken.status, JSON.stringify(spoken.body)).toBe(201);
    // The owner's renderings of the member's words, ready to be corrected.
    await translated(owner, `/api/chat/${chatId}/messages/${translatedMessageId}/`);
    await translated(owner, `/api/rooms/${roomId}/segments/${spoken.body.id}/`);
    return {
      chatId,
      messageId,
      attachmentId: attached.body.id as number,
      memberId,
      invitedMemberId,
      roomId,
      participantId,
      invitedParticipantId,
      segmentId: uploaded.body.id,
      audioName: String(uploaded.body.audioFile).split('/').pop()!,
      translatedMessageId,
      translatedSegmentId: spoken.body.id as number,
    };
  }

  /**
   * A glossary entry for `…/glossary/{id}/`: the topic's own one (made once), or for a case that
   * uses it up, one in a topic of its own (a glossary holds at most 200 terms).
   */
  const entries = new Map<string, Promise<number>>();
  async function glossaryEntry(kind: 'chat' | 'rooms', owner: Client, topicId: number, fresh: boolean): Promise<Record<string, string>> {
    const add = (id: number) => call<{ id: number }>(owner, 'POST', `/api/${kind}/${id}/glossary/`, { term: `guard term ${randomUUID()}`, language: 'en', keep: true });
    const scope = kind === 'chat' ? 'groupChatId' : 'roomId';
    if (fresh) {
      const topic = kind === 'chat' ? await createChat(owner) : await createRoom(owner);
      return { [scope]: String(topic), id: String((await add(topic)).id) };
    }
    const key = `${kind}:${topicId}`;
    if (!entries.has(key)) entries.set(key, add(topicId).then((entry) => entry.id));
    return { id: String(await entries.get(key)) };
  }

  /** Waits until the view at `url` is translated for the client's user (a background job). */
  async function translated(client: Client, url: string) {
    for (let attempt = 0; attempt < 300; attempt++) {
      const answer = await client.get(url);
      if (answer.body?.translation === 'done') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${url} was not translated while seeding`);
  }

  function baseOf(session: Session) {
    let base = bases.get(session);
    if (!base) bases.set(session, (base = seed(session)));
    return base;
  }

  /** An account of its own, activated or not, and the e-mailed key of `purpose`. */
  async function mailedKey(purpose: 'activation' | 'reset') {
    const email = uniqueEmail(`guard-${purpose}`);
    const registered = await server.client().post('/api/accounts/registration/', { email, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'Guard Keys' });
    expect(registered.status).toBe(201);
    const activation = activationKeyFrom((await server.smtp.waitFor(email, /activate/i)).text);
    if (purpose === 'activation') return { key: activation };
    await server.client().post('/api/accounts/registration/verify-email/', { key: activation });
    const after = server.smtp.mails.length;
    await server.client().post('/api/accounts/password/reset/', { email });
    const [uid, token] = /\/password\/reset\/([\w-]+)\/([\w-]+)/.exec((await server.smtp.waitFor(email, /reset/i, after)).text)!.slice(1) as [string, string];
    return { uid, token };
  }

  /** Operations whose valid request uses its target up: a fresh one per case. */
  function consumes(op: Operation): boolean {
    if (op.method === 'DELETE') return !op.path.startsWith('/api/accounts/');
    return op.path.endsWith('/state/') || op.path.endsWith('/accept/');
  }

  async function world(op: Operation, session: Session | undefined, fresh: boolean): Promise<WorldRequest> {
    const path = op.path;
    if (session) await freshen(session);
    // ---- accounts ----
    if (path === '/api/accounts/login/') {
      const { email } = await signedIn(server);
      return { body: { email, password: GOOD_PASSWORD } };
    }
    if (path === '/api/accounts/registration/verify-email/') return { body: await mailedKey('activation') };
    if (path === '/api/accounts/password/reset/confirm/') return { body: { ...(await mailedKey('reset')), newPassword1: 'guard-reset-secret-5', newPassword2: 'guard-reset-secret-5' } };
    if (path === '/api/accounts/token/refresh/' || path === '/api/accounts/token/verify/') {
      // Public operations: the tokens of a user of their own.
      const { client, login } = await signedIn(server);
      return { body: path.endsWith('/refresh/') ? { refresh: client.cookie('refresh_token') ?? login.refresh } : { token: login.access } };
    }
    if (!session) return {};
    if (path === '/api/accounts/password/change/') return { body: { newPassword1: 'guard-changed-secret-3', newPassword2: 'guard-changed-secret-3', oldPassword: GOOD_PASSWORD } };
    if (path.startsWith('/api/accounts/')) return path === '/api/accounts/user/' && op.method !== 'GET' ? { body: { fullName: 'Guard Person' } } : {};
    // A search within the user's own chat (the schema's example id names none of theirs).
    if (path === '/api/chat/search/') return { query: [['q', 'reunión'], ['chatId', String((await baseOf(session)).chatId)]] };
    // A device subscription to a push service on this machine (the guard's server allows it), new for each case.
    if (path.startsWith('/api/notifications/subscriptions/')) {
      const body = browserKeys().json(`https://127.0.0.1:9/push/${randomUUID()}`);
      if (op.method === 'POST') return { body };
      return { pathValues: { id: String((await call<{ id: number }>(clientOf(session), 'POST', '/api/notifications/subscriptions/', body)).id) } };
    }
    if (!path.includes('{')) return {};
    const owner = clientOf(session);
    const base = await baseOf(session);
    // ---- chats ----
    if (path.startsWith('/api/chat/')) {
      if (path.endsWith('/member/accept/')) {
        const { client } = await theHost();
        const chatId = await createChat(client);
        await inviteToChat(client, chatId, emails.get(session));
        return { pathValues: { groupChatId: String(chatId) } };
      }
      if (op.method === 'DELETE' && path === '/api/chat/{id}/') return { pathValues: { id: String(await createChat(owner)) } };
      if (op.method === 'DELETE' && path.endsWith('/member/')) return { pathValues: { groupChatId: String(await createChat(owner)) } };
      const values: Record<string, string> = { id: String(base.chatId), groupChatId: String(base.chatId) };
      if (path.includes('/messages/{id}/')) {
        values.id = String(fresh ? (await call<{ id: number }>(owner, 'POST', `/api/chat/${base.chatId}/messages/`, { content: 'To be deleted' })).id : base.messageId);
      }
      if (path.includes('/members/{id}/')) values.id = String(fresh ? await inviteToChat(owner, base.chatId) : base.memberId);
      if (path.includes('/glossary/{id}/')) Object.assign(values, await glossaryEntry('chat', owner, base.chatId, fresh));
      if (path.endsWith('/messages/{id}/rendering/')) values.id = String(base.translatedMessageId);
      if (path.includes('/attachments/{id}/')) {
        values.id = String(base.attachmentId);
        values.variant = 'file';
      }
      const request: WorldRequest = { pathValues: values };
      if (path.endsWith('/members/{id}/') && op.method !== 'DELETE') request.body = { chatRole: 2002 };
      if (path.endsWith('/multi_delete/')) request.body = { ids: [base.invitedMemberId], permanent: false };
      if (path.endsWith('/members/') && op.method === 'POST') request.body = { user: uniqueEmail('guard-invitee'), chatRole: 2003 };
      if (path.endsWith('/member/') && op.method !== 'GET') request.body = { nickName: 'Guard', language: 'es', tone: 'CASUAL' };
      if (path.endsWith('/attachments/') && op.method === 'POST' && attachment) {
        request.body = {};
        request.files = [attachment];
      }
      // A post replies to the chat's own message (the schema's example id names none).
      if (path.endsWith('/messages/') && op.method === 'POST') request.body = { content: 'See you all at ten!', replyTo: base.messageId };
      return request;
    }
    // ---- rooms ----
    if (path.endsWith('/participant/accept/')) {
      const { client } = await theHost();
      const roomId = await createRoom(client);
      await inviteToRoom(client, roomId, emails.get(session));
      return { pathValues: { roomId: String(roomId) } };
    }
    if (path.endsWith('/state/')) return { pathValues: { id: String(fresh ? await createRoom(owner) : base.roomId) }, body: { state: 3002 } };
    if (op.method === 'DELETE' && path === '/api/rooms/{id}/') return { pathValues: { id: String(await createRoom(owner)) } };
    if (op.method === 'DELETE' && path.endsWith('/participant/')) return { pathValues: { roomId: String(await createRoom(owner)) } };
    const values: Record<string, string> = { id: String(base.roomId), roomId: String(base.roomId), name: base.audioName };
    if (path.includes('/segments/{id}/')) values.id = String(base.segmentId);
    if (path.includes('/glossary/{id}/')) Object.assign(values, await glossaryEntry('rooms', owner, base.roomId, fresh));
    if (path.endsWith('/segments/{id}/rendering/')) values.id = String(base.translatedSegmentId);
    if (path.includes('/participants/{id}/')) values.id = String(fresh ? await inviteToRoom(owner, base.roomId) : base.participantId);
    const request: WorldRequest = { pathValues: values };
    if (path.endsWith('/participants/{id}/') && op.method !== 'DELETE') request.body = { roomRole: 1002 };
    if (path.endsWith('/multi_delete/')) request.body = { ids: [base.invitedParticipantId], permanent: false };
    if (path.endsWith('/participants/') && op.method === 'POST') request.body = { user: uniqueEmail('guard-invitee'), roomRole: 1002 };
    if (path.endsWith('/participant/') && op.method !== 'GET') request.body = { alias: 'Guard', language: 'es', maleVoice: true, tone: 'CASUAL' };
    if (path.endsWith('/segments/') && op.method === 'POST' && utterance) {
      request.body = {};
      request.files = [utterance];
    }
    return request;
  }

  return { newSession, world, consumes, freshen };
}
