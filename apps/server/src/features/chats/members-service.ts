// The chats service's members: one's own membership (its settings, accepting an invitation,
// leaving), and the members list, invitations, removals and roles as owners and admins manage them.
import { API } from '@parla/contract/api';
import { CHAT_ROLE, type ChatRole, type Language, type Tone } from '@parla/contract/constants';
import type { ChatMember, ChatMemberPatchRequest, ChatMembersPage, ManageChatMember } from '@parla/contract/chat';
import { mayChangeRole, mayRemoveMember } from '@parla/contract/policies';
import { changedFields, isEmpty } from '../../platform/changes';
import { fieldError, formError, notFound } from '../../platform/errors';
import { indexedPage } from '../../platform/pages';
import { requireThat } from '../../platform/policy';
import { fillPath } from '../../platform/routes';
import { notifyInvitation } from '../../domain/invitations/invitations';
import { displayName, invitedName } from '../../domain/people/users';
import { readerGroup } from '../../domain/rendering/reader-group';
import { chatPolicy } from './policy';
import type { ChatRow, MemberRow, MemberView } from './repository';
import { stateOf, type ServiceShared } from './service-shared';

export function createMembersService(shared: ServiceShared) {
  const { deps, link, presentChat, load, announceWithdrawn } = shared;
  const { repo, users, invitations, live, storage, files, push, privacy } = deps;

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

  /** Deletes stored files (a failure is left for the logs: the rows are gone already). */
  const removeFiles = async (keys: readonly string[]) => {
    for (const key of keys) await files.remove(key).catch((error: unknown) => deps.log.warn({ err: error, key }, 'an attachment file could not be deleted'));
  };

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
      const readAt = values.lastReadMessage !== undefined ? new Date() : undefined;
      const updated = isEmpty(values) ? member : await repo.updateMember(member.id, readAt ? { ...values, lastReadAt: readAt } : values);
      if (!updated) throw notFound();
      if (updated.lastReadMessage !== member.lastReadMessage) {
        // Read in one tab: the reader's other tabs and devices update their counts at once; the
        // others see how far they read, if they share it.
        live.read(userId, chatId, updated.lastReadMessage);
        if (readAt && updated.lastReadMessage !== null && (await privacy.get(userId))?.readReceipts) {
          live.receipt(chatId, { memberId: updated.id, nickName: updated.nickName, lastReadMessage: updated.lastReadMessage, readAt: readAt.toISOString() });
        }
      }
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
  };
}
