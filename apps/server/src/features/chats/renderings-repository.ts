// Data access of renderings: a message's renderings for every reading group (live pushes), the
// render's writes, readers' corrections and their withdrawal, and renders made again (glossary).
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/index';
import { chatMembers, chatMessages, messageRenderings, users } from '../../platform/db/schema';
import type { ReaderGroup } from '../../domain/rendering/reader-group';
import { renderableAgain, type RenderingsTable } from '../../domain/rendering/rendering-rows';

const MESSAGE_RENDERINGS: RenderingsTable = {
  itemId: messageRenderings.messageId,
  version: messageRenderings.version,
  state: messageRenderings.state,
  machineText: messageRenderings.machineContent,
  items: chatMessages,
  itemsId: chatMessages.id,
  itemsVersion: chatMessages.version,
};
import { memberColumns, withdrawCorrections, type MessageRow, type QuoteRow, type RenderingRow, type RenderingState } from './repository-shared';

/** The rendering of a message version for one reading group. */
const ofGroup = (messageId: number, version: number, group: ReaderGroup) =>
  and(eq(messageRenderings.messageId, messageId), eq(messageRenderings.version, version), eq(messageRenderings.language, group.language), eq(messageRenderings.tone, group.tone));

export function createRenderingsRepository(db: Db) {
  return {
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
        .where(renderableAgain(MESSAGE_RENDERINGS, messageIds))
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
  };
}
