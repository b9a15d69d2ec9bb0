// What the chat calls do (product.md "Chats and messages", "Roles and permissions"). Every call
// starts from `load` (404 for strangers and those who left), asks the policy, then works.
// Each use case has its part beside this file (*-service.ts); this holds the chats themselves and
// composes the parts into one service.
import { API } from '@parla/contract/api';
import { CHAT_ROLE, type ChatRole, type Language } from '@parla/contract/constants';
import type { ChatCreateRequest, ChatListItem, ChatListPage, ChatPatchRequest, GroupChat, UnreadSummary } from '@parla/contract/chat';
import { changedFields, isEmpty } from '../../platform/changes';
import { notFound } from '../../platform/errors';
import { cursorPage } from '../../platform/pages';
import { fillPath } from '../../platform/routes';
import { displayName } from '../../domain/people/users';
import { createAwarenessService } from './awareness-service';
import { createMembersService } from './members-service';
import { createMessagesService } from './messages-service';
import { chatPolicy } from './policy';
import { createPostingService } from './posting-service';
import { mentionsOf } from './rendering';
import { createCorrectionsService, createRenderingPipeline } from './rendering-service';
import { createServiceShared, stateOf, type ChatsDeps } from './service-shared';

export { hasWordToFind } from './messages-service';
export { RENDER_QUEUE, type RenderJob } from './rendering-service';
export type { ChatsDeps } from './service-shared';

/** Pending invitations shown at the top of the first page of the chat list. */
const INVITATIONS_SHOWN = 100;

export function createChatsService(deps: ChatsDeps) {
  const shared = createServiceShared(deps);
  const { link, presentChat, readerOf, load, contextFor } = shared;
  const { repo, users, live, presenter, files } = deps;
  const pipeline = createRenderingPipeline(shared);
  const messages = createMessagesService(shared, pipeline);

  return {
    presentChat,

    /** What is new for the user in all their chats (the navigation's count and the tab title). */
    unreadSummary: (userId: number): Promise<UnreadSummary> => repo.unreadSummary(userId),

    /**
     * The user's chats by last activity; the first page starts with the pending invitations
     * (newest first, nothing of their content), then `limit` chats the user joined.
     */
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

    ...createMembersService(shared),
    ...createAwarenessService(shared),
    ...createPostingService(shared, pipeline),
    ...messages,
    ...createCorrectionsService(shared, messages.getMessage),
    render: pipeline.render,
    renderGaveUp: pipeline.renderGaveUp,
  };
}

export type ChatsService = ReturnType<typeof createChatsService>;
