// The members of a chat (components/people-panel.tsx): ADMIN and OWNER invite and remove members;
// the OWNER changes roles and may hand ownership over; anyone can leave.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { ChatMember, GroupChat, ManageChatMember } from '@parla/contract/chat';
import { CHAT_ROLE, CHAT_ROLES, type ChatRole } from '@parla/contract/constants';
import { chatRoleField } from '@parla/contract/fields';
import { Dialog } from '../../components/dialog';
import { InviteForm, LeaveButton, PeoplePanel, type RoleActions } from '../../components/people-panel';
import { FieldErrors } from '../../lib/error-catalogue';
import { notify } from '../../lib/toast';
import { MEMBER_PAGE_SIZE, addMember, changeMemberRole, chatKeys, leaveChat, membersQuery, presenceQuery, removeMember, removeMembers } from './api';
import { usePresenceLabel } from './awareness';
import { expectRemoval } from './live-sync';
import { canChangeRole, canRemove, chatControls, roleKey } from './permissions';
import { removeChat, type ChatListPages } from './timeline';

export function MembersDialog({ open, onClose, chat, member }: { open: boolean; onClose: () => void; chat: GroupChat; member: ChatMember }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} title={t('chats.members.title')} wide>
      <MembersPanel chat={chat} member={member} />
    </Dialog>
  );
}

function MembersPanel({ chat, member }: { chat: GroupChat; member: ChatMember }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const controls = chatControls(member.chatRole);
  const viewer = { id: member.id, chatRole: member.chatRole };
  const presence = useQuery(presenceQuery(chat.id)).data;
  const presenceLabel = usePresenceLabel();
  const presenceOf = (item: ManageChatMember) => {
    const found = item.memberState === 'joined' ? presence?.results.find((entry) => entry.memberId === item.id) : undefined;
    return found && { state: found.state, label: presenceLabel(found) };
  };

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: chatKeys.members(chat.id) });
    void queryClient.invalidateQueries({ queryKey: chatKeys.member(chat.id) });
    void queryClient.invalidateQueries({ queryKey: chatKeys.detail(chat.id) });
  };

  const setRole = async (target: ManageChatMember, chatRole: ChatRole, actions: RoleActions) => {
    if (chatRole === target.chatRole) return;
    actions.clearError();
    if (chatRole === CHAT_ROLE.OWNER) return actions.handOver();
    const changed = await changeMemberRole(chat.id, target.id, chatRole).catch((error: unknown) => {
      if (error instanceof FieldErrors) actions.showError(Object.values(error.fields).join(' '));
      return undefined;
    });
    if (changed) notify.success(t('chats.members.roleChanged', { name: target.nickName, role: t(roleKey(chatRole)) }));
    // Changed, or refused: show the role as it is now.
    refresh();
  };

  const roleControl = (item: ManageChatMember, actions: RoleActions) =>
    canChangeRole(viewer, item) ? (
      <select className="role-select" value={item.chatRole} aria-label={t('chats.members.roleOf', { name: item.nickName })} onChange={(event) => void setRole(item, Number(event.target.value) as ChatRole, actions)}>
        {CHAT_ROLES.map((role) => (
          <option key={role} value={role}>
            {t(roleKey(role))}
          </option>
        ))}
      </select>
    ) : (
      <span className={`role-badge role-${item.chatRole}`}>{t(roleKey(item.chatRole))}</span>
    );

  return (
    <PeoplePanel<ManageChatMember>
      texts="chats.members"
      pageSize={MEMBER_PAGE_SIZE}
      usePage={(query) => useQuery({ ...membersQuery(chat.id, query), placeholderData: keepPreviousData })}
      person={(item) => ({ id: item.id, name: item.nickName, user: item.user, avatarImage: item.avatarImage, memberState: item.memberState, role: item.chatRole, presence: presenceOf(item) })}
      viewerId={member.id}
      removes={controls.removeMembers}
      mayRemove={(item) => canRemove(viewer, item)}
      remove={(ids, permanent) => {
        const [only] = ids;
        return ids.length === 1 && only !== undefined ? removeMember(chat.id, only, permanent) : removeMembers(chat.id, ids, permanent);
      }}
      handOver={async (item) => (await changeMemberRole(chat.id, item.id, CHAT_ROLE.OWNER)) !== undefined}
      roleControl={roleControl}
      refresh={refresh}
      invite={
        controls.addMembers && (
          <InviteForm<ChatRole>
            roleField="chatRole"
            roleSchema={chatRoleField}
            roles={controls.addRoles}
            roleName={(role) => t(roleKey(role))}
            roleLabel={t('chats.members.role')}
            invite={({ user, role }) => addMember(chat.id, { user, chatRole: role })}
            onInvited={refresh}
          />
        )
      }
      leave={
        <LeaveButton
          texts="chats"
          owner={member.chatRole === CHAT_ROLE.OWNER}
          title={chat.title}
          expect={() => expectRemoval(chat.id)}
          leave={(permanent) => leaveChat(chat.id, permanent)}
          left={async () => {
            queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => removeChat(data, chat.id));
            await navigate({ to: '/chat' });
            queryClient.removeQueries({ queryKey: chatKeys.chat(chat.id) });
          }}
        />
      }
    />
  );
}
