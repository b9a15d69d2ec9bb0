// /api/chat/* over real HTTP: every call, its validation, strangers and removed members, and the
// permissions of each role (product.md "Roles and permissions").
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, invite, person, post, send, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TRANSLATION_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0' });
});
afterAll(() => server.close());

const OWNER = 2001;
const ADMIN = 2002;
const MEMBER = 2003;

describe('signed out', () => {
  it('answers 401 to every chat call', async () => {
    const calls: [string, string][] = [
      ['GET', '/api/chat/'],
      ['POST', '/api/chat/'],
      ['GET', '/api/chat/1/'],
      ['PATCH', '/api/chat/1/'],
      ['DELETE', '/api/chat/1/'],
      ['GET', '/api/chat/1/member/'],
      ['DELETE', '/api/chat/1/member/'],
      ['GET', '/api/chat/1/members/'],
      ['POST', '/api/chat/1/members/multi_delete/'],
      ['DELETE', '/api/chat/1/members/2/'],
      ['GET', '/api/chat/1/messages/'],
      ['POST', '/api/chat/1/messages/'],
      ['PUT', '/api/chat/1/messages/2/'],
    ];
    for (const [method, url] of calls) {
      const answer = await server.client().request(method, url, method === 'GET' ? {} : { json: {} });
      expect(answer.status, `${method} ${url}`).toBe(401);
      expect(answer.body.errors[0].code).toBe('not_authenticated');
    }
  });
});

describe('chats', () => {
  it('creates a chat whose creator is its OWNER, reading in their language', async () => {
    const ana = await person(server, 'Ana');
    const created = await send(ana, 'POST', '/api/chat/', { title: '  Family  ', description: 'Us', languages: ['es', 'en'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Family', description: 'Us', languages: ['es', 'en'], chatRole: OWNER });
    const membership = await ana.client.get(`/api/chat/${created.body.id}/member/`);
    expect(membership.body).toEqual({ id: expect.any(Number), lastReadMessage: null, nickName: 'Ana', language: 'en', chatRole: OWNER, tone: 'DEFAULT', memberState: 'joined', muted: false });
    // Without languages: the creator's own.
    const plain = await send(ana, 'POST', '/api/chat/', { title: 'Solo' });
    expect(plain.body.languages).toEqual(['en']);
  });

  it('answers 400 naming each bad field', async () => {
    const ana = await person(server);
    const answer = await send(ana, 'POST', '/api/chat/', { title: ' ', languages: ['en', 'xx'], description: 'a\u0000b' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { attr: string }) => e.attr).sort()).toEqual(['description', 'languages.1', 'title']);
    const repeated = await send(ana, 'POST', '/api/chat/', { title: 'x', languages: ['en', 'en'] });
    expect(repeated.body.errors[0].attr).toBe('languages');
  });

  it('lists the caller’s chats by last activity, with a full next link, last message and unread count', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const first = await createChat(ana, { title: 'First', languages: ['en'] });
    const second = await createChat(ana, { title: 'Second', languages: ['en'] });
    const third = await createChat(ana, { title: 'Third', languages: ['en'] });
    await addMember(ana, first.id, ben);
    await post(ana, first.id, 'hello Ben');
    await post(ana, first.id, 'are you there?');

    const page = await ana.client.get('/api/chat/?limit=2');
    expect(page.status).toBe(200);
    expect(page.body.results.map((c: { id: number }) => c.id)).toEqual([first.id, third.id]);
    expect(page.body.next).toMatch(new RegExp(`^${server.url}/api/chat/\\?lastModified=.+&lastId=${third.id}&limit=2$`));
    const rest = await ana.client.get(page.body.next.slice(server.url.length));
    expect(rest.body.results.map((c: { id: number }) => c.id)).toEqual([second.id]);
    expect(rest.body.next).toBeNull();

    const bens = await ben.client.get('/api/chat/');
    expect(bens.body.results).toHaveLength(1);
    expect(bens.body.results[0]).toMatchObject({ id: first.id, chatRole: MEMBER, unreadCount: 2, lastMessage: { content: 'are you there?', isMe: false } });
    expect(page.body.results[0]).toMatchObject({ unreadCount: 0, lastMessage: { isMe: true } });
    expect(page.body.results[1].lastMessage).toBeNull();

    const bad = await ana.client.get('/api/chat/?lastModified=yesterday&limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { attr: string }) => e.attr).sort()).toEqual(['lastModified', 'limit']);
  });

  it('never skips a chat at a page boundary, even among chats modified at the same moment', async () => {
    const ana = await person(server);
    const ids = [];
    for (const title of ['a', 'b', 'c', 'd']) ids.push((await createChat(ana, { title, languages: ['en'] })).id);
    const { chats } = await import('../src/platform/db/schema');
    const { inArray } = await import('drizzle-orm');
    await server.app.ctx.db.update(chats).set({ modifiedAt: new Date('2026-01-01T00:00:00.000Z') }).where(inArray(chats.id, ids));
    const seen: number[] = [];
    let url: string | null = '/api/chat/?limit=1';
    while (url) {
      const page: { body: { results: { id: number }[]; next: string | null } } = await ana.client.get(url);
      seen.push(...page.body.results.map((c) => c.id));
      url = page.body.next ? page.body.next.slice(server.url.length) : null;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('reads, edits (PUT needs a title, PATCH takes any part) and deletes a chat', async () => {
    const ana = await person(server);
    const chat = await createChat(ana);
    expect((await ana.client.get(`/api/chat/${chat.id}/`)).body).toMatchObject({ id: chat.id, title: 'Team', chatRole: OWNER });
    const put = await send(ana, 'PUT', `/api/chat/${chat.id}/`, { description: 'no title' });
    expect(put.status).toBe(400);
    expect(put.body.errors[0]).toMatchObject({ attr: 'title', code: 'required' });
    const patched = await send(ana, 'PATCH', `/api/chat/${chat.id}/`, { description: 'About us' });
    expect(patched.body).toMatchObject({ title: 'Team', description: 'About us' });
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/`)).status).toBe(204);
    expect((await ana.client.get(`/api/chat/${chat.id}/`)).status).toBe(404);
  });

  it('answers 404 for a malformed or out-of-range chat id', async () => {
    const ana = await person(server);
    for (const id of ['abc', '0', '2147483648']) expect((await ana.client.get(`/api/chat/${id}/`)).status).toBe(404);
  });
});

describe('own membership', () => {
  it('edits nickname, reading language (one of the chat’s) and tone, and the read position', async () => {
    const ana = await person(server);
    const chat = await createChat(ana, { title: 'Lang', languages: ['en', 'de'] });
    const message = await post(ana, chat.id, 'hi');
    const answer = await send(ana, 'PUT', `/api/chat/${chat.id}/member/`, { nickName: ' Annie ', language: 'de', tone: 'FORMAL', lastReadMessage: message.id });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ nickName: 'Annie', language: 'de', tone: 'FORMAL', lastReadMessage: message.id });
    const wrongLanguage = await send(ana, 'PATCH', `/api/chat/${chat.id}/member/`, { language: 'fr' });
    expect(wrongLanguage.status).toBe(400);
    expect(wrongLanguage.body.errors[0]).toMatchObject({ attr: 'language', code: 'invalid_choice' });
    const wrongMessage = await send(ana, 'PATCH', `/api/chat/${chat.id}/member/`, { lastReadMessage: 2147483647 });
    expect(wrongMessage.body.errors[0]).toMatchObject({ attr: 'lastReadMessage' });
    const wrongTone = await send(ana, 'PATCH', `/api/chat/${chat.id}/member/`, { tone: 'ANGRY' });
    expect(wrongTone.body.errors[0]).toMatchObject({ attr: 'tone', code: 'invalid_choice' });
  });

  it('leaving keeps the row (re-added later, history kept); leaving permanently deletes it', async () => {
    const ana = await person(server);
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben);
    await post(ben, chat.id, 'bye');
    expect((await send(ben, 'DELETE', `/api/chat/${chat.id}/member/`)).status).toBe(204);
    expect((await ben.client.get(`/api/chat/${chat.id}/messages/`)).status).toBe(404);
    // History kept: Ana still sees Ben's message; Ben comes back to it.
    expect((await ana.client.get(`/api/chat/${chat.id}/messages/`)).body.results[0].content).toBe('bye');
    await addMember(ana, chat.id, ben);
    expect((await ben.client.get(`/api/chat/${chat.id}/messages/`)).body.results[0]).toMatchObject({ content: 'bye', isMe: true });
    expect((await send(ben, 'DELETE', `/api/chat/${chat.id}/member/?permanent=true`)).status).toBe(204);
    expect((await ana.client.get(`/api/chat/${chat.id}/messages/`)).body.results).toEqual([]);
  });

  it('an owner who leaves hands the chat to the longest-standing admin; the last one out deletes it', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const cy = await person(server);
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben, MEMBER);
    await addMember(ana, chat.id, cy, ADMIN);
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/member/`)).status).toBe(204);
    expect((await cy.client.get(`/api/chat/${chat.id}/`)).body.chatRole).toBe(OWNER);
    expect((await send(cy, 'DELETE', `/api/chat/${chat.id}/member/`)).status).toBe(204);
    expect((await ben.client.get(`/api/chat/${chat.id}/`)).body.chatRole).toBe(OWNER);
    expect((await send(ben, 'DELETE', `/api/chat/${chat.id}/member/`)).status).toBe(204);
    expect((await ana.client.get(`/api/chat/${chat.id}/`)).status).toBe(404);
  });
});

describe('members', () => {
  it('lists with pageIndex, pageSize, q and count, with full links', async () => {
    const ana = await person(server, 'Ana Owner');
    const chat = await createChat(ana);
    const others = await Promise.all([person(server, 'Zoe'), person(server, 'Yaël'), person(server, 'Xavi')]);
    for (const other of others) await addMember(ana, chat.id, other);
    const page = await ana.client.get(`/api/chat/${chat.id}/members/?pageIndex=0&pageSize=2`);
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(4);
    expect(page.body.results).toHaveLength(2);
    expect(page.body.results[0]).toMatchObject({ user: ana.email, chatRole: OWNER, nickName: 'Ana Owner', avatarImage: null });
    expect(page.body.next).toBe(`${server.url}/api/chat/${chat.id}/members/?pageIndex=1&pageSize=2`);
    const second = await ana.client.get(page.body.next.slice(server.url.length));
    expect(second.body.results).toHaveLength(2);
    expect(second.body.previous).toBe(`${server.url}/api/chat/${chat.id}/members/?pageIndex=0&pageSize=2`);
    // A search term no generated e-mail can hold (they are base-36 letters and digits).
    const found = await ana.client.get(`/api/chat/${chat.id}/members/?q=${encodeURIComponent('yaë')}`);
    expect(found.body.results.map((m: { nickName: string }) => m.nickName)).toEqual(['Yaël']);
    const byEmail = await ana.client.get(`/api/chat/${chat.id}/members/?q=${encodeURIComponent(others[2]!.email.toUpperCase())}`);
    expect(byEmail.body.count).toBe(1);
    const wild = await ana.client.get(`/api/chat/${chat.id}/members/?q=%25`);
    expect(wild.body.count).toBe(0);
    const bad = await ana.client.get(`/api/chat/${chat.id}/members/?pageSize=101&pageIndex=-1`);
    expect(bad.body.errors.map((e: { attr: string }) => e.attr).sort()).toEqual(['pageIndex', 'pageSize']);
  });

  it('adds by e-mail: a member already and OWNER are 400 on the field', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben);
    const again = await send(ana, 'POST', `/api/chat/${chat.id}/members/`, { user: ben.email.toUpperCase(), chatRole: MEMBER });
    expect(again.body.errors[0]).toMatchObject({ attr: 'user', code: 'unique' });
    const owner = await send(ana, 'POST', `/api/chat/${chat.id}/members/`, { user: (await person(server)).email, chatRole: OWNER });
    expect(owner.body.errors[0]).toMatchObject({ attr: 'chatRole' });
    const badRole = await send(ana, 'POST', `/api/chat/${chat.id}/members/`, { user: 'x@example.com', chatRole: 2004 });
    expect(badRole.body.errors[0]).toMatchObject({ attr: 'chatRole', code: 'invalid_choice' });
  });

  it('hands ownership over: the new OWNER, the old one ADMIN; nobody changes their own role', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const chat = await createChat(ana);
    const benId = await addMember(ana, chat.id, ben);
    const own = await ana.client.get(`/api/chat/${chat.id}/member/`);
    const self = await send(ana, 'PATCH', `/api/chat/${chat.id}/members/${own.body.id}/`, { chatRole: ADMIN });
    expect(self.status).toBe(400);
    const handed = await send(ana, 'PUT', `/api/chat/${chat.id}/members/${benId}/`, { chatRole: OWNER });
    expect(handed.status).toBe(200);
    expect(handed.body).toMatchObject({ id: benId, chatRole: OWNER });
    expect((await ana.client.get(`/api/chat/${chat.id}/member/`)).body.chatRole).toBe(ADMIN);
    expect((await send(ana, 'PATCH', `/api/chat/${chat.id}/`, { title: 'mine' })).status).toBe(403);
  });

  it('multi_delete removes all or none: an unknown id is a 400 on ids, nothing removed', async () => {
    const ana = await person(server);
    const [ben, cy] = await Promise.all([person(server), person(server)]);
    const chat = await createChat(ana);
    const benId = await addMember(ana, chat.id, ben);
    const cyId = await addMember(ana, chat.id, cy);
    const wrong = await send(ana, 'POST', `/api/chat/${chat.id}/members/multi_delete/`, { ids: [benId, 999999] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toMatchObject({ attr: 'ids', code: 'does_not_exist' });
    expect((await ben.client.get(`/api/chat/${chat.id}/`)).status).toBe(200);
    const done = await send(ana, 'POST', `/api/chat/${chat.id}/members/multi_delete/`, { ids: [benId, cyId], permanent: false });
    expect(done.status).toBe(204);
    expect((await ben.client.get(`/api/chat/${chat.id}/`)).status).toBe(404);
    expect((await cy.client.get(`/api/chat/${chat.id}/messages/`)).status).toBe(404);
    const empty = await send(ana, 'POST', `/api/chat/${chat.id}/members/multi_delete/`, { ids: [] });
    expect(empty.body.errors[0]).toMatchObject({ attr: 'ids' });
  });
});

describe('messages', () => {
  it('posts, lists newest first with toId pages and full links, reads one', async () => {
    const ana = await person(server);
    const chat = await createChat(ana);
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await post(ana, chat.id, `message ${i}`)).id);
    const page = await ana.client.get(`/api/chat/${chat.id}/messages/?limit=2`);
    expect(page.body.results.map((m: { content: string }) => m.content)).toEqual(['message 5', 'message 4']);
    expect(page.body.next).toBe(`${server.url}/api/chat/${chat.id}/messages/?limit=2&toId=${ids[3]}`);
    const next = await ana.client.get(page.body.next.slice(server.url.length));
    expect(next.body.results.map((m: { content: string }) => m.content)).toEqual(['message 3', 'message 2']);
    const last = await ana.client.get(`/api/chat/${chat.id}/messages/?limit=2&toId=${ids[1]}`);
    expect(last.body).toMatchObject({ next: null, results: [{ content: 'message 1' }] });
    const one = await ana.client.get(`/api/chat/${chat.id}/messages/${ids[2]}/`);
    expect(one.body).toMatchObject({ id: ids[2], content: 'message 3', isMe: true, rawMessage: null, translation: 'none', edited: false });
    expect((await ana.client.get(`/api/chat/${chat.id}/messages/2147483647/`)).status).toBe(404);
  });

  it('posts once per clientId: a retry answers 200 with the stored message', async () => {
    const ana = await person(server);
    const chat = await createChat(ana);
    const clientId = randomUUID();
    const first = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'only once', clientId });
    const again = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'only once', clientId });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.id).toBe(first.body.id);
    const parallel = await Promise.all(
      Array.from({ length: 5 }, () => send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'racing', clientId: '8b1f6f9c-3a55-4c1e-9a6b-2f1f7c0d9e11' })),
    );
    expect(new Set(parallel.map((answer) => answer.body.id)).size).toBe(1);
    const all = await ana.client.get(`/api/chat/${chat.id}/messages/`);
    expect(all.body.results).toHaveLength(2);
  });

  it('a plain message and one with a mention or a reply (checked first) come out alike: stored, read back, the chat moved up the list, read by its sender', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const older = await createChat(ana, { title: 'Older' });
    const chat = await createChat(ana, { title: 'Newer' });
    const benId = await addMember(ana, chat.id, ben);
    await addMember(ana, older.id, ben);
    for (const [index, body] of [{ content: 'plain words' }, { content: `hi <@${benId}>` }, { content: 'plain again' }].entries()) {
      // Another message in the older chat first, so that each post has to move its chat back to the top.
      await post(ben, older.id, `older ${index}`);
      const answer = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, index === 2 ? { ...body, replyTo: 999_999 } : body);
      if (index === 2) {
        // A reply to nothing is refused before anything is stored; without it the message is plain.
        expect(answer.status).toBe(400);
        const plain = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, body);
        expect(plain.status).toBe(201);
        expect((await send(ana, 'GET', `/api/chat/${chat.id}/messages/${plain.body.id}/`)).body).toEqual(plain.body);
      } else {
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        expect((await send(ana, 'GET', `/api/chat/${chat.id}/messages/${answer.body.id}/`)).body).toEqual(answer.body);
      }
      const list = await send(ana, 'GET', '/api/chat/');
      expect(list.body.results.map((item: { id: number }) => item.id).slice(0, 2)).toEqual([chat.id, older.id]);
      // The sender has read their own message; the other member has not.
      expect(list.body.results[0]).toMatchObject({ unreadCount: 0 });
      expect((await send(ben, 'GET', '/api/chat/')).body.results.find((item: { id: number }) => item.id === chat.id)).toMatchObject({ unreadCount: index + 1 });
    }
  });

  it('refuses an empty, oversize or NUL-bearing message, and a bad clientId, naming the field', async () => {
    const ana = await person(server);
    const chat = await createChat(ana);
    for (const [body, attr] of [
      [{ content: '   ' }, 'content'],
      [{ content: 'x'.repeat(4001) }, 'content'],
      [{ content: 'nul\u0000' }, 'content'],
      [{ content: 'ok', clientId: 'not-a-uuid' }, 'clientId'],
    ] as const) {
      const answer = await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, body);
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].attr).toBe(attr);
    }
    expect((await send(ana, 'POST', `/api/chat/${chat.id}/messages/`, { content: 'x'.repeat(4000) })).status).toBe(201);
    expect((await ana.client.get(`/api/chat/${chat.id}/messages/`)).body.results).toHaveLength(1);
  });

  it('edits own messages (marked edited); deletes for everyone', async () => {
    const ana = await person(server);
    const ben = await person(server);
    const chat = await createChat(ana);
    await addMember(ana, chat.id, ben);
    const message = await post(ben, chat.id, 'helo');
    const edited = await send(ben, 'PATCH', `/api/chat/${chat.id}/messages/${message.id}/`, { content: 'hello' });
    expect(edited.body).toMatchObject({ content: 'hello', edited: true });
    expect((await ana.client.get(`/api/chat/${chat.id}/messages/${message.id}/`)).body.content).toBe('hello');
    expect((await send(ben, 'DELETE', `/api/chat/${chat.id}/messages/${message.id}/`)).status).toBe(204);
    expect((await ana.client.get(`/api/chat/${chat.id}/messages/${message.id}/`)).status).toBe(404);
  });
});

describe('permissions by role', () => {
  let people: Record<'owner' | 'admin' | 'admin2' | 'member' | 'removed' | 'stranger' | 'invited' | 'extra', Person>;
  beforeAll(async () => {
    const names = ['owner', 'admin', 'admin2', 'member', 'removed', 'stranger', 'invited', 'extra'] as const;
    const made = await Promise.all(names.map((name) => person(server, name)));
    people = Object.fromEntries(names.map((name, index) => [name, made[index]!])) as typeof people;
  });

  /** A chat with every role, a message by the owner and one by the member. */
  async function scene() {
    const { owner, admin, admin2, member, removed, invited } = people;
    const chat = await createChat(owner);
    const ids = {
      admin: await addMember(owner, chat.id, admin, ADMIN),
      admin2: await addMember(owner, chat.id, admin2, ADMIN),
      member: await addMember(owner, chat.id, member, MEMBER),
      removed: await addMember(owner, chat.id, removed, MEMBER),
      // Invited as an ADMIN and not accepted yet: nothing of the chat but its name and the invitation.
      invited: await invite(owner, chat.id, invited.email, ADMIN),
    };
    expect((await send(owner, 'DELETE', `/api/chat/${chat.id}/members/${ids.removed}/`)).status).toBe(204);
    const ownersMessage = await post(owner, chat.id, 'from the owner');
    const membersMessage = await post(member, chat.id, 'from a member');
    return { chatId: chat.id, ids, ownersMessage: ownersMessage.id, membersMessage: membersMessage.id };
  }

  type Scene = Awaited<ReturnType<typeof scene>>;
  const who = ['owner', 'admin', 'member', 'stranger', 'removed', 'invited'] as const;
  const matrix: [string, (s: Scene) => [string, string, unknown?], number[]][] = [
    ['read the chat', (s) => ['GET', `/api/chat/${s.chatId}/`], [200, 200, 200, 404, 404, 200]],
    ['edit the chat (PUT)', (s) => ['PUT', `/api/chat/${s.chatId}/`, { title: 'New' }], [200, 403, 403, 404, 404, 404]],
    ['edit the chat (PATCH)', (s) => ['PATCH', `/api/chat/${s.chatId}/`, { description: 'x' }], [200, 403, 403, 404, 404, 404]],
    ['delete the chat', (s) => ['DELETE', `/api/chat/${s.chatId}/`], [204, 403, 403, 404, 404, 404]],
    ['read own membership', (s) => ['GET', `/api/chat/${s.chatId}/member/`], [200, 200, 200, 404, 404, 200]],
    ['edit own membership', (s) => ['PATCH', `/api/chat/${s.chatId}/member/`, { nickName: 'Me' }], [200, 200, 200, 404, 404, 404]],
    ['leave', (s) => ['DELETE', `/api/chat/${s.chatId}/member/`], [204, 204, 204, 404, 404, 204]],
    ['list members', (s) => ['GET', `/api/chat/${s.chatId}/members/`], [200, 200, 200, 404, 404, 404]],
    ['add a MEMBER', (s) => ['POST', `/api/chat/${s.chatId}/members/`, { user: people.extra.email, chatRole: MEMBER }], [201, 201, 403, 404, 404, 404]],
    ['add an ADMIN', (s) => ['POST', `/api/chat/${s.chatId}/members/`, { user: people.extra.email, chatRole: ADMIN }], [201, 403, 403, 404, 404, 404]],
    ['change a role', (s) => ['PATCH', `/api/chat/${s.chatId}/members/${s.ids.member}/`, { chatRole: ADMIN }], [200, 403, 403, 404, 404, 404]],
    ['remove a MEMBER', (s) => ['DELETE', `/api/chat/${s.chatId}/members/${s.ids.member}/`], [204, 204, 403, 404, 404, 404]],
    ['remove an ADMIN', (s) => ['DELETE', `/api/chat/${s.chatId}/members/${s.ids.admin2}/`], [204, 403, 403, 404, 404, 404]],
    ['remove many', (s) => ['POST', `/api/chat/${s.chatId}/members/multi_delete/`, { ids: [s.ids.member] }], [204, 204, 403, 404, 404, 404]],
    ['list messages', (s) => ['GET', `/api/chat/${s.chatId}/messages/`], [200, 200, 200, 404, 404, 404]],
    ['post a message', (s) => ['POST', `/api/chat/${s.chatId}/messages/`, { content: 'hi' }], [201, 201, 201, 404, 404, 404]],
    ['read a message', (s) => ['GET', `/api/chat/${s.chatId}/messages/${s.membersMessage}/`], [200, 200, 200, 404, 404, 404]],
    ['edit the member’s message', (s) => ['PATCH', `/api/chat/${s.chatId}/messages/${s.membersMessage}/`, { content: 'changed' }], [403, 403, 200, 404, 404, 404]],
    ['delete the member’s message', (s) => ['DELETE', `/api/chat/${s.chatId}/messages/${s.membersMessage}/`], [204, 204, 204, 404, 404, 404]],
    ['delete the owner’s message', (s) => ['DELETE', `/api/chat/${s.chatId}/messages/${s.ownersMessage}/`], [204, 204, 403, 404, 404, 404]],
  ];

  /** Everything of the chat as its owner sees it. */
  const snapshot = async (s: Scene) => {
    const read = async (url: string) => (await people.owner.client.get(url)).body;
    return JSON.stringify([
      await read(`/api/chat/${s.chatId}/`),
      await read(`/api/chat/${s.chatId}/members/?pageSize=100`),
      await read(`/api/chat/${s.chatId}/messages/?limit=100`),
    ]);
  };

  it.each(matrix)('%s: OWNER, ADMIN, MEMBER, stranger, removed member, invited ADMIN', async (_name, call, expected) => {
    const got: number[] = [];
    for (const role of who) {
      const s = await scene();
      const [method, url, body] = call(s);
      const before = method === 'GET' ? undefined : await snapshot(s);
      const answer = await send(people[role], method, url, body);
      got.push(answer.status);
      if (answer.status === 404) expect(answer.body.errors[0].code).toBe('not_found');
      if (answer.status === 403) expect(answer.body.errors[0].code).toBe('permission_denied');
      // A refused write leaves the chat as it was.
      if (before !== undefined && (answer.status === 403 || answer.status === 404)) expect(await snapshot(s), `${role}: ${method} ${url}`).toBe(before);
    }
    expect(got).toEqual(expected);
  });
});
