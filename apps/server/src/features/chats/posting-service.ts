// The chats service's posting: a message stored once per clientId, in its sender's turn, then
// pushed and queued; the uploads a post attaches, their files served, and those never sent swept.
import { randomBytes } from 'node:crypto';
import { CHAT_ROLES, type ChatRole } from '@parla/contract/constants';
import type { Attachment, ChatMessageCreateRequest } from '@parla/contract/chat';
import { mentionedIds } from '@parla/contract/markup';
import { fieldError, notFound } from '../../platform/errors';
import { inOrder } from '../../platform/in-order';
import { readerGroup, sameText, type ReaderGroup } from '../../domain/rendering/reader-group';
import { processUpload, withExtension } from './attachments';
import { chatPolicy } from './policy';
import { presentAttachment } from './rendering';
import type { MemberView, MessageRow } from './repository';
import type { RenderingPipeline } from './rendering-service';
import type { ServiceShared } from './service-shared';

/** The roles the chat's policy lets post (a plain post checks them in its statement). */
const POSTER_ROLES: readonly number[] = CHAT_ROLES.filter((role) => chatPolicy.may(role, 'post'));

export function createPostingService(shared: ServiceShared, pipeline: Pick<RenderingPipeline, 'queueNotificationAndRendering'>) {
  const { deps, readerOf, load, contextFor, checkMentions } = shared;
  const { repo, live, presenter, files, publicUrl } = deps;
  const { queueNotificationAndRendering } = pipeline;
  /** Each sender's turn in a chat (`chatId:userId`): their posts are stored in the order they came in. */
  const senderTurns = inOrder();

  /** A post whose clientId this sender used already: the stored message, as the POST's 200 answers it. */
  async function repeated(chatId: number, member: MemberView, clientId: string) {
    const stored = await repo.messageByClientId(chatId, readerGroup(member), member.id, clientId);
    if (!stored) throw notFound();
    return { message: presenter.present(stored, readerOf(member), await contextFor(chatId, [stored])), created: false };
  }

  /** A post, stored and pushed (postMessage: in its sender's turn). */
  async function postNow(chatId: number, userId: number, body: ChatMessageCreateRequest) {
    const clientId = body.clientId ?? null;
    // A plain message (no reply, attachments or mentions: nothing to check first) is checked and stored in one statement.
    if (body.replyTo === undefined && !body.attachments?.length && mentionedIds(body.content).length === 0) {
      const posted = await repo.postPlain({ chatId, userId, content: body.content, clientId, roles: POSTER_ROLES });
      // As `load` answers: a stranger, one who left and one only invited get a 404; a role that may not post a 403.
      if (!posted || !posted.member.joinedAt) throw notFound();
      chatPolicy.require(posted.member.chatRole as ChatRole, 'post');
      if (!posted.inserted) return repeated(chatId, posted.member, clientId!);
      return created(chatId, posted.member, posted.inserted, [], undefined);
    }
    const { member } = await load(chatId, userId);
    chatPolicy.require(member.chatRole as ChatRole, 'post');
    const attachmentIds = body.attachments ?? [];
    const [mentions, quoted, uploads] = await Promise.all([
      checkMentions(chatId, body.content),
      body.replyTo === undefined ? undefined : repo.findMessage(chatId, body.replyTo),
      repo.unattached(chatId, member.id, attachmentIds),
    ]);
    if (body.replyTo !== undefined && !quoted) throw fieldError('replyTo', 'noSuchMessage', undefined, 'does_not_exist');
    // A repeated post (same clientId) finds its uploads sent already: it answers the stored message below.
    const missing = attachmentIds.filter((id) => !uploads.some((upload) => upload.id === id));
    if (missing.length && !(clientId && (await repo.messageByClientId(chatId, readerGroup(member), member.id, clientId)))) {
      throw fieldError('attachments', 'noSuchAttachments', { ids: missing.join(', ') }, 'does_not_exist');
    }
    const inserted = await repo.insertMessage({
      chatId,
      senderId: member.id,
      language: member.language,
      content: body.content,
      clientId,
      replyToId: body.replyTo ?? null,
      hasAttachments: uploads.length > 0,
    });
    if (!inserted) return repeated(chatId, member, clientId!);
    return created(chatId, member, inserted, mentions, uploads.map((upload) => upload.id));
  }

  /**
   * What follows a stored message: its mentions and uploads attached, its push to every reader,
   * then its notification job (when another member has a device subscribed) and its renderings
   * queued; the sender's view of it answered. `uploads` undefined: none were given.
   */
  async function created(
    chatId: number,
    member: MemberView,
    inserted: { message: MessageRow; groups: ReaderGroup[]; notify: boolean },
    mentions: number[],
    uploads: number[] | undefined,
  ) {
    const { message, groups } = inserted;
    // What the push shows is written first (mentions, attachments; the quote read); the jobs are
    // queued after it: the other members need not wait for the queue (a read before the job is
    // queued repairs the rendering, and the job's own send then finds it waiting).
    const [, quote] = await Promise.all([
      mentions.length ? repo.setMentions(message.id, mentions, false) : undefined,
      message.replyToId ? repo.quoteForGroups(message.replyToId) : undefined,
      uploads?.length ? repo.attach(uploads, message.id) : undefined,
    ]);
    const item = { message, sender: member, rendering: null };
    const context = mentions.length || quote || uploads?.length ? await contextFor(chatId, [{ ...item, quote: quote ? { ...quote.quote, rendering: null } : null }]) : undefined;
    live.created(chatId, item, groups, context, quote);
    // Only when another member has a device subscribed is a notification job queued (most posts
    // queue none); a caption left empty has nothing to translate.
    await queueNotificationAndRendering(message, groups, inserted.notify);
    const own = quote ? { ...quote.quote, rendering: quote.renderings.find((r) => sameText(r, member)) ?? null } : null;
    return { message: presenter.present({ ...item, quote: own }, readerOf(member), context), created: true };
  }

  return {
    /**
     * Posts once per clientId: a repeat returns the stored message (`created: false`). The live
     * event and the answer are made from what is at hand: a post is three statements (the session,
     * the membership, the insert with the reading groups).
     */
    postMessage(chatId: number, userId: number, body: ChatMessageCreateRequest) {
      // One sender's posts to a chat are stored (and pushed) in the order they came in.
      return senderTurns(`${chatId}:${userId}`, () => postNow(chatId, userId, body));
    },

    /**
     * Keeps an upload for the member's next message: checked and re-encoded first (attachments.ts),
     * stored privately under the chat. Uploads never sent are left for housekeeping.
     */
    async uploadAttachment(chatId: number, userId: number, upload: { data: Buffer; name: string | undefined }): Promise<Attachment> {
      const { member } = await load(chatId, userId);
      chatPolicy.require(member.chatRole as ChatRole, 'post');
      await deps.quotas.checkAttachment(userId, chatId, upload.data.length);
      const processed = await processUpload(upload.data, upload.name, (pixels, work) => deps.pictures.decode(userId, pixels, work));
      const stem = `attachments/${chatId}/${randomBytes(12).toString('hex')}`;
      const fileKey = `${stem}${processed.kind === 'image' ? '.webp' : '.bin'}`;
      const thumbnailKey = processed.thumbnail ? `${stem}-thumb.webp` : null;
      await files.put(fileKey, processed.file);
      if (thumbnailKey && processed.thumbnail) await files.put(thumbnailKey, processed.thumbnail);
      const row = await repo.insertAttachment({
        chatId,
        uploaderId: member.id,
        kind: processed.kind,
        name: processed.name,
        size: processed.file.length,
        contentType: processed.contentType,
        width: processed.width,
        height: processed.height,
        fileKey,
        thumbnailKey,
      });
      return presentAttachment(row, publicUrl);
    },

    /** Housekeeping: uploads not sent within `unsentUploadMs` are deleted, rows and files. */
    async sweepUnsentUploads(olderThanMs = deps.unsentUploadMs): Promise<number> {
      const removed = await repo.removeUnsentUploads(new Date(Date.now() - olderThanMs), 500);
      for (const row of removed) for (const key of [row.fileKey, row.thumbnailKey]) if (key) await files.remove(key).catch(() => undefined);
      return removed.length;
    },

    /** Where an attachment's file (or thumbnail) is, for a member of its chat (404 for anyone else). */
    async attachmentFile(chatId: number, userId: number, id: number, variant: 'file' | 'thumbnail') {
      const { member } = await load(chatId, userId);
      const row = await repo.attachmentFor(chatId, id, member.id);
      const key = row ? (variant === 'thumbnail' ? row.thumbnailKey : row.fileKey) : null;
      if (!row || !key) throw notFound();
      // A picture is served as the WebP it was re-encoded to, named so. Pictures and PDFs are shown
      // by the browser (a PDF in its own viewer, under the same sandbox CSP); the rest is saved.
      const inline = row.kind === 'image' || row.contentType === 'application/pdf';
      return { key, contentType: variant === 'thumbnail' ? 'image/webp' : row.contentType, name: row.kind === 'image' ? withExtension(row.name, 'webp') : row.name, inline };
    },
  };
}
