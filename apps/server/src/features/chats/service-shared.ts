// The chats service's shared parts (service.ts composes the parts): its dependencies, the
// membership check every call starts from, and what several parts present, check and announce.
import type { ChatRole, Language, MemberState } from '@parla/contract/constants';
import type { GroupChat } from '@parla/contract/chat';
import { mentionedIds } from '@parla/contract/markup';
import type { FastifyBaseLogger } from 'fastify';
import { fieldError, notFound } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import { pageLink } from '../../platform/pages';
import type { Storage } from '../../platform/storage';
import type { PictureDecoder } from '../../platform/images';
import type { Quotas } from '../../platform/quotas';
import type { WorkBudget } from '../../platform/work-budget';
import type { Translator } from '../../domain/rendering/translation/index';
import type { InvitationMail } from '../../domain/invitations/invitations';
import type { Push } from '../../domain/delivery/push';
import type { Glossaries } from '../../domain/glossary/glossary';
import { readerGroup, type ReaderGroup } from '../../domain/rendering/reader-group';
import type { UserDirectory } from '../../domain/people/users';
import type { ChatsLive } from './live';
import type { PrivacySettings } from '../../domain/people/privacy';
import type { Presence } from '../../domain/delivery/presence';
import { readContext, type MessageContext, type MessagePresenter } from './rendering';
import type { ChatRow, ChatsRepository, MemberRow, MessageWithSender, WithdrawnCorrection } from './repository';

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
  /** What each person shares of themselves (read receipts, presence). */
  privacy: PrivacySettings;
  presence: Presence;
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

export const stateOf = (member: Pick<MemberRow, 'joinedAt'>): MemberState => (member.joinedAt ? 'joined' : 'invited');

export function createServiceShared(deps: ChatsDeps) {
  const { repo, live, publicUrl } = deps;
  const link = (path: string) => (query: Record<string, string | number | undefined>) => pageLink(publicUrl, path, query);

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

  /** A message of the chat (else 404). */
  async function messageOf(chatId: number, messageId: number) {
    const message = await repo.findMessage(chatId, messageId);
    if (!message) throw notFound();
    return message;
  }

  /** Tells the readers of each rendering whose correction was taken back: the machine's text is theirs again. */
  async function announceWithdrawn(chatId: number, withdrawn: readonly WithdrawnCorrection[]) {
    const byMessage = new Map<number, ReaderGroup[]>();
    for (const { messageId, language, tone } of withdrawn) byMessage.set(messageId, [...(byMessage.get(messageId) ?? []), { language, tone }]);
    for (const [messageId, groups] of byMessage) await live.message('message:rendered', chatId, messageId, groups);
  }

  return { deps, link, presentChat, readerOf, load, contextFor, checkMentions, messageOf, announceWithdrawn };
}

export type ServiceShared = ReturnType<typeof createServiceShared>;
