// What to do next on a chat's or room's page just after it was made, until followed or dismissed.
import { useTranslation } from 'react-i18next';

export function CreatedNotice({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <p className="notice created-notice" role="status">
      <span>{text}</span>
      <button type="button" className="link-button" onClick={onDismiss}>
        {t('chats.createdDismiss')}
      </button>
    </p>
  );
}
