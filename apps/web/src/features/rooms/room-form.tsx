// A room's own fields (title, description, languages, domain), for creating a room and, by its
// OWNER, editing it. Checked on the client with the contract's field rules before sending. The
// language picker and the note on pairs the translator cannot reach are the chats' own.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { DOMAINS, LIMITS, type Domain, type Language } from '@parla/contract/constants';
import { domainField, languagesField, textField, titleField } from '@parla/contract/fields';
import type { RoomCreateRequest } from '@parla/contract/rooms';
import { Button, FormError, SelectField, TextAreaField, TextField } from '../../components/ui';
import { showServerErrors } from '../../lib/forms';
import { LanguagesField } from '../../components/language-picker';
import { ReachNote } from '../../components/reach-note';
import { domainKey } from './labels';

const roomFormSchema = z.object({
  title: titleField,
  description: textField(LIMITS.descriptionMax, { trim: true }),
  languages: languagesField.check(z.refine((codes) => codes.length > 0, { message: 'rooms.form.languagesRequired' })),
  domain: domainField,
});
export type RoomFormValues = z.infer<typeof roomFormSchema>;

export function RoomForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: RoomFormValues;
  submitLabel: string;
  /** Resolves true when saved; throws FieldErrors for the form. */
  onSubmit: (body: RoomCreateRequest) => Promise<boolean>;
}) {
  const { t, i18n } = useTranslation(['translation', 'form']);
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const form = useForm<RoomFormValues>({ resolver: zodResolver(roomFormSchema), defaultValues: initial });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ title: values.title, description: values.description || null, languages: values.languages, domain: values.domain });
    } catch (error) {
      showServerErrors(error, form.setError, ['title', 'description', 'languages', 'domain']);
    }
  });
  // Readable names, sorted in the interface language; "General" first.
  const domains = [...DOMAINS]
    .map((domain) => ({ domain, label: t(domainKey(domain)) }))
    .sort((a, b) => (a.domain === 'DEFAULT' ? -1 : b.domain === 'DEFAULT' ? 1 : a.label.localeCompare(b.label, uiLang)));
  return (
    <form onSubmit={submit} noValidate className="stack">
      <TextField label={t('rooms.form.title')} autoComplete="off" error={errors.title?.message} {...form.register('title')} />
      <TextAreaField label={t('rooms.form.description')} error={errors.description?.message} {...form.register('description')} />
      <LanguagesField control={form.control} />
      <ReachNote languages={form.watch('languages')} texts="rooms.form" />
      <div>
        <SelectField label={t('rooms.form.domain')} aria-describedby="room-domain-hint" {...form.register('domain')}>
          {domains.map(({ domain, label }) => (
            <option key={domain} value={domain}>
              {label}
            </option>
          ))}
        </SelectField>
        <p id="room-domain-hint" className="field-hint">
          {t('rooms.form.domainHint')}
        </p>
        {errors.domain && (
          <p className="field-error" role="alert">
            {errors.domain.message}
          </p>
        )}
      </div>
      <FormError message={errors.root?.form?.message} />
      <Button type="submit" busy={isSubmitting}>
        {submitLabel}
      </Button>
    </form>
  );
}


/** The form's values for a new room: the interface language when the room may use it, else none chosen yet. */
export function newRoomValues(uiLang: string, interfaceLanguages: readonly string[]): RoomFormValues {
  return { title: '', description: '', languages: interfaceLanguages.includes(uiLang) ? [uiLang as Language] : [], domain: 'DEFAULT' as Domain };
}
