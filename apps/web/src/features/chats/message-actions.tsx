// A message's menu (its "…" button): reply and react, and as the message and the reader's role
// allow, edit, correct the translation, withdraw the corrections, pin or unpin, delete. Its first item takes the
// focus when it opens; Escape closes it and gives the focus back to its button.
import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMember, ChatMessage } from '@parla/contract/chat';
import { Button } from '../../components/ui';
import { notify } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { chatKeys, pinMessage, unpinMessage, withdrawCorrections } from './api';
import { canDeleteMessage, canEditMessage, canPinMessages, canWithdrawCorrections } from './permissions';
import { setPinned, type MessagePages } from './timeline';

export function MessageActions({
  chatId,
  message,
  member,
  correctable,
  opener,
  close,
  onReply,
  onSeen,
  onReact,
  onEdit,
  onCorrect,
  onDelete,
}: {
  chatId: number;
  message: ChatMessage;
  member: ChatMember;
  /** The message has an original: the reader may correct the translation they read. */
  correctable: boolean;
  /** The menu's button (Escape gives it the focus back). */
  opener: RefObject<HTMLButtonElement | null>;
  /** Closes the menu, then does what was chosen. */
  close: (then?: () => void) => void;
  onReply: () => void;
  /** Who has read it. */
  onSeen: () => void;
  onReact: () => void;
  onEdit: () => void;
  onCorrect: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const editable = canEditMessage(message);
  const deletable = canDeleteMessage(member.chatRole, message);
  /** Owners and admins withdraw what readers of any language put in place of the translation (a captionless message has none). */
  const withdrawable = message.content !== '' && canWithdrawCorrections(member.chatRole);
  const pinnable = canPinMessages(member.chatRole);
  const queryClient = useQueryClient();
  /** Pins or unpins at once on screen (the live event confirms it, and updates the pinned list). */
  const togglePin = async () => {
    const pinned = message.pinned === null;
    const done = pinned ? await pinMessage(chatId, message.id) : await unpinMessage(chatId, message.id);
    if (!done) return;
    queryClient.setQueryData<MessagePages>(chatKeys.messages(chatId), (data) => setPinned(data, message.id, typeof done === 'object' ? done.pinned : null));
    void queryClient.invalidateQueries({ queryKey: chatKeys.pins(chatId) });
    notify.success(t(pinned ? 'chats.pinDone' : 'chats.unpinDone'));
  };

  // The menu opened: its first item takes the focus (Escape gives it back to the menu's button).
  useEffect(() => {
    box.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, []);

  return (
    <div
      ref={box}
      className="bubble-actions"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        close(() => opener.current?.focus());
      }}
    >
      <Button variant="secondary" className="btn-small" onClick={() => close(onReply)}>
        {t('chats.reply')}
      </Button>
      <Button variant="secondary" className="btn-small" aria-haspopup="true" onClick={() => close(onReact)}>
        {t('chats.addReaction')}
      </Button>
      {editable && (
        <Button variant="secondary" className="btn-small" onClick={() => close(onEdit)}>
          {t('chats.edit')}
        </Button>
      )}
      {correctable && (
        <Button variant="secondary" className="btn-small" onClick={() => close(onCorrect)}>
          {t('corrections.correct')}
        </Button>
      )}
      {withdrawable && (
        <Button
          variant="secondary"
          className="btn-small"
          onClick={() =>
            close(() => {
              void withdrawCorrections(chatId, message.id).then((done) => done && notify.success(t('corrections.withdrawn')));
            })
          }
        >
          {t('corrections.withdraw')}
        </Button>
      )}
      {pinnable && (
        <Button variant="secondary" className="btn-small" onClick={() => close(() => void togglePin())}>
          {message.pinned ? t('chats.unpin') : t('chats.pin')}
        </Button>
      )}
      <Button variant="secondary" className="btn-small" aria-haspopup="dialog" onClick={() => close(onSeen)}>
        {t('seen.menu')}
      </Button>
      {deletable && (
        <Button variant="danger" className="btn-small" onClick={() => close(onDelete)}>
          {t('chats.delete')}
        </Button>
      )}
    </div>
  );
}
