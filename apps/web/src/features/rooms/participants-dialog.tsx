// The participants of a room, as the chats' members panel: search and pages for everyone; the
// OWNER invites people by e-mail (as members: ownership is handed over, never given on adding;
// they take part once they accept, marked "Invited" until then), removes one or several, and
// hands ownership over (not to someone still invited: the server says so, shown in the dialog);
// anyone can leave. Controls a role may not use are not shown (the server refuses them anyway).
import { useEffect, useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { ROOM_ROLE, type RoomRole } from '@parla/contract/constants';
import { emailField, roomRoleField } from '@parla/contract/fields';
import type { ManageParticipant, Participant, Room } from '@parla/contract/rooms';
import { Button, FormError, LoadFailed, Spinner, TextField } from '../../components/ui';
import { FieldErrors } from '../../lib/error-catalogue';
import { showServerErrors } from '../../lib/forms';
import { notify } from '../../lib/toast';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog } from '../../components/dialog';
import { Pager, PermanentChoice } from '../../components/list-controls';
import { PARTICIPANT_PAGE_SIZE, addParticipant, changeParticipantRole, leaveRoom, participantsQuery, removeParticipant, removeParticipants, roomKeys } from './api';
import { canHandOver, canRemoveParticipant, roleKey, roomControls } from './controls';
import { expectRemoval, mapRoomLists } from './live-sync';

const SEARCH_DELAY_MS = 300;
/** The add-participant body (as participantAddRequestSchema), built from the fields so the other room schemas stay out of the bundle. */
const addSchema = z.object({ user: emailField, roomRole: roomRoleField });
type AddValues = z.infer<typeof addSchema>;

export function ParticipantsDialog({ open, onClose, room, participant }: { open: boolean; onClose: () => void; room: Room; participant: Participant }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} title={t('rooms.participants.title')} wide>
      <ParticipantsPanel room={room} participant={participant} />
    </Dialog>
  );
}

type Removal = { ids: number[]; names: string[] } | null;

function ParticipantsPanel({ room, participant }: { room: Room; participant: Participant }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const controls = roomControls(participant.roomRole);
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [pageIndex, setPageIndex] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [removal, setRemoval] = useState<Removal>(null);
  const [permanent, setPermanent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [handover, setHandover] = useState<ManageParticipant | null>(null);
  /** The server's refusal of a hand-over (e.g. `invitationPending`), shown in its dialog. */
  const [handoverError, setHandoverError] = useState('');
  const searchId = useId();

  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(search.trim());
      setPageIndex(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const list = useQuery({ ...participantsQuery(room.id, { pageIndex, q }), placeholderData: keepPreviousData });
  const count = list.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / PARTICIPANT_PAGE_SIZE));
  const viewer = { id: participant.id, roomRole: participant.roomRole };

  // A page emptied by removals: step back to the last one that exists.
  useEffect(() => {
    if (list.data && pageIndex > 0 && pageIndex >= pages) setPageIndex(pages - 1);
  }, [list.data, pageIndex, pages]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: roomKeys.participants(room.id) });
    void queryClient.invalidateQueries({ queryKey: roomKeys.participant(room.id) });
    void queryClient.invalidateQueries({ queryKey: roomKeys.detail(room.id) });
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
    const done = removal.ids.length === 1 && onlyId !== undefined ? await removeParticipant(room.id, onlyId, permanent) : await removeParticipants(room.id, removal.ids, permanent);
    setBusy(false);
    if (!done) return;
    notify.success(t('rooms.participants.removed', { count: removal.ids.length }));
    setSelected((current) => new Set([...current].filter((id) => !removal.ids.includes(id))));
    setRemoval(null);
    setPermanent(false);
    refresh();
  };

  const handOver = async () => {
    if (!handover) return;
    setBusy(true);
    setHandoverError('');
    const changed = await changeParticipantRole(room.id, handover.id, ROOM_ROLE.OWNER).catch((error: unknown) => {
      if (error instanceof FieldErrors) setHandoverError(Object.values(error.fields).join(' '));
      return undefined;
    });
    setBusy(false);
    if (!changed) return;
    notify.success(t('rooms.participants.handedOver', { name: handover.alias }));
    setHandover(null);
    refresh();
  };

  return (
    <div className="stack members-panel">
      {controls.manageParticipants && <AddParticipantForm roomId={room.id} roles={controls.addRoles} onAdded={refresh} />}
      <div className="field">
        <label htmlFor={searchId}>{t('rooms.participants.search')}</label>
        <input id={searchId} type="search" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
      </div>
      {list.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : list.data === undefined ? (
        <LoadFailed message={t('rooms.participants.failed')} retryLabel={t('common.retry')} onRetry={() => void list.refetch()} />
      ) : (
        <>
          <p className="muted" role="status">
            {q ? t('rooms.participants.found', { count }) : t('rooms.participants.count', { count })}
          </p>
          {list.data.results.length > 0 && (
            <ul className="member-list" aria-busy={list.isFetching || undefined}>
              {list.data.results.map((item) => {
                const me = item.id === participant.id;
                const removable = canRemoveParticipant(viewer, item);
                const invited = item.memberState === 'invited';
                return (
                  <li key={item.id} className={`member-row${invited ? ' invited' : ''}`}>
                    {controls.manageParticipants && (
                      <input
                        type="checkbox"
                        className="member-check"
                        disabled={!removable}
                        checked={selected.has(item.id)}
                        onChange={() => toggle(item.id)}
                        aria-label={t('rooms.participants.select', { name: item.alias })}
                      />
                    )}
                    <span className="message-avatar member-avatar" aria-hidden="true">
                      {item.avatarImage ? <img src={item.avatarImage} alt="" width={32} height={32} /> : (Array.from(item.alias)[0] ?? '?').toLocaleUpperCase()}
                    </span>
                    <span className="member-who">
                      <span className="member-name-line">
                        <span className="member-name" dir="auto">
                          {item.alias}
                          {me && <span className="muted"> {t('rooms.participants.you')}</span>}
                        </span>
                        {invited && <span className="invited-badge">{t('invitations.invited')}</span>}
                      </span>
                      <span className="member-email">{item.user}</span>
                    </span>
                    <span className="member-controls">
                      <span className={`role-badge room-role-${item.roomRole}`}>{t(roleKey(item.roomRole))}</span>
                      {canHandOver(viewer, item) && (
                        <Button
                          variant="ghost"
                          className="btn-small"
                          onClick={() => {
                            setHandoverError('');
                            setHandover(item);
                          }}
                          aria-label={t('rooms.participants.handOverTo', { name: item.alias })}
                        >
                          {t('rooms.participants.makeOwner')}
                        </Button>
                      )}
                      {removable && (
                        <Button variant="ghost" className="btn-small" onClick={() => setRemoval({ ids: [item.id], names: [item.alias] })} aria-label={t('rooms.participants.removeOne', { name: item.alias })}>
                          {t('rooms.participants.remove')}
                        </Button>
                      )}
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
          <Pager label={t('rooms.participants.pages')} pageIndex={pageIndex} pages={pages} onChange={setPageIndex} />
          {controls.manageParticipants && selected.size > 0 && (
            <Button
              variant="danger"
              onClick={() => {
                const chosen = list.data.results.filter((item) => selected.has(item.id));
                setRemoval({ ids: [...selected], names: chosen.map((item) => item.alias) });
              }}
            >
              {t('rooms.participants.removeSelected', { count: selected.size })}
            </Button>
          )}
        </>
      )}
      <LeaveRoom room={room} participant={participant} />
      <ConfirmDialog
        open={removal !== null}
        title={t('rooms.participants.removeTitle', { count: removal?.ids.length ?? 1 })}
        message={removal && removal.ids.length === 1 ? t('rooms.participants.removeText', { name: removal.names[0] ?? '' }) : t('rooms.participants.removeManyText', { count: removal?.ids.length ?? 0 })}
        confirmLabel={t('rooms.participants.remove')}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => {
          setRemoval(null);
          setPermanent(false);
        }}
      >
        <PermanentChoice checked={permanent} onChange={setPermanent} label={t('rooms.participants.permanent')} hint={t('rooms.participants.permanentHint')} />
      </ConfirmDialog>
      <ConfirmDialog
        open={handover !== null}
        title={t('rooms.participants.handOverTitle')}
        message={t('rooms.participants.handOverText', { name: handover?.alias ?? '' })}
        confirmLabel={t('rooms.participants.handOver')}
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

function AddParticipantForm({ roomId, roles, onAdded }: { roomId: number; roles: readonly RoomRole[]; onAdded: () => void }) {
  const { t } = useTranslation(['translation', 'form']);
  const roleId = useId();
  const form = useForm<AddValues>({ resolver: zodResolver(addSchema), defaultValues: { user: '', roomRole: ROOM_ROLE.MEMBER } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      const added = await addParticipant(roomId, values);
      if (!added) return;
      notify.success(t('invitations.sent', { email: added.user }));
      form.reset({ user: '', roomRole: values.roomRole });
      onAdded();
    } catch (error) {
      showServerErrors(error, form.setError, ['user', 'roomRole']);
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
          aria-describedby={[errors.user ? `${roleId}-email-error` : '', `${roleId}-invite-hint`].filter(Boolean).join(' ')}
          {...form.register('user')}
        />
        <div className="field">
          <label htmlFor={roleId}>{t('rooms.participants.role')}</label>
          <select id={roleId} aria-describedby={`${roleId}-hint`} {...form.register('roomRole', { setValueAs: (value: string) => Number(value) })}>
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
      <p id={`${roleId}-invite-hint`} className="field-hint">
        {t('invitations.inviteHint')}
      </p>
      <p id={`${roleId}-hint`} className="field-hint">
        {t('rooms.participants.roleHint')}
      </p>
      <FormError message={errors.root?.form?.message} />
    </form>
  );
}

function LeaveRoom({ room, participant }: { room: Room; participant: Participant }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [permanent, setPermanent] = useState(false);
  const [busy, setBusy] = useState(false);
  const leave = async () => {
    setBusy(true);
    const forget = expectRemoval(room.id);
    const done = await leaveRoom(room.id, permanent);
    setBusy(false);
    if (!done) {
      forget();
      return;
    }
    setOpen(false);
    queryClient.setQueriesData({ queryKey: roomKeys.lists() }, (data: Parameters<typeof mapRoomLists>[0]) => mapRoomLists(data, (rooms) => rooms.filter((item) => item.id !== room.id)));
    notify.success(t('rooms.left', { title: room.title }));
    await navigate({ to: '/room' });
    queryClient.removeQueries({ queryKey: roomKeys.room(room.id) });
    forget();
  };
  return (
    <div className="leave-chat">
      <Button variant="danger" onClick={() => setOpen(true)}>
        {t('rooms.leave')}
      </Button>
      <ConfirmDialog
        open={open}
        title={t('rooms.leaveTitle')}
        message={participant.roomRole === ROOM_ROLE.OWNER ? t('rooms.leaveOwnerText') : t('rooms.leaveText')}
        confirmLabel={t('rooms.leave')}
        busy={busy}
        onConfirm={() => void leave()}
        onClose={() => setOpen(false)}
      >
        <PermanentChoice checked={permanent} onChange={setPermanent} label={t('rooms.leavePermanent')} hint={t('rooms.leavePermanentHint')} />
      </ConfirmDialog>
    </div>
  );
}
