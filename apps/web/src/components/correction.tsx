// A reader's correction of a rendering, shown the same way for a message and an utterance: who
// corrected it, the machine's text one click away with the way back to it, and (for those who
// edit the glossary) the correction turned into a term. Also the note of glossary terms the
// translator left out.
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './ui';
import { PencilIcon } from './icons';
import { formatList } from '../lib/format';

export function CorrectionNote({
  by,
  machine,
  onRestore,
  onAddToGlossary,
}: {
  /** Who corrected it (null: someone no longer there). */
  by: string | null;
  /** The machine's text, as the page shows texts (mentions named, links live). */
  machine: ReactNode;
  onRestore: () => Promise<unknown>;
  onAddToGlossary?: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <div className="correction">
      <p className="correction-line">
        <PencilIcon width={14} height={14} aria-hidden="true" />
        <span dir="auto">{by === null ? t('corrections.byFormer') : t('corrections.by', { name: by })}</span>
        <button type="button" className="link-button" aria-expanded={shown} onClick={() => setShown((open) => !open)}>
          {shown ? t('corrections.hideMachine') : t('corrections.showMachine')}
        </button>
      </p>
      {shown && (
        <div className="correction-machine">
          <span className="correction-machine-label">{t('corrections.machineLabel')}</span>
          {machine}
          <div className="correction-actions">
            <Button
              variant="secondary"
              className="btn-small"
              busy={busy}
              onClick={() => {
                setBusy(true);
                void onRestore().finally(() => setBusy(false));
              }}
            >
              {t('corrections.restore')}
            </Button>
            {onAddToGlossary && (
              <Button variant="secondary" className="btn-small" onClick={onAddToGlossary}>
                {t('corrections.addToGlossary')}
              </Button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

/** The glossary's terms a translation left out (the translator was asked twice): said, for a reader to correct. */
export function MissedTermsNote({ terms, className }: { terms: readonly string[]; className: string }) {
  const { t, i18n } = useTranslation();
  if (terms.length === 0) return null;
  return <p className={className}>{t('corrections.missedTerms', { terms: formatList(terms.map((term) => `“${term}”`), i18n.resolvedLanguage ?? i18n.language) })}</p>;
}
