import { zodResolver } from '@hookform/resolvers/zod';
import { Link, getRouteApi, useNavigate, useRouterState } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { loginRequestSchema, type LoginRequest } from '@parla/contract/accounts';
import { Button, FormError, AuthFrame, TextField } from '../../components/ui';
import { LanguageSelect } from '../../components/language-select';
import { showServerErrors } from '../../lib/forms';
import { login } from './api';

const route = getRouteApi('/public/signin');

/** Only same-site paths are followed after sign-in. */
const safeTarget = (access: string | undefined) => (access && access.startsWith('/') && !access.startsWith('//') ? access : '/');

export function SignInPage() {
  const { t } = useTranslation(['translation', 'form']);
  const { access } = route.useSearch();
  // Sent here because the session ended under a protected page (see app/router.tsx).
  const sessionEnded = useRouterState({ select: (state) => state.location.state.sessionEnded === true });
  const navigate = useNavigate();
  const form = useForm<LoginRequest>({ resolver: zodResolver(loginRequestSchema), defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await login(values);
      if (answer) await navigate({ href: safeTarget(access), replace: true });
    } catch (error) {
      showServerErrors(error, form.setError, ['email', 'password']);
    }
  });

  return (
    <AuthFrame
      title={t('signin.title')}
      intro={t('signin.intro')}
      footer={
        <>
          <p>
            {t('signin.noAccount')} <Link to="/signup">{t('signin.createAccount')}</Link>
          </p>
          <LanguageSelect compact />
        </>
      }
    >
      {sessionEnded && (
        <p className="notice" role="status">
          {t('signin.sessionEnded')}
        </p>
      )}
      <form onSubmit={onSubmit} noValidate aria-label={t('signin.title')} className="stack">
        <TextField label={t('form:email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <TextField label={t('form:password')} type="password" autoComplete="current-password" error={errors.password?.message} {...form.register('password')} />
        <FormError message={errors.root?.form?.message} />
        <Button type="submit" busy={isSubmitting}>
          {t('signin.submit')}
        </Button>
        <div className="form-links">
          <Link to="/password/reset">{t('signin.forgot')}</Link>
          <Link to="/signup/resend-activation">{t('signin.resend')}</Link>
        </div>
      </form>
    </AuthFrame>
  );
}

