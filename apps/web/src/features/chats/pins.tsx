// A chat's pinned messages (GET /api/chat/{id}/pins/), in a dialog opened from the chat's header:
// each as the reader reads it, the latest pinned first, with who pinned it; one chosen closes the
// dialog and the chat goes to it (?message=, as a search result does). Owners and admins pin and
// unpin from a message's menu; the list follows the live `message:pinned` events.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { GroupChat } from '@parla/contract/chat';
import { Dialog } from '../../components/dialog';
import { LoadFailed, Spinner } from '../../components/ui';
import { pinsQuery } from './api';
import { SearchHit } from './search';

export function PinsDialog({ open, onClose, chat, canPin }: { open: boolean; onClose: () => void; chat: GroupChat; canPin: boolean }) {
  const { t } = useTranslation();
  const query = useQuery({ ...pinsQuery(chat.id), enabled: open });
  const pins = query.data?.results ?? [];
  return (
    <Dialog open={open} onClose={onClose} title={t('chats.pins')} wide>
      {query.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : query.data === undefined ? (
        <LoadFailed message={t('chats.pinsFailed')} retryLabel={t('common.retry')} onRetry={() => void query.refetch()} />
      ) : pins.length === 0 ? (
        <p className="search-empty">{canPin ? t('chats.pinsEmptyCanPin') : t('chats.pinsEmpty')}</p>
      ) : (
        <ul className="search-hits pins-list">
          {pins.map((message) => (
            <SearchHit key={message.id} result={{ chat: { id: chat.id, title: chat.title }, message, highlights: [] }} showChat={false} onChoose={onClose} />
          ))}
        </ul>
      )}
    </Dialog>
  );
}
