// The members of a chat: search and pages for everyone; ADMIN and OWNER invite people by e-mail
// (they are members once they accept; until then the list marks them "Invited") and remove
// members (one or several); the OWNER changes roles and may hand ownership over (not to someone
// still invited: the server says so, shown in the dialog); anyone can leave. Controls a role may
// not use are not shown (the server refuses them anyway).
import { useEffect, useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import type { ChatMember, ChatMemberAddRequest, GroupChat, ManageChatMember } from '@parla/contract/chat';
import { CHAT_ROLE, CHAT_ROLES, type ChatRole } from '@parla/contract/constants';
import { chatRoleField, emailField } from '@parla/contract/fields';
import { Button, FormError, LoadFailed, Spinner, TextField } from '../../components/ui';
import { FieldErrors } from '../../lib/error-catalogue';
import { showServerErrors } from '../../lib/forms';
import { notify } from '../../lib/toast';
import { MEMBER_PAGE_SIZE, addMember, changeMemberRole, chatKeys, leaveChat, membersQuery, removeMember, removeMembers } from './api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog } from '../../components/dialog';
import { Pager, PermanentChoice } from '../../components/list-controls';
import { expectRemoval } from './live-sync';
import { canChangeRole, canRemove, chatControls, roleKey } from './permissions';
import { removeChat, type ChatListPages } from './timeline';

const SEARCH_DELAY_MS = 300;
/** The add-member body (as chatMemberAddRequestSchema), built from the fields so the chat contract's other schemas stay out of the bundle. */
const addMemberSchema = z.object({ user: emailField, chatRole: chatRoleField });

export function MembersDialog({ open, onClose, chat, member }: { open: boolean; onClose: () => void; chat: GroupChat; member: ChatMember }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} title={t('chats.members.title')} wide>
      <MembersPanel chat={chat} member={member} />
    </Dialog>
  );
}

type Removal = { ids: number[]; names: string[] } | null;

function MembersPanel({ chat, member }: { chat: GroupChat; member: ChatMember }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const controls = chatControls(member.chatRole);
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [pageIndex, setPageIndex] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [removal, setRemoval] = useState<Removal>(null);
  const [permanent, setPermanent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [handover, setHandover] = useState<ManageChatMember | null>(null);
  /** The server's refusal of a hand-over, shown in its dialog; of another role change, under the member. */
  const [handoverError, setHandoverError] = useState('');
  const [roleError, setRoleError] = useState<{ id: number; message: string } | null>(null);
  const searchId = useId();

  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(search.trim());
      setPageIndex(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const members = useQuery({ ...membersQuery(chat.id, { pageIndex, q }), placeholderData: keepPreviousData });
  const count = members.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / MEMBER_PAGE_SIZE));
  const viewer = { id: member.id, chatRole: member.chatRole };

  // A page emptied by removals: step back to the last one that exists.
  useEffect(() => {
    if (members.data && pageIndex > 0 && pageIndex >= pages) setPageIndex(pages - 1);
  }, [members.data, pageIndex, pages]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: chatKeys.members(chat.id) });
    void queryClient.invalidateQueries({ queryKey: chatKeys.member(chat.id) });
    void queryClient.invalidateQueries({ queryKey: chatKeys.detail(chat.id) });
  };

  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const remove = async () => {
    if (!removal) return;
    setBusy(true);
    const [onlyId] = removal.ids;
    const done = removal.ids.length === 1 && onlyId !== undefined ? await removeMember(chat.id, onlyId, permanent) : await removeMembers(chat.id, removal.ids, permanent);
    setBusy(false);
    if (!done) return;
    notify.success(t('chats.members.removed', { count: removal.ids.length }));
    setSelected((current) => new Set([...current].filter((id) => !removal.ids.includes(id))));
    setRemoval(null);
    setPermanent(false);
    refresh();
  };

  const setRole = async (target: ManageChatMember, chatRole: ChatRole) => {
    if (chatRole === target.chatRole) return;
    setRoleError(null);
    if (chatRole === CHAT_ROLE.OWNER) {
      setHandoverError('');
      return setHandover(target);
    }
    const changed = await changeMemberRole(chat.id, target.id, chatRole).catch((error: unknown) => {
      if (error instanceof FieldErrors) setRoleError({ id: target.id, message: Object.values(error.fields).join(' ') });
      return undefined;
    });
    if (changed) {
      notify.success(t('chats.members.roleChanged', { name: target.nickName, role: t(roleKey(chatRole)) }));
      refresh();
    } else {
      // Refused: show the role as it is.
      void members.refetch();
    }
  };

  const handOver = async () => {
    if (!handover) return;
    setBusy(true);
    setHandoverError('');
    const changed = await changeMemberRole(chat.id, handover.id, CHAT_ROLE.OWNER).catch((error: unknown) => {
      // e.g. `invitationPending` on chatRole: they have not accepted yet.
      if (error instanceof FieldErrors) setHandoverError(Object.values(error.fields).join(' '));
      return undefined;
    });
    setBusy(false);
    if (!changed) return;
    notify.success(t('chats.members.handedOver', { name: handover.nickName }));
    setHandover(null);
    refresh();
  };

  return (
    <div className="stack members-panel">
      {controls.addMembers && <AddMemberForm chatId={chat.id} roles={controls.addRoles} onAdded={refresh} />}
      <div className="field">
        <label htmlFor={searchId}>{t('chats.members.search')}</label>
        <input id={searchId} type="search" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
      </div>
      {members.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : members.data === undefined ? (
        <LoadFailed message={t('chats.members.failed')} retryLabel={t('common.retry')} onRetry={() => void members.refetch()} />
      ) : (
        <>
          <p className="muted" role="status">
            {q ? t('chats.members.found', { count }) : t('chats.members.count', { count })}
          </p>
          {members.data.results.length > 0 && (
            <ul className="member-list" aria-busy={members.isFetching || undefined}>
              {members.data.results.map((item) => {
                const me = item.id === member.id;
                const removable = canRemove(viewer, item);
                const invited = item.memberState === 'invited';
                return (
                  <li key={item.id} className={`member-row${invited ? ' invited' : ''}`}>
                    {controls.removeMembers && (
                      <input
                        type="checkbox"
                        className="member-check"
                        disabled={!removable}
                        checked={selected.has(item.id)}
                        onChange={() => toggle(item.id)}
                        aria-label={t('chats.members.select', { name: item.nickName })}
                      />
                    )}
                    <span className="message-avatar member-avatar" aria-hidden="true">
                      {item.avatarImage ? <img src={item.avatarImage} alt="" width={32} height={32} /> : (Array.from(item.nickName)[0] ?? '?').toLocaleUpperCase()}
                    </span>
                    <span className="member-who">
                      <span className="member-name-line">
                        <span className="member-name" dir="auto">
                          {item.nickName}
                          {me && <span className="muted"> {t('chats.members.you')}</span>}
                        </span>
                        {invited && <span className="invited-badge">{t('invitations.invited')}</span>}
                      </span>
                      <span className="member-email">{item.user}</span>
                    </span>
                    <span className="member-controls">
                      {canChangeRole(viewer, item) ? (
                        <select
                          className="role-select"
                          value={item.chatRole}
                          aria-label={t('chats.members.roleOf', { name: item.nickName })}
                          onChange={(event) => void setRole(item, Number(event.target.value) as ChatRole)}
                        >
                          {CHAT_ROLES.map((role) => (
                            <option key={role} value={role}>
                              {t(roleKey(role))}
                            </option>
                          ))}
                        </select>
                      ) : (
                        <span className={`role-badge role-${item.chatRole}`}>{t(roleKey(item.chatRole))}</span>
                      )}
                      {removable && (
                        <Button variant="ghost" className="btn-small" onClick={() => setRemoval({ ids: [item.id], names: [item.nickName] })} aria-label={t('chats.members.removeOne', { name: item.nickName })}>
                          {t('chats.members.remove')}
                        </Button>
                      )}
                    </span>
                    {roleError?.id === item.id && (
                      <p className="field-error member-error" role="alert">
                        {roleError.message}
                      </p>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          <Pager label={t('chats.members.pages')} pageIndex={pageIndex} pages={pages} onChange={setPageIndex} />
          {controls.removeMembers && selected.size > 0 && (
            <Button
              variant="danger"
              onClick={() => {
                const chosen = members.data.results.filter((item) => selected.has(item.id));
                setRemoval({ ids: [...selected], names: chosen.map((item) => item.nickName) });
              }}
            >
              {t('chats.members.removeSelected', { count: selected.size })}
            </Button>
          )}
        </>
      )}
      <LeaveChat chat={chat} member={member} />
      <ConfirmDialog
        open={removal !== null}
        title={t('chats.members.removeTitle', { count: removal?.ids.length ?? 1 })}
        message={removal && removal.ids.length === 1 ? t('chats.members.removeText', { name: removal.names[0] ?? '' }) : t('chats.members.removeManyText', { count: removal?.ids.length ?? 0 })}
        confirmLabel={t('chats.members.remove')}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => {
          setRemoval(null);
          setPermanent(false);
        }}
      >
        <PermanentChoice checked={permanent} onChange={setPermanent} label={t('chats.members.permanent')} hint={t('chats.members.permanentHint')} />
      </ConfirmDialog>
      <ConfirmDialog
        open={handover !== null}
        title={t('chats.members.handOverTitle')}
        message={t('chats.members.handOverText', { name: handover?.nickName ?? '' })}
        confirmLabel={t('chats.members.handOver')}
        danger={false}
        busy={busy}
        onConfirm={() => void handOver()}
        onClose={() => setHandover(null)}
      >
        {handoverError && (
          <p className="field-error" role="alert">
            {handoverError}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}

function AddMemberForm({ chatId, roles, onAdded }: { chatId: number; roles: readonly ChatRole[]; onAdded: () => void }) {
  const { t } = useTranslation(['translation', 'form']);
  const roleId = useId();
  const form = useForm<ChatMemberAddRequest>({ resolver: zodResolver(addMemberSchema), defaultValues: { user: '', chatRole: CHAT_ROLE.MEMBER } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      const added = await addMember(chatId, values);
      if (!added) return;
      notify.success(t('invitations.sent', { email: added.user }));
      form.reset({ user: '', chatRole: values.chatRole });
      onAdded();
    } catch (error) {
      showServerErrors(error, form.setError, ['user', 'chatRole']);
    }
  });
  return (
    <form onSubmit={submit} noValidate className="add-member" aria-labelledby={`${roleId}-title`}>
      <h3 id={`${roleId}-title`} className="add-member-title">
        {t('invitations.inviteTitle')}
      </h3>
      <div className="add-member-fields">
        <TextField
          id={`${roleId}-email`}
          label={t('form:email')}
          type="email"
          autoComplete="off"
          error={errors.user?.message}
          aria-describedby={[errors.user ? `${roleId}-email-error` : '', `${roleId}-hint`].filter(Boolean).join(' ')}
          {...form.register('user')}
        />
        <div className="field">
          <label htmlFor={roleId}>{t('chats.members.role')}</label>
          <select id={roleId} {...form.register('chatRole', { setValueAs: (value: string) => Number(value) })}>
            {roles.map((role) => (
              <option key={role} value={role}>
                {t(roleKey(role))}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" busy={isSubmitting} className="add-member-submit">
          {t('invitations.invite')}
        </Button>
      </div>
      <p id={`${roleId}-hint`} className="field-hint">
        {t('invitations.inviteHint')}
      </p>
      <FormError message={errors.root?.form?.message} />
    </form>
  );
}

function LeaveChat({ chat, member }: { chat: GroupChat; member: ChatMember }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [permanent, setPermanent] = useState(false);
  const [busy, setBusy] = useState(false);
  const leave = async () => {
    setBusy(true);
    const forget = expectRemoval(chat.id);
    const done = await leaveChat(chat.id, permanent);
    setBusy(false);
    if (!done) {
      forget();
      return;
    }
    setOpen(false);
    queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => removeChat(data, chat.id));
    notify.success(t('chats.left', { title: chat.title }));
    await navigate({ to: '/chat' });
    queryClient.removeQueries({ queryKey: chatKeys.chat(chat.id) });
    forget();
  };
  return (
    <div className="leave-chat">
      <Button variant="danger" onClick={() => setOpen(true)}>
        {t('chats.leave')}
      </Button>
      <ConfirmDialog
        open={open}
        title={t('chats.leaveTitle')}
        message={member.chatRole === CHAT_ROLE.OWNER ? t('chats.leaveOwnerText') : t('chats.leaveText')}
        confirmLabel={t('chats.leave')}
        busy={busy}
        onConfirm={() => void leave()}
        onClose={() => setOpen(false)}
      >
        <PermanentChoice checked={permanent} onChange={setPermanent} label={t('chats.leavePermanent')} hint={t('chats.leavePermanentHint')} />
      </ConfirmDialog>
    </div>
  );
}
