// Choose a chat's or room's languages among the 57: a search box over the list (each language
// named in the interface language and in itself, found by either name or its code, accents
// ignored), each a checkbox; the chosen ones stay listed above as removable chips.
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Controller, type Control, type Path } from 'react-hook-form';
import type { Language } from '@parla/contract/constants';
import { languageName, languageOptions, matchesLanguage } from '../lib/languages';
import { CloseIcon } from './icons';
import './language-picker.css';

export function LanguagePicker({ value, onChange, error }: { value: Language[]; onChange: (next: Language[]) => void; error?: string | undefined }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.language;
  const [search, setSearch] = useState('');
  const id = useId();
  const options = useMemo(() => languageOptions(uiLang), [uiLang]);
  const shown = options.filter((option) => matchesLanguage(option, search));
  const toggle = (code: Language) => onChange(value.includes(code) ? value.filter((item) => item !== code) : [...value, code]);
  return (
    <fieldset className="language-picker" aria-describedby={error ? `${id}-error` : `${id}-hint`}>
      <legend>{t('chats.form.languages')}</legend>
      <p id={`${id}-hint`} className="field-hint">
        {t('chats.form.languagesHint')}
      </p>
      {value.length > 0 && (
        <ul className="chip-list" aria-label={t('chats.form.chosenLanguages')}>
          {value.map((code) => (
            <li key={code} className="chip">
              <span>{languageName(code, uiLang)}</span>
              <button type="button" className="chip-remove" onClick={() => toggle(code)} aria-label={t('chats.form.removeLanguage', { language: languageName(code, uiLang) })}>
                <CloseIcon width={14} height={14} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor={`${id}-search`}>{t('chats.form.searchLanguages')}</label>
        <input id={`${id}-search`} type="search" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
      </div>
      <div className="language-options">
        {shown.length === 0 ? (
          <p className="muted">{t('chats.form.noLanguageFound')}</p>
        ) : (
          shown.map((option) => (
            <label key={option.code} className="check-row">
              <input type="checkbox" checked={value.includes(option.code)} onChange={() => toggle(option.code)} />
              <span className="language-names">
                <span>{option.name}</span>
                {option.native !== option.name && (
                  <span className="muted" lang={option.code} dir="auto">
                    {option.native}
                  </span>
                )}
              </span>
              <span className="muted code">{option.code}</span>
            </label>
          ))
        )}
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The picker as a form's `languages` field (a chat's or a room's form). */
export function LanguagesField<T extends { languages: Language[] }>({ control }: { control: Control<T> }) {
  return (
    <Controller
      control={control}
      name={'languages' as Path<T>}
      render={({ field, fieldState }) => <LanguagePicker value={field.value as Language[]} onChange={(next: Language[]) => field.onChange(next)} error={fieldState.error?.message} />}
    />
  );
}
