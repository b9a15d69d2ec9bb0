// The people of a chat or a room, written once for both: search and pages for everyone; those who
// may manage people invite by e-mail (people are members once they accept; until then the list
// marks them "Invited"), remove one or several, and hand ownership over (not to someone still
// invited: the server says so, shown in the dialog); anyone can leave. Controls a role may not use
// are not shown (the server refuses them anyway). The feature gives its calls, its role control
// and its texts' prefix (chats.members / rooms.participants: the same keys under each).
import { useEffect, useId, useState, type ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { emailField } from '@parla/contract/fields';
import { FieldErrors } from '../lib/error-catalogue';
import { showServerErrors } from '../lib/forms';
import { notify } from '../lib/toast';
import { ConfirmDialog } from './confirm-dialog';
import { Pager, PermanentChoice } from './list-controls';
import { Button, FormError, LoadFailed, Spinner, TextField } from './ui';

const SEARCH_DELAY_MS = 300;

/** A person as both lists show them. */
export interface Person {
  id: number;
  /** Nickname or alias. */
  name: string;
  /** Their e-mail address. */
  user: string;
  avatarImage: string | null;
  memberState: 'joined' | 'invited';
  role: number;
  /** Online, away or offline (chats): shown on the avatar and as a line of its own. */
  presence?: { state: 'online' | 'away' | 'offline'; label: string } | undefined;
}

interface PeoplePage<Item> {
  count: number;
  results: Item[];
}

/** A page of people as a query gives it. */
export interface PeoplePageResult<Item> {
  data: PeoplePage<Item> | undefined;
  isPending: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/** What a role control of one person may do: hand ownership to them (asks first), or show why a change was refused. */
export interface RoleActions {
  handOver: () => void;
  showError: (message: string) => void;
  clearError: () => void;
}

export interface PeoplePanelProps<Item> {
  /** Where the texts are: the same keys under each. */
  texts: 'chats.members' | 'rooms.participants';
  pageSize: number;
  /** A hook: the query of one page of people (keeping the previous page while the next loads). */
  usePage: (query: { pageIndex: number; q: string }) => PeoplePageResult<Item>;
  person: (item: Item) => Person;
  /** The viewer's own id in this list. */
  viewerId: number;
  /** Whether the viewer removes some people (shows the selection boxes). */
  removes: boolean;
  mayRemove: (item: Item) => boolean;
  remove: (ids: number[], permanent: boolean) => Promise<boolean>;
  /** Hands ownership to this person; a refusal the server explains throws FieldErrors. */
  handOver: (item: Item) => Promise<boolean>;
  /** The role badge, or the control that changes it. */
  roleControl: (item: Item, actions: RoleActions) => ReactNode;
  /** The invitation form, for those who may invite. */
  invite?: ReactNode;
  /** The viewer's own way out (leaving). */
  leave: ReactNode;
  /** Everything that shows people or the viewer's role is fetched again. */
  refresh: () => void;
}

type Removal = { ids: number[]; names: string[] } | null;

export function PeoplePanel<Item>(props: PeoplePanelProps<Item>) {
  const { texts, pageSize, person, viewerId, removes, mayRemove, refresh } = props;
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [pageIndex, setPageIndex] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [removal, setRemoval] = useState<Removal>(null);
  const [permanent, setPermanent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [handover, setHandover] = useState<Item | null>(null);
  /** The server's refusal of a hand-over, shown in its dialog; of another role change, under the person. */
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

  const list = props.usePage({ pageIndex, q });
  const data = list.data;
  const count = data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / pageSize));

  // A page emptied by removals: step back to the last one that exists.
  useEffect(() => {
    if (data && pageIndex > 0 && pageIndex >= pages) setPageIndex(pages - 1);
  }, [data, pageIndex, pages]);

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
    const done = await props.remove(removal.ids, permanent);
    setBusy(false);
    if (!done) return;
    notify.success(t(`${texts}.removed`, { count: removal.ids.length }));
    setSelected((current) => new Set([...current].filter((id) => !removal.ids.includes(id))));
    setRemoval(null);
    setPermanent(false);
    refresh();
  };

  const handOver = async () => {
    if (!handover) return;
    setBusy(true);
    setHandoverError('');
    const changed = await props.handOver(handover).catch((error: unknown) => {
      // e.g. `invitationPending` on the role: they have not accepted yet.
      if (error instanceof FieldErrors) setHandoverError(Object.values(error.fields).join(' '));
      return false;
    });
    setBusy(false);
    if (!changed) return;
    notify.success(t(`${texts}.handedOver`, { name: person(handover).name }));
    setHandover(null);
    refresh();
  };

  return (
    <div className="stack members-panel">
      {props.invite}
      <div className="field">
        <label htmlFor={searchId}>{t(`${texts}.search`)}</label>
        <input id={searchId} type="search" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
      </div>
      {list.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : data === undefined ? (
        <LoadFailed message={t(`${texts}.failed`)} retryLabel={t('common.retry')} onRetry={() => void list.refetch()} />
      ) : (
        <>
          <p className="muted" role="status">
            {q ? t(`${texts}.found`, { count }) : t(`${texts}.count`, { count })}
          </p>
          {data.results.length > 0 && (
            <ul className="member-list" aria-busy={list.isFetching || undefined}>
              {data.results.map((item) => {
                const who = person(item);
                const removable = mayRemove(item);
                const invited = who.memberState === 'invited';
                const actions: RoleActions = {
                  handOver: () => {
                    setHandoverError('');
                    setHandover(item);
                  },
                  showError: (message) => setRoleError({ id: who.id, message }),
                  clearError: () => setRoleError(null),
                };
                return (
                  <li key={who.id} className={`member-row${invited ? ' invited' : ''}`}>
                    {removes && (
                      <input
                        type="checkbox"
                        className="member-check"
                        disabled={!removable}
                        checked={selected.has(who.id)}
                        onChange={() => toggle(who.id)}
                        aria-label={t(`${texts}.select`, { name: who.name })}
                      />
                    )}
                    <span className="member-avatar-box">
                      <span className="message-avatar member-avatar" aria-hidden="true">
                        {who.avatarImage ? <img src={who.avatarImage} alt="" width={32} height={32} /> : (Array.from(who.name)[0] ?? '?').toLocaleUpperCase()}
                      </span>
                      {who.presence && who.presence.state !== 'offline' && <span className={`presence-dot presence-${who.presence.state}`} aria-hidden="true" />}
                    </span>
                    <span className="member-who">
                      <span className="member-name-line">
                        <span className="member-name" dir="auto">
                          {who.name}
                          {who.id === viewerId && <span className="muted"> {t(`${texts}.you`)}</span>}
                        </span>
                        {invited && <span className="invited-badge">{t('invitations.invited')}</span>}
                      </span>
                      <span className="member-email">{who.user}</span>
                      {who.presence && <span className={`member-presence presence-text-${who.presence.state}`}>{who.presence.label}</span>}
                    </span>
                    <span className="member-controls">
                      {props.roleControl(item, actions)}
                      {removable && (
                        <Button variant="ghost" className="btn-small" onClick={() => setRemoval({ ids: [who.id], names: [who.name] })} aria-label={t(`${texts}.removeOne`, { name: who.name })}>
                          {t(`${texts}.remove`)}
                        </Button>
                      )}
                    </span>
                    {roleError?.id === who.id && (
                      <p className="field-error member-error" role="alert">
                        {roleError.message}
                      </p>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          <Pager label={t(`${texts}.pages`)} pageIndex={pageIndex} pages={pages} onChange={setPageIndex} />
          {removes && selected.size > 0 && (
            <Button
              variant="danger"
              onClick={() => {
                const chosen = data.results.map(person).filter((who) => selected.has(who.id));
                setRemoval({ ids: [...selected], names: chosen.map((who) => who.name) });
              }}
            >
              {t(`${texts}.removeSelected`, { count: selected.size })}
            </Button>
          )}
        </>
      )}
      {props.leave}
      <ConfirmDialog
        open={removal !== null}
        title={t(`${texts}.removeTitle`, { count: removal?.ids.length ?? 1 })}
        message={removal && removal.ids.length === 1 ? t(`${texts}.removeText`, { name: removal.names[0] ?? '' }) : t(`${texts}.removeManyText`, { count: removal?.ids.length ?? 0 })}
        confirmLabel={t(`${texts}.remove`)}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => {
          setRemoval(null);
          setPermanent(false);
        }}
      >
        <PermanentChoice checked={permanent} onChange={setPermanent} label={t(`${texts}.permanent`)} hint={t(`${texts}.permanentHint`)} />
      </ConfirmDialog>
      <ConfirmDialog
        open={handover !== null}
        title={t(`${texts}.handOverTitle`)}
        message={t(`${texts}.handOverText`, { name: handover ? person(handover).name : '' })}
        confirmLabel={t(`${texts}.handOver`)}
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

/**
 * Invites someone by e-mail with a role: the feature gives the role's field and schema (its
 * server errors come on that name), the roles offered and their names.
 */
export function InviteForm<Role extends number>(props: {
  roleField: 'chatRole' | 'roomRole';
  roleSchema: z.ZodMiniType<number, number>;
  roles: readonly Role[];
  roleName: (role: Role) => string;
  roleLabel: string;
  roleHint?: string;
  invite: (values: { user: string; role: Role }) => Promise<{ user: string } | undefined>;
  onInvited: () => void;
}) {
  const { t } = useTranslation(['translation', 'form']);
  const id = useId();
  const [schema] = useState(() => z.object({ user: emailField, role: props.roleSchema }));
  const [first = 0] = props.roles;
  const form = useForm<InviteValues>({ resolver: zodResolver(schema), defaultValues: { user: '', role: first } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      // The select offers only `roles`, and the schema checks the value is a role.
      const added = await props.invite({ user: values.user, role: values.role as Role });
      if (!added) return;
      notify.success(t('invitations.sent', { email: added.user }));
      form.reset({ user: '', role: values.role });
      props.onInvited();
    } catch (error) {
      // The server names the role by its field in the API.
      const renamed = error instanceof FieldErrors && props.roleField in error.fields ? renameField(error, props.roleField, 'role') : error;
      showServerErrors(renamed, form.setError, ['user', 'role']);
    }
  });
  return (
    <form onSubmit={submit} noValidate className="add-member" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="add-member-title">
        {t('invitations.inviteTitle')}
      </h3>
      <div className="add-member-fields">
        <TextField
          id={`${id}-email`}
          label={t('form:email')}
          type="email"
          autoComplete="off"
          error={errors.user?.message}
          aria-describedby={[errors.user ? `${id}-email-error` : '', `${id}-invite-hint`].filter(Boolean).join(' ')}
          {...form.register('user')}
        />
        <div className="field">
          <label htmlFor={id}>{props.roleLabel}</label>
          <select id={id} aria-describedby={props.roleHint ? `${id}-hint` : undefined} {...form.register('role', { setValueAs: (value: string) => Number(value) })}>
            {props.roles.map((role) => (
              <option key={role} value={role}>
                {props.roleName(role)}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" busy={isSubmitting} className="add-member-submit">
          {t('invitations.invite')}
        </Button>
      </div>
      <p id={`${id}-invite-hint`} className="field-hint">
        {t('invitations.inviteHint')}
      </p>
      {props.roleHint && (
        <p id={`${id}-hint`} className="field-hint">
          {props.roleHint}
        </p>
      )}
      <FormError message={errors.root?.form?.message} />
    </form>
  );
}

interface InviteValues {
  user: string;
  role: number;
}

function renameField(error: FieldErrors, from: string, to: string): FieldErrors {
  const fields = { ...error.fields };
  const message = fields[from];
  delete fields[from];
  if (message !== undefined) fields[to] = message;
  return new FieldErrors(fields, error.body);
}

/**
 * The viewer's way out of a chat or a room, asking first (and whether for good). `leave` calls
 * the server; `left` tidies up once it agreed (the removal is expected meanwhile: `expect`).
 */
export function LeaveButton(props: {
  texts: 'chats' | 'rooms';
  owner: boolean;
  title: string;
  expect: () => () => void;
  leave: (permanent: boolean) => Promise<boolean>;
  left: () => Promise<void>;
}) {
  const { texts } = props;
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [permanent, setPermanent] = useState(false);
  const [busy, setBusy] = useState(false);
  const leave = async () => {
    setBusy(true);
    const forget = props.expect();
    const done = await props.leave(permanent);
    setBusy(false);
    if (!done) {
      forget();
      return;
    }
    setOpen(false);
    notify.success(t(`${texts}.left`, { title: props.title }));
    await props.left();
    forget();
  };
  return (
    <div className="leave-chat">
      <Button variant="danger" onClick={() => setOpen(true)}>
        {t(`${texts}.leave`)}
      </Button>
      <ConfirmDialog
        open={open}
        title={t(`${texts}.leaveTitle`)}
        message={props.owner ? t(`${texts}.leaveOwnerText`) : t(`${texts}.leaveText`)}
        confirmLabel={t(`${texts}.leave`)}
        busy={busy}
        onConfirm={() => void leave()}
        onClose={() => setOpen(false)}
      >
        <PermanentChoice checked={permanent} onChange={setPermanent} label={t(`${texts}.leavePermanent`)} hint={t(`${texts}.leavePermanentHint`)} />
      </ConfirmDialog>
    </div>
  );
}
