// Data access of group chats: chats, memberships, messages and their renderings. Every query of a
// chat's content is scoped by chat id; the service has checked the caller's membership before.
import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { withFastRows } from '../../platform/db/fast-rows';
import { groupCommit } from '../../platform/db/group-commit';
import { preparedSql } from '../../platform/db/prepared-sql';
import type { Db } from '../../platform/db/index';
import { SEARCH_CONFIGS, TS_CONFIGS } from '../../platform/db/search';

/** What marks a matched word in a search's texts (never stored: FORBIDDEN_TEXT). */
export const HIT_START = '\u0002';
export const HIT_END = '\u0003';
import { chatMembers, chatMessages, chats, messageAttachments, messageMentions, messageReactions, messageRenderings, pushSubscriptions, users } from '../../platform/db/schema';
import type { ReaderGroup } from '../../domain/rendering/reader-group';

export type ChatRow = typeof chats.$inferSelect;
export type MemberRow = typeof chatMembers.$inferSelect;
export type MessageRow = typeof chatMessages.$inferSelect;
export type RenderingRow = typeof messageRenderings.$inferSelect;
export type RenderingState = RenderingRow['state'];
export type AttachmentRow = typeof messageAttachments.$inferSelect;

/** A member as others see them (a message's sender, a members-list entry). */
export interface MemberView extends MemberRow {
  email: string;
  fullName: string | null;
  avatarKey: string | null;
}

/** The message a reply answers, with its sender and its rendering for one reading group (or all of them). */
export interface QuoteRow {
  message: Pick<MessageRow, 'id' | 'content' | 'language' | 'version'>;
  sender: { id: number; nickName: string };
  rendering: Pick<RenderingRow, 'state' | 'content' | 'version'> | null;
}

/** A message with its sender and, when asked for, the rendering of one (language, tone) and the quote it replies to. */
export interface MessageWithSender {
  message: MessageRow;
  sender: MemberView;
  rendering: RenderingRow | null;
  quote?: QuoteRow | null;
}

/** A reaction as stored, with the reacting member's nickname. */
export interface ReactionRow {
  messageId: number;
  emoji: string;
  memberId: number;
  nickName: string;
}

/** A reading group: the members who read a chat in the same language and tone. */
const memberColumns = {
  id: chatMembers.id,
  chatId: chatMembers.chatId,
  userId: chatMembers.userId,
  chatRole: chatMembers.chatRole,
  nickName: chatMembers.nickName,
  language: chatMembers.language,
  tone: chatMembers.tone,
  lastReadMessage: chatMembers.lastReadMessage,
  muted: chatMembers.muted,
  leftAt: chatMembers.leftAt,
  joinedAt: chatMembers.joinedAt,
  invitedBy: chatMembers.invitedBy,
  createdAt: chatMembers.createdAt,
  email: users.email,
  fullName: users.fullName,
  avatarKey: users.avatarKey,
};

/** Members and invited people who have not left (or declined). */
const active = isNull(chatMembers.leftAt);
/** Members who accepted: they read, post and are rendered for. */
const joined = and(active, isNotNull(chatMembers.joinedAt));
/** The message (chat_messages) mentions the member (chat_members): for unread mention counts. */
const mentionsMember = sql`exists (select 1 from ${messageMentions} where ${messageMentions.messageId} = ${chatMessages.id} and ${messageMentions.memberId} = ${chatMembers.id})`;
/** Timestamps kept to the millisecond, so a JavaScript Date names them exactly (page cursors). */
const nowMs = () => new Date();

/** The rendering of a message version for one reading group. */
const ofGroup = (messageId: number, version: number, group: ReaderGroup) =>
  and(eq(messageRenderings.messageId, messageId), eq(messageRenderings.version, version), eq(messageRenderings.language, group.language), eq(messageRenderings.tone, group.tone));

/** A reader's correction taken back: the rendering it replaced and its group. */
export interface WithdrawnCorrection extends ReaderGroup {
  messageId: number;
}

/** Readers' corrections taken back (the machine's text in place again): those made by members, or all of a message's. */
async function withdrawCorrections(tx: Pick<Db, 'update'>, which: { by: number[] } | { messageId: number }): Promise<WithdrawnCorrection[]> {
  if ('by' in which && which.by.length === 0) return [];
  return tx
    .update(messageRenderings)
    .set({ content: sql`${messageRenderings.machineContent}`, machineContent: null, correctedBy: null, correctedAt: null, updatedAt: new Date() })
    .where(and(isNotNull(messageRenderings.machineContent), 'by' in which ? inArray(messageRenderings.correctedBy, which.by) : eq(messageRenderings.messageId, which.messageId)))
    .returning({ messageId: messageRenderings.messageId, language: messageRenderings.language, tone: messageRenderings.tone });
}

export function createChatsRepository(db: Db) {
  // The statements of every chat call (the membership check, the reading groups, the message
  // pages), prepared once: drizzle builds their SQL once and PostgreSQL plans them once per
  // connection. A membership comes with the member's user columns (a new message's sender view).
  const membership = db
    .select({ chat: chats, member: memberColumns })
    .from(chatMembers)
    .innerJoin(chats, eq(chats.id, chatMembers.chatId))
    .innerJoin(users, eq(users.id, chatMembers.userId))
    .where(and(eq(chatMembers.chatId, sql.placeholder('chatId')), eq(chatMembers.userId, sql.placeholder('userId')), active))
    .limit(1)
    .prepare('chat_membership');
  withFastRows(membership);
  const groups = db
    .selectDistinct({ language: chatMembers.language, tone: chatMembers.tone })
    .from(chatMembers)
    .where(and(eq(chatMembers.chatId, sql.placeholder('chatId')), joined))
    .prepare('chat_reading_groups');
  // The quoted message of a reply, its sender and its rendering for the reader come in the same row.
  const quoted = alias(chatMessages, 'quoted');
  const quotedSender = alias(chatMembers, 'quoted_sender');
  const quotedRendering = alias(messageRenderings, 'quoted_rendering');
  /** The rendering of a message's current text for the reader's (language, tone), given as placeholders. */
  const readersRendering = (
    rendering: { messageId: AnyPgColumn; language: AnyPgColumn; tone: AnyPgColumn; version: AnyPgColumn },
    message: { id: AnyPgColumn; version: AnyPgColumn },
  ) =>
    and(
      eq(rendering.messageId, message.id),
      eq(rendering.language, sql.placeholder('language')),
      eq(rendering.tone, sql.placeholder('tone')),
      eq(rendering.version, message.version),
    );
  const pageQuery = (name: string, extra?: SQL) =>
    db
      .select({
        message: chatMessages,
        sender: memberColumns,
        rendering: messageRenderings,
        quote: { id: quoted.id, content: quoted.content, language: quoted.language, version: quoted.version },
        quoteSender: { id: quotedSender.id, nickName: quotedSender.nickName },
        quoteRendering: { state: quotedRendering.state, content: quotedRendering.content, version: quotedRendering.version },
      })
      .from(chatMessages)
      .innerJoin(chatMembers, eq(chatMembers.id, chatMessages.senderId))
      .innerJoin(users, eq(users.id, chatMembers.userId))
      .leftJoin(messageRenderings, readersRendering(messageRenderings, chatMessages))
      .leftJoin(quoted, eq(quoted.id, chatMessages.replyToId))
      .leftJoin(quotedSender, eq(quotedSender.id, quoted.senderId))
      .leftJoin(quotedRendering, readersRendering(quotedRendering, quoted))
      .where(and(eq(chatMessages.chatId, sql.placeholder('chatId')), extra))
      .orderBy(desc(chatMessages.id))
      .limit(sql.placeholder('limit'))
      .prepare(name);
  type PageRow = Awaited<ReturnType<ReturnType<typeof pageQuery>['execute']>>[number];
  const withQuote = (rows: PageRow[]): MessageWithSender[] =>
    rows.map(({ message, sender, rendering, quote, quoteSender, quoteRendering }) => ({
      message,
      sender,
      rendering,
      quote: quote && quoteSender ? { message: quote, sender: quoteSender, rendering: quoteRendering } : null,
    }));
  // A page is read on every visit: its rows are mapped by a plan made once (platform/db/fast-rows.ts).
  const page = (name: string, extra?: SQL) => withFastRows(pageQuery(name, extra), ['rendering', 'quote', 'quoteSender', 'quoteRendering']);
  const newestPage = page('chat_page');
  const olderPage = page('chat_page_below', lt(chatMessages.id, sql.placeholder('toId')));
  const onePage = page('chat_page_one', eq(chatMessages.id, sql.placeholder('id')));
  const idsPage = page('chat_page_ids', sql`${chatMessages.id} = any(${sql.placeholder('ids')}::int[])`);
  const byClientId = page('chat_page_client', and(eq(chatMessages.senderId, sql.placeholder('senderId')), eq(chatMessages.clientId, sql.placeholder('clientId'))));

  const reactionsQuery = db
    .select({ messageId: messageReactions.messageId, emoji: messageReactions.emoji, memberId: messageReactions.memberId, nickName: chatMembers.nickName })
    .from(messageReactions)
    .innerJoin(chatMembers, eq(chatMembers.id, messageReactions.memberId))
    .where(sql`${messageReactions.messageId} = any(${sql.placeholder('ids')}::int[])`)
    .orderBy(asc(messageReactions.createdAt), asc(messageReactions.memberId))
    .prepare('chat_reactions');
  // Read with every page: its rows mapped by a plan made once.
  withFastRows(reactionsQuery);

  // A search in one statement, prepared once (platform/db/search.ts): candidates from the GIN indexes of
  // the stored documents (`search_vector`, migration 0009), one arm per text-search configuration
  // (the query must be parsed in the document's configuration), originals and renderings alike; then only the searcher's chats, and
  // a rendering counts only when it is theirs (their language and tone, the current text).
  const arms = (table: string) =>
    sql.raw(
      SEARCH_CONFIGS.map((config) => {
        // Which texts a configuration indexed, by their language column (cheaper per row than asking parla_ts_config).
        const stemmed = Object.keys(TS_CONFIGS).map((code) => `'${code}'`);
        const languages = Object.entries(TS_CONFIGS).flatMap(([code, name]) => (name === config ? [`'${code}'`] : []));
        const which = config === 'simple' ? `${table}.language not in (${stemmed.join(', ')})` : `${table}.language in (${languages.join(', ')})`;
        return `(${which} and ${table}.search_vector @@ (select ${config} from search_query))`;
      }).join(' or '),
    );
  // Short fragments around the hits (a few words each), not whole texts: the words that matched
  // are all the answer takes of them, and marking all of a long text cost ~7 ms a message (issue 31).
  const marks = `'StartSel=${HIT_START}, StopSel=${HIT_END}, MaxFragments=3, MaxWords=8, MinWords=3'`;
  const searchQuery = preparedSql<{ id: number; chatId: number; title: string; memberId: number; language: string; tone: string; original: string; rendering: string | null }>(
    db,
    'chat_search',
    sql`with search_query as (
        select q, ${sql.raw(SEARCH_CONFIGS.map((config) => `websearch_to_tsquery('${config}'::regconfig, q) as ${config}`).join(', '))}
        from (select ${sql.placeholder('q')}::text as q) typed
      ), mine as (
        select chat_id from ${chatMembers}
        where user_id = ${sql.placeholder('userId')} and left_at is null and joined_at is not null
          and (${sql.placeholder('chatId')}::int is null or chat_id = ${sql.placeholder('chatId')}::int)
      ), hits as (
        (select m.id from ${chatMessages} m
          where m.chat_id in (select chat_id from mine) and (${sql.placeholder('toId')}::int is null or m.id < ${sql.placeholder('toId')}::int) and (${arms('m')})
          order by m.id desc limit ${sql.placeholder('limit')})
        union
        (select m.id from ${messageRenderings} r
          join ${chatMessages} m on m.id = r.message_id and m.version = r.version
          join ${chatMembers} me on me.chat_id = m.chat_id and me.user_id = ${sql.placeholder('userId')} and me.left_at is null and me.joined_at is not null
            and me.language = r.language and me.tone = r.tone
          where r.state = 'done' and (${sql.placeholder('chatId')}::int is null or m.chat_id = ${sql.placeholder('chatId')}::int)
            and (${sql.placeholder('toId')}::int is null or m.id < ${sql.placeholder('toId')}::int) and (${arms('r')})
          order by m.id desc limit ${sql.placeholder('limit')})
      ), found as (
        select id from hits order by id desc limit ${sql.placeholder('limit')}
      )
      select m.id, m.chat_id as "chatId", c.title, me.id as "memberId", me.language, me.tone,
        ts_headline(parla_ts_config(m.language), m.content, websearch_to_tsquery(parla_ts_config(m.language), (select q from search_query)), ${sql.raw(marks)}) as original,
        case when r.content is not null then ts_headline(parla_ts_config(r.language), r.content, websearch_to_tsquery(parla_ts_config(r.language), (select q from search_query)), ${sql.raw(marks)}) end as rendering
      from found f
      join ${chatMessages} m on m.id = f.id
      join ${chatMembers} me on me.chat_id = m.chat_id and me.user_id = ${sql.placeholder('userId')}
      join ${chats} c on c.id = m.chat_id
      left join ${messageRenderings} r on r.message_id = m.id and r.language = me.language and r.tone = me.tone and r.version = m.version and r.state = 'done'
      order by m.id desc`,
  );

  // A post in one statement, prepared once: the message, the chat's activity time, the sender's
  // read position, and the chat's reading groups (for the post's renderings and live event).
  const insertMessageQuery = preparedSql<{ id: number; version: number; groups: ReaderGroup[] | string; notify: boolean }>(
    db,
    'chat_insert_message',
    sql`with inserted as (
        insert into ${chatMessages} (chat_id, sender_id, language, content, client_id, created_at, reply_to_id, has_attachments)
        values (${sql.placeholder('chatId')}, ${sql.placeholder('senderId')}, ${sql.placeholder('language')}, ${sql.placeholder('content')}, ${sql.placeholder('clientId')}, ${sql.placeholder('createdAt')}, ${sql.placeholder('replyToId')}, ${sql.placeholder('hasAttachments')})
        on conflict (sender_id, client_id) do nothing
        returning id, version
      ), touched as (
        update ${chats} set modified_at = ${sql.placeholder('createdAt')} where id = ${sql.placeholder('chatId')} and exists (select 1 from inserted)
      ), seen as (
        update ${chatMembers} set last_read_message = (select id from inserted) where id = ${sql.placeholder('senderId')} and exists (select 1 from inserted)
      )
      select id, version, (
        select coalesce(jsonb_agg(distinct jsonb_build_object('language', language, 'tone', tone)), '[]'::jsonb)
        from ${chatMembers} where chat_id = ${sql.placeholder('chatId')} and left_at is null and joined_at is not null
      ) as groups, exists (
        select 1 from ${chatMembers} m join ${pushSubscriptions} p on p.user_id = m.user_id
        where m.chat_id = ${sql.placeholder('chatId')} and m.id <> ${sql.placeholder('senderId')} and m.left_at is null and m.joined_at is not null
      ) as notify from inserted`,
  );

  /**
   * A plain post (no reply, attachments or mentions) in one statement: the caller's membership
   * (with their user's columns, the sender's view), the message stored when they are a joined
   * member whose role may post, the chat's activity time and the sender's read position moved,
   * and the chat's reading groups read. The membership comes back even when nothing was stored
   * (invited only, a role that may not post, a clientId used already), for the service to say why.
   * A post that comes alone goes this way (0.7 ms against 1.2 ms the batch statement takes for one).
   */
  const postPlainQuery = preparedSql<Record<string, unknown>>(
    db,
    'chat_post_plain',
    sql`with me as (
        select ${sql.join(
          Object.entries(memberColumns).map(([key, column]) => sql`${column} as ${sql.identifier(key)}`),
          sql`, `,
        )}
        from ${chatMembers} join ${users} on ${users.id} = ${chatMembers.userId}
        where ${chatMembers.chatId} = ${sql.placeholder('chatId')} and ${chatMembers.userId} = ${sql.placeholder('userId')} and ${chatMembers.leftAt} is null
      ), inserted as (
        insert into ${chatMessages} (chat_id, sender_id, language, content, client_id, created_at, reply_to_id, has_attachments)
        select ${sql.placeholder('chatId')}, me."id", me."language", ${sql.placeholder('content')}, ${sql.placeholder('clientId')}, ${sql.placeholder('createdAt')}, null, false
        from me where me."joinedAt" is not null and me."chatRole" = any(${sql.placeholder('roles')}::int[])
        on conflict (sender_id, client_id) do nothing
        returning id, version
      ), touched as (
        update ${chats} set modified_at = ${sql.placeholder('createdAt')} where id = ${sql.placeholder('chatId')} and exists (select 1 from inserted)
      ), seen as (
        update ${chatMembers} set last_read_message = (select id from inserted) where id = (select "id" from me) and exists (select 1 from inserted)
      )
      select me.*, (select id from inserted) as "messageId", (select version from inserted) as "messageVersion", (
        select coalesce(jsonb_agg(distinct jsonb_build_object('language', language, 'tone', tone)), '[]'::jsonb)
        from ${chatMembers} where chat_id = ${sql.placeholder('chatId')} and left_at is null and joined_at is not null
      ) as groups, exists (
        select 1 from ${chatMembers} m join ${pushSubscriptions} p on p.user_id = m.user_id
        where m.chat_id = ${sql.placeholder('chatId')} and m.id <> (select "id" from me) and m.left_at is null and m.joined_at is not null
      ) as notify from me`,
  );
  /**
   * Plain posts (no reply, attachments or mentions) in one statement, any number of them (group
   * commit: those arriving together are written together, platform/db/group-commit.ts): for each post
   * (its `ord`, 1-based) the caller's membership (with their user's columns, the sender's view),
   * the message stored when they are a joined member whose role may post, the chats' activity times
   * and the senders' read positions moved, and the chat's reading groups read. A membership comes
   * back even when nothing was stored (invited only, a role that may not post, a clientId used
   * already), for the service to say why; a stranger's or leaver's post has no row. The ids are
   * drawn in the posts' order, so a chat's messages keep the order they came in.
   */
  const postPlainBatchQuery = preparedSql<Record<string, unknown>>(
    db,
    'chat_post_plain_batch',
    sql`with input as (
        select * from unnest(${sql.placeholder('chatIds')}::int[], ${sql.placeholder('userIds')}::int[], ${sql.placeholder('contents')}::text[],
          ${sql.placeholder('clientIds')}::text[], ${sql.placeholder('createdAts')}::timestamptz[]) with ordinality as i(chat_id, user_id, content, client_id, created_at, ord)
      ), me as (
        -- Each post's membership by its key (lateral, limit 1: looked up by index per post, never a join over all users).
        select i.ord, found.* from input i cross join lateral (
          select ${sql.join(
            Object.entries(memberColumns).map(([key, column]) => sql`${column} as ${sql.identifier(key)}`),
            sql`, `,
          )}
          from ${chatMembers} join ${users} on ${users.id} = ${chatMembers.userId}
          where ${chatMembers.chatId} = i.chat_id and ${chatMembers.userId} = i.user_id and ${chatMembers.leftAt} is null
          limit 1
        ) found
      ), allowed as (
        select ord, row_number() over (order by ord) as n from me
        where me."joinedAt" is not null and me."chatRole" = any(${sql.placeholder('roles')}::int[])
      ), ids as (
        select id, row_number() over (order by id) as n from (select nextval('chat_messages_id_seq'::regclass) as id from allowed) drawn
      ), assigned as (
        select a.ord, ids.id from allowed a join ids using (n)
      ), inserted as (
        insert into ${chatMessages} (id, chat_id, sender_id, language, content, client_id, created_at, reply_to_id, has_attachments)
        select assigned.id, i.chat_id, me."id", me."language", i.content, i.client_id, i.created_at, null, false
        from assigned join input i using (ord) join me using (ord)
        order by assigned.id
        on conflict (sender_id, client_id) do nothing
        returning id, version, chat_id, sender_id, created_at
      ), chats_locked as (
        -- Rows of several chats and senders: locked in id order, so that two batches sharing some never wait for each other in a cycle.
        select c.id, latest.at from ${chats} c join (select chat_id, max(created_at) as at from inserted group by chat_id) latest on latest.chat_id = c.id
        order by c.id for no key update of c
      ), touched as (
        update ${chats} set modified_at = l.at from chats_locked l where ${chats.id} = l.id
      ), senders_locked as (
        select m.id, latest.id as message_id from ${chatMembers} m join (select sender_id, max(id) as id from inserted group by sender_id) latest on latest.sender_id = m.id
        order by m.id for no key update of m
      ), seen as (
        update ${chatMembers} set last_read_message = l.message_id from senders_locked l where ${chatMembers.id} = l.id
      )
      select me.*, inserted.id as "messageId", inserted.version as "messageVersion", (
        select coalesce(jsonb_agg(distinct jsonb_build_object('language', language, 'tone', tone)), '[]'::jsonb)
        from ${chatMembers} where chat_id = me."chatId" and left_at is null and joined_at is not null
      ) as groups, exists (
        select 1 from ${chatMembers} m join ${pushSubscriptions} p on p.user_id = m.user_id
        where m.chat_id = me."chatId" and m.id <> me."id" and m.left_at is null and m.joined_at is not null
      ) as notify
      from me left join assigned using (ord) left join inserted on inserted.id = assigned.id`,
  );
  interface PlainPost {
    chatId: number;
    userId: number;
    content: string;
    clientId: string | null;
    createdAt: Date;
    /** The roles that may post: the service's one list, so one for the whole batch. */
    roles: readonly number[];
  }
  const postPlainBatch = groupCommit(
    async (posts: PlainPost[]): Promise<(Record<string, unknown> | undefined)[]> => {
      // Other lists of roles in one batch: an error, and group commit writes each post alone.
      if (posts.some((post) => post.roles !== posts[0]!.roles)) throw new Error('plain posts with different roles in one batch');
      if (posts.length === 1) {
        const [post] = posts as [PlainPost];
        const [row] = await postPlainQuery.execute({ ...post, roles: [...post.roles], createdAt: post.createdAt.toISOString() });
        return [row];
      }
      const rows = await postPlainBatchQuery.execute({
        chatIds: posts.map((post) => post.chatId),
        userIds: posts.map((post) => post.userId),
        contents: posts.map((post) => post.content),
        clientIds: posts.map((post) => post.clientId),
        createdAts: posts.map((post) => post.createdAt.toISOString()),
        roles: [...posts[0]!.roles],
      });
      const byOrd = new Map(rows.map((row) => [Number(row['ord']), row]));
      return posts.map((_, index) => byOrd.get(index + 1));
    },
    // Two in flight: posts that meet at light load are not written one after the other.
    { maxBatch: 100, maxInFlight: 2, key: (post) => post.chatId },
  );
  /** A membership row of postPlainQuery as drizzle maps these columns (the drivers differ in dates and JSON). */
  const memberOf = (row: Record<string, unknown>): MemberView => {
    const member: Record<string, unknown> = {};
    for (const [key, column] of Object.entries(memberColumns)) {
      const value = row[key];
      member[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return member as unknown as MemberView;
  };
  const groupsOf = (value: unknown): ReaderGroup[] => (typeof value === 'string' ? (JSON.parse(value) as ReaderGroup[]) : (value as ReaderGroup[]));
  const isTrue = (value: unknown) => value === true || value === 't';

  return {
    async createWithOwner(
      chat: { title: string; description: string | null; languages: string[] },
      owner: { userId: number; chatRole: number; nickName: string; language: string },
    ): Promise<{ chat: ChatRow; member: MemberRow }> {
      return db.transaction(async (tx) => {
        const now = nowMs();
        const [created] = await tx.insert(chats).values({ ...chat, createdAt: now, modifiedAt: now }).returning();
        if (!created) throw new Error('chat insert returned nothing');
        const [member] = await tx.insert(chatMembers).values({ ...owner, chatId: created.id }).returning();
        if (!member) throw new Error('member insert returned nothing');
        return { chat: created, member };
      });
    },

    /**
     * The caller's membership of a chat (joined or invited), with the chat; undefined for
     * strangers and those who left.
     */
    async findMembership(chatId: number, userId: number): Promise<{ chat: ChatRow; member: MemberView } | undefined> {
      const [row] = await membership.execute({ chatId, userId });
      return row;
    },

    /**
     * The user's chats, most recent activity first, modified before `before`: each with the
     * member's row, the newest message (its sender and its rendering for the member's reading
     * group) and how many messages others wrote after the member's last read one.
     */
    /** Messages others wrote after the user's last read one, over every chat they joined, and the chats holding them. */
    async unreadSummary(userId: number): Promise<{ messages: number; chats: number; mentions: number }> {
      const rows = await db
        .select({ chatId: chatMembers.chatId, unread: sql<number>`count(*)::int`, mentions: sql<number>`count(*) filter (where ${mentionsMember})::int` })
        .from(chatMembers)
        .innerJoin(
          chatMessages,
          and(
            eq(chatMessages.chatId, chatMembers.chatId),
            gt(chatMessages.id, sql`coalesce(${chatMembers.lastReadMessage}, 0)`),
            ne(chatMessages.senderId, chatMembers.id),
          ),
        )
        .where(and(eq(chatMembers.userId, userId), joined))
        .groupBy(chatMembers.chatId);
      return {
        messages: rows.reduce((sum, row) => sum + Number(row.unread), 0),
        chats: rows.length,
        mentions: rows.reduce((sum, row) => sum + Number(row.mentions), 0),
      };
    },

    async listForUser(userId: number, before: { modified: Date; id?: number | undefined } | undefined, limit: number) {
      const last = db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.chatId, chats.id))
        .orderBy(desc(chatMessages.id))
        .limit(1)
        .as('last_message');
      const lastSender = alias(chatMembers, 'last_sender');
      const lastSenderUser = alias(users, 'last_sender_user');
      const unread = sql<number>`(select count(*)::int from ${chatMessages} where ${chatMessages.chatId} = ${chats.id}
        and ${chatMessages.id} > coalesce(${chatMembers.lastReadMessage}, 0) and ${chatMessages.senderId} <> ${chatMembers.id})`;
      const unreadMentions = sql<number>`(select count(*)::int from ${chatMessages} where ${chatMessages.chatId} = ${chats.id}
        and ${chatMessages.id} > coalesce(${chatMembers.lastReadMessage}, 0) and ${chatMessages.senderId} <> ${chatMembers.id} and ${mentionsMember})`;
      const rows = await db
        .select({
          chat: chats,
          member: chatMembers,
          unreadCount: unread,
          unreadMentions,
          message: {
            id: last.id,
            chatId: last.chatId,
            senderId: last.senderId,
            language: last.language,
            content: last.content,
            clientId: last.clientId,
            version: last.version,
            createdAt: last.createdAt,
            editedAt: last.editedAt,
            replyToId: last.replyToId,
          },
          sender: lastSender,
          senderUser: { email: lastSenderUser.email, fullName: lastSenderUser.fullName, avatarKey: lastSenderUser.avatarKey },
          rendering: messageRenderings,
        })
        .from(chatMembers)
        .innerJoin(chats, eq(chats.id, chatMembers.chatId))
        .leftJoinLateral(last, sql`true`)
        .leftJoin(lastSender, eq(lastSender.id, last.senderId))
        .leftJoin(lastSenderUser, eq(lastSenderUser.id, lastSender.userId))
        .leftJoin(
          messageRenderings,
          and(
            eq(messageRenderings.messageId, last.id),
            eq(messageRenderings.language, chatMembers.language),
            eq(messageRenderings.tone, chatMembers.tone),
            eq(messageRenderings.version, last.version),
          ),
        )
        .where(
          and(
            eq(chatMembers.userId, userId),
            joined,
            before
              ? before.id
                ? or(lt(chats.modifiedAt, before.modified), and(eq(chats.modifiedAt, before.modified), lt(chats.id, before.id)))
                : lt(chats.modifiedAt, before.modified)
              : undefined,
          ),
        )
        .orderBy(desc(chats.modifiedAt), desc(chats.id))
        .limit(limit);
      return rows.map((row) => ({
        chat: row.chat,
        member: row.member,
        unreadCount: row.unreadCount,
        unreadMentions: row.unreadMentions,
        last:
          row.message?.id != null && row.sender && row.senderUser
            ? ({ message: row.message as MessageRow, sender: { ...row.sender, ...row.senderUser } as MemberView, rendering: row.rendering } satisfies MessageWithSender)
            : null,
      }));
    },

    /** The user's pending invitations, newest first, with their chats. */
    async invitationsFor(userId: number, limit: number): Promise<{ chat: ChatRow; member: MemberRow }[]> {
      return db
        .select({ chat: chats, member: chatMembers })
        .from(chatMembers)
        .innerJoin(chats, eq(chats.id, chatMembers.chatId))
        .where(and(eq(chatMembers.userId, userId), active, isNull(chatMembers.joinedAt)))
        .orderBy(desc(chatMembers.createdAt), desc(chatMembers.id))
        .limit(limit);
    },

    /** The invited member accepts: joined now, shown and reading as `values` say; undefined when not invited. */
    async acceptInvitation(memberId: number, values: Pick<MemberRow, 'nickName' | 'language'>): Promise<MemberRow | undefined> {
      const [row] = await db
        .update(chatMembers)
        .set({ ...values, joinedAt: new Date() })
        .where(and(eq(chatMembers.id, memberId), active, isNull(chatMembers.joinedAt)))
        .returning();
      return row;
    },

    async updateChat(chatId: number, values: Partial<Pick<ChatRow, 'title' | 'description' | 'languages'>>): Promise<ChatRow | undefined> {
      const [row] = await db.update(chats).set(values).where(eq(chats.id, chatId)).returning();
      return row;
    },

    async deleteChat(chatId: number) {
      await db.delete(chats).where(eq(chats.id, chatId));
    },

    async updateMember(memberId: number, values: Partial<Pick<MemberRow, 'nickName' | 'language' | 'tone' | 'lastReadMessage' | 'chatRole' | 'muted'>>) {
      const [row] = await db.update(chatMembers).set(values).where(eq(chatMembers.id, memberId)).returning();
      return row;
    },

    /** Active members of a chat by id (others, and members of other chats, are left out). */
    async findMembers(chatId: number, memberIds: number[]): Promise<MemberView[]> {
      if (memberIds.length === 0) return [];
      return db
        .select(memberColumns)
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(and(eq(chatMembers.chatId, chatId), inArray(chatMembers.id, memberIds), active));
    },

    /** Who a message may notify: the chat's other joined members with their account's languages, the chat's title and the sender's name. */
    async notificationAudience(chatId: number, senderId: number) {
      const [chat] = await db.select({ title: chats.title }).from(chats).where(eq(chats.id, chatId));
      const rows = await db
        .select({
          memberId: chatMembers.id,
          userId: chatMembers.userId,
          nickName: chatMembers.nickName,
          language: chatMembers.language,
          tone: chatMembers.tone,
          muted: chatMembers.muted,
          interfaceLanguage: users.language,
        })
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(and(eq(chatMembers.chatId, chatId), active, isNotNull(chatMembers.joinedAt)));
      const sender = rows.find((row) => row.memberId === senderId);
      return { title: chat?.title ?? '', senderName: sender?.nickName ?? '', recipients: rows.filter((row) => row.memberId !== senderId) };
    },

    /**
     * How the chat's joined members are named: the nicknames shown there, and with `fullNames`
     * their accounts' full names too (what translation protects; never listed to members).
     */
    async memberNames(chatId: number, fullNames: boolean): Promise<string[]> {
      const rows = await db
        .select({ nickName: chatMembers.nickName, fullName: users.fullName })
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(and(eq(chatMembers.chatId, chatId), joined));
      return rows.flatMap((row) => (fullNames && row.fullName ? [row.nickName, row.fullName] : [row.nickName]));
    },

    async activeUserIds(chatId: number): Promise<number[]> {
      const rows = await db.select({ userId: chatMembers.userId }).from(chatMembers).where(and(eq(chatMembers.chatId, chatId), active));
      return rows.map((row) => row.userId);
    },

    /**
     * Members list, the invited included: `q` matches e-mail, full name or nickname
     * (case-insensitive); an invited member's full name is not searched (it is not shown either).
     */
    async listMembers(chatId: number, query: { offset: number; limit: number; q?: string | undefined }) {
      const conditions: SQL[] = [eq(chatMembers.chatId, chatId), active];
      if (query.q) {
        const pattern = `%${query.q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
        conditions.push(or(ilike(users.email, pattern), and(isNotNull(chatMembers.joinedAt), ilike(users.fullName, pattern)), ilike(chatMembers.nickName, pattern))!);
      }
      const where = and(...conditions);
      const [counted] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(where);
      const count = counted?.n ?? 0;
      if (count === 0 || query.offset >= count) return { count, rows: [] as MemberView[] };
      const rows = await db
        .select(memberColumns)
        .from(chatMembers)
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(where)
        .orderBy(asc(chatMembers.chatRole), asc(chatMembers.id))
        .limit(query.limit)
        .offset(query.offset);
      return { count, rows };
    },

    /**
     * Invites a user to a chat, or invites back one who had left (history kept); undefined when
     * they are a member or invited already.
     */
    async addMember(values: { chatId: number; userId: number; chatRole: number; nickName: string; language: string; invitedBy: string }): Promise<MemberRow | undefined> {
      const [row] = await db
        .insert(chatMembers)
        .values({ ...values, joinedAt: null })
        .onConflictDoUpdate({
          target: [chatMembers.chatId, chatMembers.userId],
          set: { chatRole: values.chatRole, nickName: values.nickName, invitedBy: values.invitedBy, leftAt: null, joinedAt: null },
          setWhere: sql`${chatMembers.leftAt} is not null`,
        })
        .returning();
      return row;
    },

    /**
     * Removes members: kept as having left (history kept), or for good with their messages
     * (`permanent`). Either way the corrections they made of others' renderings are taken back
     * (their words no longer stand for the machine's, nor unsigned). Answers those removed, the ids
     * of the messages that went with them, the files of what went and the corrections taken back.
     */
    async removeMembers(
      chatId: number,
      memberIds: number[],
      permanent: boolean,
    ): Promise<{ removed: MemberRow[]; messageIds: number[]; fileKeys: string[]; withdrawn: WithdrawnCorrection[] }> {
      if (memberIds.length === 0) return { removed: [], messageIds: [], fileKeys: [], withdrawn: [] };
      const where = and(eq(chatMembers.chatId, chatId), inArray(chatMembers.id, memberIds));
      if (!permanent) {
        return db.transaction(async (tx) => {
          const removed = await tx.update(chatMembers).set({ leftAt: new Date() }).where(and(where, active)).returning();
          const withdrawn = await withdrawCorrections(tx, { by: removed.map((member) => member.id) });
          return { removed, messageIds: [], fileKeys: [], withdrawn };
        });
      }
      return db.transaction(async (tx) => {
        const withdrawn = await withdrawCorrections(tx, { by: memberIds });
        // Their uploads, sent or not, go with them.
        const files = await tx
          .select({ fileKey: messageAttachments.fileKey, thumbnailKey: messageAttachments.thumbnailKey })
          .from(messageAttachments)
          .where(and(eq(messageAttachments.chatId, chatId), inArray(messageAttachments.uploaderId, memberIds)));
        const gone = await tx
          .delete(chatMessages)
          .where(and(eq(chatMessages.chatId, chatId), inArray(chatMessages.senderId, memberIds)))
          .returning({ id: chatMessages.id });
        const removed = await tx.delete(chatMembers).where(where).returning();
        const fileKeys = files.flatMap((file) => (file.thumbnailKey ? [file.fileKey, file.thumbnailKey] : [file.fileKey]));
        const messageIds = gone.map((message) => message.id);
        return { removed, messageIds, fileKeys, withdrawn: withdrawn.filter((item) => !messageIds.includes(item.messageId)) };
      });
    },

    /** Makes `toMemberId` the owner and the current owner an ADMIN, in one transaction. */
    async handOver(chatId: number, fromMemberId: number, toMemberId: number, ownerRole: number, formerOwnerRole: number) {
      await db.transaction(async (tx) => {
        await tx.update(chatMembers).set({ chatRole: formerOwnerRole }).where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.id, fromMemberId)));
        await tx.update(chatMembers).set({ chatRole: ownerRole }).where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.id, toMemberId)));
      });
    },

    /** Who inherits a chat when its owner leaves: the longest-standing admin, else member (never one still invited). */
    async successor(chatId: number, excludingMemberId: number): Promise<MemberRow | undefined> {
      const [row] = await db
        .select()
        .from(chatMembers)
        .where(and(eq(chatMembers.chatId, chatId), joined, ne(chatMembers.id, excludingMemberId)))
        .orderBy(asc(chatMembers.chatRole), asc(chatMembers.id))
        .limit(1);
      return row;
    },

    /** The distinct (language, tone) of a chat's joined members: its reading groups. */
    async readingGroups(chatId: number): Promise<ReaderGroup[]> {
      return groups.execute({ chatId });
    },

    /**
     * Stores a message, moves the chat's activity time and the sender's read position, and reads the
     * chat's reading groups, in one statement; undefined when this sender already used this
     * `clientId` (see `messageByClientId`).
     */
    async insertMessage(values: {
      chatId: number;
      senderId: number;
      language: string;
      content: string;
      clientId: string | null;
      replyToId: number | null;
      hasAttachments: boolean;
    }): Promise<{ message: MessageRow; groups: ReaderGroup[]; notify: boolean } | undefined> {
      const now = nowMs();
      const [row] = await insertMessageQuery.execute({ ...values, createdAt: now.toISOString() });
      if (!row) return undefined;
      // The reading groups come in the same statement (a post is one round trip fewer); JSON is parsed by one driver and not the other.
      const groups = typeof row.groups === 'string' ? (JSON.parse(row.groups) as ReaderGroup[]) : row.groups;
      // `notify`: another member has a device subscribed to notifications (else no notification job).
      return { message: { ...values, id: Number(row.id), version: Number(row.version), createdAt: now, editedAt: null }, groups, notify: row.notify === true || (row.notify as unknown) === 't' };
    },

    /**
     * A plain post (see postPlainQuery): undefined for a stranger or one who left; else their
     * membership, and the message with the chat's reading groups when it was stored.
     */
    async postPlain(values: {
      chatId: number;
      userId: number;
      content: string;
      clientId: string | null;
      /** The roles that may post. */
      roles: readonly number[];
    }): Promise<{ member: MemberView; inserted: { message: MessageRow; groups: ReaderGroup[]; notify: boolean } | undefined } | undefined> {
      const now = nowMs();
      const row = await postPlainBatch({ ...values, createdAt: now });
      if (!row) return undefined;
      const member = memberOf(row);
      if (row['messageId'] === null || row['messageId'] === undefined) return { member, inserted: undefined };
      const message: MessageRow = {
        id: Number(row['messageId']),
        chatId: values.chatId,
        senderId: member.id,
        language: member.language,
        content: values.content,
        clientId: values.clientId,
        replyToId: null,
        hasAttachments: false,
        version: Number(row['messageVersion']),
        createdAt: now,
        editedAt: null,
      };
      return { member, inserted: { message, groups: groupsOf(row['groups']), notify: isTrue(row['notify']) } };
    },

    /** The message a sender stored with a `clientId` (a repeated post), as `reader` sees it. */
    async messageByClientId(chatId: number, group: ReaderGroup, senderId: number, clientId: string): Promise<MessageWithSender | undefined> {
      const [row] = withQuote(await byClientId.execute({ chatId, language: group.language, tone: group.tone, limit: 1, senderId, clientId }));
      return row;
    },

    async findMessage(chatId: number, messageId: number): Promise<MessageRow | undefined> {
      const [row] = await db
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.id, messageId)))
        .limit(1);
      return row;
    },

    async findMessageById(messageId: number): Promise<(MessageRow & { chatLanguages: string[] }) | undefined> {
      const [row] = await db
        .select({ message: chatMessages, chatLanguages: chats.languages })
        .from(chatMessages)
        .innerJoin(chats, eq(chats.id, chatMessages.chatId))
        .where(eq(chatMessages.id, messageId))
        .limit(1);
      return row ? { ...row.message, chatLanguages: row.chatLanguages } : undefined;
    },

    /** New text: the version moves on, so renderings of the old text are no longer shown. */
    async editMessage(messageId: number, content: string): Promise<MessageRow | undefined> {
      const [row] = await db
        .update(chatMessages)
        .set({ content, version: sql`${chatMessages.version} + 1`, editedAt: new Date() })
        .where(eq(chatMessages.id, messageId))
        .returning();
      return row;
    },

    async deleteMessage(messageId: number) {
      await db.delete(chatMessages).where(eq(chatMessages.id, messageId));
    },

    /**
     * A page of messages, newest first, below `toId`, each with its sender and its rendering in
     * (language, tone) for the current text version.
     */
    async listMessages(
      chatId: number,
      group: ReaderGroup,
      query: { limit: number; toId?: number | undefined; id?: number | undefined },
    ): Promise<MessageWithSender[]> {
      const args = { chatId, language: group.language, tone: group.tone, limit: query.limit };
      if (query.id) return withQuote(await onePage.execute({ ...args, id: query.id }));
      if (query.toId) return withQuote(await olderPage.execute({ ...args, toId: query.toId }));
      return withQuote(await newestPage.execute(args));
    },

    /** One message with its sender and the renderings of its current version (for live pushes). */
    async messageForGroups(messageId: number) {
      const [row] = await db
        .select({ message: chatMessages, sender: memberColumns })
        .from(chatMessages)
        .innerJoin(chatMembers, eq(chatMembers.id, chatMessages.senderId))
        .innerJoin(users, eq(users.id, chatMembers.userId))
        .where(eq(chatMessages.id, messageId))
        .limit(1);
      if (!row) return undefined;
      const renderings = await db
        .select()
        .from(messageRenderings)
        .where(and(eq(messageRenderings.messageId, messageId), eq(messageRenderings.version, row.message.version)));
      return { ...row, renderings };
    },

    /** Renderings of one message version. */
    async renderings(messageId: number, version: number): Promise<RenderingRow[]> {
      return db
        .select()
        .from(messageRenderings)
        .where(and(eq(messageRenderings.messageId, messageId), eq(messageRenderings.version, version)));
    },

    /**
     * Marks these (message, group) renderings pending unless one exists for the current version;
     * returns the message ids that got a new pending rendering (they need a job).
     */
    async markPending(items: { messageId: number; version: number; language: string; tone: string }[]): Promise<number[]> {
      if (items.length === 0) return [];
      const rows = await db
        .insert(messageRenderings)
        .values(items.map((item) => ({ ...item, state: 'pending' as const })))
        .onConflictDoUpdate({
          target: [messageRenderings.messageId, messageRenderings.language, messageRenderings.tone],
          // A new text: the old rendering, and any reader's correction of it, no longer apply.
          set: { state: 'pending', version: sql`excluded.version`, content: null, renderedTone: null, machineContent: null, correctedBy: null, correctedAt: null, missedTerms: null, updatedAt: new Date() },
          setWhere: sql`${messageRenderings.version} <> excluded.version`,
        })
        .returning({ messageId: messageRenderings.messageId });
      return [...new Set(rows.map((row) => row.messageId))];
    },

    /**
     * Writes renderings of a message version (done, failed, none), never over a newer version nor
     * over a reader's correction of the same version.
     */
    async saveRenderings(
      items: { messageId: number; version: number; language: string; tone: string; state: RenderingState; content: string | null; renderedTone: string | null; missedTerms?: string[] | null }[],
    ) {
      if (items.length === 0) return;
      await db
        .insert(messageRenderings)
        .values(items.map((item) => ({ ...item, missedTerms: item.missedTerms?.length ? item.missedTerms : null, updatedAt: new Date() })))
        .onConflictDoUpdate({
          target: [messageRenderings.messageId, messageRenderings.language, messageRenderings.tone],
          set: {
            state: sql`excluded.state`,
            version: sql`excluded.version`,
            content: sql`excluded.content`,
            renderedTone: sql`excluded.rendered_tone`,
            missedTerms: sql`excluded.missed_terms`,
            machineContent: null,
            correctedBy: null,
            correctedAt: null,
            updatedAt: sql`excluded.updated_at`,
          },
          setWhere: sql`${messageRenderings.version} < excluded.version or (${messageRenderings.version} = excluded.version and ${messageRenderings.machineContent} is null)`,
        });
    },

    /**
     * A reader's correction of the done rendering of a message version for their group: the
     * machine's text is kept aside (once: a second correction keeps the first machine text).
     * Undefined when there is no such rendering.
     */
    async correctRendering(messageId: number, version: number, group: ReaderGroup, content: string, memberId: number): Promise<RenderingRow | undefined> {
      const [row] = await db
        .update(messageRenderings)
        .set({ machineContent: sql`coalesce(${messageRenderings.machineContent}, ${messageRenderings.content})`, content, correctedBy: memberId, correctedAt: new Date(), updatedAt: new Date() })
        .where(
          and(ofGroup(messageId, version, group), eq(messageRenderings.state, 'done')),
        )
        .returning();
      return row;
    },

    /** Every reader's correction of a message taken back (an owner's or admin's withdrawal). */
    withdrawCorrectionsOf: (messageId: number) => withdrawCorrections(db, { messageId }),

    /** The machine's text back in place of a correction; false when the rendering was not corrected. */
    async restoreRendering(messageId: number, version: number, group: ReaderGroup): Promise<boolean> {
      const rows = await db
        .update(messageRenderings)
        .set({ content: sql`${messageRenderings.machineContent}`, machineContent: null, correctedBy: null, correctedAt: null, updatedAt: new Date() })
        .where(
          and(ofGroup(messageId, version, group), isNotNull(messageRenderings.machineContent)),
        )
        .returning({ messageId: messageRenderings.messageId });
      return rows.length > 0;
    },

    /** The chat's newest messages with text (for "apply the glossary to recent messages"). */
    async recentTexts(chatId: number, limit: number): Promise<Pick<MessageRow, 'id' | 'content' | 'language' | 'version'>[]> {
      return db
        .select({ id: chatMessages.id, content: chatMessages.content, language: chatMessages.language, version: chatMessages.version })
        .from(chatMessages)
        .where(and(eq(chatMessages.chatId, chatId), sql`${chatMessages.content} <> ''`))
        .orderBy(desc(chatMessages.id))
        .limit(limit);
    },

    /**
     * Sets these messages' renderings of their current text pending again (a render job makes
     * them anew); those a reader corrected stay as they are. Returns the messages concerned.
     */
    async renderAgain(messageIds: number[]): Promise<number[]> {
      if (messageIds.length === 0) return [];
      const rows = await db
        .update(messageRenderings)
        .set({ state: 'pending', updatedAt: new Date() })
        .where(
          and(
            inArray(messageRenderings.messageId, messageIds),
            isNull(messageRenderings.machineContent),
            inArray(messageRenderings.state, ['done', 'failed']),
            sql`${messageRenderings.version} = (select ${chatMessages.version} from ${chatMessages} where ${chatMessages.id} = ${messageRenderings.messageId})`,
          ),
        )
        .returning({ messageId: messageRenderings.messageId });
      return [...new Set(rows.map((row) => row.messageId))];
    },

    /** Pending renderings of a message version that are still pending (to fail them for good). */
    async pendingRenderings(messageId: number, version: number): Promise<RenderingRow[]> {
      return db
        .select()
        .from(messageRenderings)
        .where(and(eq(messageRenderings.messageId, messageId), eq(messageRenderings.version, version), eq(messageRenderings.state, 'pending')));
    },

    /** Sets the members a message mentions (replacing those of an earlier version). */
    async setMentions(messageId: number, memberIds: number[], replace: boolean) {
      if (replace) await db.delete(messageMentions).where(eq(messageMentions.messageId, messageId));
      if (memberIds.length) await db.insert(messageMentions).values(memberIds.map((memberId) => ({ messageId, memberId }))).onConflictDoNothing();
    },

    /** Nicknames of a chat's active members by id (a mention shows the current name). */
    async nickNames(chatId: number, memberIds: number[]): Promise<Map<number, string>> {
      if (memberIds.length === 0) return new Map();
      const rows = await db
        .select({ id: chatMembers.id, nickName: chatMembers.nickName })
        .from(chatMembers)
        .where(and(eq(chatMembers.chatId, chatId), inArray(chatMembers.id, memberIds), active));
      return new Map(rows.map((row) => [row.id, row.nickName]));
    },

    /** The quoted message of a reply with its sender and every rendering of its current version (a live push, one view per group). */
    async quoteForGroups(messageId: number): Promise<{ quote: Omit<QuoteRow, 'rendering'>; renderings: RenderingRow[] } | undefined> {
      const [row] = await db
        .select({ message: { id: chatMessages.id, content: chatMessages.content, language: chatMessages.language, version: chatMessages.version }, sender: { id: chatMembers.id, nickName: chatMembers.nickName } })
        .from(chatMessages)
        .innerJoin(chatMembers, eq(chatMembers.id, chatMessages.senderId))
        .where(eq(chatMessages.id, messageId))
        .limit(1);
      if (!row) return undefined;
      return { quote: row, renderings: await this.renderings(messageId, row.message.version) };
    },

    /**
     * Messages of the user's chats (or of one) whose original or whose rendering for the user
     * matches `q`, newest first below `toId`: each with the member reading it and the matched
     * texts with their hits marked (HIT_START/HIT_END).
     */
    async search(userId: number, q: string, options: { chatId?: number | undefined; toId?: number | undefined; limit: number }) {
      return searchQuery.execute({ userId, q, chatId: options.chatId ?? null, toId: options.toId ?? null, limit: options.limit });
    },

    /** These messages of a chat as `group` reads them (the page's shape), newest first. */
    async messagesByIds(chatId: number, group: ReaderGroup, ids: number[]): Promise<MessageWithSender[]> {
      if (ids.length === 0) return [];
      return withQuote(await idsPage.execute({ chatId, language: group.language, tone: group.tone, limit: ids.length, ids }));
    },

    async insertAttachment(values: Omit<typeof messageAttachments.$inferInsert, 'id' | 'createdAt' | 'messageId'>): Promise<AttachmentRow> {
      const [row] = await db.insert(messageAttachments).values(values).returning();
      if (!row) throw new Error('attachment insert returned nothing');
      return row;
    },

    /** Of these ids, the uploads of this member in this chat not in a message yet. */
    async unattached(chatId: number, memberId: number, ids: number[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(messageAttachments)
        .where(and(eq(messageAttachments.chatId, chatId), eq(messageAttachments.uploaderId, memberId), isNull(messageAttachments.messageId), inArray(messageAttachments.id, ids)));
    },

    /** Puts uploads into a message (only those still free: a concurrent post cannot take them twice). */
    async attach(ids: number[], messageId: number): Promise<void> {
      if (ids.length === 0) return;
      await db.update(messageAttachments).set({ messageId }).where(and(inArray(messageAttachments.id, ids), isNull(messageAttachments.messageId)));
    },

    /** Uploads never put into a message, made before `before` (at most `limit`): removed, and answered for their files. */
    async removeUnsentUploads(before: Date, limit: number): Promise<AttachmentRow[]> {
      const stale = db
        .select({ id: messageAttachments.id })
        .from(messageAttachments)
        .where(and(isNull(messageAttachments.messageId), lt(messageAttachments.createdAt, before)))
        .limit(limit);
      return db.delete(messageAttachments).where(inArray(messageAttachments.id, stale)).returning();
    },

    /** The attachments of these messages, in upload order. */
    async attachmentsFor(messageIds: number[]): Promise<AttachmentRow[]> {
      if (messageIds.length === 0) return [];
      return db.select().from(messageAttachments).where(inArray(messageAttachments.messageId, messageIds)).orderBy(asc(messageAttachments.id));
    },

    /** One attachment of a chat: one in a message, or the caller's own upload. */
    async attachmentFor(chatId: number, id: number, memberId: number): Promise<AttachmentRow | undefined> {
      const [row] = await db
        .select()
        .from(messageAttachments)
        .where(and(eq(messageAttachments.chatId, chatId), eq(messageAttachments.id, id), or(isNotNull(messageAttachments.messageId), eq(messageAttachments.uploaderId, memberId))))
        .limit(1);
      return row;
    },

    /** The reactions to these messages, oldest first, with the reacting members' nicknames (read with every page: prepared once). */
    async reactionsFor(messageIds: number[]): Promise<ReactionRow[]> {
      if (messageIds.length === 0) return [];
      return reactionsQuery.execute({ ids: messageIds });
    },

    /** Adds a reaction; false when the member had given this one already. */
    async addReaction(messageId: number, memberId: number, emoji: string): Promise<boolean> {
      const rows = await db.insert(messageReactions).values({ messageId, memberId, emoji }).onConflictDoNothing().returning({ emoji: messageReactions.emoji });
      return rows.length > 0;
    },

    /** Takes a member's reaction back; false when there was none. */
    async removeReaction(messageId: number, memberId: number, emoji: string): Promise<boolean> {
      const rows = await db
        .delete(messageReactions)
        .where(and(eq(messageReactions.messageId, messageId), eq(messageReactions.memberId, memberId), eq(messageReactions.emoji, emoji)))
        .returning({ emoji: messageReactions.emoji });
      return rows.length > 0;
    },

    /** The distinct emoji on a message. */
    async reactionEmoji(messageId: number): Promise<string[]> {
      const rows = await db.selectDistinct({ emoji: messageReactions.emoji }).from(messageReactions).where(eq(messageReactions.messageId, messageId));
      return rows.map((row) => row.emoji);
    },

    async messageExists(chatId: number, messageId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: chatMessages.id })
        .from(chatMessages)
        .where(and(eq(chatMessages.chatId, chatId), eq(chatMessages.id, messageId)))
        .limit(1);
      return row !== undefined;
    },

  };
}

export type ChatsRepository = ReturnType<typeof createChatsRepository>;
