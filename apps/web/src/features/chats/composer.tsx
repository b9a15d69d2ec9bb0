// Writing a message: Enter sends, Shift+Enter starts a new line. A sent message goes into the
// outbox at once (shown as sending) and the outbox sender posts it; the others are told the
// reader is writing at most every 2 s.
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@parla/contract/constants';
import { sendTyping } from '../../lib/live';
import { SendIcon } from '../../components/icons';
import { enqueue, newClientId, updateOutbox } from './outbox';
import { createTypingThrottle } from './typing';

const MAX_HEIGHT_PX = 160;
/** Drafts survive moving between chats (not a reload). */
const drafts = new Map<number, string>();

export function Composer({ chatId, userId }: { chatId: number; userId: number | undefined }) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState(() => drafts.get(chatId) ?? '');
  /** A paste ran past the limit and the field kept its start: said until the text is shorter again. */
  const [cut, setCut] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const typing = useMemo(() => createTypingThrottle(() => sendTyping(chatId)), [chatId]);
  const left = LIMITS.messageMax - text.length;

  useLayoutEffect(() => {
    const element = field.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  const change = (value: string) => {
    setText(value);
    if (value.length < LIMITS.messageMax) setCut(false);
    drafts.set(chatId, value);
    if (value.trim()) typing.typed();
  };

  const send = () => {
    const content = text.trim();
    if (!content || userId === undefined || content.length > LIMITS.messageMax) return;
    updateOutbox((entries) => enqueue(entries, { clientId: newClientId(), userId, chatId, content }, Date.now()));
    setText('');
    setCut(false);
    drafts.delete(chatId);
    typing.reset();
    field.current?.focus();
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label htmlFor={`composer-${chatId}`} className="visually-hidden">
        {t('chats.messageLabel')}
      </label>
      <textarea
        ref={field}
        id={`composer-${chatId}`}
        className="composer-input"
        rows={1}
        dir="auto"
        value={text}
        maxLength={LIMITS.messageMax}
        placeholder={t('chats.placeholder')}
        aria-describedby={`composer-hint-${chatId}`}
        enterKeyHint="send"
        onChange={(event) => change(event.target.value)}
        onPaste={(event) => {
          const element = event.currentTarget;
          const kept = element.value.length - (element.selectionEnd - element.selectionStart);
          if (kept + event.clipboardData.getData('text').length > LIMITS.messageMax) setCut(true);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <button type="submit" className="send-button" disabled={!text.trim() || userId === undefined} aria-label={t('chats.send')}>
        <SendIcon />
      </button>
      <p id={`composer-hint-${chatId}`} className={left < 200 ? 'composer-count' : 'visually-hidden'}>
        {left < 200 ? t('chats.charactersLeft', { count: left }) : t('chats.composerHint')}
      </p>
      {cut && (
        <p className="composer-count composer-cut" role="alert">
          {t('chats.pasteCut', { max: LIMITS.messageMax.toLocaleString(i18n.resolvedLanguage ?? i18n.language) })}
        </p>
      )}
    </form>
  );
}
