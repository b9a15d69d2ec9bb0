// The interface language switch: a button naming the current language in itself; it opens the
// list of all 57, rendered only once opened. The choice is kept in the `lang` store and applied
// at once (texts, `lang` and `dir` of the page). Not loaded on demand: a lazy chunk cost the
// sign-in page more (an extra chunk split) than the list's code itself (vite.config.ts groups it).
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INTERFACE_LANGUAGES, changeLanguage } from '../lib/i18n';
import { nativeName } from '../lib/languages';
import LanguageDialog from './language-dialog';

export function LanguageSelect({ compact = false, label }: { compact?: boolean; label?: string }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  // Once opened the list stays mounted (closed), so closing gives the focus back to the button.
  const [opened, setOpened] = useState(false);
  const id = useId();
  const current = i18n.language;
  const title = label ?? t('language.label');
  return (
    <div className={compact ? 'language-select compact' : 'language-select field'}>
      <span id={`${id}-label`} className={compact ? 'visually-hidden' : 'language-select-label'}>
        {title}
      </span>
      <button type="button" className="language-button" aria-haspopup="dialog" aria-labelledby={`${id}-label ${id}-value`} onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
        </svg>
        <span id={`${id}-value`} lang={current}>
          {nativeName(current)}
        </span>
      </button>
      {opened && (
        <LanguageDialog open={open} title={t('language.interface')} languages={INTERFACE_LANGUAGES} onChoose={(code) => void changeLanguage(code)} onClose={() => setOpen(false)} />
      )}
    </div>
  );
}
