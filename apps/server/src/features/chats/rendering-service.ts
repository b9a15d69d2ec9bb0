// The chats service's renderings: a message's translations queued and repaired, the render job,
// and what readers do with them (corrections, the chat's glossary applied again).
import type { ChatRole, Language, Tone } from '@parla/contract/constants';
import { LIMITS } from '@parla/contract/constants';
import type { ChatMessage } from '@parla/contract/chat';
import type { GlossaryApply } from '@parla/contract/glossary';
import { fieldError } from '../../platform/errors';
import { permissionDenied } from '../../platform/policy';
import type { JobContext } from '../../platform/jobs';
import type { GlossaryAccess } from '../../domain/glossary/glossary';
import { glossaryTouches } from '../../domain/rendering/translation/glossary';
import { groupNeed, groupsToRender as renderableGroups, readerGroup, sameText, type ReaderGroup } from '../../domain/rendering/reader-group';
import { renderItem } from '../../domain/rendering/render';
import { NOTIFY_QUEUE, RENDER_WAIT_MS, type NotifyJob } from './notify';
import { chatPolicy } from './policy';
import type { MessageRow, MessageWithSender } from './repository';
import type { ServiceShared } from './service-shared';

export const RENDER_QUEUE = 'chat-render';

/** A rendering still pending after this long lost its job (a crash between two writes): queue it again. */
const STALE_PENDING_MS = 2 * 60_000;

export interface RenderJob {
  messageId: number;
  /** The version that queued the job (for the logs): the job renders the current one. */
  version: number;
  /**
   * The new message's notification job, held until its first renderings are saved: the render
   * releases it then (the notification carries each reader's rendering), or it runs when its
   * lease ends (RENDER_WAIT_MS: the readers still waiting get the original, its language named).
   */
  notifyLease?: string;
}

/** Renderings queued (for a post, an edit, a page read) and the render job itself. */
export function createRenderingPipeline(shared: ServiceShared) {
  const { repo, live, translator, jobs, glossaries } = shared.deps;
  const provider = translator.provider;

  /** Groups of a chat that need a rendering of `message` and that the provider can reach. */
  const groupsToRender = (message: MessageRow, groups: ReaderGroup[]) => (message.content === '' ? [] : renderableGroups(provider, message.language, groups));

  async function queueRendering(message: MessageRow, groups: ReaderGroup[], notifyLease?: string) {
    const wanted = groupsToRender(message, groups);
    if (wanted.length === 0) return;
    await repo.markPending(wanted.map((group) => ({ messageId: message.id, version: message.version, ...group })));
    const job: RenderJob = { messageId: message.id, version: message.version, ...(notifyLease ? { notifyLease } : {}) };
    await jobs.send(RENDER_QUEUE, job, { singletonKey: String(message.id) });
  }

  /**
   * A new message's notification job (when another member has a device subscribed): at once when
   * nobody needs a rendering of it, else held for its render, which releases it once the texts
   * are saved. A render job of the message already queued by a read keeps no lease: the
   * notification then waits the lease out.
   */
  async function queueNotificationAndRendering(message: MessageRow, groups: ReaderGroup[], notify: boolean) {
    const rendered = groupsToRender(message, groups).length > 0;
    if (!notify) return queueRendering(message, groups);
    if (!rendered) return void (await jobs.send(NOTIFY_QUEUE, { messageId: message.id } satisfies NotifyJob));
    const lease = await jobs.send(NOTIFY_QUEUE, { messageId: message.id } satisfies NotifyJob, { leaseSeconds: RENDER_WAIT_MS / 1000 });
    await queueRendering(message, groups, lease ?? undefined);
  }

  /** The render saved the texts a held notification waited for (or gave up): it goes now. */
  const releaseNotification = (job: RenderJob) => (job.notifyLease ? jobs.release(NOTIFY_QUEUE, job.notifyLease) : undefined);

  /**
   * The reader's page of messages: renderings the reader's group lacks (a new member, a new
   * language) or that lost their job are queued now; the reader sees them pending until then.
   */
  async function ensureRenderings(rows: MessageWithSender[], reader: ReaderGroup) {
    const now = Date.now();
    const lacking = rows.filter(({ message, rendering }) => {
      // groupsToRender for this one reader, without its list.
      if (message.content === '' || groupNeed(provider, message.language, reader) !== 'rendering') return false;
      if (!rendering || rendering.version !== message.version) return true;
      return rendering.state === 'pending' && now - rendering.updatedAt.getTime() > STALE_PENDING_MS;
    });
    if (lacking.length === 0) return;
    await repo.markPending(lacking.map(({ message }) => ({ messageId: message.id, version: message.version, ...reader })));
    for (const { message } of lacking) {
      // A repair: not while a render of it is unfinished (it may be waiting out a provider's Retry-After).
      await jobs.send(RENDER_QUEUE, { messageId: message.id, version: message.version } satisfies RenderJob, { singletonKey: String(message.id), onlyIfIdle: true });
    }
  }

  /**
   * An earlier text of a message rendered now for one reader group (issue 34: its versions are read
   * now and then): the translation cache answers for a text rendered when it was current.
   */
  async function renderText(chatId: number, text: string, source: string, group: ReaderGroup): Promise<{ state: 'done' | 'failed' | 'none'; content: string; tone: Tone }> {
    if (text === '' || groupNeed(provider, source, group) !== 'rendering') return { state: 'none', content: text, tone: 'DEFAULT' };
    try {
      const [result] = await translator.translate({
        text,
        source: source as Language,
        glossary: await glossaries.forTranslation({ chatId }, await repo.memberNames(chatId, true)),
        targets: [{ language: group.language as Language, tone: group.tone as Tone }],
      });
      if (result?.state === 'done') return { state: 'done', content: result.content, tone: result.tone };
      return { state: result?.state === 'none' ? 'none' : 'failed', content: text, tone: 'DEFAULT' };
    } catch {
      // The provider is down: the text as written, said to be untranslated.
      return { state: 'failed', content: text, tone: 'DEFAULT' };
    }
  }

  return {
    queueRendering,
    queueNotificationAndRendering,
    ensureRenderings,
    renderText,

    /**
     * The render job: every reading group of the chat that still lacks the message's current
     * version gets it, in one translator call (cached translations cost none), and is told live.
     * The queue keeps one waiting job per message, so an edit made while a job waits is not queued
     * again: the job renders the version current when it runs, never the one that queued it.
     */
    async render(job: RenderJob, _context: JobContext): Promise<void> {
      const message = await repo.findMessageById(job.messageId);
      if (!message) return;
      const [have, readers] = await Promise.all([repo.renderings(message.id, message.version), repo.readingGroups(message.chatId)]);
      const current = { messageId: message.id, version: message.version };
      await renderItem(
        {
          name: `message ${message.id}`,
          text: message.content,
          source: message.language,
          groups: message.content === '' ? [] : readers,
          settled: (group) => have.some((r) => sameText(r, group) && r.state !== 'pending'),
          // Pending renderings of groups that have since left still get settled.
          orphans: have.filter((row) => row.state === 'pending' && !readers.some((g) => sameText(g, row))).map(readerGroup),
        },
        {
          provider,
          translate: async (groups) => ({
            results: await translator.translate({
              text: message.content,
              source: message.language as Language,
              // The chat's glossary, and its members' names (never translated).
              glossary: await glossaries.forTranslation({ chatId: message.chatId }, await repo.memberNames(message.chatId, true)),
              targets: groups.map((group) => ({ language: group.language as Language, tone: group.tone as Tone })),
            }),
          }),
          async saveTexts({ texts, retry }) {
            await repo.saveRenderings([
              ...texts.map(({ group, state, content, renderedTone, missedTerms }) => ({ ...current, ...readerGroup(group), state, content, renderedTone, missedTerms })),
              // Left out of an answer that brought the others: still pending, asked for again by the retry.
              ...retry.map((group) => ({ ...current, ...readerGroup(group), state: 'pending' as const, content: null, renderedTone: null })),
            ]);
            if (texts.length) await live.message('message:rendered', message.chatId, message.id, texts.map(({ group }) => group));
          },
          groupsNow: () => repo.pendingRenderings(message.id, message.version),
          requeue: () => jobs.send(RENDER_QUEUE, { messageId: message.id, version: message.version } satisfies RenderJob, { singletonKey: String(message.id) }),
        },
      );
      // The texts its notification waited for are saved (a text left for a retry throws above: the notification waits its lease out).
      await releaseNotification(job);
    },

    /** After the last try: readers still waiting for the current version get the original, marked failed. */
    async renderGaveUp(job: RenderJob): Promise<void> {
      const message = await repo.findMessageById(job.messageId);
      const pending = message ? await repo.pendingRenderings(message.id, message.version) : [];
      if (message && pending.length) {
        await repo.saveRenderings(pending.map((row) => ({ ...row, state: 'failed' as const, content: null, renderedTone: null })));
        await live.message('message:rendered', message.chatId, message.id, pending.map(readerGroup));
      }
      await releaseNotification(job);
    },
  };
}

export type RenderingPipeline = ReturnType<typeof createRenderingPipeline>;

/** Readers' corrections of their renderings, and the chat's glossary (its access, and applied again). */
export function createCorrectionsService(shared: ServiceShared, getMessage: (chatId: number, userId: number, messageId: number) => Promise<ChatMessage>) {
  const { load, messageOf, announceWithdrawn } = shared;
  const { repo, live, jobs, glossaries } = shared.deps;

  /** The caller's access to the chat's glossary: members read it, OWNER and ADMIN edit it (404 for strangers). */
  async function glossaryAccess(chatId: number, userId: number): Promise<GlossaryAccess> {
    const { member } = await load(chatId, userId);
    return { scope: { chatId }, mayEdit: chatPolicy.may(member.chatRole as ChatRole, 'editGlossary'), names: () => repo.memberNames(chatId, false) };
  }

  return {
    glossaryAccess,

    /**
     * A reader corrects the rendering they read (their language and tone): everyone reading so
     * sees the correction live, marked with who made it; the machine's text stays one click away.
     * Only a done rendering can be corrected (the original is the author's to edit).
     */
    async correctRendering(chatId: number, userId: number, messageId: number, content: string): Promise<ChatMessage> {
      const { member } = await load(chatId, userId);
      const message = await messageOf(chatId, messageId);
      const group = readerGroup(member);
      const current = (await repo.renderings(message.id, message.version)).find((row) => sameText(row, group));
      if (current?.state !== 'done' || current.content === null) throw fieldError('content', 'nothingToCorrect', undefined, 'invalid');
      if (content === (current.machineContent ?? current.content)) {
        // The machine's own words: the same as taking the correction back.
        if (await repo.restoreRendering(message.id, message.version, group)) await live.message('message:rendered', chatId, message.id, [group]);
      } else if (content !== current.content || current.machineContent === null) {
        if (!(await repo.correctRendering(message.id, message.version, group, content, member.id))) throw fieldError('content', 'nothingToCorrect', undefined, 'invalid');
        await live.message('message:rendered', chatId, message.id, [group]);
      }
      return getMessage(chatId, userId, messageId);
    },

    /**
     * Takes a correction of the reader's rendering back (none: nothing changes); with `everyone`,
     * an owner or admin withdraws every reader's correction of the message, in every language.
     */
    async restoreRendering(chatId: number, userId: number, messageId: number, everyone = false): Promise<void> {
      const { member } = await load(chatId, userId);
      const message = await messageOf(chatId, messageId);
      if (everyone) {
        chatPolicy.require(member.chatRole as ChatRole, 'withdrawCorrections');
        await announceWithdrawn(chatId, await repo.withdrawCorrectionsOf(message.id));
        return;
      }
      const group = readerGroup(member);
      if (await repo.restoreRendering(message.id, message.version, group)) await live.message('message:rendered', chatId, message.id, [group]);
    },

    /**
     * "Apply to recent messages": the newest messages that hold a term or name of the glossary as
     * it is now are translated again (renderings readers corrected stay as they are).
     */
    async applyGlossary(chatId: number, userId: number): Promise<GlossaryApply> {
      const access = await glossaryAccess(chatId, userId);
      if (!access.mayEdit) throw permissionDenied();
      const glossary = await glossaries.forTranslation(access.scope, await repo.memberNames(chatId, true));
      const touched = (await repo.recentTexts(chatId, LIMITS.glossaryApplyRecent)).filter((message) => glossaryTouches(message.content, message.language as Language, glossary));
      const again = await repo.renderAgain(touched.map((message) => message.id));
      for (const messageId of again) {
        const message = touched.find((item) => item.id === messageId)!;
        await jobs.send(RENDER_QUEUE, { messageId, version: message.version } satisfies RenderJob, { singletonKey: String(messageId) });
        await live.message('message:rendered', chatId, messageId);
      }
      return { queued: again.length };
    },
  };
}
