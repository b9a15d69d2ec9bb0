// "Are you sure?" on the modal dialog: the question, optional extra controls, and the two answers.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog';
import { Button } from './ui';

/** "Are you sure?": the question, optional extra controls, and the two answers. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  onConfirm,
  onClose,
  busy = false,
  danger = true,
  children,
}: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  busy?: boolean;
  danger?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <p>{message}</p>
      {children}
      <div className="dialog-actions">
        <Button type="button" variant="secondary" onClick={onClose}>
          {t('chats.cancel')}
        </Button>
        <Button type="button" variant={danger ? 'danger' : 'primary'} busy={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
