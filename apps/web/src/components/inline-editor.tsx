// Editing a text in place (a message, a transcript line), written once: Enter saves, Shift+Enter
// breaks the line, Escape cancels; an unchanged or empty text just closes; a refusal keeps the
// text for another try (the error catalogue said why).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './ui';

export function InlineEditor(props: {
  id: string;
  className: string;
  label: string;
  hint?: string;
  initial: string;
  lang?: string;
  maxLength: number;
  rows: (text: string) => number;
  /** Saves the new text; resolves true once saved (the editor closes). */
  save: (text: string) => Promise<boolean>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { initial, onDone } = props;
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const value = text.trim();
    if (!value || value === initial.trim()) return onDone();
    setBusy(true);
    try {
      if (await props.save(value)) onDone();
    } catch {
      // A refusal naming the field was toasted by the catalogue; the text stays for another try.
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className={props.className}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label className="visually-hidden" htmlFor={props.id}>
        {props.label}
      </label>
      <textarea
        id={props.id}
        dir="auto"
        lang={props.lang}
        value={text}
        maxLength={props.maxLength}
        rows={props.rows(text)}
        autoFocus
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            onDone();
          } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void save();
          }
        }}
      />
      {props.hint && <p className="field-hint">{props.hint}</p>}
      <div className="edit-actions">
        <Button type="button" variant="ghost" className="btn-small" onClick={onDone}>
          {t('chats.cancel')}
        </Button>
        <Button type="submit" className="btn-small" busy={busy} disabled={!text.trim()}>
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}
