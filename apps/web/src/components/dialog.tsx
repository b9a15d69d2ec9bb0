// A modal dialog on the native <dialog>: the browser traps focus, Escape closes it and focus
// goes back where it was. Its content is rendered only while it is open. It depends on nothing
// but React and i18next, so the interface-language list can load it with little else.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './dialog.css';

export function Dialog({ open, onClose, title, children, wide = false }: { open: boolean; onClose: () => void; title: string; children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className={`chat-dialog${wide ? ' chat-dialog-wide' : ''}`} aria-labelledby={titleId} onClose={(event) => {
        // React passes a nested dialog's close up the tree: only this dialog's own counts.
        if (event.target === event.currentTarget && open) onClose();
      }}>
      {open && (
        <>
          <div className="dialog-head">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon-btn" onClick={onClose} aria-label={t('chats.close')}>
              {/* The close cross, drawn here so that the dialog needs nothing of the icon set. */}
              <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </div>
          <div className="dialog-body">{children}</div>
        </>
      )}
    </dialog>
  );
}
