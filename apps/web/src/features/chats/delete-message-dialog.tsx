// Deleting a message chosen from its menu, once the reader confirms: "Message deleted" in its place.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@parla/contract/chat';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { chatKeys, deleteMessage } from './api';
import { markDeleted, type MessagePages } from './timeline';

/** Open while `message` is set; `onClose` forgets it (cancelled, or deleted). */
export function DeleteMessageDialog({ chatId, message, onClose }: { chatId: number; message: ChatMessage | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  const confirmDelete = async () => {
    if (!message) return;
    setBusy(true);
    const done = await deleteMessage(chatId, message.id);
    setBusy(false);
    if (!done) return;
    queryClient.setQueryData<MessagePages>(chatKeys.messages(chatId), (data) => markDeleted(data, [message.id]));
    onClose();
  };

  return (
    <ConfirmDialog
      open={message !== null}
      title={t('chats.deleteMessageTitle')}
      message={t('chats.deleteMessageText')}
      confirmLabel={t('chats.delete')}
      busy={busy}
      onConfirm={() => void confirmDelete()}
      onClose={onClose}
    />
  );
}
