// Screens every route can fall back to: Not Found, the generic error screen, pending.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { Button, Spinner } from './ui';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <main className="center-screen">
      <h1>Not Found</h1>
      <p className="muted">{t('notFound.text')}</p>
      <Link to="/" className="btn btn-secondary">
        {t('notFound.home')}
      </Link>
    </main>
  );
}

export function ErrorScreen({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const message = error instanceof Error ? error.message : String(error);
  return (
    <main className="center-screen" role="alert">
      <h1>Something went wrong!</h1>
      <Button variant="secondary" onClick={() => setShown((value) => !value)} aria-expanded={shown}>
        {shown ? 'Hide Error' : 'Show Error'}
      </Button>
      {shown && <pre className="error-detail">{message}</pre>}
      <Button variant="ghost" onClick={() => window.location.reload()}>
        {t('errors.reload')}
      </Button>
    </main>
  );
}

export function PendingScreen() {
  const { t } = useTranslation();
  return (
    <div className="center-screen">
      <Spinner label={t('common.loading')} />
    </div>
  );
}
