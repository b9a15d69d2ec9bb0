// The OWNER's dialog: the chat's title, description and languages, and deleting the chat.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { GroupChat } from '@parla/contract/chat';
import { Button } from '../../components/ui';
import { notify } from '../../lib/toast';
import { chatKeys, deleteChat, updateChat } from './api';
import { ChatForm } from './chat-form';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog } from '../../components/dialog';
import { expectRemoval } from './live-sync';
import { applyChatUpdate, removeChat, type ChatListPages } from './timeline';

export function EditChatDialog({ open, onClose, chat }: { open: boolean; onClose: () => void; chat: GroupChat }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    setBusy(true);
    const forget = expectRemoval(chat.id);
    const done = await deleteChat(chat.id);
    setBusy(false);
    if (!done) {
      forget();
      return;
    }
    setConfirming(false);
    onClose();
    queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => removeChat(data, chat.id));
    notify.success(t('chats.deleted', { title: chat.title }));
    await navigate({ to: '/chat' });
    queryClient.removeQueries({ queryKey: chatKeys.chat(chat.id) });
    forget();
  };

  return (
    <Dialog open={open} onClose={onClose} title={t('chats.editTitle')} wide>
      <ChatForm
        initial={{ title: chat.title, description: chat.description ?? '', languages: chat.languages }}
        submitLabel={t('common.save')}
        onSubmit={async (body) => {
          const saved = await updateChat(chat.id, body);
          if (!saved) return false;
          queryClient.setQueryData<GroupChat>(chatKeys.detail(chat.id), saved);
          queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => applyChatUpdate(data, saved));
          if (saved.languages.join() !== chat.languages.join()) void queryClient.invalidateQueries({ queryKey: chatKeys.member(chat.id) });
          notify.success(t('chats.saved'));
          onClose();
          return true;
        }}
      />
      <div className="danger-zone">
        <h3>{t('chats.deleteChatTitle')}</h3>
        <p className="muted">{t('chats.deleteChatHint')}</p>
        <Button variant="danger" onClick={() => setConfirming(true)}>
          {t('chats.deleteChat')}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('chats.deleteChatTitle')}
        message={t('chats.deleteChatText', { title: chat.title })}
        confirmLabel={t('chats.deleteChat')}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setConfirming(false)}
      />
    </Dialog>
  );
}
