// Terminology that sticks (issue 19): a glossary per chat and per room, edited by those who may,
// read by every member, obeyed by every provider (real Apertium English → Spanish; the
// OpenAI-compatible stand-in told the required renderings, checked and asked once more), members'
// names never translated; readers' corrections of a rendering seen live by everyone who reads the
// same way, the machine's text kept; "apply to recent messages".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@parla/contract/constants';
import { addMember, createChat, eventually, person, post, send, setReading, type Person } from './chat-helpers';
import { startServer, type TestServer } from './harness';
import { connect, type LiveClient } from './live-helpers';
import { addParticipant, createRoom, setListening, setState, toneWav, upload, uploadForm } from './room-helpers';
import { startOpenAiStandIn, type StandIn } from './stand-ins/openai';

const read = async (who: Person, chatId: number, messageId: number) => (await who.client.get(`/api/chat/${chatId}/messages/${messageId}/`)).body;
const glossaryOf = (who: Person, chatId: number) => who.client.get(`/api/chat/${chatId}/glossary/`);
const addEntry = (who: Person, chatId: number, body: unknown) => send(who, 'POST', `/api/chat/${chatId}/glossary/`, body);
const errorOn = (body: { errors?: { attr: string; detail: string; code: string }[] }, attr: string) => body.errors?.find((error) => error.attr === attr);
const sockets: LiveClient[] = [];
afterAll(() => {
  for (const socket of sockets) socket.close();
});

describe('a glossary as a resource', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRANSLATION_PROVIDER: 'none', RATE_LIMIT_MESSAGES: '0', RATE_LIMIT_WRITES: '0' });
  });
  afterAll(() => server.close());

  it('owners and admins edit the chat’s glossary, members read it with the names it protects, strangers get 404', async () => {
    const ana = await person(server, 'Ana Owner');
    const adam = await person(server, 'Adam Admin');
    const mia = await person(server, 'Mia Member');
    const zed = await person(server, 'Zed Stranger');
    const chat = await createChat(ana, { title: 'Team', languages: ['en', 'es'] });
    await addMember(ana, chat.id, adam, 2002);
    await addMember(ana, chat.id, mia);

    const added = await addEntry(ana, chat.id, { term: 'standup', language: 'en', renderings: [{ language: 'es', text: 'reunión diaria' }] });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ term: 'standup', language: 'en', keep: false, renderings: [{ language: 'es', text: 'reunión diaria' }] });
    expect((await addEntry(adam, chat.id, { term: 'Parla', language: 'en', keep: true })).status).toBe(201);

    const seen = await glossaryOf(mia, chat.id);
    expect(seen.status).toBe(200);
    expect(seen.body.mayEdit).toBe(false);
    expect(seen.body.entries.map((entry: { term: string }) => entry.term)).toEqual(['Parla', 'standup']);
    // Members' nicknames and full names are protected without an entry.
    expect(seen.body.names).toEqual(expect.arrayContaining(['Ana Owner', 'Adam Admin', 'Mia Member']));
    expect((await glossaryOf(ana, chat.id)).body.mayEdit).toBe(true);

    // A member may not edit; a stranger does not learn the chat exists.
    expect((await addEntry(mia, chat.id, { term: 'sprint', language: 'en', keep: true })).status).toBe(403);
    expect((await send(mia, 'DELETE', `/api/chat/${chat.id}/glossary/${added.body.id}/`)).status).toBe(403);
    expect((await glossaryOf(zed, chat.id)).status).toBe(404);
    expect((await addEntry(zed, chat.id, { term: 'sprint', language: 'en', keep: true })).status).toBe(404);
    expect((await send(zed, 'POST', `/api/chat/${chat.id}/glossary/apply/`)).status).toBe(404);

    // Bad entries get a clear error on the field at fault, and nothing is stored.
    const duplicate = await addEntry(adam, chat.id, { term: 'STANDUP', language: 'en', keep: true });
    expect(duplicate.status).toBe(400);
    expect(errorOn(duplicate.body, 'term')?.code).toBe('unique');
    const useless = await addEntry(ana, chat.id, { term: 'sprint', language: 'en' });
    expect(useless.status).toBe(400);
    expect(errorOn(useless.body, 'renderings')?.detail).toMatch(/at least one language/);
    const twice = await addEntry(ana, chat.id, { term: 'sprint', language: 'en', renderings: [{ language: 'es', text: 'a' }, { language: 'es', text: 'b' }] });
    expect(twice.status).toBe(400);
    const multiline = await addEntry(ana, chat.id, { term: 'two\nlines', language: 'en', keep: true });
    expect(multiline.status).toBe(400);
    expect((await glossaryOf(ana, chat.id)).body.entries).toHaveLength(2);

    // Changed and removed; an entry of another chat is not found through this one.
    const changed = await send(adam, 'PATCH', `/api/chat/${chat.id}/glossary/${added.body.id}/`, { renderings: [{ language: 'es', text: 'reunión de pie' }] });
    expect(changed.status).toBe(200);
    expect(changed.body.renderings).toEqual([{ language: 'es', text: 'reunión de pie' }]);
    const other = await createChat(zed, { title: 'Other', languages: ['en'] });
    expect((await send(zed, 'PATCH', `/api/chat/${other.id}/glossary/${added.body.id}/`, { keep: true })).status).toBe(404);
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/glossary/${added.body.id}/`)).status).toBe(204);
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/glossary/${added.body.id}/`)).status).toBe(404);
  });

  it(`holds at most ${LIMITS.glossaryEntries} terms`, async () => {
    const ana = await person(server, 'Ana');
    const chat = await createChat(ana, { title: 'Big', languages: ['en'] });
    for (let start = 0; start < LIMITS.glossaryEntries; start += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => addEntry(ana, chat.id, { term: `term${start + i}`, language: 'en', keep: true })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    }
    const full = await addEntry(ana, chat.id, { term: 'one more', language: 'en', keep: true });
    expect(full.status).toBe(400);
    expect(errorOn(full.body, 'term')?.detail).toContain(String(LIMITS.glossaryEntries));
  });

  it('a room’s glossary is edited by its owner and read by its participants', async () => {
    const ana = await person(server, 'Ana');
    const ben = await person(server, 'Ben');
    const zed = await person(server, 'Zed');
    const room = await createRoom(ana, { title: 'Sync', languages: ['en', 'es'] });
    await addParticipant(ana, room.id, ben);
    const added = await send(ana, 'POST', `/api/rooms/${room.id}/glossary/`, { term: 'standup', language: 'en', renderings: [{ language: 'es', text: 'reunión diaria' }] });
    expect(added.status).toBe(201);
    expect((await send(ben, 'POST', `/api/rooms/${room.id}/glossary/`, { term: 'sprint', language: 'en', keep: true })).status).toBe(403);
    expect((await send(ben, 'POST', `/api/rooms/${room.id}/glossary/apply/`)).status).toBe(403);
    const seen = await ben.client.get(`/api/rooms/${room.id}/glossary/`);
    expect(seen.body).toMatchObject({ mayEdit: false, entries: [{ term: 'standup' }] });
    expect(seen.body.names).toEqual(expect.arrayContaining(['Ana', 'Ben']));
    expect((await zed.client.get(`/api/rooms/${room.id}/glossary/`)).status).toBe(404);
  });
});

describe('through Apertium (English → Spanish)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRANSLATION_PROVIDER: 'apertium', RATE_LIMIT_MESSAGES: '0' });
  });
  afterAll(() => server.close());

  /** A chat of Ana (writes English) with Dawn and Hope, and Ben and Carla reading Spanish. */
  async function team() {
    const ana = await person(server, 'Ana');
    const dawn = await person(server, 'Dawn');
    const hope = await person(server, 'Hope');
    const ben = await person(server, 'Ben');
    const carla = await person(server, 'Carla');
    const chat = await createChat(ana, { title: 'Team', languages: ['en', 'es'] });
    for (const who of [dawn, hope, ben, carla]) await addMember(ana, chat.id, who);
    await setReading(ben, chat.id, 'es');
    await setReading(carla, chat.id, 'es');
    return { ana, ben, carla, chat };
  }
  const done = <T extends { translation: string }>(m: T) => m.translation === 'done';

  it('members’ names stay as they are, and a required rendering is put in place', async () => {
    // Without the glossary (nobody of that name in the chat), Apertium translates the names and keeps "standup".
    const lone = await person(server, 'Lone');
    const reader = await person(server, 'Reader');
    const control = await createChat(lone, { title: 'Control', languages: ['en', 'es'] });
    await addMember(lone, control.id, reader);
    await setReading(reader, control.id, 'es');
    const sentence = 'Dawn and Hope will join the standup today.';
    const controlMessage = await post(lone, control.id, sentence);
    const machine = await eventually(() => read(reader, control.id, controlMessage.id), done, 30_000);
    expect(machine.content).toMatch(/Alborea/);
    expect(machine.content).toMatch(/standup/);

    const { ana, ben, chat } = await team();
    expect((await addEntry(ana, chat.id, { term: 'standup', language: 'en', renderings: [{ language: 'es', text: 'reunión diaria' }] })).status).toBe(201);
    const message = await post(ana, chat.id, sentence);
    const seen = await eventually(() => read(ben, chat.id, message.id), done, 30_000);
    expect(seen.content).toContain('Dawn');
    expect(seen.content).toContain('Hope');
    expect(seen.content).toContain('reunión diaria');
    expect(seen.content).not.toMatch(/Alborea|Esperanza|standup/);
    expect(seen.missedTerms).toEqual([]);
    // "hope" the word is translated: only the name as written is protected.
    const word = await post(ana, chat.id, 'I hope the cat is black.');
    expect((await eventually(() => read(ben, chat.id, word.id), done, 30_000)).content).not.toContain('hope');
  });

  // Issue 31 (1): a plain member's name rewrote everyone's messages ("Estoy de acuerdo con not el plan, pagaremos not .").
  it('a member named like an ordinary word changes nobody’s message; the glossary lists the names shown there, never accounts’ full names', async () => {
    const { ana, ben, chat } = await team();
    const mallory = await person(server, 'Mallory Full');
    await addMember(ana, chat.id, mallory);
    expect((await send(mallory, 'PATCH', `/api/chat/${chat.id}/member/`, { nickName: 'not' })).status).toBe(200);
    const message = await post(ana, chat.id, 'I do not agree with the plan, we will not pay.');
    const seen = await eventually(() => read(ben, chat.id, message.id), done, 30_000);
    expect(seen.content).not.toMatch(/\bnot\b/);
    expect(seen.content.match(/\bno\b/gi)?.length).toBe(2);
    // The names listed are those members see in the chat: "not", not the account's "Mallory Full".
    const names = (await glossaryOf(ben, chat.id)).body.names as string[];
    expect(names).toContain('not');
    expect(names).not.toContain('Mallory Full');
  });

  it('a reader’s correction reaches everyone reading the same way, live, with the machine’s text kept; the author is untouched', async () => {
    const { ana, ben, carla, chat } = await team();
    const carlaSocket = await connect(server.url, carla);
    sockets.push(carlaSocket);
    expect(await carlaSocket.socket.timeout(5000).emitWithAck('chat:subscribe', { chatId: chat.id })).toEqual({ ok: true });
    const message = await post(ana, chat.id, 'The cat is black.');
    const machine = await eventually(() => read(ben, chat.id, message.id), done, 30_000);
    expect(machine.correction).toBeNull();

    const mark = carlaSocket.received.length;
    const corrected = await send(ben, 'PUT', `/api/chat/${chat.id}/messages/${message.id}/rendering/`, { content: 'El gato es negro como la noche.' });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect(corrected.body).toMatchObject({ content: 'El gato es negro como la noche.', language: 'es', correction: { by: { nickName: 'Ben' }, machine: machine.content } });
    const pushed = await carlaSocket.next('message:rendered', (p) => p.message.id === message.id && p.message.correction !== null, 5000, mark);
    expect(pushed.message).toMatchObject({ content: 'El gato es negro como la noche.', correction: { by: { nickName: 'Ben' }, machine: machine.content } });
    expect(await read(carla, chat.id, message.id)).toMatchObject({ content: 'El gato es negro como la noche.', rawMessage: { content: 'The cat is black.' } });
    // The author reads their own words; the original is untouched.
    expect(await read(ana, chat.id, message.id)).toMatchObject({ content: 'The cat is black.', correction: null });

    // Only a translation can be corrected: the author's own reading has none.
    const refused = await send(ana, 'PUT', `/api/chat/${chat.id}/messages/${message.id}/rendering/`, { content: 'Hello' });
    expect(refused.status).toBe(400);
    expect(errorOn(refused.body, 'content')?.detail).toBe('There is no translation here for you to correct.');
    expect((await send(ben, 'PUT', `/api/chat/${chat.id}/messages/${message.id}/rendering/`, {})).status).toBe(400);

    // Taken back: the machine's text again, for everyone reading so.
    expect((await send(carla, 'DELETE', `/api/chat/${chat.id}/messages/${message.id}/rendering/`)).status).toBe(204);
    expect(await read(ben, chat.id, message.id)).toMatchObject({ content: machine.content, correction: null });

    // An edit of the original makes the correction moot: the new text is translated afresh.
    await send(ben, 'PUT', `/api/chat/${chat.id}/messages/${message.id}/rendering/`, { content: 'Corregido.' });
    expect((await send(ana, 'PATCH', `/api/chat/${chat.id}/messages/${message.id}/`, { content: 'The dog is black.' })).status).toBe(200);
    const again = await eventually(() => read(ben, chat.id, message.id), (m) => done(m) && /perro/i.test(m.content), 30_000);
    expect(again.correction).toBeNull();
  });

  // Issue 31 (4): a removed member's correction stayed, then shown unsigned (`by: null`).
  it('a member removed takes their corrections back, live; owners and admins withdraw anyone’s, plain members only their own', async () => {
    const { ana, ben, carla, chat } = await team();
    const carlaSocket = await connect(server.url, carla);
    sockets.push(carlaSocket);
    expect(await carlaSocket.socket.timeout(5000).emitWithAck('chat:subscribe', { chatId: chat.id })).toEqual({ ok: true });
    const first = await post(ana, chat.id, 'I do not agree with the plan.');
    const second = await post(ana, chat.id, 'The cat is black.');
    const machine = await eventually(() => read(carla, chat.id, first.id), done, 30_000);
    const secondMachine = await eventually(() => read(carla, chat.id, second.id), done, 30_000);
    const evil = 'El pago debe enviarse a https://evil.example/pay hoy';
    expect((await send(ben, 'PUT', `/api/chat/${chat.id}/messages/${first.id}/rendering/`, { content: evil })).status).toBe(200);
    expect(await read(carla, chat.id, first.id)).toMatchObject({ content: evil, correction: { by: { nickName: 'Ben' } } });

    // Removed, even only as having left: the machine's text again for everyone, pushed live, never unsigned.
    const mark = carlaSocket.received.length;
    const benMember = (await ben.client.get(`/api/chat/${chat.id}/member/`)).body;
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/members/${benMember.id}/`)).status).toBe(204);
    const pushed = await carlaSocket.next('message:rendered', (p) => p.message.id === first.id, 5000, mark);
    expect(pushed.message).toMatchObject({ content: machine.content, correction: null });
    expect(await read(carla, chat.id, first.id)).toMatchObject({ content: machine.content, correction: null });

    // A plain member may take back their own group's correction, not withdraw everyone's.
    expect((await send(carla, 'PUT', `/api/chat/${chat.id}/messages/${second.id}/rendering/`, { content: 'El gato es muy negro.' })).status).toBe(200);
    expect((await send(carla, 'DELETE', `/api/chat/${chat.id}/messages/${second.id}/rendering/?everyone=true`)).status).toBe(403);
    expect((await read(carla, chat.id, second.id)).content).toBe('El gato es muy negro.');
    // The owner, who reads English and never sees it, withdraws every reader's correction of the message.
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/messages/${second.id}/rendering/?everyone=true`)).status).toBe(204);
    expect(await read(carla, chat.id, second.id)).toMatchObject({ content: secondMachine.content, correction: null });
    expect((await send(ana, 'DELETE', `/api/chat/${chat.id}/messages/${second.id}/rendering/?everyone=maybe`)).status).toBe(400);
    // A stranger learns nothing.
    const zed = await person(server, 'Zed');
    expect((await send(zed, 'DELETE', `/api/chat/${chat.id}/messages/${second.id}/rendering/?everyone=true`)).status).toBe(404);
  });

  it('applies a new entry to recent messages on request, leaving corrected ones as readers made them', async () => {
    const { ana, ben, carla, chat } = await team();
    const first = await post(ana, chat.id, 'The standup is at ten.');
    const second = await post(ana, chat.id, 'After the standup we eat.');
    const unrelated = await post(ana, chat.id, 'The cat is black.');
    for (const id of [first.id, second.id, unrelated.id]) await eventually(() => read(ben, chat.id, id), done, 30_000);
    await send(ben, 'PUT', `/api/chat/${chat.id}/messages/${second.id}/rendering/`, { content: 'Después de la reunión comemos.' });

    expect((await addEntry(ana, chat.id, { term: 'standup', language: 'en', renderings: [{ language: 'es', text: 'reunión diaria' }] })).status).toBe(201);
    // New messages follow at once; old ones only on request.
    expect((await read(carla, chat.id, first.id)).content).toMatch(/standup/);
    expect((await send(carla, 'POST', `/api/chat/${chat.id}/glossary/apply/`)).status).toBe(403);
    const applied = await send(ana, 'POST', `/api/chat/${chat.id}/glossary/apply/`);
    expect(applied.status).toBe(200);
    // The first message only: the second was corrected, the third holds no term.
    expect(applied.body).toEqual({ queued: 1 });
    const redone = await eventually(() => read(carla, chat.id, first.id), (m) => done(m) && m.content.includes('reunión diaria'), 30_000);
    expect(redone.content).not.toMatch(/standup/);
    expect((await read(carla, chat.id, second.id)).content).toBe('Después de la reunión comemos.');
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

  async function chatWithGlossary() {
    const ana = await person(server, 'Ana');
    const dawn = await person(server, 'Dawn');
    const ben = await person(server, 'Ben');
    const chat = await createChat(ana, { title: 'Team', languages: ['en', 'es'] });
    await addMember(ana, chat.id, dawn);
    await addMember(ana, chat.id, ben);
    await setReading(ben, chat.id, 'es');
    expect((await addEntry(ana, chat.id, { term: 'standup', language: 'en', renderings: [{ language: 'es', text: 'reunión diaria' }] })).status).toBe(201);
    return { ana, ben, chat };
  }
  const asked = (text: string) => standIn.completions().filter((request) => standIn.textOf(request).includes(text));

  it('tells the model the required renderings, never shows it the names, and checks its answer', async () => {
    const { ana, ben, chat } = await chatWithGlossary();
    const message = await post(ana, chat.id, 'Dawn runs the standup (one).');
    const seen = await eventually(() => read(ben, chat.id, message.id), (m) => m.translation === 'done');
    const requests = asked('(one)');
    expect(requests).toHaveLength(1);
    expect(standIn.textOf(requests[0]!)).toBe('⟦0⟧ runs the standup (one).');
    expect(JSON.stringify(requests[0]!.body)).toContain('- \\"standup\\" → es: \\"reunión diaria\\"');
    expect(seen.content).toBe('[es DEFAULT] Dawn runs the reunión diaria (one).');
    expect(seen.missedTerms).toEqual([]);
  });

  it('asks once more when the answer ignores a required rendering', async () => {
    const { ana, ben, chat } = await chatWithGlossary();
    standIn.misbehave('completions', { kind: 'ignore-glossary' }, { when: '(two)' });
    const message = await post(ana, chat.id, 'The standup is short (two).');
    const seen = await eventually(() => read(ben, chat.id, message.id), (m) => m.translation === 'done');
    expect(asked('(two)')).toHaveLength(2);
    expect(seen.content).toBe('[es DEFAULT] The reunión diaria is short (two).');
    expect(seen.missedTerms).toEqual([]);
  });

  it('keeps an answer that ignores it twice, and marks it', async () => {
    const { ana, ben, chat } = await chatWithGlossary();
    standIn.misbehave('completions', { kind: 'ignore-glossary' }, { when: '(three)', times: 2 });
    const message = await post(ana, chat.id, 'The standup is long (three).');
    const seen = await eventually(() => read(ben, chat.id, message.id), (m) => m.translation === 'done');
    expect(asked('(three)')).toHaveLength(2);
    expect(seen.content).toBe('[es DEFAULT] The standup is long (three).');
    expect(seen.missedTerms).toEqual(['standup']);
    // Not cached: the same text is asked again (and followed this time).
    const repeat = await post(ana, chat.id, 'The standup is long (three).');
    const again = await eventually(() => read(ben, chat.id, repeat.id), (m) => m.translation === 'done');
    expect(again.content).toBe('[es DEFAULT] The reunión diaria is long (three).');
    expect(asked('(three)')).toHaveLength(3);
  });
});

describe('in a live room (Apertium, espeak-ng)', () => {
  let standIn: StandIn;
  let server: TestServer;
  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    server = await startServer({ OPENAI_BASE_URL: standIn.baseUrl, TRANSLATION_PROVIDER: 'apertium', STT_PROVIDER: 'openai', TTS_PROVIDER: 'espeak', RATE_LIMIT_MESSAGES: '0' });
  });
  afterAll(async () => {
    await server.close();
    await standIn.close();
  });

  it('a listener’s correction is read and heard by everyone listening the same way', async () => {
    const ana = await person(server, 'Ana');
    const dawn = await person(server, 'Dawn');
    const ben = await person(server, 'Ben');
    const carla = await person(server, 'Carla');
    const room = await createRoom(ana, { title: 'Sync', languages: ['en', 'es'] });
    for (const who of [dawn, ben, carla]) await addParticipant(ana, room.id, who);
    await setListening(ben, room.id, { language: 'es' });
    await setListening(carla, room.id, { language: 'es' });
    expect((await send(ana, 'POST', `/api/rooms/${room.id}/glossary/`, { term: 'standup', language: 'en', renderings: [{ language: 'es', text: 'reunión diaria' }] })).status).toBe(201);
    await setState(ana, room.id, 3002);
    const carlaSocket = await connect(server.url, carla);
    sockets.push(carlaSocket);
    expect(await carlaSocket.socket.timeout(5000).emitWithAck('room:subscribe', { roomId: room.id })).toEqual({ ok: true });

    standIn.transcriptFor('Dawn will lead the standup.');
    const posted = await upload(ana, room.id, uploadForm(toneWav(1.2)));
    expect(posted.status).toBe(201);
    const heard = await carlaSocket.next('segment:rendered', (p) => p.segment.id === posted.body.id && p.segment.speech === 'done', 60_000);
    expect(heard.segment.transcript).toContain('Dawn');
    expect(heard.segment.transcript).toContain('reunión diaria');
    expect(heard.segment.correction).toBeNull();

    const mark = carlaSocket.received.length;
    const corrected = await send(ben, 'PUT', `/api/rooms/${room.id}/segments/${posted.body.id}/rendering/`, { transcript: 'Dawn dirigirá la reunión diaria.' });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect(corrected.body).toMatchObject({ transcript: 'Dawn dirigirá la reunión diaria.', correction: { by: { alias: 'Ben' }, machine: heard.segment.transcript } });
    // Carla reads it, then hears it: the voice is spoken again from the corrected text.
    const revoiced = await carlaSocket.next(
      'segment:rendered',
      (p) => p.segment.id === posted.body.id && p.segment.transcript === 'Dawn dirigirá la reunión diaria.' && p.segment.speech === 'done' && p.segment.audioFile !== heard.segment.audioFile,
      60_000,
      mark,
    );
    expect(revoiced.segment.correction).toMatchObject({ by: { alias: 'Ben' } });
    expect((await carla.client.get(new URL(heard.segment.audioFile).pathname)).status).toBe(404);
    // The speaker's own transcript is untouched.
    expect((await ana.client.get(`/api/rooms/${room.id}/segments/${posted.body.id}/`)).body).toMatchObject({ transcript: 'Dawn will lead the standup.', correction: null });

    // Issue 31 (4): only the owner withdraws everyone's corrections; a participant removed takes theirs back.
    expect((await send(carla, 'DELETE', `/api/rooms/${room.id}/segments/${posted.body.id}/rendering/?everyone=true`)).status).toBe(403);
    const benParticipant = (await ben.client.get(`/api/rooms/${room.id}/participant/`)).body;
    const before = carlaSocket.received.length;
    expect((await send(ana, 'DELETE', `/api/rooms/${room.id}/participants/${benParticipant.id}/?permanent=true`)).status).toBe(204);
    const restored = await carlaSocket.next('segment:rendered', (p) => p.segment.id === posted.body.id && p.segment.correction === null && p.segment.speech === 'done', 60_000, before);
    expect(restored.segment.transcript).toBe(heard.segment.transcript);
    expect((await send(carla, 'PUT', `/api/rooms/${room.id}/segments/${posted.body.id}/rendering/`, { transcript: 'Dawn llevará la reunión diaria.' })).status).toBe(200);
    expect((await send(ana, 'DELETE', `/api/rooms/${room.id}/segments/${posted.body.id}/rendering/?everyone=true`)).status).toBe(204);
    expect((await carla.client.get(`/api/rooms/${room.id}/segments/${posted.body.id}/`)).body).toMatchObject({ transcript: heard.segment.transcript, correction: null });
    standIn.transcriptFor(undefined);
  });
});
