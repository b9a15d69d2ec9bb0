// The list of interface languages behind the language button: all 57, each named in itself and
// in the current interface language, found by either name or code (accents ignored). Choosing one
// switches the interface at once and closes the list.
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '@parla/contract/constants';
import { languageOptions, matchesLanguage } from '../lib/languages';
import { Dialog } from './dialog';
import './language-picker.css';

export default function LanguageDialog({
  open,
  title,
  languages,
  onChoose,
  onClose,
}: {
  open: boolean;
  title: string;
  /** The interface languages (lib/i18n's, passed in so this chunk needs nothing of i18n's setup). */
  languages: readonly Language[];
  onChoose: (code: Language) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const current = i18n.language;
  const [search, setSearch] = useState('');
  const id = useId();
  const options = useMemo(() => languageOptions(current, languages, 'native'), [current, languages]);
  const shown = options.filter((option) => matchesLanguage(option, search));
  const choose = (code: Language) => {
    onClose();
    setSearch('');
    if (code !== current) onChoose(code);
  };
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <div className="field">
        <label htmlFor={`${id}-search`}>{t('chats.form.searchLanguages')}</label>
        <input id={`${id}-search`} type="search" value={search} onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
      </div>
      {shown.length === 0 ? (
        <p className="muted language-none">{t('chats.form.noLanguageFound')}</p>
      ) : (
        <ul className="language-choices">
          {shown.map((option) => (
            <li key={option.code}>
              <button type="button" className="language-choice" aria-current={option.code === current ? 'true' : undefined} onClick={() => choose(option.code)}>
                <span className="language-names">
                  <span lang={option.code} dir="auto">
                    {option.native}
                  </span>
                  {option.name !== option.native && <span className="muted">{option.name}</span>}
                </span>
                <span className="muted code">{option.code}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
