// The chat's own fields (title, description, languages), for creating a chat and, by its OWNER,
// editing it. Checked on the client with the contract's field rules before sending.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import type { ChatCreateRequest } from '@parla/contract/chat';
import { LIMITS } from '@parla/contract/constants';
import { languagesField, textField, titleField } from '@parla/contract/fields';
import { Button, FormError, TextAreaField, TextField } from '../../components/ui';
import { showServerErrors } from '../../lib/forms';
import { LanguagesField } from '../../components/language-picker';
import { ReachNote } from '../../components/reach-note';

const chatFormSchema = z.object({
  title: titleField,
  description: textField(LIMITS.descriptionMax, { trim: true }),
  // The picker keeps codes distinct; the server checks the contract's full rule again.
  languages: languagesField.check(z.refine((codes) => codes.length > 0, { message: 'chats.form.languagesRequired' })),
});
export type ChatFormValues = z.infer<typeof chatFormSchema>;

export function ChatForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: ChatFormValues;
  submitLabel: string;
  /** Resolves true when saved; throws FieldErrors for the form. */
  onSubmit: (body: ChatCreateRequest) => Promise<boolean>;
}) {
  const { t } = useTranslation(['translation', 'form']);
  const form = useForm<ChatFormValues>({ resolver: zodResolver(chatFormSchema), defaultValues: initial });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ title: values.title, description: values.description || null, languages: values.languages });
    } catch (error) {
      showServerErrors(error, form.setError, ['title', 'description', 'languages']);
    }
  });
  return (
    <form onSubmit={submit} noValidate className="stack">
      <TextField label={t('chats.form.title')} autoComplete="off" error={errors.title?.message} {...form.register('title')} />
      <TextAreaField label={t('chats.form.description')} error={errors.description?.message} {...form.register('description')} />
      <LanguagesField control={form.control} />
      <ReachNote languages={form.watch('languages')} texts="chats.form" />
      <FormError message={errors.root?.form?.message} />
      <Button type="submit" busy={isSubmitting}>
        {submitLabel}
      </Button>
    </form>
  );
}

