import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { registerRequestSchema, type RegisterRequest } from '@parla/contract/accounts';
import { LanguageSelect } from '../../components/language-select';
import { AuthFrame, Button, FormError, TextField } from '../../components/ui';
import { showServerErrors } from '../../lib/forms';
import { register } from './api';

const schema = registerRequestSchema.check(
  z.refine((values) => values.password1 === values.password2, { params: { code: 'form:passwordMismatch' }, path: ['password2'] }),
);

export function SignUpPage() {
  const { t } = useTranslation(['translation', 'form']);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<RegisterRequest>({
    resolver: zodResolver(schema),
    defaultValues: { fullName: '', email: '', password1: '', password2: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (await register(values)) setSentTo(values.email);
    } catch (error) {
      showServerErrors(error, form.setError, ['fullName', 'email', 'password1', 'password2']);
    }
  });

  if (sentTo) {
    return (
      <AuthFrame title={t('signup.checkTitle')}>
        <p>{t('signup.checkText', { email: sentTo })}</p>
        <p className="muted">
          {t('signup.noMail')} <Link to="/signup/resend-activation">{t('signup.resend')}</Link>
        </p>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame
      title={t('signup.title')}
      intro={t('signup.intro')}
      footer={
        <>
          <p>
            {t('signup.haveAccount')} <Link to="/signin">{t('signup.signIn')}</Link>
          </p>
          <LanguageSelect compact />
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate aria-label={t('signup.title')} className="stack">
        <TextField label={t('form:fullName')} autoComplete="name" error={errors.fullName?.message} {...form.register('fullName')} />
        <TextField label={t('form:email')} type="email" autoComplete="email" error={errors.email?.message} {...form.register('email')} />
        <TextField
          label={t('form:password')}
          type="password"
          autoComplete="new-password"
          hint={t('form:passwordHint')}
          error={errors.password1?.message}
          {...form.register('password1')}
        />
        <TextField label={t('form:repeatPassword')} type="password" autoComplete="new-password" error={errors.password2?.message} {...form.register('password2')} />
        <FormError message={errors.root?.form?.message} />
        <Button type="submit" busy={isSubmitting}>
          {t('signup.submit')}
        </Button>
      </form>
    </AuthFrame>
  );
}
