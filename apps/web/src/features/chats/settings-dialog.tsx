// The reader's own settings for a chat: nickname, the language and tone they read in. Saving a
// new language or tone fetches the messages again, rendered the new way.
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import type { ChatMember, GroupChat } from '@parla/contract/chat';
import { TONES } from '@parla/contract/constants';
import { languageField, nickNameField, toneField } from '@parla/contract/fields';
import { Button, CheckField, FormError, SelectField, TextField } from '../../components/ui';
import { showServerErrors } from '../../lib/forms';
import { notify } from '../../lib/toast';
import { tonesQuery, translationInfoQuery } from '../../lib/queries';
import { chatKeys, updateMember } from './api';
import { Dialog } from '../../components/dialog';
import { BookIcon, PencilIcon } from '../../components/icons';
import { languageLabel } from '../../lib/languages';
import { providerName } from '../../lib/translation-info';

const settingsSchema = z.object({ nickName: nickNameField, language: languageField, tone: toneField, muted: z.boolean() });
type SettingsValues = z.infer<typeof settingsSchema>;

export function SettingsDialog({
  open,
  onClose,
  chat,
  member,
  onEditChat,
  onGlossary,
  editsGlossary,
}: {
  open: boolean;
  onClose: () => void;
  chat: GroupChat;
  member: ChatMember;
  /** The OWNER's way to the chat's own details. */
  onEditChat?: (() => void) | undefined;
  /** Opens the chat's glossary (everyone reads it; `editsGlossary`: the reader may change it). */
  onGlossary: () => void;
  editsGlossary: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} title={t('chats.settings.title')}>
      <SettingsForm chat={chat} member={member} onSaved={onClose} />
      <div className="danger-zone">
        <h3>{t('glossary.title')}</h3>
        <p className="muted">{t('glossary.intro')}</p>
        <Button variant="secondary" onClick={onGlossary}>
          <BookIcon />
          {editsGlossary ? t('glossary.edit') : t('glossary.see')}
        </Button>
      </div>
      {onEditChat && (
        <div className="danger-zone">
          <h3>{t('chats.settings.chatTitle')}</h3>
          <p className="muted">{t('chats.settings.chatHint')}</p>
          <Button variant="secondary" onClick={onEditChat}>
            <PencilIcon />
            {t('chats.editButton')}
          </Button>
        </div>
      )}
    </Dialog>
  );
}

function SettingsForm({ chat, member, onSaved }: { chat: GroupChat; member: ChatMember; onSaved: () => void }) {
  const { t, i18n } = useTranslation(['translation', 'form']);
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const queryClient = useQueryClient();
  const tones = useQuery(tonesQuery(uiLang));
  const translation = useQuery(translationInfoQuery).data;
  const toneFixed = !!translation && !translation.supportsTone;
  const toneHint =
    translation && !translation.supportsTone && providerName(translation)
      ? t('chats.settings.toneUnsupported', { provider: providerName(translation) })
      : t('chats.settings.toneHint');
  const form = useForm<SettingsValues>({
    resolver: zodResolver(settingsSchema),
    defaultValues: { nickName: member.nickName, language: member.language, tone: member.tone, muted: member.muted },
  });
  const { errors, isSubmitting } = form.formState;
  const languages = chat.languages.includes(member.language) ? chat.languages : [member.language, ...chat.languages];

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await updateMember(chat.id, values);
      if (!saved) return;
      queryClient.setQueryData<ChatMember>(chatKeys.member(chat.id), saved);
      if (saved.language !== member.language || saved.tone !== member.tone) {
        // Every message is rendered for the reader: fetch them again in the new language and tone.
        void queryClient.invalidateQueries({ queryKey: chatKeys.messages(chat.id) });
        void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
      } else if (saved.muted !== member.muted) {
        void queryClient.invalidateQueries({ queryKey: chatKeys.list() });
      }
      notify.success(t('chats.settings.saved'));
      onSaved();
    } catch (error) {
      showServerErrors(error, form.setError, ['nickName', 'language', 'tone']);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="stack">
      <p className="muted">{t('chats.settings.intro')}</p>
      <TextField label={t('chats.settings.nickName')} hint={t('chats.settings.nickNameHint')} autoComplete="nickname" error={errors.nickName?.message} {...form.register('nickName')} />
      <SelectField label={t('chats.settings.language')} {...form.register('language')}>
        {languages.map((code) => (
          <option key={code} value={code}>
            {languageLabel(code, uiLang)}
          </option>
        ))}
      </SelectField>
      {errors.language && (
        <p className="field-error" role="alert">
          {errors.language.message}
        </p>
      )}
      {/* A provider that writes no tone: the choice is shown, fixed, with the reason below it. */}
      <SelectField label={t('chats.settings.tone')} aria-describedby="chat-tone-hint" {...(toneFixed ? { disabled: true, defaultValue: member.tone } : form.register('tone'))}>
        {(tones.data ?? TONES.map((value) => ({ value, label: value.charAt(0) + value.slice(1).toLowerCase() }))).map((tone) => (
          <option key={tone.value} value={tone.value}>
            {tone.label}
          </option>
        ))}
      </SelectField>
      <p id="chat-tone-hint" className="field-hint">
        {toneHint}
      </p>
      <CheckField label={t('chats.settings.mute')} hint={t('chats.settings.muteHint')} {...form.register('muted')} />
      <FormError message={errors.root?.form?.message} />
      <Button type="submit" busy={isSubmitting}>
        {t('common.save')}
      </Button>
    </form>
  );
}
