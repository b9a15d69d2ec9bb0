// Adding someone is an invitation (product.md "Roles and permissions"): the inviter gets the same
// answer whether or not the address has an account, learns no name, and is limited in how many
// people they add; the invitee sees the invitation in their list and by e-mail, receives nothing
// of the chat or room before accepting, and accepts (or declines by leaving).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, invite, person, post, send, setReading, type Person } from './chat-helpers';
import { GOOD_PASSWORD, activationKeyFrom, signedIn, startServer, uniqueEmail, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { addParticipant, createRoom, inviteParticipant, setListening, setState } from './room-helpers';

let server: TestServer;
const sockets: LiveClient[] = [];
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_EMAIL: '3', RATE_LIMIT_NEWCOMER_INVITATIONS: '2', TRANSLATION_PROVIDER: 'none', STT_PROVIDER: 'none', TTS_PROVIDER: 'none' });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
});

/** An account registered but never activated (someone signed up and did not follow the link). */
async function unactivated(name: string): Promise<string> {
  const email = uniqueEmail('waiting');
  const answer = await server.client().post('/api/accounts/registration/', { email, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: name });
  expect(answer.status).toBe(201);
  return email;
}

const localPart = (email: string) => email.split('@')[0];

describe('inviting to a chat', () => {
  it('answers the same whether the address has an account, an unactivated one or none, and shows no name', async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana);
    const known = await person(server, 'Known Person');
    const pending = await unactivated('Pending Person');
    const nobody = uniqueEmail('nobody');
    const answers = [];
    for (const email of [known.email, pending, nobody]) {
      const answer = await send(ana, 'POST', `/api/chat/${chat.id}/members/`, { user: email, chatRole: 2003 });
      expect(answer.status).toBe(201);
      expect(Object.keys(answer.body).sort()).toEqual(['avatarImage', 'chatRole', 'id', 'memberState', 'nickName', 'user']);
      answers.push(answer.body);
    }
    for (const [index, email] of [known.email, pending, nobody].entries()) {
      expect(answers[index]).toEqual({ id: expect.any(Number), user: email, chatRole: 2003, nickName: localPart(email), avatarImage: null, memberState: 'invited' });
    }
    // The members list shows them as invited, by address only; a search by name finds none of them.
    const members = (await ana.client.get(`/api/chat/${chat.id}/members/`)).body;
    expect(members.results.filter((m: { memberState: string }) => m.memberState === 'invited')).toHaveLength(3);
    expect(JSON.stringify(members)).not.toMatch(/Known Person|Pending Person/);
    expect((await ana.client.get(`/api/chat/${chat.id}/members/?q=Known`)).body.count).toBe(0);
    expect((await ana.client.get(`/api/chat/${chat.id}/members/?q=Pending`)).body.count).toBe(0);
  });

  it('shows the invitation to the invitee and nothing more until they accept; then they read and post', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Project X', languages: ['en'], description: 'The Acme merger, before it is announced' });
    await post(ana, chat.id, 'secret plans');
    const benSocket = await connect(server.url, ben);
    sockets.push(benSocket);
    const memberId = await invite(ana, chat.id, ben.email);
    // Ben's open tabs learn of it at once, as an invitation.
    // Title and languages only: the description waits for his acceptance (issue 31, 10).
    expect((await benSocket.next('chat:updated', (p) => p.chat.id === chat.id)).chat).toMatchObject({ title: 'Project X', memberState: 'invited', description: null });
    // It is at the top of his list, without content.
    const list = (await ben.client.get('/api/chat/')).body;
    // Who invited him, as named in the chat (issue 37: the invitation card did not say).
    expect(list.results[0]).toMatchObject({ id: chat.id, title: 'Project X', memberState: 'invited', lastMessage: null, unreadCount: 0, description: null, invitedBy: 'Ana' });
    expect((await ben.client.get(`/api/chat/${chat.id}/`)).body).toMatchObject({ memberState: 'invited', chatRole: 2003, description: null });
    // An edit of the chat reaches him live, without the description either.
    const mark = benSocket.received.length;
    expect((await send(ana, 'PATCH', `/api/chat/${chat.id}/`, { description: 'The Acme merger: the numbers' })).status).toBe(200);
    expect((await benSocket.next('chat:updated', (p) => p.chat.id === chat.id, 5000, mark)).chat).toMatchObject({ memberState: 'invited', description: null });
    expect((await ben.client.get(`/api/chat/${chat.id}/member/`)).body.memberState).toBe('invited');
    // Nothing of the chat's content reaches him: not by reading, not by posting, not live.
    for (const [method, url, body] of [
      ['GET', `/api/chat/${chat.id}/messages/`],
      ['GET', `/api/chat/${chat.id}/members/`],
      ['POST', `/api/chat/${chat.id}/messages/`, { content: 'hi' }],
      ['PATCH', `/api/chat/${chat.id}/member/`, { nickName: 'B' }],
    ] as [string, string, unknown?][]) {
      expect((await send(ben, method, url, body)).status, `${method} ${url}`).toBe(404);
    }
    expect(await benSocket.subscribe(chat.id)).toEqual({ ok: false, error: 'not_found' });
    // The chat is not handed over to someone who has not accepted.
    const handOver = await send(ana, 'PATCH', `/api/chat/${chat.id}/members/${memberId}/`, { chatRole: 2001 });
    expect(handOver.status).toBe(400);
    expect(handOver.body.errors[0]).toMatchObject({ attr: 'chatRole', code: 'invalid' });

    const accepted = await send(ben, 'POST', `/api/chat/${chat.id}/member/accept/`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: memberId, nickName: 'Ben', memberState: 'joined' });
    expect((await send(ben, 'POST', `/api/chat/${chat.id}/member/accept/`)).status).toBe(200);
    expect((await ben.client.get(`/api/chat/${chat.id}/messages/`)).body.results.map((m: { content: string }) => m.content)).toEqual(['secret plans']);
    expect((await ben.client.get(`/api/chat/${chat.id}/`)).body).toMatchObject({ description: 'The Acme merger: the numbers', invitedBy: null });
    expect(await benSocket.subscribe(chat.id)).toEqual({ ok: true });
    const members = (await ana.client.get(`/api/chat/${chat.id}/members/`)).body.results;
    expect(members.find((m: { id: number }) => m.id === memberId)).toMatchObject({ nickName: 'Ben', memberState: 'joined' });
  });

  it('is declined by leaving: gone from both lists, and the chat stays unseen', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana);
    await invite(ana, chat.id, ben.email);
    expect((await send(ben, 'DELETE', `/api/chat/${chat.id}/member/`)).status).toBe(204);
    expect((await ben.client.get('/api/chat/')).body.results.map((c: { id: number }) => c.id)).not.toContain(chat.id);
    expect((await ben.client.get(`/api/chat/${chat.id}/`)).status).toBe(404);
    expect((await ana.client.get(`/api/chat/${chat.id}/members/`)).body.count).toBe(1);
    // Invited again later, they see it again.
    await invite(ana, chat.id, ben.email);
    expect((await ben.client.get(`/api/chat/${chat.id}/`)).body.memberState).toBe('invited');
  });

  it('tells the invitee by e-mail: a link to the chat, or to sign up; signing up brings the invitation', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Book club', languages: ['en'] });
    await invite(ana, chat.id, ben.email);
    const toBen = await server.smtp.waitFor(ben.email, /invited you/);
    expect(toBen.subject).toBe('Ana invited you to "Book club" on Parla');
    expect(toBen.text).toContain(`${server.url}/chat/${chat.id}`);

    const newcomer = uniqueEmail('newcomer');
    await invite(ana, chat.id, newcomer);
    const toNewcomer = await server.smtp.waitFor(newcomer, /invited/);
    expect(toNewcomer.subject).toBe('You are invited to a conversation on Parla');
    expect(toNewcomer.text).toContain(`${server.url}/signup/`);
    expect(toNewcomer.text).toMatch(/sign up with this e-mail address/);
    // A fixed text: nothing the inviter wrote (issue 31, 8: a chat's title and a name were a phishing channel).
    expect(toNewcomer.text).not.toContain('Book club');
    expect(toNewcomer.text).not.toContain('Ana');
    // Nobody can sign in to the account the invitation made...
    expect((await server.client().post('/api/accounts/login/', { email: newcomer, password: GOOD_PASSWORD })).status).toBe(400);
    // ...until its owner signs up with the address: then the invitation is there to accept.
    const registered = await server.client().post('/api/accounts/registration/', { email: newcomer, password1: GOOD_PASSWORD, password2: GOOD_PASSWORD, fullName: 'Nia New' });
    expect(registered.status).toBe(201);
    const key = activationKeyFrom((await server.smtp.waitFor(newcomer, /activate/i)).text);
    expect((await server.client().post('/api/accounts/registration/verify-email/', { key })).status).toBe(200);
    const { client } = await signedIn(server, newcomer);
    const nia: Person = { client, email: newcomer, userId: 0, access: '' };
    expect((await nia.client.get('/api/chat/')).body.results[0]).toMatchObject({ id: chat.id, memberState: 'invited' });
    const accepted = await send(nia, 'POST', `/api/chat/${chat.id}/member/accept/`);
    expect(accepted.body).toMatchObject({ nickName: 'Nia New', memberState: 'joined' });
  });

  it('mails addresses nobody signed up with a fixed text, a bounded number a day per inviter; the inviter cannot tell, and the invitations are made', async () => {
    const mallory = await person(server, 'PayPal Security Team');
    const chat = await createChat(mallory, { title: 'Your account is locked - verify now at https://paypa1-verify.example/login', languages: ['en'] });
    const targets = Array.from({ length: 4 }, () => uniqueEmail('target'));
    const before = server.smtp.mails.length;
    const answers = [];
    for (const target of targets) answers.push(await send(mallory, 'POST', `/api/chat/${chat.id}/members/`, { user: target, chatRole: 2003 }));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sent = server.smtp.mails.slice(before).filter((mail) => targets.includes(mail.to));
    // RATE_LIMIT_NEWCOMER_INVITATIONS is 2 here.
    expect(sent).toHaveLength(2);
    for (const mail of sent) {
      expect(mail.subject).toBe('You are invited to a conversation on Parla');
      expect(`${mail.subject} ${mail.text}`).not.toMatch(/paypa1|PayPal|locked/i);
    }
    expect((await mallory.client.get(`/api/chat/${chat.id}/members/`)).body.count).toBe(5);
  });

  it('e-mails one address a bounded number of invitations, and still makes them', async () => {
    const target = uniqueEmail('popular');
    const before = server.smtp.mails.length;
    for (let i = 0; i < 5; i++) {
      const inviter = await person(server, `Inviter ${i}`);
      const chat = await createChat(inviter);
      await invite(inviter, chat.id, target);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.smtp.mails.slice(before).filter((mail) => mail.to === target)).toHaveLength(3);
  });
});

describe('inviting to a room', () => {
  it('answers the same for any address, and the invitee gets no call and no content before accepting', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben Room');
    const room = await createRoom(ana, { title: 'Standup', languages: ['en'], description: 'Layoffs, before they are announced' });
    await setState(ana, room.id, 3002);
    const nobody = uniqueEmail('nobody');
    const answers = [];
    for (const email of [ben.email, nobody]) {
      const answer = await send(ana, 'POST', `/api/rooms/${room.id}/participants/`, { user: email, roomRole: 1002 });
      expect(answer.status).toBe(201);
      answers.push(answer.body);
    }
    expect(answers[0]).toEqual({ id: expect.any(Number), user: ben.email, roomRole: 1002, alias: localPart(ben.email), avatarImage: null, memberState: 'invited' });
    expect(answers[1]).toEqual({ id: expect.any(Number), user: nobody, roomRole: 1002, alias: localPart(nobody), avatarImage: null, memberState: 'invited' });
    expect((await ben.client.get('/api/rooms/')).body.results[0]).toMatchObject({ id: room.id, memberState: 'invited', description: null, invitedBy: 'Ana' });
    expect((await ben.client.get(`/api/rooms/${room.id}/`)).body).toMatchObject({ title: 'Standup', description: null });
    expect((await ben.client.get(`/api/rooms/${room.id}/participant/`)).body).toMatchObject({ memberState: 'invited', lkToken: null });
    expect((await ben.client.get(`/api/rooms/${room.id}/segments/`)).status).toBe(404);
    const benSocket = await connect(server.url, ben);
    sockets.push(benSocket);
    expect(await benSocket.socket.timeout(5000).emitWithAck('room:subscribe', { roomId: room.id })).toEqual({ ok: false, error: 'not_found' });
    const accepted = await send(ben, 'POST', `/api/rooms/${room.id}/participant/accept/`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ alias: 'Ben Room', memberState: 'joined' });
    expect((await ben.client.get(`/api/rooms/${room.id}/`)).body.description).toBe('Layoffs, before they are announced');
    expect((await ben.client.get(`/api/rooms/${room.id}/segments/`)).status).toBe(200);
  });
});

describe('the limit on adding people', () => {
  it('stops an inviter after RATE_LIMIT_INVITATIONS in an hour, chats and rooms together', async () => {
    const limited = await startServer({ RATE_LIMIT_INVITATIONS: '3' });
    try {
      const ana = await person(limited, 'Ana');
      const chat = await createChat(ana);
      const room = await createRoom(ana);
      expect((await send(ana, 'POST', `/api/chat/${chat.id}/members/`, { user: uniqueEmail(), chatRole: 2003 })).status).toBe(201);
      await inviteParticipant(ana, room.id, uniqueEmail());
      expect((await send(ana, 'POST', `/api/chat/${chat.id}/members/`, { user: uniqueEmail(), chatRole: 2003 })).status).toBe(201);
      const fourth = await send(ana, 'POST', `/api/rooms/${room.id}/participants/`, { user: uniqueEmail(), roomRole: 1002 });
      expect(fourth.status).toBe(429);
      expect(fourth.body.errors[0].code).toBe('throttled');
      expect(fourth.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await ana.client.get(`/api/rooms/${room.id}/participants/`)).body.count).toBe(2);
    } finally {
      await limited.close();
    }
  });
});

// Issue 37 (6): someone invited again found the language they had chosen reset on accepting.
describe('invited again', () => {
  it('keeps the language the person had chosen in the room and in the chat', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const room = await createRoom(ana, { title: 'Again', languages: ['en', 'es'] });
    const participantId = await addParticipant(ana, room.id, ben);
    await setListening(ben, room.id, { language: 'es' });
    expect((await send(ben, 'DELETE', `/api/rooms/${room.id}/participant/`)).status).toBe(204);
    expect(await inviteParticipant(ana, room.id, ben.email)).toBe(participantId);
    expect((await send(ben, 'POST', `/api/rooms/${room.id}/participant/accept/`)).body).toMatchObject({ language: 'es', memberState: 'joined' });

    const chat = await createChat(ana, { title: 'Again', languages: ['en', 'es'] });
    const memberId = await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/members/${memberId}/`)).status).toBe(204);
    await invite(ana, chat.id, ben.email);
    expect((await send(ben, 'POST', `/api/chat/${chat.id}/member/accept/`)).body).toMatchObject({ language: 'es', memberState: 'joined' });
  });
});

