// What the chat calls do (product.md "Chats and messages", "Roles and permissions"). Every call
// starts from `load` (404 for strangers and those who left), asks the policy, then works.
import { API } from '@parla/contract/api';
import { CHAT_ROLE, CHAT_ROLES, type ChatRole, type Language, type MemberState, type Tone } from '@parla/contract/constants';
import type {
  ChatCreateRequest,
  ChatListItem,
  ChatListPage,
  ChatMember,
  ChatMemberPatchRequest,
  ChatMembersPage,
  ChatMessage,
  ChatMessagesPage,
  ChatPatchRequest,
  GroupChat,
  ManageChatMember,
  UnreadSummary,
} from '@parla/contract/chat';
import type { FastifyBaseLogger } from 'fastify';
import { changedFields, isEmpty } from '../../platform/changes';
import { fieldError, formError, notFound } from '../../platform/errors';
import { permissionDenied, requireThat } from '../../platform/policy';
import { mayChangeRole, mayRemoveMember } from '@parla/contract/policies';
import type { JobContext, Jobs } from '../../platform/jobs';
import { inOrder } from '../../platform/in-order';
import { cursorPage, indexedPage, pageLink } from '../../platform/pages';
import { fillPath } from '../../platform/routes';
import type { Storage } from '../../platform/storage';
import type { Translator } from '../../domain/rendering/translation/index';
import { notifyInvitation, type InvitationMail } from '../../domain/invitations/invitations';
import type { Push } from '../../domain/delivery/push';
import type { GlossaryAccess, Glossaries } from '../../domain/glossary/glossary';
import { glossaryTouches } from '../../domain/rendering/translation/glossary';
import type { GlossaryApply } from '@parla/contract/glossary';
import { NOTIFY_QUEUE, RENDER_WAIT_MS, type NotifyJob } from './notify';
import { displayName, invitedName, type UserDirectory } from '../../domain/people/users';
import type { ChatsLive } from './live';
import { chatPolicy } from './policy';
import { groupReactions, mentionsOf, presentAttachment, readContext, type MessageContext, type MessagePresenter } from './rendering';
import type { PictureDecoder } from '../../platform/images';
import type { Quotas } from '../../platform/quotas';
import type { WorkBudget } from '../../platform/work-budget';
import { processUpload, withExtension } from './attachments';
import { randomBytes } from 'node:crypto';
import type { Attachment, ChatMessageCreateRequest } from '@parla/contract/chat';
import { mentionedIds } from '@parla/contract/markup';
import { LIMITS } from '@parla/contract/constants';
import type { ChatSearchPage, ChatSearchQuery, ChatSearchResult, Reactions } from '@parla/contract/chat';
import { HIT_END, HIT_START } from './repository';
import type { ChatRow, ChatsRepository, MemberRow, MemberView, MessageRow, MessageWithSender, WithdrawnCorrection } from './repository';
import { groupNeed, groupsToRender as renderableGroups, readerGroup, sameText, type ReaderGroup } from '../../domain/rendering/reader-group';
import { renderItem } from '../../domain/rendering/render';

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

export interface ChatsDeps {
  repo: ChatsRepository;
  users: UserDirectory;
  invitations: InvitationMail;
  live: ChatsLive;
  presenter: MessagePresenter;
  translator: Translator;
  jobs: Jobs;
  storage: Storage;
  /** Private storage: attachments, served only after a membership check. */
  files: Storage;
  push: Push;
  glossaries: Glossaries;
  /** Where attachments' pictures are decoded, within each person's budget. */
  pictures: PictureDecoder;
  /** Each person's milliseconds of search a minute. */
  searchBudget: WorkBudget;
  quotas: Quotas;
  /** How long an upload waits to be sent before housekeeping removes it. */
  unsentUploadMs: number;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/**
 * Whether a search names a word to find: one not excluded ("-word"), not the operator "or", with
 * a letter or digit (websearch_to_tsquery's syntax). Only excluded words would match every message.
 */
export const hasWordToFind = (q: string) =>
  (q.match(/-?"[^"]*"?|\S+/g) ?? []).some((token) => !token.startsWith('-') && token.toLowerCase() !== 'or' && /[\p{L}\p{N}]/u.test(token));

const stateOf = (member: Pick<MemberRow, 'joinedAt'>): MemberState => (member.joinedAt ? 'joined' : 'invited');
/** The roles the chat's policy lets post (a plain post checks them in its statement). */
const POSTER_ROLES: readonly number[] = CHAT_ROLES.filter((role) => chatPolicy.may(role, 'post'));
/** An upload not put into a message within this long is deleted by housekeeping. */
/** Pending invitations shown at the top of the first page of the chat list. */
const INVITATIONS_SHOWN = 100;

export function createChatsService(deps: ChatsDeps) {
  const { repo, users, invitations, live, presenter, translator, jobs, storage, files, push, glossaries, publicUrl } = deps;
  const provider = translator.provider;
  const link = (path: string) => (query: Record<string, string | number | undefined>) => pageLink(publicUrl, path, query);
  /** Each sender's turn in a chat (`chatId:userId`): their posts are stored in the order they came in. */
  const senderTurns = inOrder();

  /** A chat as a member sees it; one only invited sees its title and languages, not its description (answers and pushes alike). */
  const presentChat = (chat: ChatRow, member: Pick<MemberRow, 'chatRole' | 'joinedAt' | 'muted' | 'invitedBy'>): GroupChat => ({
    id: chat.id,
    title: chat.title,
    description: member.joinedAt ? chat.description : null,
    languages: chat.languages as Language[],
    created: chat.createdAt.toISOString(),
    modified: chat.modifiedAt.toISOString(),
    chatRole: member.chatRole as ChatRole,
    memberState: stateOf(member),
    muted: member.muted,
    invitedBy: member.joinedAt ? null : member.invitedBy,
  });

  const presentMember = (member: MemberRow): ChatMember => ({
    id: member.id,
    lastReadMessage: member.lastReadMessage,
    nickName: member.nickName,
    language: member.language as Language,
    chatRole: member.chatRole as ChatRole,
    tone: member.tone as Tone,
    memberState: stateOf(member),
    muted: member.muted,
  });

  /** A member as the members list shows them; someone invited shows nothing of their account but the address. */
  const presentManaged = (member: MemberView): ManageChatMember => ({
    id: member.id,
    user: member.email,
    chatRole: member.chatRole as ChatRole,
    nickName: member.nickName,
    avatarImage: member.joinedAt && member.avatarKey ? storage.url(member.avatarKey) : null,
    memberState: stateOf(member),
  });

  const readerOf = (member: MemberRow) => ({ ...readerGroup(member), memberId: member.id });

  /**
   * The caller's membership: 404 for strangers and those who left, and for those only invited
   * unless `invited` allows them (they see the chat's name, their invitation, and nothing more).
   */
  async function load(chatId: number, userId: number, options: { invited?: boolean } = {}) {
    const found = await repo.findMembership(chatId, userId);
    if (!found || (!found.member.joinedAt && !options.invited)) throw notFound();
    return found;
  }

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

  /** The nicknames of the members the rows mention and the rows' reactions: two reads, side by side, for a page or a push. */
  const contextFor = (chatId: number, rows: readonly MessageWithSender[]): Promise<MessageContext> =>
    readContext(
      repo,
      publicUrl,
      chatId,
      rows,
      rows.map((row) => row.rendering),
    );

  /** The members a text mentions, each a joined member of the chat (else a 400 on `content`). */
  async function checkMentions(chatId: number, content: string): Promise<number[]> {
    const ids = mentionedIds(content);
    if (ids.length === 0) return ids;
    const found = await repo.findMembers(chatId, ids);
    const unknown = ids.filter((id) => !found.some((member) => member.id === id && member.joinedAt));
    if (unknown.length) throw fieldError('content', 'noSuchMembers', { ids: unknown.join(', ') }, 'does_not_exist');
    return ids;
  }

  /** A message's reactions, for its answer and its push. */
  async function reactionsOf(messageId: number): Promise<Reactions> {
    return { messageId, reactions: groupReactions(await repo.reactionsFor([messageId])).get(messageId) ?? [] };
  }

  /** A message of the chat (else 404). */
  async function messageOf(chatId: number, messageId: number) {
    const message = await repo.findMessage(chatId, messageId);
    if (!message) throw notFound();
    return message;
  }

  /** Deletes stored files (a failure is left for the logs: the rows are gone already). */
  const removeFiles = async (keys: readonly string[]) => {
    for (const key of keys) await files.remove(key).catch((error: unknown) => deps.log.warn({ err: error, key }, 'an attachment file could not be deleted'));
  };

  /** Tells the readers of each rendering whose correction was taken back: the machine's text is theirs again. */
  async function announceWithdrawn(chatId: number, withdrawn: readonly WithdrawnCorrection[]) {
    const byMessage = new Map<number, ReaderGroup[]>();
    for (const { messageId, language, tone } of withdrawn) byMessage.set(messageId, [...(byMessage.get(messageId) ?? []), { language, tone }]);
    for (const [messageId, groups] of byMessage) await live.message('message:rendered', chatId, messageId, groups);
  }

  /** How a member reads by default: in their interface language when the chat has it, else in the chat's first. */
  const defaultLanguage = (chat: ChatRow, user: { language: string }) => (chat.languages.includes(user.language) ? user.language : (chat.languages[0] ?? user.language));

  /** The owner leaves: ownership passes to the longest-standing admin, else member; the last one out deletes the chat. */
  async function ownerLeaves(chat: ChatRow, owner: MemberRow) {
    const heir = await repo.successor(chat.id, owner.id);
    if (!heir) {
      await repo.deleteChat(chat.id);
      return;
    }
    await repo.updateMember(heir.id, { chatRole: CHAT_ROLE.OWNER });
  }

  return {
    presentChat,

    /** The caller's access to the chat's glossary: members read it, OWNER and ADMIN edit it (404 for strangers). */
    async glossaryAccess(chatId: number, userId: number): Promise<GlossaryAccess> {
      const { member } = await load(chatId, userId);
      return { scope: { chatId }, mayEdit: chatPolicy.may(member.chatRole as ChatRole, 'editGlossary'), names: () => repo.memberNames(chatId, false) };
    },

    /**
     * The user's chats by last activity; the first page starts with the pending invitations
     * (newest first, nothing of their content), then `limit` chats the user joined.
     */
    /** What is new for the user in all their chats (the navigation's count and the tab title). */
    unreadSummary: (userId: number): Promise<UnreadSummary> => repo.unreadSummary(userId),

    async listChats(userId: number, query: { lastModified?: string | undefined; lastId?: number | undefined; limit: number }): Promise<ChatListPage> {
      const before = query.lastModified ? { modified: new Date(query.lastModified), id: query.lastId } : undefined;
      const rows = await repo.listForUser(userId, before, query.limit);
      // The previews name the members they mention or who corrected them (a read per chat that has such a preview).
      const contexts = await Promise.all(
        rows.map((row) => (row.last && (mentionsOf([row.last]).length || row.last.rendering?.correctedBy != null) ? contextFor(row.chat.id, [row.last]) : undefined)),
      );
      const results: ChatListItem[] = rows.map((row, index) => ({
        ...presentChat(row.chat, row.member),
        lastMessage: row.last ? presenter.present(row.last, readerOf(row.member), contexts[index]) : null,
        unreadCount: row.unreadCount,
        unreadMentions: row.unreadMentions,
      }));
      const page = cursorPage(results, query.limit, (last) => link(fillPath(API.listChats, {}))({ lastModified: last.modified, lastId: last.id, limit: query.limit }));
      if (before) return page;
      const invited = await repo.invitationsFor(userId, INVITATIONS_SHOWN);
      return { ...page, results: [...invited.map((row) => ({ ...presentChat(row.chat, row.member), lastMessage: null, unreadCount: 0, unreadMentions: 0 })), ...page.results] };
    },

    async createChat(userId: number, body: ChatCreateRequest): Promise<GroupChat> {
      const user = await users.byId(userId);
      if (!user) throw notFound();
      const languages = body.languages ?? [user.language as Language];
      const { chat, member } = await repo.createWithOwner(
        { title: body.title, description: body.description ?? null, languages },
        {
          userId,
          chatRole: CHAT_ROLE.OWNER,
          nickName: displayName(user),
          language: languages.includes(user.language as Language) ? user.language : languages[0]!,
        },
      );
      return presentChat(chat, member);
    },

    async getChat(chatId: number, userId: number): Promise<GroupChat> {
      const { chat, member } = await load(chatId, userId, { invited: true });
      return presentChat(chat, member);
    },

    async updateChat(chatId: number, userId: number, changes: ChatPatchRequest): Promise<GroupChat> {
      const found = await load(chatId, userId);
      const { member } = found;
      chatPolicy.require(member.chatRole as ChatRole, 'editChat');
      const values = changedFields(found.chat, changes, ['title', 'description', 'languages']);
      if (isEmpty(values)) return presentChat(found.chat, member);
      const chat = await repo.updateChat(chatId, values);
      if (!chat) throw notFound();
      const members = await repo.listMembers(chatId, { offset: 0, limit: 10_000 });
      live.chatUpdated(presentChat(chat, member), members.rows.map((row) => ({ ...row, memberState: stateOf(row) })));
      return presentChat(chat, member);
    },

    async deleteChat(chatId: number, userId: number): Promise<void> {
      const { member } = await load(chatId, userId);
      chatPolicy.require(member.chatRole as ChatRole, 'deleteChat');
      const userIds = await repo.activeUserIds(chatId);
      await repo.deleteChat(chatId);
      await files.removeAll(`attachments/${chatId}`).catch(() => undefined);
      await live.removed(chatId, userIds);
    },

    async getMembership(chatId: number, userId: number): Promise<ChatMember> {
      return presentMember((await load(chatId, userId, { invited: true })).member);
    },

    /**
     * The invited member accepts: they join, shown by their name and reading in their language
     * (when the chat has it), and the others see them as a member. Accepting again changes nothing.
     */
    async acceptInvitation(chatId: number, userId: number): Promise<ChatMember> {
      const { chat, member } = await load(chatId, userId, { invited: true });
      if (member.joinedAt) return presentMember(member);
      const user = await users.byId(userId);
      if (!user) throw notFound();
      // The language the invitation was made with (someone invited again keeps the one they had
      // chosen: issue 37), unless the chat no longer has it.
      const language = chat.languages.includes(member.language) ? member.language : defaultLanguage(chat, user);
      const joined = await repo.acceptInvitation(member.id, { nickName: displayName(user), language });
      if (!joined) return presentMember((await load(chatId, userId)).member);
      live.membersChanged(chatId);
      live.chatUpdated(presentChat(chat, joined), [{ ...joined, memberState: 'joined' }]);
      return presentMember(joined);
    },

    async updateMembership(chatId: number, userId: number, changes: ChatMemberPatchRequest): Promise<ChatMember> {
      const { chat, member } = await load(chatId, userId);
      if (changes.language !== undefined && !chat.languages.includes(changes.language)) {
        throw fieldError('language', 'languageNotInChat', { language: changes.language }, 'invalid_choice');
      }
      if (changes.lastReadMessage !== undefined && !(await repo.messageExists(chatId, changes.lastReadMessage))) {
        throw fieldError('lastReadMessage', 'noSuchMessage', undefined, 'does_not_exist');
      }
      const values = changedFields(member, changes, ['nickName', 'language', 'tone', 'lastReadMessage', 'muted']);
      const updated = isEmpty(values) ? member : await repo.updateMember(member.id, values);
      if (!updated) throw notFound();
      // Read in one tab: the reader's other tabs and devices update their counts at once.
      if (updated.lastReadMessage !== member.lastReadMessage) live.read(userId, chatId, updated.lastReadMessage);
      if (updated.language !== member.language || updated.tone !== member.tone) await live.regrouped(userId, chatId, readerGroup(updated));
      if (updated.nickName !== member.nickName) live.membersChanged(chatId);
      // Muted in one tab: the reader's other tabs show it and keep quiet too.
      if (updated.muted !== member.muted) live.chatUpdated(presentChat(chat, updated), [{ ...updated, memberState: stateOf(updated) }]);
      return presentMember(updated);
    },

    /** Leaves the chat, or declines the invitation. */
    async leave(chatId: number, userId: number, permanent: boolean): Promise<void> {
      const { chat, member } = await load(chatId, userId, { invited: true });
      if (member.chatRole === CHAT_ROLE.OWNER) await ownerLeaves(chat, member);
      const { messageIds, fileKeys, withdrawn } = await repo.removeMembers(chatId, [member.id], permanent);
      await removeFiles(fileKeys);
      live.messagesDeleted(chatId, messageIds);
      await announceWithdrawn(chatId, withdrawn);
      await live.removed(chatId, [userId]);
      live.membersChanged(chatId);
    },

    async listMembers(chatId: number, userId: number, query: { pageIndex: number; pageSize: number; q?: string | undefined }): Promise<ChatMembersPage> {
      const { member } = await load(chatId, userId);
      chatPolicy.require(member.chatRole as ChatRole, 'listMembers');
      const { count, rows } = await repo.listMembers(chatId, { offset: query.pageIndex * query.pageSize, limit: query.pageSize, q: query.q });
      return indexedPage(link(fillPath(API.listMembers, { groupChatId: chatId })), query, count, rows.map(presentManaged));
    },

    /**
     * Invites someone by e-mail: the same answer whether or not the address has an account (one
     * without gets an account waiting to be signed up for), and nothing of their account shown
     * until they accept. They are told by e-mail when `notify` (the address's e-mail budget).
     */
    async addMember(chatId: number, userId: number, body: { user: string; chatRole: ChatRole }, options: { lang: Language; notify: boolean }): Promise<ManageChatMember> {
      const { chat, member } = await load(chatId, userId);
      const role = member.chatRole as ChatRole;
      chatPolicy.require(role, 'addMember');
      if (body.chatRole === CHAT_ROLE.OWNER) throw fieldError('chatRole', 'ownerByHandOver', undefined, 'invalid_choice');
      if (body.chatRole === CHAT_ROLE.ADMIN) chatPolicy.require(role, 'addAdmin');
      const invitee = await users.byEmailOrInvited(body.user, options.lang);
      const added = await repo.addMember({ chatId, userId: invitee.id, chatRole: body.chatRole, nickName: invitedName(invitee.email), language: defaultLanguage(chat, invitee), invitedBy: member.nickName });
      if (!added) throw fieldError('user', 'alreadyMember', undefined, 'unique');
      live.membersChanged(chatId);
      // The invitee's open tabs learn of the invitation at once.
      live.chatUpdated(presentChat(chat, added), [{ ...added, memberState: 'invited' }]);
      if (options.notify) invitations.send({ invitee, inviterUserId: userId, inviter: member.nickName, title: chat.title, path: `/chat/${chatId}`, lang: options.lang });
      notifyInvitation(push, { userId: invitee.id, inviter: member.nickName, title: chat.title, url: `/chat/${chatId}`, tag: `chat-${chatId}` });
      const [view] = await repo.findMembers(chatId, [added.id]);
      return presentManaged(view!);
    },

    /**
     * Removes members: all or none. One the caller may not remove is a 403; an id that is no
     * active member of the chat is a 404 for one id (the path), a 400 on `ids` for a list.
     */
    async removeMembers(chatId: number, userId: number, memberIds: number[], permanent: boolean, from: 'path' | 'list'): Promise<void> {
      const { member } = await load(chatId, userId);
      const role = member.chatRole as ChatRole;
      chatPolicy.require(role, 'removeMember');
      const targets = await repo.findMembers(chatId, memberIds);
      const unknown = memberIds.filter((id) => !targets.some((target) => target.id === id));
      if (unknown.length) {
        if (from === 'path') throw notFound();
        throw fieldError('ids', 'noSuchMembers', { ids: unknown.join(', ') }, 'does_not_exist');
      }
      for (const target of targets) {
        if (target.id === member.id) throw formError('removeSelf', 'invalid');
        requireThat(mayRemoveMember({ id: member.id, chatRole: role }, { id: target.id, chatRole: target.chatRole as ChatRole }));
      }
      const { messageIds, fileKeys, withdrawn } = await repo.removeMembers(chatId, targets.map((target) => target.id), permanent);
      await removeFiles(fileKeys);
      live.messagesDeleted(chatId, messageIds);
      await announceWithdrawn(chatId, withdrawn);
      await live.removed(chatId, targets.map((target) => target.userId));
      live.membersChanged(chatId);
    },

    /** Role change by the owner; making someone OWNER hands ownership over (the old owner becomes ADMIN). */
    async changeRole(chatId: number, userId: number, memberId: number, chatRole: ChatRole): Promise<ManageChatMember> {
      const { member } = await load(chatId, userId);
      chatPolicy.require(member.chatRole as ChatRole, 'changeRole');
      const [target] = await repo.findMembers(chatId, [memberId]);
      if (!target) throw notFound();
      // Anyone's but one's own (changeRole was checked above).
      if (!mayChangeRole({ id: member.id, chatRole: member.chatRole as ChatRole }, target)) throw fieldError('chatRole', 'ownRole', undefined, 'invalid');
      // The chat is handed over only to someone who has accepted.
      if (chatRole === CHAT_ROLE.OWNER && !target.joinedAt) throw fieldError('chatRole', 'invitationPending', undefined, 'invalid');
      if (chatRole === CHAT_ROLE.OWNER) await repo.handOver(chatId, member.id, target.id, CHAT_ROLE.OWNER, CHAT_ROLE.ADMIN);
      else await repo.updateMember(target.id, { chatRole });
      live.membersChanged(chatId);
      const [view] = await repo.findMembers(chatId, [target.id]);
      return presentManaged(view!);
    },

    async listMessages(chatId: number, userId: number, query: { limit: number; toId?: number | undefined }): Promise<ChatMessagesPage> {
      const { member } = await load(chatId, userId);
      const rows = await repo.listMessages(chatId, readerGroup(member), query);
      const [context] = await Promise.all([contextFor(chatId, rows), ensureRenderings(rows, readerGroup(member))]);
      const reader = readerOf(member);
      const results = rows.map((row) => presenter.present(row, reader, context));
      return cursorPage(results, query.limit, (last) => link(fillPath(API.listMessages, { groupChatId: chatId }))({ limit: query.limit, toId: last.id }));
    },

    async getMessage(chatId: number, userId: number, messageId: number): Promise<ChatMessage> {
      const { member } = await load(chatId, userId);
      const [row] = await repo.listMessages(chatId, readerGroup(member), { limit: 1, id: messageId });
      if (!row) throw notFound();
      const [context] = await Promise.all([contextFor(chatId, [row]), ensureRenderings([row], readerGroup(member))]);
      return presenter.present(row, readerOf(member), context);
    },

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
      return this.getMessage(chatId, userId, messageId);
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
      const access = await this.glossaryAccess(chatId, userId);
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
      return this.getMessage(chatId, userId, messageId);
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

    /** Where an attachment's file (or thumbnail) is, for a member of its chat (404 for anyone else). */
    /** Housekeeping: uploads not sent within `unsentUploadMs` are deleted, rows and files. */
    async sweepUnsentUploads(olderThanMs = deps.unsentUploadMs): Promise<number> {
      const removed = await repo.removeUnsentUploads(new Date(Date.now() - olderThanMs), 500);
      for (const row of removed) for (const key of [row.fileKey, row.thumbnailKey]) if (key) await files.remove(key).catch(() => undefined);
      return removed.length;
    },

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
    },

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

export type ChatsService = ReturnType<typeof createChatsService>;
