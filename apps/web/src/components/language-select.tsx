// The interface language switch: kept in the `lang` store, applied at once.
import { useTranslation } from 'react-i18next';
import type { Language } from '@parla/contract/constants';
import { INTERFACE_LANGUAGES, changeLanguage } from '../lib/i18n';
import { SelectField } from './ui';

/** Each language named in itself, so anyone can find their own. */
const NATIVE_NAMES: Partial<Record<Language, string>> = { en: 'English', es: 'Español' };

export function LanguageSelect({ compact = false, label }: { compact?: boolean; label?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div className={compact ? 'language-select compact' : 'language-select'}>
      <SelectField
        label={label ?? t('language.label')}
        value={i18n.resolvedLanguage ?? i18n.language}
        onChange={(event) => void changeLanguage(event.target.value as Language)}
      >
        {INTERFACE_LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {NATIVE_NAMES[code] ?? code}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
