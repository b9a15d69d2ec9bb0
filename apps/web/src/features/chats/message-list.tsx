// The messages of a chat, newest at the bottom: older pages load as the reader scrolls up (the
// view stays where it was), new ones keep the view at the bottom when it was there (else a "new
// messages" button appears), the read position is saved once the newest message is in view, and
// the outbox's unsent messages follow the server's. A quote's click goes to the message it quotes
// (loading older pages until it is there), which flashes and takes the focus; so does the message
// the page was opened for (`target`: a search result).
import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMember, ChatMessage } from '@parla/contract/chat';
import { LIMITS } from '@parla/contract/constants';
import { Button, LoadFailed, Spinner } from '../../components/ui';
import { call, endpoint } from '../../lib/api';
import { translationInfoQuery } from '../../lib/queries';
import { notify } from '../../lib/toast';
import { chatKeys, correctRendering, deleteMessage, editMessage, messagesQuery, restoreRendering, withdrawCorrections } from './api';
import { CorrectionNote, MissedTermsNote } from '../../components/correction';
import type { GlossaryDraft } from '../../components/glossary';
import { correctionDraft } from '../../lib/correction-draft';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { dayOf, formatDay, formatTime } from '../../lib/format';
import { DownIcon, MoreIcon } from '../../components/icons';
import { InlineEditor } from '../../components/inline-editor';
import { languageName } from '../../lib/languages';
import { setReadingChat } from './live-sync';
import { decodeMentions, encodeMentions, mentionsMember, plainWithNames } from './mentions';
import { MessageText } from './message-text';
import { MessageAttachments, PendingAttachments } from './attachments';
import { markRetryNow, updateOutbox, useOutbox, withoutEntry, type OutboxEntry } from './outbox';
import { useOnline } from './outbox-sender';
import { canDeleteMessage, canEditMessage, canWithdrawCorrections } from './permissions';
import { providerName } from '../../lib/translation-info';
import { ReactionBar, ReactionPicker } from './reactions';
import {
  buildTimeline,
  firstUnreadId,
  loadUntil,
  messagesOf,
  newestId,
  removeMessage,
  setUnread,
  upsertMessage,
  type ChatListPages,
  type MessagePages,
  type TimelineItem,
} from './timeline';

/** Within this distance of the bottom the view counts as "at the newest message". */
const BOTTOM_SLACK_PX = 48;
/** A message still `pending` this long after it was written is fetched again (a missed push). */
const PENDING_RECHECK_MS = 20_000;
const READ_SAVE_DELAY_MS = 800;
/** Messages of one sender closer than this are grouped under one name. */
const GROUP_GAP_MS = 5 * 60_000;
/** How long a message jumped to stays highlighted. */
const FLASH_MS = 2_000;
/** A quote shows at most this much of the message (two lines of it, by the style). */
const QUOTE_MAX = 280;

/** The element of a message in the list (a quote's click goes there). */
export const messageElementId = (messageId: number) => `message-${messageId}`;

const subscribeVisibility = (onChange: () => void) => {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
};
const useDocumentVisible = () => useSyncExternalStore(subscribeVisibility, () => document.visibilityState === 'visible');

const itemKey = (item: TimelineItem | undefined) => (!item ? '' : item.kind === 'message' ? `m${item.message.id}` : `o${item.entry.clientId}`);
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
  const queryClient = useQueryClient();
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
  const [deleteBusy, setDeleteBusy] = useState(false);

  // ---- scrolling ----
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const fromBottom = useRef(0);
  /** Where we last put the view at the bottom: a lower scrollTop since is the reader's own scroll (its event may not have come yet). */
  const pinnedTop = useRef(0);
  const [atBottom, setAtBottom] = useState(true);
  const [unseen, setUnseen] = useState(false);
  const previous = useRef({ first: '', last: '' });
  /**
   * A message being brought into view (a search result, a quote): the scroll on its way passes
   * near the bottom, and taking that for "the reader is at the bottom" let the next resize (a
   * translation arriving) pull the view down again, away from it (issue 37). Until the scroll ends
   * (or a moment passes), the view does not stick to the bottom.
   */
  const bringingIntoView = useRef(false);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    fromBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight;
    if (bringingIntoView.current) return;
    stick.current = fromBottom.current <= BOTTOM_SLACK_PX;
    if (stick.current) pinnedTop.current = element.scrollTop;
    setAtBottom(stick.current);
    if (stick.current) setUnseen(false);
  };

  const scrollToBottom = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    pinnedTop.current = element.scrollTop;
    stick.current = true;
    fromBottom.current = 0;
    setAtBottom(true);
    setUnseen(false);
  }, []);

  const first = itemKey(items[0]);
  const last = itemKey(items.at(-1));
  const lastIsMine = (() => {
    const item = items.at(-1);
    return !!item && (item.kind === 'outbox' || item.message.isMe);
  })();

  useLayoutEffect(() => {
    const element = scroller.current;
    const before = previous.current;
    previous.current = { first, last };
    if (!element) return;
    const appended = last !== before.last;
    if (stick.current || (appended && lastIsMine)) return scrollToBottom();
    if (first !== before.first && !appended) {
      // Older messages came in above: keep the same messages in view.
      element.scrollTop = element.scrollHeight - element.clientHeight - fromBottom.current;
      return;
    }
    if (appended && before.last) setUnseen(true);
  }, [items, first, last, lastIsMine, scrollToBottom]);

  // The view or its content changes size (a translation arrives, the screen is fitted again): stay at the bottom if there.
  useEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (!stick.current) return;
      // The reader scrolled up and its scroll event is still to come: not pulled back down.
      const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_SLACK_PX;
      if (element.scrollTop < pinnedTop.current - BOTTOM_SLACK_PX && !atBottom) {
        stick.current = false;
        return;
      }
      element.scrollTop = element.scrollHeight;
      pinnedTop.current = element.scrollTop;
    });
    observer.observe(element);
    const content = element.querySelector('.message-list');
    if (content) observer.observe(content);
    return () => observer.disconnect();
  }, [query.isPending, items.length > 0]);

  // Older pages: when the top comes into view.
  const top = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  useEffect(() => {
    const element = top.current;
    if (!element || !hasNextPage || isFetchingNextPage || isFetchNextPageError || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { root: scroller.current, rootMargin: '200px 0px 0px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  // ---- read position ----
  const visible = useDocumentVisible();
  const reading = atBottom && visible;
  const newest = newestId(messages);
  useEffect(() => {
    setReadingChat(reading ? chatId : null);
    return () => setReadingChat(null);
  }, [reading, chatId]);
  useEffect(() => {
    if (!reading || newest === undefined) return;
    if (member.lastReadMessage !== null && newest <= member.lastReadMessage) {
      queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => setUnread(data, chatId, 0));
      return;
    }
    const timer = setTimeout(() => {
      call<ChatMember>(
        endpoint('PATCH', '/api/chat/{groupChatId}/member/', { path: { groupChatId: chatId }, body: { lastReadMessage: newest }, skipErrorCatalogue: true }),
      )
        .then((answer) => {
          if (answer) queryClient.setQueryData<ChatMember>(chatKeys.member(chatId), answer);
          queryClient.setQueryData<ChatListPages>(chatKeys.list(), (data) => setUnread(data, chatId, 0));
        })
        // Not saved (offline...): the next newest message in view tries again.
        .catch(() => undefined);
    }, READ_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [reading, newest, member.lastReadMessage, chatId, queryClient]);

  // ---- a translation whose push was missed ----
  const rechecked = useRef(new Set<number>());
  useEffect(() => {
    const pending = messages.filter((message) => message.translation === 'pending' && !rechecked.current.has(message.id));
    if (!pending.length) return;
    const due = Math.min(...pending.map((message) => Date.parse(message.created))) + PENDING_RECHECK_MS - Date.now();
    const timer = setTimeout(
      () => {
        pending.forEach((message) => rechecked.current.add(message.id));
        void queryClient.invalidateQueries({ queryKey: chatKeys.messages(chatId) });
      },
      Math.max(0, due),
    );
    return () => clearTimeout(timer);
  }, [messages, chatId, queryClient]);

  // ---- going to a quoted message ----
  const [jumpTarget, setJumpTarget] = useState<number | null>(null);
  const [flashId, setFlashId] = useState<number | null>(null);
  const jumping = useRef(false);
  const jumpTo = useCallback(
    async (messageId: number, gone = t('chats.replyGone')) => {
      if (jumping.current) return;
      jumping.current = true;
      try {
        const current = queryClient.getQueryData<MessagePages>(chatKeys.messages(chatId));
        const found = await loadUntil(messageId, { data: current, hasNextPage: hasNextPage }, async () => {
          const result = await fetchNextPage();
          return { data: result.data, hasNextPage: result.hasNextPage, isError: result.isFetchNextPageError };
        });
        if (found) setJumpTarget(messageId);
        else notify.info(gone);
      } finally {
        jumping.current = false;
      }
    },
    [chatId, queryClient, hasNextPage, fetchNextPage, t],
  );
  // The message the page was opened for: gone to once the first page is there (once per request).
  const loaded = query.data !== undefined;
  const targetTaken = useRef<number | null>(null);
  const latestTarget = useRef(target);
  latestTarget.current = target;
  const targetDone = useRef(onTargetDone);
  targetDone.current = onTargetDone;
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (target === undefined || !loaded || targetTaken.current === target) return;
    targetTaken.current = target;
    void jumpTo(target, t('chats.searchGone')).finally(() => {
      targetTaken.current = null;
      // Not when the reader has left meanwhile, or asked for another message.
      if (mounted.current && latestTarget.current === target) targetDone.current?.();
    });
  }, [target, loaded, jumpTo, t]);
  // Once it is on screen: into view, highlighted, focused.
  useEffect(() => {
    if (jumpTarget === null) return;
    const element = document.getElementById(messageElementId(jumpTarget));
    if (!element) return;
    setJumpTarget(null);
    stick.current = false;
    setAtBottom(false);
    bringingIntoView.current = true;
    const view = scroller.current;
    const arrived = () => {
      clearTimeout(timer);
      view?.removeEventListener('scrollend', arrived);
      bringingIntoView.current = false;
    };
    const timer = setTimeout(arrived, 1_500);
    view?.addEventListener('scrollend', arrived);
    const smooth = typeof window.matchMedia === 'function' && !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    element.scrollIntoView?.({ block: 'center', behavior: smooth ? 'smooth' : 'auto' });
    element.focus({ preventScroll: true });
    setFlashId(jumpTarget);
  }, [jumpTarget, items]);
  useEffect(() => {
    if (flashId === null) return;
    const timer = setTimeout(() => setFlashId(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [flashId]);

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    const done = await deleteMessage(chatId, deleting.id);
    setDeleteBusy(false);
    if (!done) return;
    queryClient.setQueryData<MessagePages>(chatKeys.messages(chatId), (data) => removeMessage(data, deleting.id));
    setDeleting(null);
  };

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
        <div ref={top} className="message-top">
          {hasNextPage ? (
            isFetchingNextPage ? (
              <Spinner label={t('chats.loadingOlder')} />
            ) : (
              <Button variant="ghost" onClick={() => void fetchNextPage()}>
                {isFetchNextPageError ? t('chats.olderFailed') : t('chats.loadOlder')}
              </Button>
            )
          ) : items.length > 0 ? (
            <p className="muted chat-start">{t('chats.beginning')}</p>
          ) : null}
        </div>
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
                  {item.kind === 'message' ? (
                    <MessageItem
                      chatId={chatId}
                      message={item.message}
                      member={member}
                      translator={translator}
                      showSender={!grouped}
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
      <ConfirmDialog
        open={deleting !== null}
        title={t('chats.deleteMessageTitle')}
        message={t('chats.deleteMessageText')}
        confirmLabel={t('chats.delete')}
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

function MessageItem({
  chatId,
  message,
  member,
  translator,
  showSender,
  flash,
  onDelete,
  onReply,
  onJump,
  onAddToGlossary,
}: {
  chatId: number;
  message: ChatMessage;
  member: ChatMember;
  translator: string | null | undefined;
  showSender: boolean;
  /** Just jumped to (from a quote): highlighted for a moment. */
  flash: boolean;
  onDelete: (message: ChatMessage) => void;
  onReply: (message: ChatMessage) => void;
  onJump: (messageId: number) => void;
  onAddToGlossary?: ((draft: GlossaryDraft) => void) | undefined;
}) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const queryClient = useQueryClient();
  const [original, setOriginal] = useState(false);
  const [menu, setMenu] = useState(false);
  const [editing, setEditing] = useState(false);
  /** The reader corrects the translation they read. */
  const [correcting, setCorrecting] = useState(false);
  /** The reaction picker, and what gets the focus back when it closes. */
  const [picker, setPicker] = useState<'menu' | 'chip' | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const addChip = useRef<HTMLButtonElement>(null);
  const menuBox = useRef<HTMLDivElement>(null);
  const editable = canEditMessage(message);
  const deletable = canDeleteMessage(member.chatRole, message);
  /** Pictures or files without a caption: no text line, nothing to translate. */
  const captionless = message.content === '';
  /** Owners and admins withdraw what readers of any language put in place of the translation. */
  const withdrawable = !captionless && canWithdrawCorrections(member.chatRole);
  const raw = captionless ? null : message.rawMessage;
  const mentioned = !message.isMe && mentionsMember(message.content, member.id);
  const untranslated = !captionless && (message.translation === 'failed' || message.translation === 'none') && message.language !== member.language;
  const name = (code: string) => languageName(code, uiLang, { inSentence: true });
  const note = !untranslated
    ? null
    : message.translation === 'failed'
      ? t('chats.translationFailed')
      : translator === undefined
        ? t('chats.translationOff')
        : translator === null
          ? t('chats.translationNone', { from: name(message.language), to: name(member.language) })
          : t('chats.translationNoneBy', { provider: translator, from: name(message.language), to: name(member.language) });

  // The menu opened: its first item takes the focus (Escape gives it back to the menu's button).
  useEffect(() => {
    if (menu) menuBox.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [menu]);

  const closeMenu = (then?: () => void) => {
    setMenu(false);
    then?.();
  };
  const closePicker = useCallback(() => setPicker(null), []);

  return (
    <li
      id={messageElementId(message.id)}
      tabIndex={-1}
      className={`message${message.isMe ? ' mine' : ''}${showSender ? '' : ' grouped'}${mentioned ? ' mentions-me' : ''}${flash ? ' flash' : ''}`}
    >
      {showSender && !message.isMe && (
        <div className="message-sender">
          <span className="message-avatar" aria-hidden="true">
            {message.sender.avatarImage ? <img src={message.sender.avatarImage} alt="" width={24} height={24} /> : (Array.from(message.sender.nickName)[0] ?? '?').toLocaleUpperCase()}
          </span>
          <span dir="auto">{message.sender.nickName}</span>
        </div>
      )}
      <div className="bubble">
        {message.isMe && <span className="visually-hidden">{t('chats.youWrote')}</span>}
        {mentioned && <span className="visually-hidden">{t('chats.mentionsYou')}</span>}
        {message.replyTo && <Quote quote={message.replyTo} mentions={message.mentions} onJump={onJump} />}
        {message.attachments.length > 0 && <MessageAttachments attachments={message.attachments} />}
        {editing ? (
          <EditMessage chatId={chatId} message={message} onDone={() => setEditing(false)} />
        ) : correcting ? (
          <CorrectTranslation chatId={chatId} message={message} onDone={() => setCorrecting(false)} />
        ) : (
          !captionless && <MessageText text={message.content} mentions={message.mentions} meId={member.id} lang={message.language} />
        )}
        {message.correction && raw && !correcting && (
          <CorrectionNote
            by={message.correction.by?.nickName ?? null}
            machine={<MessageText text={message.correction.machine} mentions={message.mentions} meId={member.id} lang={message.language} className="bubble-original-text" />}
            onRestore={async () => {
              if (await restoreRendering(chatId, message.id)) {
                const machine = message.correction?.machine ?? message.content;
                queryClient.setQueryData<MessagePages>(chatKeys.messages(chatId), (data) => upsertMessage(data, { ...message, content: machine, correction: null }));
              }
            }}
            onAddToGlossary={
              onAddToGlossary &&
              (() =>
                onAddToGlossary(
                  correctionDraft({
                    original: raw.content,
                    originalLanguage: raw.language,
                    machine: message.correction?.machine ?? '',
                    corrected: message.content,
                    readerLanguage: message.language,
                  }),
                ))
            }
          />
        )}
        {raw && <MissedTermsNote terms={message.missedTerms} className="bubble-note" />}
        {original && raw && (
          <div className="bubble-original">
            <span className="bubble-original-label">{t('chats.originalIn', { language: languageName(raw.language, uiLang) })}</span>
            <MessageText text={raw.content} mentions={message.mentions} meId={member.id} lang={raw.language} className="bubble-original-text" />
          </div>
        )}
        {note && <p className="bubble-note">{note}</p>}
        <div className="bubble-meta">
          <time dateTime={message.created}>{formatTime(message.created, uiLang)}</time>
          {message.edited && <span>{t('chats.edited')}</span>}
          {message.translation === 'pending' && !captionless && (
            <span className="translating">
              <span className="spinner spinner-small" aria-hidden="true" />
              {t('chats.translating')}
            </span>
          )}
          {raw && (
            <button type="button" className="link-button" aria-expanded={original} onClick={() => setOriginal((shown) => !shown)}>
              {original ? t('chats.hideOriginal') : t('chats.showOriginal')}
            </button>
          )}
          {!editing && !correcting && (
            <button ref={menuButton} type="button" className="icon-btn icon-btn-small" aria-expanded={menu} aria-label={t('chats.messageActions')} onClick={() => setMenu((open) => !open)}>
              <MoreIcon width={18} height={18} />
            </button>
          )}
        </div>
        {menu && !editing && !correcting && (
          <div
            ref={menuBox}
            className="bubble-actions"
            onKeyDown={(event) => {
              if (event.key !== 'Escape') return;
              event.stopPropagation();
              closeMenu(() => menuButton.current?.focus());
            }}
          >
            <Button variant="secondary" className="btn-small" onClick={() => closeMenu(() => onReply(message))}>
              {t('chats.reply')}
            </Button>
            <Button variant="secondary" className="btn-small" aria-haspopup="true" onClick={() => closeMenu(() => setPicker('menu'))}>
              {t('chats.addReaction')}
            </Button>
            {editable && (
              <Button variant="secondary" className="btn-small" onClick={() => closeMenu(() => setEditing(true))}>
                {t('chats.edit')}
              </Button>
            )}
            {raw && (
              <Button variant="secondary" className="btn-small" onClick={() => closeMenu(() => setCorrecting(true))}>
                {t('corrections.correct')}
              </Button>
            )}
            {withdrawable && (
              <Button
                variant="secondary"
                className="btn-small"
                onClick={() =>
                  closeMenu(() => {
                    void withdrawCorrections(chatId, message.id).then((done) => done && notify.success(t('corrections.withdrawn')));
                  })
                }
              >
                {t('corrections.withdraw')}
              </Button>
            )}
            {deletable && (
              <Button variant="danger" className="btn-small" onClick={() => closeMenu(() => onDelete(message))}>
                {t('chats.delete')}
              </Button>
            )}
          </div>
        )}
        {picker && (
          <ReactionPicker
            chatId={chatId}
            message={message}
            meId={member.id}
            onClose={closePicker}
            opener={picker === 'chip' ? addChip : undefined}
            returnFocus={() => (picker === 'chip' ? addChip.current : menuButton.current)?.focus()}
          />
        )}
      </div>
      <ReactionBar chatId={chatId} message={message} meId={member.id} addRef={addChip} onAdd={() => setPicker((open) => (open ? null : 'chip'))} />
    </li>
  );
}

/** The message a reply answers, above its text: who wrote it and its first lines; a click goes to it. */
function Quote({ quote, mentions, onJump }: { quote: NonNullable<ChatMessage['replyTo']>; mentions: ChatMessage['mentions']; onJump: (messageId: number) => void }) {
  const { t } = useTranslation();
  // A quote carries no attachments: a message of pictures or files alone is named as such.
  const excerpt = quote.content === '' ? t('chats.attachmentQuoted') : plainWithNames(quote.content, mentions, t('chats.formerMember'));
  return (
    <button type="button" className="quote" onClick={() => onJump(quote.id)}>
      <span className="visually-hidden">{t('chats.inReplyTo', { name: quote.sender.nickName })}</span>
      <span className="quote-sender" dir="auto" aria-hidden="true">
        {quote.sender.nickName}
      </span>
      <span className="quote-text" dir="auto" lang={quote.language}>
        {excerpt.length > QUOTE_MAX ? `${excerpt.slice(0, QUOTE_MAX)}…` : excerpt}
      </span>
    </button>
  );
}

function EditMessage({ chatId, message, onDone }: { chatId: number; message: ChatMessage; onDone: () => void }) {
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
function CorrectTranslation({ chatId, message, onDone }: { chatId: number; message: ChatMessage; onDone: () => void }) {
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

function OutboxItem({ entry }: { entry: OutboxEntry }) {
  const { t } = useTranslation();
  const online = useOnline();
  const status =
    entry.state === 'failed'
      ? entry.error
        ? t('chats.notSentBecause', { reason: entry.error })
        : t('chats.notSent')
      : !online
        ? t('chats.waitingForNetwork')
        : entry.state === 'sending' || entry.attempts === 0
          ? t('chats.sending')
          : t('chats.retrying');
  return (
    <li className={`message mine outbox${entry.state === 'failed' ? ' failed' : ''}`}>
      <div className="bubble">
        <span className="visually-hidden">{t('chats.youWrote')}</span>
        {entry.quote && (
          <div className="quote quote-static">
            <span className="visually-hidden">{t('chats.inReplyTo', { name: entry.quote.name })}</span>
            <span className="quote-sender" dir="auto" aria-hidden="true">
              {entry.quote.name}
            </span>
            <span className="quote-text" dir="auto">
              {entry.quote.excerpt}
            </span>
          </div>
        )}
        {entry.attachmentNames?.length ? <PendingAttachments names={entry.attachmentNames} /> : null}
        {entry.content !== '' && <MessageText text={entry.content} mentions={entry.mentions ?? []} meId={undefined} />}
        <div className="bubble-meta">
          <span className={entry.state === 'failed' ? 'bubble-error' : 'bubble-status'}>{status}</span>
          {(entry.state === 'failed' || (entry.state === 'queued' && entry.attempts > 0)) && (
            <button type="button" className="link-button" onClick={() => updateOutbox((entries) => markRetryNow(entries, entry.clientId, Date.now()))}>
              {t('chats.retry')}
            </button>
          )}
          {entry.state !== 'sending' && (
            <button type="button" className="link-button" onClick={() => updateOutbox((entries) => withoutEntry(entries, entry.clientId))}>
              {t('chats.discard')}
            </button>
          )}
        </div>
      </div>
    </li>
  );
}
