// Pieces of the member and participant lists (chats and rooms): the page switcher and the
// "remove for good" choice of a removal or a leave.
import { useTranslation } from 'react-i18next';
import { Button, CheckField } from './ui';

export function Pager({ label, pageIndex, pages, onChange }: { label: string; pageIndex: number; pages: number; onChange: (index: number) => void }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <Button variant="secondary" className="btn-small" disabled={pageIndex === 0} onClick={() => onChange(pageIndex - 1)}>
        {t('chats.members.previous')}
      </Button>
      <span>{t('chats.members.page', { page: pageIndex + 1, pages })}</span>
      <Button variant="secondary" className="btn-small" disabled={pageIndex + 1 >= pages} onClick={() => onChange(pageIndex + 1)}>
        {t('chats.members.next')}
      </Button>
    </nav>
  );
}

export function PermanentChoice({ checked, onChange, label, hint }: { checked: boolean; onChange: (value: boolean) => void; label: string; hint: string }) {
  return <CheckField checked={checked} onChange={(event) => onChange(event.target.checked)} label={label} hint={hint} />;
}
