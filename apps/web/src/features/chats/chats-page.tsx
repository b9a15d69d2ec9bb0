// Chat list and chat detail: group chats come with the chats work; the screens say so.
import { Link, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ChatIcon } from '../../components/icons';
import { Card } from '../../components/ui';

export function ChatsPage() {
  const { t } = useTranslation();
  return (
    <main className="page">
      <h1>{t('chats.title')}</h1>
      <Card className="empty-state">
        <ChatIcon width={32} height={32} />
        <p>{t('chats.coming')}</p>
      </Card>
    </main>
  );
}

const chatRoute = getRouteApi('/protected/chat/$chatId');

export function ChatPage() {
  const { t } = useTranslation();
  const { chatId } = chatRoute.useParams();
  return (
    <main className="page">
      <h1>{t('chats.detailTitle', { id: chatId })}</h1>
      <Card>
        <p>{t('chats.coming')}</p>
        <Link to="/chat" className="btn btn-secondary">
          {t('chats.back')}
        </Link>
      </Card>
    </main>
  );
}
