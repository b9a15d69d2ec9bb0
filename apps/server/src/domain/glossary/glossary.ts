// Glossaries of chats and rooms (issue 19), written once for both: the entries' data access, their
// checks, the four routes (a feature gives its paths and who may read and edit), and the glossary
// translation takes (domain/rendering/translation/glossary.ts applies it to each text).
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ApiOperation } from '@parla/contract/api';
import { LIMITS, type Language } from '@parla/contract/constants';
import {
  glossaryApplySchema,
  glossaryEntryPatchSchema,
  glossaryEntryRequestSchema,
  glossaryEntrySchema,
  glossarySchema,
  type GlossaryApply,
  type GlossaryEntry,
  type GlossaryEntryPatch,
  type GlossaryEntryRequest,
} from '@parla/contract/glossary';
import { withFastRows } from '../../platform/db/fast-rows';
import type { Db } from '../../platform/db/index';
import { glossaryEntries } from '../../platform/db/schema';
import { fieldError, notFound } from '../../platform/errors';
import { permissionDenied } from '../../platform/policy';
import { route } from '../../platform/routes';
import type { TranslationGlossary } from '../rendering/translation/provider';

export type GlossaryScope = { chatId: number } | { roomId: number };
type EntryRow = typeof glossaryEntries.$inferSelect;

const scopeWhere = (scope: GlossaryScope): SQL => ('chatId' in scope ? eq(glossaryEntries.chatId, scope.chatId) : eq(glossaryEntries.roomId, scope.roomId));

export const presentEntry = (row: EntryRow): GlossaryEntry => ({
  id: row.id,
  term: row.term,
  language: row.language as Language,
  keep: row.keep,
  renderings: row.renderings.map((item) => ({ language: item.language as Language, text: item.text })),
  created: row.createdAt.toISOString(),
  modified: row.modifiedAt.toISOString(),
});

/** A unique violation of the (glossary, term, language) index. */
const isDuplicate = (error: unknown) => {
  for (let cause = error, depth = 0; cause && depth < 4; cause = (cause as { cause?: unknown }).cause, depth++) {
    if ((cause as { code?: string }).code === '23505') return true;
  }
  return false;
};

export function createGlossaries(db: Db) {
  const rows = (scope: GlossaryScope) => db.select().from(glossaryEntries).where(scopeWhere(scope)).orderBy(asc(sql`lower(${glossaryEntries.term})`), asc(glossaryEntries.id));

  // Read on every translation's way (a message's, an utterance's): prepared once per kind of scope.
  const termsQuery = (name: string, column: typeof glossaryEntries.chatId | typeof glossaryEntries.roomId) =>
    withFastRows(
      db
        .select({ term: glossaryEntries.term, language: glossaryEntries.language, keep: glossaryEntries.keep, renderings: glossaryEntries.renderings })
        .from(glossaryEntries)
        .where(eq(column, sql.placeholder('id')))
        .orderBy(asc(sql`lower(${glossaryEntries.term})`), asc(glossaryEntries.id))
        .prepare(name),
    );
  const chatTerms = termsQuery('glossary_terms_of_chat', glossaryEntries.chatId);
  const roomTerms = termsQuery('glossary_terms_of_room', glossaryEntries.roomId);

  async function termsOf(scope: GlossaryScope): Promise<TranslationGlossary['terms']> {
    const entries = await ('chatId' in scope ? chatTerms.execute({ id: scope.chatId }) : roomTerms.execute({ id: scope.roomId }));
    return entries.map((row) => ({
      term: row.term,
      language: row.language as Language,
      keep: row.keep,
      renderings: Object.fromEntries(row.renderings.map((item) => [item.language, item.text])) as Partial<Record<Language, string>>,
    }));
  }

  /** An entry must do something: be kept, or have a rendering. */
  const checkUseful = (keep: boolean, renderings: readonly unknown[]) => {
    if (!keep && renderings.length === 0) throw fieldError('renderings', 'glossaryNothing', undefined, 'required');
  };

  return {
    list: (scope: GlossaryScope) => rows(scope),

    async add(scope: GlossaryScope, body: GlossaryEntryRequest): Promise<EntryRow> {
      checkUseful(body.keep, body.renderings);
      const [{ total = 0 } = {}] = await db.select({ total: count() }).from(glossaryEntries).where(scopeWhere(scope));
      if (total >= LIMITS.glossaryEntries) throw fieldError('term', 'glossaryFull', { max: LIMITS.glossaryEntries }, 'max_items');
      try {
        const [row] = await db
          .insert(glossaryEntries)
          .values({ ...('chatId' in scope ? { chatId: scope.chatId } : { roomId: scope.roomId }), term: body.term, language: body.language, keep: body.keep, renderings: body.renderings })
          .returning();
        return row!;
      } catch (error) {
        if (isDuplicate(error)) throw fieldError('term', 'glossaryDuplicate', undefined, 'unique');
        throw error;
      }
    },

    async update(scope: GlossaryScope, id: number, changes: GlossaryEntryPatch): Promise<EntryRow> {
      const [current] = await db.select().from(glossaryEntries).where(and(scopeWhere(scope), eq(glossaryEntries.id, id)));
      if (!current) throw notFound();
      const next = { term: changes.term ?? current.term, language: changes.language ?? current.language, keep: changes.keep ?? current.keep, renderings: changes.renderings ?? current.renderings };
      checkUseful(next.keep, next.renderings);
      try {
        const [row] = await db.update(glossaryEntries).set({ ...next, modifiedAt: new Date() }).where(eq(glossaryEntries.id, id)).returning();
        return row!;
      } catch (error) {
        if (isDuplicate(error)) throw fieldError('term', 'glossaryDuplicate', undefined, 'unique');
        throw error;
      }
    },

    async remove(scope: GlossaryScope, id: number): Promise<void> {
      const removed = await db.delete(glossaryEntries).where(and(scopeWhere(scope), eq(glossaryEntries.id, id))).returning({ id: glossaryEntries.id });
      if (removed.length === 0) throw notFound();
    },

    /** The glossary translation takes: the entries, and the members' names (never translated). */
    async forTranslation(scope: GlossaryScope, names: readonly string[]): Promise<TranslationGlossary> {
      return translationGlossary(names, await termsOf(scope));
    },

    /** The entries as translation takes them (read alongside other reads; `translationGlossary` adds the names). */
    terms: termsOf,
  };
}

export type Glossaries = ReturnType<typeof createGlossaries>;

/** The glossary translation takes, from a chat's or room's terms and its members' names (never translated). */
export function translationGlossary(names: readonly string[], terms: TranslationGlossary['terms']): TranslationGlossary {
  return { names: [...new Set(names.map((name) => name.trim()).filter((name) => name.length >= 2))], terms };
}

/** What a feature says of the caller and its chat or room (404 for strangers, by throwing). */
export interface GlossaryAccess {
  scope: GlossaryScope;
  mayEdit: boolean;
  /** The names shown in the chat or room (members' nicknames, participants' aliases) that the glossary protects; not accounts' full names. */
  names(): Promise<string[]>;
}

/** The glossary's four routes for one kind of topic. */
export function glossaryRoutes(
  fastify: FastifyInstance,
  options: {
    glossaries: Glossaries;
    operations: { get: ApiOperation; add: ApiOperation; update: ApiOperation; remove: ApiOperation; apply: ApiOperation };
    tags: string[];
    onRequest: FastifyInstance['ctx']['requireUser'];
    /** The limit of "apply to recent messages" (each a translation for every reader). */
    applyLimit: preHandlerAsyncHookHandler;
    /** The zod schemas of the topic's path and of an entry's path. */
    scopePath: unknown;
    itemPath: unknown;
    access: (request: FastifyRequest) => Promise<GlossaryAccess>;
    /** Translates the topic's recent texts again with the glossary as it is now (the feature checks the caller may). */
    applyRecent: (request: FastifyRequest) => Promise<GlossaryApply>;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { glossaries, operations, tags, onRequest, access } = options;
  const editor = async (request: FastifyRequest) => {
    const found = await access(request);
    if (!found.mayEdit) throw permissionDenied();
    return found;
  };
  const params = options.scopePath as never;
  const itemParams = options.itemPath as never;
  const itemId = (request: FastifyRequest) => (request.params as { id: number }).id;

  app.get(route(operations.get), { onRequest, schema: { tags, params, response: { 200: glossarySchema } } }, async (request) => {
    const found = await access(request);
    const [entries, names] = await Promise.all([glossaries.list(found.scope), found.names()]);
    return { entries: entries.map(presentEntry), names: [...new Set(names)].sort((a, b) => a.localeCompare(b)), mayEdit: found.mayEdit };
  });
  app.post(
    route(operations.add),
    { onRequest, schema: { tags, params, body: glossaryEntryRequestSchema, response: { 201: glossaryEntrySchema } } },
    async (request, reply) => reply.code(201).send(presentEntry(await glossaries.add((await editor(request)).scope, request.body))),
  );
  app.post(
    route(operations.apply),
    { onRequest, preHandler: options.applyLimit, schema: { tags, params, response: { 200: glossaryApplySchema } } },
    (request) => options.applyRecent(request),
  );
  app.patch(route(operations.update), { onRequest, schema: { tags, params: itemParams, body: glossaryEntryPatchSchema, response: { 200: glossaryEntrySchema } } }, async (request) =>
    presentEntry(await glossaries.update((await editor(request)).scope, itemId(request), request.body)),
  );
  app.delete(route(operations.remove), { onRequest, schema: { tags, params: itemParams } }, async (request, reply) => {
    await glossaries.remove((await editor(request)).scope, itemId(request));
    return reply.code(204).send();
  });
}
