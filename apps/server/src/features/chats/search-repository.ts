// Data access of search: the messages of a user's chats whose original or whose rendering for
// them matches a query, with the matched words marked, in one prepared statement.
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/index';
import { preparedSql } from '../../platform/db/prepared-sql';
import { SEARCH_CONFIGS, TS_CONFIGS } from '../../platform/db/search';
import { chatMembers, chatMessages, chats, messageRenderings } from '../../platform/db/schema';

/** What marks a matched word in a search's texts (never stored: FORBIDDEN_TEXT). */
export const HIT_START = '\u0002';
export const HIT_END = '\u0003';

export function createSearchRepository(db: Db) {
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

  return {
    /**
     * Messages of the user's chats (or of one) whose original or whose rendering for the user
     * matches `q`, newest first below `toId`: each with the member reading it and the matched
     * texts with their hits marked (HIT_START/HIT_END).
     */
    async search(userId: number, q: string, options: { chatId?: number | undefined; toId?: number | undefined; limit: number }) {
      return searchQuery.execute({ userId, q, chatId: options.chatId ?? null, toId: options.toId ?? null, limit: options.limit });
    },
  };
}
