// The editors that open in a message's bubble: its writer edits the message, a reader corrects the
// translation they read. Mentions are written as names and stored as references again.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@parla/contract/chat';
import { LIMITS } from '@parla/contract/constants';
import { InlineEditor } from '../../components/inline-editor';
import { chatKeys, correctRendering, editMessage } from './api';
import { decodeMentions, encodeMentions } from './mentions';
import { upsertMessage, type MessagePages } from './timeline';

export function EditMessage({ chatId, message, onDone }: { chatId: number; message: ChatMessage; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Written as the writer sees it (`@Ana`), stored as references again (`<@12>`).
  const [initial] = useState(() => decodeMentions(message.rawMessage?.content ?? message.content, message.mentions, t('chats.formerMember')));
  return (
    <InlineEditor
      id={`edit-${message.id}`}
      className="edit-message"
      label={t('chats.editLabel')}
      initial={initial}
      maxLength={LIMITS.messageMax}
      rows={(text) => Math.min(8, text.split('\n').length + 1)}
      save={async (text) => {
        const updated = await editMessage(chatId, message.id, encodeMentions(text, message.mentions));
        if (updated) queryClient.setQueryData<MessagePages>(chatKeys.messages(chatId), (data) => upsertMessage(data, updated));
        return updated !== undefined;
      }}
      onDone={onDone}
    />
  );
}

/** The reader corrects the translation they read, for everyone reading the same way (the machine's text is kept). */
export function CorrectTranslation({ chatId, message, onDone }: { chatId: number; message: ChatMessage; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [initial] = useState(() => decodeMentions(message.content, message.mentions, t('chats.formerMember')));
  return (
    <InlineEditor
      id={`correct-${message.id}`}
      className="edit-message"
      label={t('corrections.field')}
      hint={t('corrections.hint')}
      initial={initial}
      lang={message.language}
      maxLength={LIMITS.messageMax}
      rows={(text) => Math.min(8, text.split('\n').length + 1)}
      save={async (text) => {
        const updated = await correctRendering(chatId, message.id, encodeMentions(text, message.mentions));
        if (updated) queryClient.setQueryData<MessagePages>(chatKeys.messages(chatId), (data) => upsertMessage(data, updated));
        return updated !== undefined;
      }}
      onDone={onDone}
    />
  );
}
