// The reader's own settings in a room: the name the others see, the language they speak and hear
// in (one of the room's), the tone of what they read, and the voice the others are spoken to them
// in. Saving another language, tone or voice fetches the transcript again, rendered the new way.
import { useId } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { TONES } from '@parla/contract/constants';
import { aliasField, languageField, toneField } from '@parla/contract/fields';
import type { Participant, Room } from '@parla/contract/rooms';
import { Button, FormError, SelectField, TextField } from '../../components/ui';
import { showServerErrors } from '../../lib/forms';
import { notify } from '../../lib/toast';
import { tonesQuery, translationInfoQuery } from '../../lib/queries';
import { languageLabel, languageName } from '../../lib/languages';
import { providerName, transcribes } from '../../lib/translation-info';
import { roomKeys, updateParticipant } from './api';

const settingsSchema = z.object({ alias: aliasField, language: languageField, tone: toneField, maleVoice: z.boolean() });
type SettingsValues = z.infer<typeof settingsSchema>;

export function ParticipantSettings({ room, participant, onSaved }: { room: Room; participant: Participant; onSaved?: () => void }) {
  const { t, i18n } = useTranslation(['translation', 'form']);
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const queryClient = useQueryClient();
  const tones = useQuery(tonesQuery(uiLang));
  const translation = useQuery(translationInfoQuery).data;
  const voiceId = useId();
  const toneFixed = !!translation && !translation.supportsTone;
  const toneHint =
    translation && !translation.supportsTone && providerName(translation)
      ? t('chats.settings.toneUnsupported', { provider: providerName(translation) })
      : t('rooms.settings.toneHint');
  const form = useForm<SettingsValues>({
    resolver: zodResolver(settingsSchema),
    values: { alias: participant.alias, language: participant.language, tone: participant.tone, maleVoice: participant.maleVoice },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const chosenLanguage = form.watch('language');
  const languages = room.languages.includes(participant.language) ? room.languages : [participant.language, ...room.languages];

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await updateParticipant(room.id, values);
      if (!saved) return;
      queryClient.setQueryData<Participant>(roomKeys.participant(room.id), saved);
      if (saved.language !== participant.language || saved.tone !== participant.tone || saved.maleVoice !== participant.maleVoice) {
        // Every segment is rendered for its reader: fetch them again in the new language, tone and voice.
        void queryClient.invalidateQueries({ queryKey: roomKeys.segments(room.id) });
      }
      notify.success(t('rooms.settings.saved'));
      onSaved?.();
    } catch (error) {
      showServerErrors(error, form.setError, ['alias', 'language', 'tone', 'maleVoice']);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="stack settings-form">
      <TextField label={t('rooms.settings.alias')} hint={t('rooms.settings.aliasHint')} autoComplete="nickname" error={errors.alias?.message} {...form.register('alias')} />
      <div>
        <SelectField label={t('rooms.settings.language')} aria-describedby="room-language-hint" {...form.register('language')}>
          {languages.map((code) => (
            <option key={code} value={code}>
              {languageLabel(code, uiLang)}
            </option>
          ))}
        </SelectField>
        <p id="room-language-hint" className="field-hint">
          {t('rooms.settings.languageHint')}
          {translation && !transcribes(translation, chosenLanguage) && <> {t('call.notTranscribed', { language: languageName(chosenLanguage, uiLang, { inSentence: true }) })}</>}
        </p>
        {errors.language && (
          <p className="field-error" role="alert">
            {errors.language.message}
          </p>
        )}
      </div>
      <div>
        {/* A provider that writes no tone: the choice is shown, fixed, with the reason below it. */}
        <SelectField label={t('rooms.settings.tone')} aria-describedby="room-tone-hint" {...(toneFixed ? { disabled: true, defaultValue: participant.tone } : form.register('tone'))}>
          {(tones.data ?? TONES.map((value) => ({ value, label: value.charAt(0) + value.slice(1).toLowerCase() }))).map((tone) => (
            <option key={tone.value} value={tone.value}>
              {tone.label}
            </option>
          ))}
        </SelectField>
        <p id="room-tone-hint" className="field-hint">
          {toneHint}
        </p>
      </div>
      <Controller
        control={form.control}
        name="maleVoice"
        render={({ field }) => (
          <fieldset className="voice-choice" aria-describedby={`${voiceId}-hint`}>
            <legend>{t('rooms.settings.voice')}</legend>
            <div className="voice-options">
              <label className="check-row">
                <input type="radio" name={field.name} checked={!field.value} onChange={() => field.onChange(false)} />
                <span>{t('rooms.settings.female')}</span>
              </label>
              <label className="check-row">
                <input type="radio" name={field.name} checked={field.value} onChange={() => field.onChange(true)} />
                <span>{t('rooms.settings.male')}</span>
              </label>
            </div>
            <p id={`${voiceId}-hint`} className="field-hint">
              {t('rooms.settings.voiceHint')}
            </p>
          </fieldset>
        )}
      />
      <FormError message={errors.root?.form?.message} />
      <Button type="submit" busy={isSubmitting} disabled={!isDirty}>
        {t('rooms.settings.save')}
      </Button>
    </form>
  );
}
