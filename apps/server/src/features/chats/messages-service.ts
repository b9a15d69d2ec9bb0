// The chats service's messages once posted: pages of them and one, edits and deletions, their
// reactions, and the search of one's chats.
import { API } from '@parla/contract/api';
import { LIMITS, type ChatRole, type Language } from '@parla/contract/constants';
import type { ChatMessage, ChatMessagesPage, ChatPins, ChatSearchPage, ChatSearchQuery, ChatSearchResult, MessageVersion, MessageVersions, Reactions } from '@parla/contract/chat';
import { fieldError, formError, notFound } from '../../platform/errors';
import { permissionDenied } from '../../platform/policy';
import { cursorPage } from '../../platform/pages';
import { fillPath } from '../../platform/routes';
import { readerGroup } from '../../domain/rendering/reader-group';
import { chatPolicy } from './policy';
import { groupReactions } from './rendering';
import { HIT_END, HIT_START } from './repository';
import type { RenderingPipeline } from './rendering-service';
import type { ServiceShared } from './service-shared';

/**
 * Whether a search names a word to find: one not excluded ("-word"), not the operator "or", with
 * a letter or digit (websearch_to_tsquery's syntax). Only excluded words would match every message.
 */
export const hasWordToFind = (q: string) =>
  (q.match(/-?"[^"]*"?|\S+/g) ?? []).some((token) => !token.startsWith('-') && token.toLowerCase() !== 'or' && /[\p{L}\p{N}]/u.test(token));

export function createMessagesService(shared: ServiceShared, pipeline: Pick<RenderingPipeline, 'queueRendering' | 'ensureRenderings' | 'renderText'>) {
  const { deps, link, readerOf, load, contextFor, checkMentions, messageOf } = shared;
  const { repo, live, presenter, files, push } = deps;
  const { queueRendering, ensureRenderings, renderText } = pipeline;

  /** Tells the other members' devices that a message is gone: a notification showing it closes. */
  async function retractNotifications(chatId: number, senderId: number, messageId: number) {
    const { recipients } = await repo.notificationAudience(chatId, senderId);
    await push.deliver(
      recipients.map((member) => ({
        userId: member.userId,
        payload: { kind: 'retract' as const, title: '', body: '', lang: member.language as Language, url: '', tag: `chat-${chatId}`, messageId },
      })),
    );
  }

  /** A message's reactions, for its answer and its push. */
  async function reactionsOf(messageId: number): Promise<Reactions> {
    return { messageId, reactions: groupReactions(await repo.reactionsFor([messageId])).get(messageId) ?? [] };
  }

  async function getMessage(chatId: number, userId: number, messageId: number): Promise<ChatMessage> {
    const { member } = await load(chatId, userId);
    const [row] = await repo.listMessages(chatId, readerGroup(member), { limit: 1, id: messageId });
    if (!row) throw notFound();
    const [context] = await Promise.all([contextFor(chatId, [row]), ensureRenderings([row], readerGroup(member))]);
    return presenter.present(row, readerOf(member), context);
  }

  return {
    async listMessages(chatId: number, userId: number, query: { limit: number; toId?: number | undefined }): Promise<ChatMessagesPage> {
      const { member } = await load(chatId, userId);
      const rows = await repo.listMessages(chatId, readerGroup(member), query);
      const [context] = await Promise.all([contextFor(chatId, rows), ensureRenderings(rows, readerGroup(member))]);
      const reader = readerOf(member);
      const results = rows.map((row) => presenter.present(row, reader, context));
      return cursorPage(results, query.limit, (last) => link(fillPath(API.listMessages, { groupChatId: chatId }))({ limit: query.limit, toId: last.id }));
    },

    getMessage,

    async editMessage(chatId: number, userId: number, messageId: number, content: string): Promise<ChatMessage> {
      const { member } = await load(chatId, userId);
      const message = await repo.findMessage(chatId, messageId);
      if (!message) throw notFound();
      // Only the sender edits a message (an admin may delete it, not put words in its mouth).
      if (message.senderId !== member.id) throw permissionDenied();
      if (content !== message.content) {
        const mentions = await checkMentions(chatId, content);
        const edited = await repo.editMessage(messageId, content);
        if (!edited) throw notFound();
        await repo.setMentions(messageId, mentions, true);
        const groups = await repo.readingGroups(chatId);
        await queueRendering(edited, groups);
        await live.message('message:edited', chatId, messageId, groups);
      }
      return getMessage(chatId, userId, messageId);
    },

    /**
     * Searches the user's chats (or one: 404 for a stranger) in their own language: a message
     * matches by its original or by its rendering for the user, each in its language's terms.
     */
    async search(userId: number, query: ChatSearchQuery): Promise<ChatSearchPage> {
      if (query.chatId !== undefined) await load(query.chatId, userId);
      // Only excluded words ("-zzzz") would list every message.
      if (!hasWordToFind(query.q)) throw fieldError('q', 'searchNeedsWord', undefined, 'invalid');
      // Counted in work, not requests: the time this person's searches took this minute.
      deps.searchBudget.check(userId);
      const started = performance.now();
      try {
        const hits = await repo.search(userId, query.q, query);
        const byChat = new Map<number, typeof hits>();
        for (const hit of hits) byChat.set(hit.chatId, [...(byChat.get(hit.chatId) ?? []), hit]);
        const views = new Map<number, ChatMessage>();
        await Promise.all(
          [...byChat.values()].map(async (chatHits) => {
            const { chatId, memberId, language, tone } = chatHits[0]!;
            const rows = await repo.messagesByIds(chatId, { language, tone }, chatHits.map((hit) => hit.id));
            const context = await contextFor(chatId, rows);
            for (const row of rows) views.set(row.message.id, presenter.present(row, { language, tone, memberId }, context));
          }),
        );
        const marked = new RegExp(`${HIT_START}([^${HIT_END}]*)${HIT_END}`, 'g');
        const words = (text: string | null) => (text ? [...text.matchAll(marked)].map((match) => match[1]!).filter((word) => word.trim() !== '') : []);
        const results = hits.flatMap((hit): ChatSearchResult[] => {
          const message = views.get(hit.id);
          return message ? [{ chat: { id: hit.chatId, title: hit.title }, message, highlights: [...new Set([...words(hit.rendering), ...words(hit.original)])] }] : [];
        });
        return cursorPage(results, query.limit, (last) =>
          link(fillPath(API.searchMessages, {}))({ q: query.q, chatId: query.chatId, limit: query.limit, toId: last.message.id }),
        );
      } finally {
        deps.searchBudget.spend(userId, performance.now() - started);
      }
    },

    /** A message's reactions and who gave them. */
    async listReactions(chatId: number, userId: number, messageId: number): Promise<Reactions> {
      await load(chatId, userId);
      await messageOf(chatId, messageId);
      return reactionsOf(messageId);
    },

    /**
     * Reacts with an emoji (`created` false when the member had already); a message holds at most
     * LIMITS.reactionsPerMessage distinct emoji. Everyone in the chat sees the change live.
     */
    async addReaction(chatId: number, userId: number, messageId: number, emoji: string): Promise<{ reactions: Reactions; created: boolean }> {
      const { member } = await load(chatId, userId);
      chatPolicy.require(member.chatRole as ChatRole, 'post');
      await messageOf(chatId, messageId);
      const given = await repo.reactionEmoji(messageId);
      if (!given.includes(emoji) && given.length >= LIMITS.reactionsPerMessage) {
        throw fieldError('emoji', 'tooManyReactions', { max: LIMITS.reactionsPerMessage }, 'invalid');
      }
      const created = await repo.addReaction(messageId, member.id, emoji);
      const reactions = await reactionsOf(messageId);
      if (created) live.reactions(chatId, reactions);
      return { reactions, created };
    },

    /** Takes one's own reaction back (none given: nothing changes). */
    async removeReaction(chatId: number, userId: number, messageId: number, emoji: string): Promise<void> {
      const { member } = await load(chatId, userId);
      await messageOf(chatId, messageId);
      if (await repo.removeReaction(messageId, member.id, emoji)) live.reactions(chatId, await reactionsOf(messageId));
    },

    /** A message's earlier texts (LIMITS.versionsShown, the newest first), each as the reader reads it. */
    async listVersions(chatId: number, userId: number, messageId: number): Promise<MessageVersions> {
      const { member } = await load(chatId, userId);
      await messageOf(chatId, messageId);
      const versions = await repo.versionsOf(messageId, LIMITS.versionsShown);
      const group = readerGroup(member);
      const results: MessageVersion[] = [];
      // One at a time: a provider is asked for at most one text at once by a reader.
      for (const version of versions) {
        const rendered = await renderText(chatId, version.content, version.language, group);
        results.push({
          version: version.version,
          written: version.writtenAt.toISOString(),
          language: (rendered.state === 'done' ? member.language : version.language) as Language,
          content: rendered.content,
          translation: rendered.state,
          original: { language: version.language as Language, content: version.content },
        });
      }
      return { messageId, results };
    },

    /** The chat's pinned messages as the reader reads them, the latest pinned first. */
    async listPins(chatId: number, userId: number): Promise<ChatPins> {
      const { member } = await load(chatId, userId);
      const ids = await repo.pinnedIds(chatId, LIMITS.pinsPerChat);
      const rows = await repo.messagesByIds(chatId, readerGroup(member), ids);
      const [context] = await Promise.all([contextFor(chatId, rows), ensureRenderings(rows, readerGroup(member))]);
      const reader = readerOf(member);
      const order = new Map(ids.map((id, index) => [id, index]));
      return { results: rows.map((row) => presenter.present(row, reader, context)).sort((a, b) => order.get(a.id)! - order.get(b.id)!) };
    },

    /**
     * Pins a message for every member (OWNER, ADMIN; at most LIMITS.pinsPerChat at once); pinned
     * already, nothing changes. Everyone in the chat sees it live.
     */
    async pinMessage(chatId: number, userId: number, messageId: number): Promise<ChatMessage> {
      const { member } = await load(chatId, userId);
      await messageOf(chatId, messageId);
      chatPolicy.require(member.chatRole as ChatRole, 'pinMessage');
      const outcome = await repo.pin(chatId, messageId, member.id, LIMITS.pinsPerChat);
      if (outcome === 'full') throw formError('tooManyPins', 'too_many_pins', { max: LIMITS.pinsPerChat });
      const message = await getMessage(chatId, userId, messageId);
      if (outcome === 'pinned') live.pinned(chatId, messageId, message.pinned);
      return message;
    },

    /** Unpins a message (OWNER, ADMIN); not pinned, nothing changes. */
    async unpinMessage(chatId: number, userId: number, messageId: number): Promise<void> {
      const { member } = await load(chatId, userId);
      await messageOf(chatId, messageId);
      chatPolicy.require(member.chatRole as ChatRole, 'pinMessage');
      if (await repo.unpin(chatId, messageId)) live.pinned(chatId, messageId, null);
    },

    async deleteMessage(chatId: number, userId: number, messageId: number): Promise<void> {
      const { member } = await load(chatId, userId);
      const message = await repo.findMessage(chatId, messageId);
      if (!message) throw notFound();
      if (message.senderId !== member.id) chatPolicy.require(member.chatRole as ChatRole, 'deleteAnyMessage');
      const attached = message.hasAttachments ? await repo.attachmentsFor([messageId]) : [];
      await repo.deleteMessage(messageId);
      // Its pictures and files go with it.
      for (const row of attached) for (const key of [row.fileKey, row.thumbnailKey]) if (key) await files.remove(key).catch(() => undefined);
      live.messageDeleted(chatId, messageId);
      // A notification still showing it on a device closes (nothing of it stays readable there).
      void retractNotifications(chatId, message.senderId, messageId).catch((error: unknown) => deps.log.warn({ err: error, messageId }, 'a deleted message’s notifications were not retracted'));
    },
  };
}
