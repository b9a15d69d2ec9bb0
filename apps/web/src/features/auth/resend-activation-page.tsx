import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { resendEmailRequestSchema, type ResendEmailRequest } from '@parla/contract/accounts';
import { AuthFrame, Button, FormError, TextField } from '../../components/ui';
import { showServerErrors } from '../../lib/forms';
import { resendActivation } from './api';

export function ResendActivationPage() {
  const { t } = useTranslation(['translation', 'form']);
  const [sent, setSent] = useState(false);
  const form = useForm<ResendEmailRequest>({ resolver: zodResolver(resendEmailRequestSchema), defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      if (await resendActivation(email)) setSent(true);
    } catch (error) {
      showServerErrors(error, form.setError, ['email']);
    }
  });
  return (
    <AuthFrame title={t('resend.title')} intro={sent ? undefined : t('resend.intro')} footer={<Link to="/signin">{t('common.backToSignIn')}</Link>}>
      {sent ? (
        <p role="status">{t('resend.sent')}</p>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label={t('resend.title')} className="stack">
          <TextField label={t('form:email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
          <FormError message={errors.root?.form?.message} />
          <Button type="submit" busy={isSubmitting}>
            {t('resend.submit')}
          </Button>
        </form>
      )}
    </AuthFrame>
  );
}
