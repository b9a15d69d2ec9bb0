// Chat basics (issue 17) through the API, with two readers in different languages: mentions stored
// as references and counted apart, replies quoting the reader's own rendering, reactions as a
// resource pushed live, and code, links and mentions kept out of translation by every provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createChat, eventually, person, send, setReading, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect } from './live-helpers';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

const read = async (who: Person, chatId: number, messageId: number) => (await who.client.get(`/api/chat/${chatId}/messages/${messageId}/`)).body;
const postBody = (who: Person, chatId: number, body: Record<string, unknown>) => send(who, 'POST', `/api/chat/${chatId}/messages/`, body);
/** The detail of a 400's error on `attr` (undefined when there is none). */
const errorOn = (body: { errors?: { attr: string; detail: string }[] }, attr: string) => body.errors?.find((error) => error.attr === attr)?.detail;
const memberIdOf = async (who: Person, chatId: number) => (await who.client.get(`/api/chat/${chatId}/member/`)).body.id as number;

describe('mentions, replies and reactions (no translation)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRANSLATION_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0' });
  });
  afterAll(() => server.close());

  it('a mention is a reference to a member: named by their current nickname, checked, and counted apart from unread', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const stranger = await person(server, 'Zed');
    const chat = await createChat(ana, { title: 'Team', languages: ['en'] });
    const benId = await addMember(ana, chat.id, ben);
    const other = await createChat(stranger, { title: 'Elsewhere', languages: ['en'] });
    const strangerId = await memberIdOf(stranger, other.id);

    const posted = await postBody(ana, chat.id, { content: `Hi <@${benId}>, see the plan` });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ content: `Hi <@${benId}>, see the plan`, mentions: [{ id: benId, nickName: 'Ben' }], replyTo: null, reactions: [] });
    await postBody(ana, chat.id, { content: 'Another one, no mention' });

    // Someone not in the chat cannot be mentioned: a clear 400 on content, nothing stored.
    const refused = await postBody(ana, chat.id, { content: `Hi <@${strangerId}>` });
    expect(refused.status).toBe(400);
    expect(errorOn(refused.body, 'content')).toContain(String(strangerId));

    expect((await ben.client.get('/api/chat/unread/')).body).toEqual({ messages: 2, chats: 1, mentions: 1 });
    const list = (await ben.client.get('/api/chat/')).body.results.find((item: { id: number }) => item.id === chat.id);
    expect(list).toMatchObject({ unreadCount: 2, unreadMentions: 1 });

    // A new nickname shows in the mention at once; the stored text keeps the reference.
    expect((await send(ben, 'PATCH', `/api/chat/${chat.id}/member/`, { nickName: 'Benedict' })).status).toBe(200);
    expect(await read(ana, chat.id, posted.body.id)).toMatchObject({ mentions: [{ id: benId, nickName: 'Benedict' }] });

    // Reading clears both counts.
    expect((await send(ben, 'PATCH', `/api/chat/${chat.id}/member/`, { lastReadMessage: posted.body.id + 1 })).status).toBe(200);
    expect((await ben.client.get('/api/chat/unread/')).body).toEqual({ messages: 0, chats: 0, mentions: 0 });

    // An edit changes whom the message mentions.
    const edited = await send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${posted.body.id}/`, { content: 'Hi all, see the plan' });
    expect(edited.body.mentions).toEqual([]);
    expect((await send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${posted.body.id}/`, { content: `Hi <@${strangerId}>` })).status).toBe(400);
  });

  it('a reply quotes a message of the same chat, and the quote goes when the message is deleted', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Replies', languages: ['en'] });
    await addMember(ana, chat.id, ben);
    const other = await createChat(ana, { title: 'Other', languages: ['en'] });
    const elsewhere = (await postBody(ana, other.id, { content: 'Not here' })).body;
    const question = (await postBody(ana, chat.id, { content: 'Lunch at noon?' })).body;

    const answer = await postBody(ben, chat.id, { content: 'Yes!', replyTo: question.id });
    expect(answer.status).toBe(201);
    expect(answer.body.replyTo).toMatchObject({ id: question.id, sender: { nickName: 'Ana' }, content: 'Lunch at noon?', language: 'en', translated: false });
    const page = (await ana.client.get(`/api/chat/${chat.id}/messages/`)).body.results;
    expect(page[0]).toMatchObject({ id: answer.body.id, replyTo: { id: question.id, content: 'Lunch at noon?' } });

    for (const replyTo of [elsewhere.id, 2_000_000_000]) {
      const refused = await postBody(ben, chat.id, { content: 'Hm', replyTo });
      expect(refused.status).toBe(400);
      expect(errorOn(refused.body, 'replyTo')).toBe('There is no such message in this chat.');
    }
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/messages/${question.id}/`)).status).toBe(204);
    expect(await read(ben, chat.id, answer.body.id)).toMatchObject({ content: 'Yes!', replyTo: null });
  });

  it('reactions: given once per emoji and member, listed with who gave them, pushed live, taken back; strangers get 404', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const stranger = await person(server, 'Zed');
    const chat = await createChat(ana, { title: 'Reactions', languages: ['en'] });
    const benId = await addMember(ana, chat.id, ben);
    const anaId = await memberIdOf(ana, chat.id);
    const message = (await postBody(ana, chat.id, { content: 'Shipped!' })).body;
    const path = `/api/chat/${chat.id}/messages/${message.id}/reactions/`;

    const socket = await connect(server.url, ana);
    try {
      expect(await socket.subscribe(chat.id)).toEqual({ ok: true });
      const first = await send(ben, 'POST', path, { emoji: '🎉' });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ messageId: message.id, reactions: [{ emoji: '🎉', members: [{ id: benId, nickName: 'Ben' }] }] });
      const pushed = await socket.next('message:reactions', (event) => event.messageId === message.id);
      expect(pushed).toEqual({ chatId: chat.id, ...first.body });

      expect((await send(ben, 'POST', path, { emoji: '🎉' })).status).toBe(200);
      expect((await send(ana, 'POST', path, { emoji: '🎉' })).status).toBe(201);
      expect((await send(ana, 'POST', path, { emoji: '👍🏽' })).status).toBe(201);
      const listed = (await ben.client.get(path)).body;
      expect(listed.reactions).toEqual([
        { emoji: '🎉', members: [{ id: benId, nickName: 'Ben' }, { id: anaId, nickName: 'Ana' }] },
        { emoji: '👍🏽', members: [{ id: anaId, nickName: 'Ana' }] },
      ]);
      expect((await read(ben, chat.id, message.id)).reactions).toEqual(listed.reactions);

      const taken = await send(ben, 'DELETE', `${path}?emoji=${encodeURIComponent('🎉')}`);
      expect(taken.status).toBe(204);
      const after = await socket.next('message:reactions', (event) => event.reactions.length === 2 && event.reactions[0]?.members.length === 1);
      expect(after.reactions[0]).toEqual({ emoji: '🎉', members: [{ id: anaId, nickName: 'Ana' }] });
    } finally {
      socket.close();
    }

    // Not an emoji, several emoji, text: a clear 400 on emoji.
    for (const emoji of ['', 'ok', '👍👍', '<b>', 'a👍', '👍'.repeat(20)]) {
      const refused = await send(ben, 'POST', path, { emoji });
      expect(refused.status, emoji).toBe(400);
      expect(errorOn(refused.body, 'emoji'), emoji).toBeTruthy();
    }
    // A stranger sees nothing of it.
    expect((await stranger.client.get(path)).status).toBe(404);
    expect((await send(stranger, 'POST', path, { emoji: '👍' })).status).toBe(404);
    expect((await send(ben, 'POST', `/api/chat/${chat.id}/messages/2000000000/reactions/`, { emoji: '👍' })).status).toBe(404);
  });

  it('a message takes at most 20 different emoji', async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana, { title: 'Many', languages: ['en'] });
    const message = (await postBody(ana, chat.id, { content: 'React away' })).body;
    const path = `/api/chat/${chat.id}/messages/${message.id}/reactions/`;
    const emoji = [...'😀😃😄😁😆😅😂🤣😊😇🙂🙃😉😌😍🥰😘😗😙😚😋']; // 21
    for (const one of emoji.slice(0, 20)) expect((await send(ana, 'POST', path, { emoji: one })).status).toBe(201);
    const refused = await send(ana, 'POST', path, { emoji: emoji[20] });
    expect(refused.status).toBe(400);
    expect(errorOn(refused.body, 'emoji')).toBe('A message takes at most 20 different reactions.');
    // One already there can still be given by another member (here: again, a 200).
    expect((await send(ana, 'POST', path, { emoji: emoji[0] })).status).toBe(200);
  });
});

describe('through Apertium (the embedded default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRANSLATION_PROVIDER: 'apertium', RATE_LIMIT_MESSAGES: '0' });
  });
  afterAll(() => server.close());

  it('a mention and a reply reach a Spanish reader with the name kept and the quote in Spanish; code and links untouched', async () => {
    const ana = await person(server, 'Ana');
    const dawn = await person(server, 'Dawn');
    const chat = await createChat(ana, { title: 'Amigos', languages: ['en', 'es'] });
    const dawnId = await addMember(ana, chat.id, dawn);
    await setReading(dawn, chat.id, 'es');

    const first = (await postBody(ana, chat.id, { content: 'The cat is black.' })).body;
    const text = `<@${dawnId}> the house is big, see https://example.com/a_b?x=1 and run \`npm start\``;
    const reply = (await postBody(ana, chat.id, { content: text, replyTo: first.id })).body;
    const seen = await eventually(
      () => read(dawn, chat.id, reply.id),
      (m) => m.translation === 'done' && m.replyTo?.translated === true,
      30_000,
    );
    expect(seen.content).toMatch(/casa/i);
    expect(seen.content).toContain(`<@${dawnId}>`);
    expect(seen.content).toContain('https://example.com/a_b?x=1');
    expect(seen.content).toContain('`npm start`');
    expect(seen.mentions).toEqual([{ id: dawnId, nickName: 'Dawn' }]);
    expect(seen.replyTo).toMatchObject({ id: first.id, language: 'es', translated: true, sender: { nickName: 'Ana' } });
    expect(seen.replyTo.content).toMatch(/gato/i);
    // The writer reads the quote in English.
    expect((await read(ana, chat.id, reply.id)).replyTo).toMatchObject({ content: 'The cat is black.', translated: false });
  });
});

describe('through an OpenAI-compatible server', () => {
  let standIn: StandIn;
  let server: TestServer;
  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    server = await startServer({ OPENAI_BASE_URL: standIn.baseUrl, TRANSLATION_MODEL: 'stand-in', RATE_LIMIT_MESSAGES: '0' });
  });
  afterAll(async () => {
    await server.close();
    await standIn.close();
  });

  it('the model sees placeholders, never the mention, the link or the code, and the rendering gets them back', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Shield', languages: ['en', 'es'] });
    const benId = await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    const text = `Thanks <@${benId}>! Docs: https://example.com/docs ⟦0⟧ \`x = 1\``;
    const message = (await postBody(ana, chat.id, { content: text })).body;
    const seen = await eventually(() => read(ben, chat.id, message.id), (m) => m.translation === 'done');
    const asked = standIn.completions().map((request) => standIn.textOf(request)).find((sent) => sent.startsWith('Thanks'));
    expect(asked).toBe('Thanks ⟦0⟧! Docs: ⟦1⟧ ⟦2⟧0⟦3⟧ ⟦4⟧');
    expect(standIn.completions().some((request) => JSON.stringify(request.body).includes('Placeholders like'))).toBe(true);
    expect(seen.content).toBe(`[es DEFAULT] ${text}`);
    expect(seen.mentions).toEqual([{ id: benId, nickName: 'Ben' }]);
  });
});
