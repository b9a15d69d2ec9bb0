// An invitation to a chat or a room, as the invitee sees it: a card in a list (the chat list, the
// room list, the home page's rooms) and a panel on the chat's or room's own page, each with the
// title, an "Invitation" marker and the two answers. Accepting is one click; declining asks first
// (only a new invitation brings it back). The calls and what follows them are the caller's.
import { useId, useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { formatList } from '../lib/format';
import { languageName } from '../lib/languages';
import { ConfirmDialog } from './confirm-dialog';
import { Button } from './ui';
import './invitation.css';

export interface InvitationActions {
  /** Resolves once the answer is handled (whatever it was); the buttons are busy meanwhile. */
  onAccept: () => Promise<unknown>;
  onDecline: () => Promise<unknown>;
}

/** The two answers, busy while one is on its way; Decline asks first. */
function Answers({ title, describedBy, onAccept, onDecline }: InvitationActions & { title: string; describedBy: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'accept' | 'decline' | null>(null);
  const [asking, setAsking] = useState(false);
  const run = async (which: 'accept' | 'decline', action: () => Promise<unknown>) => {
    setBusy(which);
    try {
      await action();
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="invitation-actions">
      <Button busy={busy === 'accept'} disabled={busy !== null} aria-describedby={describedBy} onClick={() => void run('accept', onAccept)}>
        {t('invitations.accept')}
      </Button>
      <Button variant="secondary" disabled={busy !== null} aria-describedby={describedBy} onClick={() => setAsking(true)}>
        {t('invitations.decline')}
      </Button>
      <ConfirmDialog
        open={asking}
        title={t('invitations.declineTitle')}
        message={t('invitations.declineText', { title })}
        confirmLabel={t('invitations.decline')}
        busy={busy === 'decline'}
        onConfirm={() =>
          void run('decline', async () => {
            await onDecline();
            setAsking(false);
          })
        }
        onClose={() => setAsking(false)}
      />
    </div>
  );
}

function Marker() {
  const { t } = useTranslation();
  return <span className="invitation-badge">{t('invitations.badge')}</span>;
}

/** Where the title of a card leads: the chat's or room's page, which shows the invitation in full. */
export type InvitationLink = { to: '/chat/$chatId'; params: { chatId: string } } | { to: '/room/$roomId'; params: { roomId: string } };

/** An invitation in a list (put it in the list's `<li>`); its title opens the page of the invitation. */
export function InvitationCard({ title, hint, link, ...actions }: InvitationActions & { title: string; hint: string; link: InvitationLink }) {
  const id = useId();
  return (
    <article className="invitation-card" aria-labelledby={`${id}-title`}>
      <div className="invitation-card-main">
        <div className="invitation-card-top">
          <Link id={`${id}-title`} to={link.to} params={link.params as never} className="invitation-card-title" dir="auto">
            {title}
          </Link>
          <Marker />
        </div>
        <p className="invitation-card-hint">{hint}</p>
      </div>
      <Answers title={title} describedBy={`${id}-title`} {...actions} />
    </article>
  );
}

/** The page of a chat or room the reader is only invited to: what it is, and the two answers. */
export function InvitationPanel({
  title,
  intro,
  by,
  description,
  languages,
  back,
  ...actions
}: InvitationActions & { title: string; intro: string; by?: string | null | undefined; description: string | null; languages: readonly string[]; back: ReactNode }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const id = useId();
  return (
    <main className="page invitation-page">
      {back}
      <section className="card invitation-panel" aria-labelledby={`${id}-title`}>
        <Marker />
        <h1 id={`${id}-title`} dir="auto">
          {title}
        </h1>
        {by && (
          <p className="invitation-by" dir="auto">
            {t('invitations.invitedBy', { name: by })}
          </p>
        )}
        <p className="invitation-intro">{intro}</p>
        {description && (
          <p className="invitation-description" dir="auto">
            {description}
          </p>
        )}
        <p className="invitation-languages">{t('invitations.languages', { languages: formatList(languages.map((code) => languageName(code, uiLang)), uiLang) })}</p>
        <Answers title={title} describedBy={`${id}-title`} {...actions} />
      </section>
    </main>
  );
}
