// The floor for bench/chat-read.ts: the least a Node server can do for `GET
// /api/chat/{id}/messages/` on PostgreSQL. Plain Fastify 5 (no logger, no plugins, no schemas)
// and a `pg` Pool of the server's size (10); one route that verifies the HS256 Bearer JWT with
// node:crypto, then runs the real server's four statements for that page: the session check
// (AccountsRepository.isSessionActive), the membership check (ChatsRepository.findMembership),
// the page (ChatsRepository.listMessages for the member's language and tone, with the quotes of
// replies) and the page's reactions (ChatsRepository.reactionsFor). Their SQL is
// captured at start from those very functions through drizzle's logger (lib/bare.ts) and run as
// named prepared statements (BARE_PREPARED=0: unnamed, parsed and planned on every request, as
// drizzle sends the two chat queries); rows come as arrays and are presented as the server's
// presenter does (rendering.ts, for a provider with tones that reaches every language: OpenAI),
// written with JSON.stringify.
//
// Environment: PORT, DATABASE_URL, SECRET_KEY, PUBLIC_URL (avatars, next links), BARE_PREPARED.
// Started as a child process by chat-read.ts: `node --import tsx bench/bare-chat-read.ts`.
import Fastify from 'fastify';
import pg from 'pg';
import { createChatsRepository } from '../apps/server/src/features/chats/repository';
import { createAccountsRepository } from '../apps/server/src/features/accounts/repository';
import { bareEnv, bearer, captureStatement, serveUntilSignalled, UNAUTHORIZED, verifyAccessToken } from './lib/bare';

const NOT_FOUND = JSON.stringify({ type: 'client_error', errors: [{ code: 'not_found', attr: null, detail: 'Not found.' }] });

async function main() {
  const { port, secret, databaseUrl, publicUrl } = bareEnv();
  const prepared = process.env.BARE_PREPARED !== '0';
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });

  // Sentinels: int4 values no row has, and codes no member reads in.
  const session = await captureStatement(pool, { sessionId: 'bench-sentinel-session', userId: 2_147_480_001 }, (db) =>
    createAccountsRepository(db).isSessionActive('bench-sentinel-session', 2_147_480_001),
  );
  const membership = await captureStatement(pool, { chatId: 2_147_480_002, userId: 2_147_480_003 }, (db) =>
    createChatsRepository(db).findMembership(2_147_480_002, 2_147_480_003),
  );
  const page = await captureStatement(pool, { chatId: 2_147_480_004, language: 'bench-sentinel-language', tone: 'bench-sentinel-tone', limit: 2_147_480_005 }, (db) =>
    createChatsRepository(db).listMessages(2_147_480_004, { language: 'bench-sentinel-language', tone: 'bench-sentinel-tone' }, { limit: 2_147_480_005 }),
  );
  const reactionIds = [2_147_480_006];
  const reactionsOf = await captureStatement(pool, { ids: reactionIds }, (db) => createChatsRepository(db).reactionsFor(reactionIds));
  const query = (name: string, text: string, values: unknown[]) =>
    pool.query<unknown[]>(prepared ? { name, text, values, rowMode: 'array' } : { text, values, rowMode: 'array' });

  const member = { id: membership.column('chat_members', 'id'), language: membership.column('chat_members', 'language'), tone: membership.column('chat_members', 'tone') };
  const m = (column: string) => page.column('chat_messages', column);
  const s = (column: string) => page.column('chat_members', column);
  const u = (column: string) => page.column('users', column);
  const r = (column: string) => page.column('message_renderings', column);
  const col = {
    id: m('id'),
    language: m('language'),
    content: m('content'),
    version: m('version'),
    createdAt: m('created_at'),
    editedAt: m('edited_at'),
    senderId: s('id'),
    senderNick: s('nick_name'),
    senderLanguage: s('language'),
    senderRole: s('chat_role'),
    senderTone: s('tone'),
    avatarKey: u('avatar_key'),
    rVersion: r('version'),
    rState: r('state'),
    rContent: r('content'),
    rTone: r('rendered_tone'),
    rMachine: r('machine_content'),
    rMissed: r('missed_terms'),
    quoteId: page.column('quoted', 'id'),
    quoteContent: page.column('quoted', 'content'),
    quoteLanguage: page.column('quoted', 'language'),
    quoteVersion: page.column('quoted', 'version'),
    quoteSenderId: page.column('quoted_sender', 'id'),
    quoteSenderNick: page.column('quoted_sender', 'nick_name'),
    qrState: page.column('quoted_rendering', 'state'),
    qrContent: page.column('quoted_rendering', 'content'),
    qrVersion: page.column('quoted_rendering', 'version'),
  };
  const reaction = {
    messageId: reactionsOf.column('message_reactions', 'message_id'),
    emoji: reactionsOf.column('message_reactions', 'emoji'),
    memberId: reactionsOf.column('message_reactions', 'member_id'),
    nickName: reactionsOf.column('chat_members', 'nick_name'),
  };
  type Reaction = { emoji: string; members: { id: number; nickName: string }[] };

  /** rendering.ts's present() for a reader, with a provider that has tones and reaches every language. */
  const present = (row: unknown[], reader: { memberId: number; language: string; tone: string }, reactions: Map<number, Reaction[]>) => {
    const source = row[col.language] as string;
    const needs = reader.language !== source || reader.tone !== 'DEFAULT';
    const hasRendering = row[col.rState] !== null && row[col.rVersion] === row[col.version];
    const translation = !needs ? 'none' : hasRendering ? (row[col.rState] as string) : 'pending';
    const done = translation === 'done' && row[col.rContent] !== null;
    const created = (row[col.createdAt] as Date).toISOString();
    const avatarKey = row[col.avatarKey] as string | null;
    return {
      id: row[col.id] as number,
      created,
      isMe: row[col.senderId] === reader.memberId,
      language: done ? reader.language : source,
      rawMessage: done ? { id: row[col.id], language: source, content: row[col.content], created } : null,
      sender: {
        id: row[col.senderId],
        nickName: row[col.senderNick],
        language: row[col.senderLanguage],
        chatRole: row[col.senderRole],
        tone: row[col.senderTone],
        avatarImage: avatarKey ? `${publicUrl}/media/${avatarKey}` : null,
      },
      tone: done ? ((row[col.rTone] as string | null) ?? reader.tone) : 'DEFAULT',
      content: done ? row[col.rContent] : row[col.content],
      translation,
      edited: row[col.editedAt] !== null,
      // The seed mentions nobody: neither server reads names.
      mentions: [],
      replyTo: row[col.quoteId] === null ? null : quoteOf(row, reader),
      reactions: reactions.get(row[col.id] as number) ?? [],
      // The seed attaches nothing: the real server reads attachments only for messages that have some.
      attachments: [],
      // The seed corrects nothing: neither server reads correctors' names.
      correction: null,
      missedTerms: done && row[col.rMachine] === null ? ((row[col.rMissed] as string[] | null) ?? []) : [],
    };
  };
  const quoteOf = (row: unknown[], reader: { language: string }) => {
    const done = row[col.qrState] === 'done' && row[col.qrVersion] === row[col.quoteVersion] && row[col.qrContent] !== null;
    return {
      id: row[col.quoteId],
      sender: { id: row[col.quoteSenderId], nickName: row[col.quoteSenderNick] },
      language: done ? reader.language : row[col.quoteLanguage],
      content: done ? row[col.qrContent] : row[col.quoteContent],
      translated: done,
    };
  };

  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string }; Querystring: { limit?: string; toId?: string } }>('/api/chat/:id/messages/', async (request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    const token = bearer(request.headers.authorization);
    const claims = token ? verifyAccessToken(token, secret) : null;
    if (!claims) return reply.code(401).send(UNAUTHORIZED);
    const { userId, sessionId } = claims;
    const active = await query('bare_session', session.text, session.values({ sessionId, userId }));
    if (active.rowCount === 0) return reply.code(401).send(UNAUTHORIZED);
    const chatId = Number(request.params.id);
    const limit = Number(request.query.limit ?? 20);
    if (!Number.isInteger(chatId) || chatId < 1 || !Number.isInteger(limit) || limit < 1 || limit > 100 || request.query.toId !== undefined) {
      return reply.code(404).send(NOT_FOUND);
    }
    const found = await query('bare_membership', membership.text, membership.values({ chatId, userId }));
    const row = found.rows[0];
    if (!row) return reply.code(404).send(NOT_FOUND);
    const reader = { memberId: row[member.id] as number, language: row[member.language] as string, tone: row[member.tone] as string };
    const { rows } = await query('bare_page', page.text, page.values({ chatId, language: reader.language, tone: reader.tone, limit }));
    const reactions = new Map<number, Reaction[]>();
    if (rows.length) {
      const given = await query('bare_reactions', reactionsOf.text, reactionsOf.values({ ids: rows.map((each) => each[col.id] as number) }));
      for (const item of given.rows) {
        const messageId = item[reaction.messageId] as number;
        let list = reactions.get(messageId);
        if (!list) reactions.set(messageId, (list = []));
        let one = list.find((entry) => entry.emoji === item[reaction.emoji]);
        if (!one) list.push((one = { emoji: item[reaction.emoji] as string, members: [] }));
        one.members.push({ id: item[reaction.memberId] as number, nickName: item[reaction.nickName] as string });
      }
    }
    const results = rows.map((each) => present(each, reader, reactions));
    const last = results.at(-1);
    return reply.send(
      JSON.stringify({
        next: results.length === limit && last ? `${publicUrl}/api/chat/${chatId}/messages/?limit=${limit}&toId=${last.id}` : null,
        previous: null,
        results,
      }),
    );
  });

  await serveUntilSignalled(
    app,
    pool,
    port,
    `bare chat-read server listening on ${port} (${prepared ? 'named prepared statements' : 'unnamed statements'})\n${session.text}\n${membership.text}\n${page.text}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
