// The OWNER's dialog on the room page: the room's own fields (title, description, languages,
// domain) edited, and the room deleted (the reader then goes back to the room list).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Room } from '@parla/contract/rooms';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog } from '../../components/dialog';
import { Button } from '../../components/ui';
import { INTERFACE_LANGUAGES } from '../../lib/i18n';
import { notify } from '../../lib/toast';
import { deleteRoom, roomKeys, updateRoom } from './api';
import { expectRemoval, mapRoomLists } from './live-sync';
import { RoomForm, newRoomValues } from './room-form';

/** The OWNER's editing of the room itself, and its deletion. */
export function EditRoomDialog({ open, onClose, room }: { open: boolean; onClose: () => void; room: Room }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const initial = { ...newRoomValues(uiLang, INTERFACE_LANGUAGES), title: room.title, description: room.description ?? '', languages: room.languages, domain: room.domain };
  const remove = async () => {
    setBusy(true);
    const forget = expectRemoval(room.id);
    const done = await deleteRoom(room.id);
    setBusy(false);
    if (!done) return void forget();
    setDeleting(false);
    onClose();
    queryClient.setQueriesData({ queryKey: roomKeys.lists() }, (data: Parameters<typeof mapRoomLists>[0]) => mapRoomLists(data, (rooms) => rooms.filter((item) => item.id !== room.id)));
    notify.success(t('rooms.deleted', { title: room.title }));
    await navigate({ to: '/room' });
    queryClient.removeQueries({ queryKey: roomKeys.room(room.id) });
    forget();
  };
  return (
    <Dialog open={open} onClose={onClose} title={t('rooms.editTitle')} wide>
      <RoomForm
        initial={initial}
        submitLabel={t('common.save')}
        onSubmit={async (body) => {
          const saved = await updateRoom(room.id, body);
          if (!saved) return false;
          queryClient.setQueryData(roomKeys.detail(room.id), saved);
          void queryClient.invalidateQueries({ queryKey: roomKeys.lists() });
          void queryClient.invalidateQueries({ queryKey: roomKeys.participant(room.id) });
          notify.success(t('rooms.saved'));
          onClose();
          return true;
        }}
      />
      <div className="danger-zone">
        <h3>{t('rooms.deleteTitle')}</h3>
        <p className="muted">{t('rooms.deleteHint')}</p>
        <Button variant="danger" onClick={() => setDeleting(true)}>
          {t('rooms.delete')}
        </Button>
      </div>
      <ConfirmDialog open={deleting} title={t('rooms.deleteConfirmTitle')} message={t('rooms.deleteConfirmText', { title: room.title })} confirmLabel={t('rooms.delete')} busy={busy} onConfirm={() => void remove()} onClose={() => setDeleting(false)} />
    </Dialog>
  );
}
