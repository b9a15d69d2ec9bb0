// The "send me a link" screen: one e-mail field, then a neutral "on its way" message (the server
// answers the same for unknown addresses). Used for the activation and the password-reset links.
import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { resendEmailRequestSchema, type ResendEmailRequest } from '@parla/contract/accounts';
import { AuthFrame, Button, FormError, TextField } from '../../components/ui';
import { showServerErrors } from '../../lib/forms';

export function EmailLinkPage({ send, texts }: { send: (email: string) => Promise<unknown>; texts: 'resend' | 'reset' }) {
  const { t } = useTranslation(['translation', 'form']);
  const [sent, setSent] = useState(false);
  const form = useForm<ResendEmailRequest>({ resolver: zodResolver(resendEmailRequestSchema), defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      if (await send(email)) setSent(true);
    } catch (error) {
      showServerErrors(error, form.setError, ['email']);
    }
  });
  return (
    <AuthFrame title={t(`${texts}.title`)} intro={sent ? undefined : t(`${texts}.intro`)} footer={<Link to="/signin">{t('common.backToSignIn')}</Link>}>
      {sent ? (
        <p role="status">{t(`${texts}.sent`)}</p>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label={t(`${texts}.title`)} className="stack">
          <TextField label={t('form:email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
          <FormError message={errors.root?.form?.message} />
          <Button type="submit" busy={isSubmitting}>
            {t(`${texts}.submit`)}
          </Button>
        </form>
      )}
    </AuthFrame>
  );
}
