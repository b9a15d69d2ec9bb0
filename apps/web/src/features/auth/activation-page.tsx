import { useEffect, useState } from 'react';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { AuthFrame, Spinner } from '../../components/ui';
import { FieldErrors } from '../../lib/error-catalogue';
import { notify } from '../../lib/toast';
import { verifyEmail } from './api';

const route = getRouteApi('/public/signup/activation/$activationKey');
/** A key is single use: never send it twice, even when React mounts the page twice. */
const attempts = new Map<string, ReturnType<typeof verifyEmail>>();

export function ActivationPage() {
  const { t } = useTranslation();
  const { activationKey } = route.useParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  /** The link was used before: the account is active, and that is said as good news. */
  const [alreadyActive, setAlreadyActive] = useState<string | null>(null);

  useEffect(() => {
    let attempt = attempts.get(activationKey);
    if (!attempt) {
      attempt = verifyEmail(activationKey);
      attempts.set(activationKey, attempt);
    }
    let active = true;
    attempt
      .then((answer) => {
        if (!active) return;
        if (answer) {
          notify.success(t('activation.done'));
          void navigate({ to: '/signin', replace: true });
        } else setFailure(t('activation.failed'));
      })
      .catch((error: unknown) => {
        if (!active) return;
        if (error instanceof FieldErrors && error.body.errors.some((entry) => entry.code === 'already_active')) setAlreadyActive(Object.values(error.fields).join(' '));
        else setFailure(error instanceof FieldErrors ? Object.values(error.fields).join(' ') : t('activation.failed'));
      });
    return () => {
      active = false;
    };
  }, [activationKey, navigate, t]);

  return (
    <AuthFrame title={t('activation.title')}>
      {alreadyActive ? (
        <>
          <p role="status">{alreadyActive}</p>
          <p>
            <Link to="/signin" className="btn btn-primary">
              {t('signin.submit')}
            </Link>
          </p>
        </>
      ) : failure ? (
        <>
          <p role="alert" className="form-error">
            {failure}
          </p>
          <p>
            <Link to="/signup/resend-activation">{t('activation.resend')}</Link>
          </p>
        </>
      ) : (
        <Spinner label={t('activation.working')} />
      )}
    </AuthFrame>
  );
}
