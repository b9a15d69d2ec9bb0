// The messages of a chat, newest at the bottom: older pages load as the reader scrolls up (the
// view stays where it was), new ones keep the view at the bottom when it was there (else a "new
// messages" button appears), the read position is saved once the newest message is in view, and
// the outbox's unsent messages follow the server's. A quote's click goes to the message it quotes
// (loading older pages until it is there), which flashes and takes the focus; so does the message
// the page was opened for (`target`: a search result).
// Here the list itself (day and "new messages" lines, grouping by sender); its parts are in
// use-scroll-anchor.ts, older-messages.tsx, use-read-position.ts, use-pending-recheck.ts,
// use-jump-to-message.ts, message-item.tsx, outbox-item.tsx and delete-message-dialog.tsx.
import { Fragment, useMemo, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMember, ChatMessage } from '@parla/contract/chat';
import { LoadFailed, Spinner } from '../../components/ui';
import { translationInfoQuery } from '../../lib/queries';
import { messagesQuery } from './api';
import type { GlossaryDraft } from '../../components/glossary';
import { DownIcon } from '../../components/icons';
import { dayOf, formatDay } from '../../lib/format';
import { DeleteMessageDialog } from './delete-message-dialog';
import { MessageItem } from './message-item';
import { OlderMessages } from './older-messages';
import { useOutbox } from './outbox';
import { OutboxItem } from './outbox-item';
import { providerName } from '../../lib/translation-info';
import { buildTimeline, firstUnreadId, isDeletedHere, itemKey, messagesOf, type TimelineItem } from './timeline';
import { messageElementId, useJumpToMessage } from './use-jump-to-message';
import { usePendingRecheck } from './use-pending-recheck';
import { useReadPosition } from './use-read-position';
import { useScrollAnchor } from './use-scroll-anchor';

/** Messages of one sender closer than this are grouped under one name. */
const GROUP_GAP_MS = 5 * 60_000;

const itemTime = (item: TimelineItem) => (item.kind === 'message' ? item.message.created : new Date(item.entry.createdAt).toISOString());

export function MessageList({
  chatId,
  member,
  userId,
  onReply,
  target,
  onTargetDone,
  onAddToGlossary,
}: {
  chatId: number;
  member: ChatMember;
  userId: number | undefined;
  /** The reader chose to answer this message. */
  onReply: (message: ChatMessage) => void;
  /** A message to go to once the messages are loaded (a search result chosen): as a quote's click does. */
  target?: number | undefined;
  /** Called once `target` was gone to (or found gone): the page forgets it. */
  onTargetDone?: () => void;
  /** For those who edit the glossary: a reader's correction turned into a term. */
  onAddToGlossary?: ((draft: GlossaryDraft) => void) | undefined;
}) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const query = useInfiniteQuery(messagesQuery(chatId));
  const outbox = useOutbox((state) => state.entries);
  const messages = useMemo(() => messagesOf(query.data), [query.data]);
  const mine = useMemo(() => outbox.filter((entry) => entry.chatId === chatId && entry.userId === userId), [outbox, chatId, userId]);
  const items = useMemo(() => buildTimeline(messages, mine), [messages, mine]);
  // Read up to here when the chat was opened: the line "New messages" stays there for this visit.
  const [readWhenOpened] = useState(() => member.lastReadMessage);
  const unreadFrom = useMemo(() => firstUnreadId(messages, readWhenOpened), [messages, readWhenOpened]);
  const translation = useQuery(translationInfoQuery).data;
  /** Who could not translate (for the note); null while unknown, undefined when translation is off. */
  const translator = translation ? providerName(translation) : null;
  const [deleting, setDeleting] = useState<ChatMessage | null>(null);
  /** The reader's latest message: it says who has seen it. */
  const lastOwnId = useMemo(() => messages.reduce<number | undefined>((found, message) => (message.isMe && !isDeletedHere(message) && (found === undefined || message.id > found) ? message.id : found), undefined), [messages]);

  const { scroller, atBottom, unseen, onScroll, scrollToBottom, bringIntoView } = useScrollAnchor(items, query.isPending);
  useReadPosition(chatId, member.lastReadMessage, messages, atBottom);
  usePendingRecheck(chatId, messages);
  const { jumpTo, flashId } = useJumpToMessage({ chatId, pages: query, items, target, onTargetDone, bringIntoView });

  // While loading, or after a failed first load, the same boxes as the list's (area, scroller):
  // the messages then take their place without the page's layout moving (a lone scroller became
  // the area, shifting it in Lighthouse's layout-shift measure).
  if (query.isPending) {
    return (
      <div className="message-area">
        <div className="message-scroller">
          <Spinner label={t('chats.loadingMessages')} />
        </div>
      </div>
    );
  }
  // Only a first load that failed: a failed refetch (a resync cut off by the network) keeps the
  // messages and the outbox on screen.
  if (query.data === undefined) {
    return (
      <div className="message-area">
        <div className="message-scroller">
          <LoadFailed message={t('chats.messagesFailed')} retryLabel={t('common.retry')} onRetry={() => void query.refetch()} />
        </div>
      </div>
    );
  }

  return (
    // With the "new messages" pill up, the list leaves room under its last bubble for it.
    <div className={`message-area${unseen && !atBottom ? ' with-jump' : ''}`}>
      <div ref={scroller} className="message-scroller" onScroll={onScroll} tabIndex={0} role="region" aria-label={t('chats.messages')}>
        <OlderMessages pages={query} scroller={scroller} empty={items.length === 0} />
        {items.length === 0 ? (
          <div className="empty-state message-empty">
            <p>{t('chats.noMessagesYet')}</p>
          </div>
        ) : (
          <ol className="message-list">
            {items.map((item, index) => {
              const previousItem = items[index - 1];
              const day = dayOf(itemTime(item));
              const newDay = !previousItem || dayOf(itemTime(previousItem)).key !== day.key;
              const grouped =
                !newDay &&
                previousItem?.kind === 'message' &&
                item.kind === 'message' &&
                !isDeletedHere(previousItem.message) &&
                previousItem.message.sender.id === item.message.sender.id &&
                Date.parse(item.message.created) - Date.parse(previousItem.message.created) < GROUP_GAP_MS;
              return (
                <Fragment key={itemKey(item)}>
                  {newDay && (
                    <li className="day-separator">
                      <span>{formatDay(day.key, uiLang)}</span>
                    </li>
                  )}
                  {item.kind === 'message' && item.message.id === unreadFrom && (
                    <li className="unread-separator">
                      <span>{t('chats.newMessagesBelow')}</span>
                    </li>
                  )}
                  {item.kind === 'message' && isDeletedHere(item.message) ? (
                    <li id={messageElementId(item.message.id)} className={`message tombstone${item.message.isMe ? ' mine' : ''}`}>
                      <p className="bubble bubble-deleted">{t('chats.messageDeleted')}</p>
                    </li>
                  ) : item.kind === 'message' ? (
                    <MessageItem
                      chatId={chatId}
                      message={item.message}
                      member={member}
                      translator={translator}
                      showSender={!grouped}
                      lastOwn={item.message.id === lastOwnId}
                      flash={flashId === item.message.id}
                      onDelete={setDeleting}
                      onReply={onReply}
                      onJump={(messageId) => void jumpTo(messageId)}
                      onAddToGlossary={onAddToGlossary}
                    />
                  ) : (
                    <OutboxItem entry={item.entry} />
                  )}
                </Fragment>
              );
            })}
          </ol>
        )}
      </div>
      {unseen && !atBottom && (
        <button type="button" className="jump-button" onClick={scrollToBottom}>
          <DownIcon width={16} height={16} />
          {t('chats.newMessagesBelow')}
        </button>
      )}
      <DeleteMessageDialog chatId={chatId} message={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
