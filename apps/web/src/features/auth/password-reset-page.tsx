import { zodResolver } from '@hookform/resolvers/zod';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { passwordResetConfirmRequestSchema } from '@parla/contract/accounts';
import { AuthFrame, Button, FormError, TextField } from '../../components/ui';
import { showServerErrors } from '../../lib/forms';
import { notify } from '../../lib/toast';
import { confirmPasswordReset, requestPasswordReset } from './api';
import { EmailLinkPage } from './email-link-page';

export const PasswordResetRequestPage = () => <EmailLinkPage send={requestPasswordReset} texts="reset" />;

const confirmRoute = getRouteApi('/public/password/reset/$uid/$token');
const confirmSchema = z
  .pick(passwordResetConfirmRequestSchema, { newPassword1: true, newPassword2: true })
  .check(z.refine((values) => values.newPassword1 === values.newPassword2, { params: { code: 'form:passwordMismatch' }, path: ['newPassword2'] }));
type ConfirmValues = { newPassword1: string; newPassword2: string };

export function PasswordResetConfirmPage() {
  const { t } = useTranslation(['translation', 'form']);
  const { uid, token } = confirmRoute.useParams();
  const navigate = useNavigate();
  const form = useForm<ConfirmValues>({ resolver: zodResolver(confirmSchema), defaultValues: { newPassword1: '', newPassword2: '' } });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (await confirmPasswordReset({ ...values, uid, token })) {
        notify.success(t('reset.done'));
        await navigate({ to: '/signin', replace: true });
      }
    } catch (error) {
      showServerErrors(error, form.setError, ['newPassword1', 'newPassword2']);
    }
  });
  return (
    <AuthFrame title={t('reset.confirmTitle')} footer={<Link to="/password/reset">{t('reset.again')}</Link>}>
      <form onSubmit={onSubmit} noValidate aria-label={t('reset.confirmTitle')} className="stack">
        <TextField
          label={t('form:newPassword')}
          type="password"
          autoComplete="new-password"
          hint={t('form:passwordHint')}
          error={errors.newPassword1?.message}
          {...form.register('newPassword1')}
        />
        <TextField label={t('form:repeatPassword')} type="password" autoComplete="new-password" error={errors.newPassword2?.message} {...form.register('newPassword2')} />
        <FormError message={errors.root?.form?.message} />
        <Button type="submit" busy={isSubmitting}>
          {t('reset.confirmSubmit')}
        </Button>
      </form>
    </AuthFrame>
  );
}
