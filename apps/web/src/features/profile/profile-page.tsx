import { useEffect, useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { AVATAR_FORMATS, passwordChangeRequestSchema, userUpdateFieldsSchema } from '@parla/contract/accounts';
import { LANGUAGES, LIMITS, type Language } from '@parla/contract/constants';
import { LanguageSelect } from '../../components/language-select';
import { UserIcon } from '../../components/icons';
import { Button, Card, FormError, LoadFailed, Spinner, TextField } from '../../components/ui';
import { currentUserQuery, useCurrentUser } from '../../lib/current-user';
import { formatPercent } from '../../lib/format';
import { showServerErrors } from '../../lib/forms';
import { notify } from '../../lib/toast';
import { changePassword, signOut, updateProfile, updateReadingLanguage } from './api';
import { NotificationsCard } from './notifications-card';
import { PrivacyCard } from './privacy-card';
import { languageLabel, languageName, languageOptionsInSlices, optionLabel } from '../../lib/languages';

const ACCEPT = AVATAR_FORMATS.map((format) => `image/${format}`).join(',');
const profileSchema = z.pick(userUpdateFieldsSchema, { fullName: true });
type ProfileValues = z.infer<typeof profileSchema>;
/**
 * The API takes the change without the current password within a few minutes of signing in; the
 * form always asks for it (a session left open is not enough to take the account over).
 */
const passwordSchema = z
  .extend(passwordChangeRequestSchema, { oldPassword: z.string().check(z.minLength(1), z.maxLength(LIMITS.passwordMax)) })
  .check(z.refine((v) => v.newPassword1 === v.newPassword2, { params: { code: 'form:passwordMismatch' }, path: ['newPassword2'] }));
type PasswordValues = z.infer<typeof passwordSchema>;

export function ProfilePage() {
  const { t } = useTranslation(['translation', 'form']);
  const user = useCurrentUser();
  return (
    <main className="page">
      <h1>{t('profile.title')}</h1>
      {user.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : user.data === undefined ? (
        <LoadFailed message={t('profile.loadFailed')} retryLabel={t('common.retry')} onRetry={() => void user.refetch()} />
      ) : (
        <div className="profile-grid">
          <ProfileForm fullName={user.data.fullName ?? ''} email={user.data.email} avatarImage={user.data.avatarImage} />
          <div className="stack">
            <Card>
              <h2>{t('profile.languageTitle')}</h2>
              <LanguageSelect label={t('language.interface')} />
              <ReadingLanguageSelect value={user.data.readingLanguage} />
            </Card>
            <NotificationsCard />
            <PrivacyCard />
            <PasswordForm />
            <SignOutCard />
          </div>
        </div>
      )}
    </main>
  );
}

/**
 * The language new chats and rooms are read in (each chat's own setting changes it there): "same
 * as the interface" by default. Saved on change.
 */
function ReadingLanguageSelect({ value }: { value: Language | null }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const options = useLanguageOptions(uiLang);
  const id = useId();
  const onChange = async (next: string) => {
    setBusy(true);
    try {
      const updated = await updateReadingLanguage(next === '' ? null : (next as Language));
      if (updated) {
        queryClient.setQueryData(currentUserQuery.queryKey, updated);
        notify.success(t('profile.readingSaved'));
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="field reading-language">
      <label htmlFor={id}>{t('profile.readingLanguage')}</label>
      <select id={id} value={value ?? ''} disabled={busy} aria-describedby={`${id}-hint`} onChange={(event) => void onChange(event.target.value)}>
        <option value="">{t('profile.readingSameAsInterface', { language: languageName(uiLang, uiLang) })}</option>
        {options
          ? options.map((option) => (
              <option key={option.code} value={option.code}>
                {option.label}
              </option>
            ))
          : value !== null && (LANGUAGES as readonly string[]).includes(value) && <option value={value}>{languageLabel(value, uiLang)}</option>}
      </select>
      <p id={`${id}-hint`} className="field-hint">
        {t('profile.readingHint')}
      </p>
    </div>
  );
}

/**
 * The 57 languages with their labels, sorted, made after the page's first render a few at a time
 * (languageOptionsInSlices): undefined until then, when the select holds the chosen one alone.
 */
function useLanguageOptions(uiLang: string): { code: Language; label: string }[] | undefined {
  const [options, setOptions] = useState<{ uiLang: string; list: { code: Language; label: string }[] }>();
  useEffect(() => {
    let cancelled = false;
    void languageOptionsInSlices(uiLang, () => cancelled).then((list) => {
      if (list) setOptions({ uiLang, list: list.map((option) => ({ code: option.code, label: optionLabel(option) })) });
    });
    return () => {
      cancelled = true;
    };
  }, [uiLang]);
  return options?.uiLang === uiLang ? options.list : undefined;
}

function ProfileForm({ fullName, email, avatarImage }: { fullName: string; email: string; avatarImage: string | null }) {
  const { t, i18n } = useTranslation(['translation', 'form']);
  const queryClient = useQueryClient();
  const [avatar, setAvatar] = useState<File | undefined>();
  const [avatarError, setAvatarError] = useState<string | undefined>();
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const form = useForm<ProfileValues>({ resolver: zodResolver(profileSchema), defaultValues: { fullName } });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (!avatar) return setPreview(null);
    const url = URL.createObjectURL(avatar);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [avatar]);

  const pick = (file: File | undefined) => {
    setAvatarError(undefined);
    if (file && file.size > LIMITS.avatarMaxBytes) {
      setAvatarError(t('form:avatarTooLarge', { max: LIMITS.avatarMaxBytes / 1024 / 1024 }));
      return setAvatar(undefined);
    }
    setAvatar(file);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setProgress(avatar ? 0 : null);
    try {
      const updated = await updateProfile({ fullName: values.fullName, avatar }, setProgress);
      if (updated) {
        queryClient.setQueryData(currentUserQuery.queryKey, updated);
        setAvatar(undefined);
        notify.success(t('profile.saved'));
      }
    } catch (error) {
      if (showServerErrors(error, form.setError, ['fullName'])) {
        const fields = (error as { fields: Record<string, string> }).fields;
        if (fields['avatarImage']) setAvatarError(fields['avatarImage']);
      }
    } finally {
      setProgress(null);
    }
  });

  const shown = preview ?? avatarImage;
  return (
    <Card>
      <h2>{t('profile.detailsTitle')}</h2>
      <form onSubmit={onSubmit} noValidate aria-label={t('profile.detailsTitle')} className="stack">
        <div className="avatar-row">
          <div className="avatar avatar-large">
            {shown ? <img src={shown} alt={preview ? t('profile.avatarPreview') : t('profile.avatarAlt')} width={96} height={96} /> : <UserIcon width={40} height={40} />}
          </div>
          <div className="field">
            <label htmlFor="avatar-input">{t('form:avatar')}</label>
            <input
              id="avatar-input"
              type="file"
              accept={ACCEPT}
              aria-describedby="avatar-hint"
              aria-invalid={avatarError ? true : undefined}
              onChange={(event) => pick(event.target.files?.[0])}
            />
            <p id="avatar-hint" className="field-hint">
              {t('form:avatarHint')}
            </p>
            {avatarError && (
              <p className="field-error" role="alert">
                {avatarError}
              </p>
            )}
          </div>
        </div>
        {progress !== null && (
          <progress max={1} value={progress} aria-label={t('profile.uploading')}>
            {formatPercent(progress, i18n.language)}
          </progress>
        )}
        <TextField label={t('form:email')} value={email} readOnly disabled />
        <TextField label={t('form:fullName')} autoComplete="name" error={errors.fullName?.message} {...form.register('fullName')} />
        <FormError message={errors.root?.form?.message} />
        <Button type="submit" busy={isSubmitting}>
          {t('common.save')}
        </Button>
      </form>
    </Card>
  );
}

function PasswordForm() {
  const { t } = useTranslation(['translation', 'form']);
  const form = useForm<PasswordValues>({ resolver: zodResolver(passwordSchema), defaultValues: { oldPassword: '', newPassword1: '', newPassword2: '' } });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (await changePassword(values)) {
        form.reset();
        notify.success(t('profile.passwordChanged'));
      }
    } catch (error) {
      // `oldPassword`: required (no recent sign-in) or wrong_password.
      showServerErrors(error, form.setError, ['oldPassword', 'newPassword1', 'newPassword2']);
    }
  });
  return (
    <Card>
      <h2>{t('profile.passwordTitle')}</h2>
      <form onSubmit={onSubmit} noValidate aria-label={t('profile.passwordTitle')} className="stack">
        <TextField label={t('form:currentPassword')} type="password" autoComplete="current-password" error={errors.oldPassword?.message} {...form.register('oldPassword')} />
        <TextField label={t('form:newPassword')} type="password" autoComplete="new-password" hint={t('form:passwordHint')} error={errors.newPassword1?.message} {...form.register('newPassword1')} />
        <TextField label={t('form:repeatPassword')} type="password" autoComplete="new-password" error={errors.newPassword2?.message} {...form.register('newPassword2')} />
        <FormError message={errors.root?.form?.message} />
        <Button type="submit" variant="secondary" busy={isSubmitting}>
          {t('profile.changePassword')}
        </Button>
      </form>
    </Card>
  );
}

function SignOutCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      await signOut();
    } finally {
      queryClient.clear();
      await navigate({ to: '/signin', search: { access: undefined }, replace: true });
    }
  };
  return (
    <Card>
      <h2>{t('profile.sessionTitle')}</h2>
      <Button variant="danger" busy={busy} onClick={() => void onClick()}>
        {t('profile.signOut')}
      </Button>
    </Card>
  );
}
