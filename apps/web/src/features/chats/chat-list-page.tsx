// The chat list (/chat): the reader's pending invitations (accept or decline in place), then their
// chats by latest activity, each with its last message and unread badge, more loaded as the reader
// scrolls, kept live (a new invitation shows up at once); and the form to create a chat. Above the
// list, a search of the messages of every chat (/chat?q=…: the results take the list's place,
// and Back from a result comes back to them).
import { useCallback, useMemo, useState } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { ChatListItem } from '@parla/contract/chat';
import type { Language } from '@parla/contract/constants';
import { BellOffIcon, ChatIcon } from '../../components/icons';
import { InvitationCard } from '../../components/invitation';
import { Button, Card, LoadFailed } from '../../components/ui';
import { useCurrentUser } from '../../lib/current-user';
import { INTERFACE_LANGUAGES } from '../../lib/i18n';
import { chatKeys, chatListQuery, createChat } from './api';
import { ChatForm } from './chat-form';
import { Dialog } from '../../components/dialog';
import { formatWhen } from '../../lib/format';
import { PlusIcon } from '../../components/icons';
import { LoadMore } from '../../components/load-more';
import { useHeldConnection } from '../../lib/live';
import { unreadText } from '../../lib/unread-text';
import { useChatInvitationAnswers } from './invitations';
import { useChatLiveSync, useWatchChats } from './live-sync';
import { plainWithNames } from './mentions';
import { messageLine } from './attachments';
import { useOutboxSender } from './outbox-sender';
import { SearchBox, SearchResults } from './search';
import { addChat, chatsOf, type ChatListPages } from './timeline';
import '../../components/shared.css';
import './chats.css';

const chatsRoute = getRouteApi('/protected/chat');

export function ChatListPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const q = (chatsRoute.useSearch().q ?? '').trim();
  // The first search is a step of its own (Back goes to the list); refining it or clearing it is not.
  const onSearch = useCallback(
    (next: string) => void navigate({ to: '/chat', search: next ? { q: next } : {}, replace: q !== '', resetScroll: false }),
    [navigate, q],
  );
  useChatLiveSync();
  useOutboxSender(user.data?.id);
  const list = useInfiniteQuery({ ...chatListQuery, refetchOnWindowFocus: true });
  const chats = useMemo(() => chatsOf(list.data), [list.data]);
  // Chats the reader joined are watched; an invitation (or a new one) reaches the reader's own
  // connection, held open even when there is no chat to watch.
  useWatchChats(useMemo(() => chats.filter((chat) => chat.memberState === 'joined').map((chat) => chat.id), [chats]));
  useHeldConnection();
  const [creating, setCreating] = useState(false);

  return (
    <main className="page chat-list-page">
      <div className="page-head">
        <h1>{t('chats.title')}</h1>
        <Button onClick={() => setCreating(true)}>
          <PlusIcon />
          {t('chats.new')}
        </Button>
      </div>
      <p className="muted">{t('chats.intro')}</p>
      {/* Not over an empty list: there is nothing to search yet. */}
      {(q !== '' || list.data === undefined || chats.length > 0) && <SearchBox value={q} onSearch={onSearch} label={t('chats.searchLabel')} />}
      {q !== '' ? (
        <SearchResults q={q} />
      ) : list.isPending ? (
        <ul className="chat-rows" aria-busy="true" aria-label={t('common.loading')}>
          {Array.from({ length: 4 }, (_, index) => (
            <li key={index} className="chat-row skeleton" />
          ))}
        </ul>
      ) : list.data === undefined ? (
        <LoadFailed message={t('chats.listFailed')} retryLabel={t('common.retry')} onRetry={() => void list.refetch()} />
      ) : chats.length === 0 ? (
        <Card className="empty-state">
          <ChatIcon width={32} height={32} />
          <p>{t('chats.empty')}</p>
          <Button variant="secondary" onClick={() => setCreating(true)}>
            {t('chats.createFirst')}
          </Button>
        </Card>
      ) : (
        <>
          <ul className="chat-rows">
            {chats.map((chat) => (chat.memberState === 'invited' ? <ChatInvitation key={chat.id} chat={chat} /> : <ChatRow key={chat.id} chat={chat} />))}
          </ul>
          <LoadMore pages={list} label={t('chats.loadMoreChats')} />
        </>
      )}
      <CreateChatDialog open={creating} onClose={() => setCreating(false)} />
    </main>
  );
}

function ChatInvitation({ chat }: { chat: ChatListItem }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const answers = useChatInvitationAnswers();
  return (
    <li>
      <InvitationCard
        title={chat.title}
        hint={chat.invitedBy ? t('invitations.chatHintBy', { name: chat.invitedBy }) : t('invitations.chatHint')}
        link={{ to: '/chat/$chatId', params: { chatId: String(chat.id) } }}
        onAccept={() => answers.accept(chat)}
        onDecline={async () => {
          if (await answers.decline(chat)) queryClient.removeQueries({ queryKey: chatKeys.chat(chat.id) });
        }}
      />
    </li>
  );
}

function ChatRow({ chat }: { chat: ChatListItem }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const last = chat.lastMessage;
  const when = last?.created ?? chat.modified;
  return (
    <li>
      <Link to="/chat/$chatId" params={{ chatId: String(chat.id) }} className={`chat-row${chat.unreadCount > 0 ? ' unread' : ''}`}>
        <span className="chat-avatar" aria-hidden="true">
          {Array.from(chat.title.trim())[0]?.toLocaleUpperCase() ?? '#'}
        </span>
        <span className="chat-row-main">
          <span className="chat-row-top">
            <span className="chat-row-title" dir="auto">
              {chat.title}
            </span>
            <time className="chat-row-time" dateTime={when}>
              {formatWhen(when, uiLang)}
            </time>
          </span>
          <span className="chat-row-bottom">
            <span className="chat-row-preview">
              {last ? (
                <>
                  <span className="chat-row-sender">{last.isMe ? t('chats.you') : last.sender.nickName}: </span>
                  <span dir="auto" lang={last.language}>
                    {messageLine(last.content, last.attachments, (content) => plainWithNames(content, last.mentions, t('chats.formerMember')), t)}
                  </span>
                </>
              ) : (
                <span className="muted">{t('chats.noMessages')}</span>
              )}
            </span>
            {chat.muted && <BellOffIcon className="muted-mark" title={t('chats.muted')} />}
            {chat.unreadCount > 0 && (
              <span className="unread-badge" title={unreadText(t, chat.unreadCount, chat.unreadMentions)}>
                <span aria-hidden="true">{chat.unreadCount > 99 ? '99+' : chat.unreadCount}</span>
                <span className="visually-hidden">{unreadText(t, chat.unreadCount, chat.unreadMentions)}</span>
              </span>
            )}
            {/* How many of them mention the reader, apart from the count of new ones (issue 37: "@2" meant two new, one mentioning). */}
            {chat.unreadMentions > 0 && (
              <span className="mention-badge" aria-hidden="true">
                @{chat.unreadMentions > 99 ? '99+' : chat.unreadMentions}
              </span>
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}


function CreateChatDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const uiLang = (i18n.resolvedLanguage ?? i18n.language) as Language;
  const initial = { title: '', description: '', languages: (INTERFACE_LANGUAGES as readonly string[]).includes(uiLang) ? [uiLang] : [] };
  return (
    <Dialog open={open} onClose={onClose} title={t('chats.createTitle')} wide>
      <p className="muted">{t('chats.createIntro')}</p>
      <ChatForm
        initial={initial}
        submitLabel={t('chats.create')}
        onSubmit={async (body) => {
          const chat = await createChat(body);
          if (!chat) return false;
          queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => addChat(data, { ...chat, lastMessage: null, unreadCount: 0, unreadMentions: 0 }));
          onClose();
          // Said on the chat's page, not in a toast over the Members button it points to.
          await navigate({ to: '/chat/$chatId', params: { chatId: String(chat.id) }, state: (previous) => ({ ...previous, created: true }) });
          return true;
        }}
      />
    </Dialog>
  );
}
