// The chat detail (/chat/{chatId}): header with the chat's languages and the reader's, the
// messages, who is writing, the composer; dialogs for the reader's settings, the members and
// (OWNER) the chat itself. Live: new, translated, edited and deleted messages, chat changes,
// typing; a removed chat (or reader) leaves the page with a toast. Someone only invited sees the
// invitation instead (what the chat is, Accept or Decline) and nothing of its content. A search of
// the chat's messages opens from the header; `?message=` (a search result) goes to that message.
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate, useRouterState } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { ChatMember, ChatMessage, GroupChat } from '@parla/contract/chat';
import { LIMITS } from '@parla/contract/constants';
import { PinIcon, SearchIcon, UsersIcon } from '../../components/icons';
import type { GlossaryDraft } from '../../components/glossary';
import { loadChunk } from '../../lib/load-chunk';
import { InvitationPanel } from '../../components/invitation';
import { LoadFailed, Spinner } from '../../components/ui';
import { useCurrentUser } from '../../lib/current-user';
import { addLiveListener } from '../../lib/live';
import { notify } from '../../lib/toast';
import { chatGlossary, chatKeys, chatQuery, memberQuery } from './api';
import { Composer, type ComposerHandle } from './composer';
import { messageLine, useFileDrop } from './attachments';
import { EditChatDialog } from './edit-chat-dialog';
import { BackIcon, SettingsIcon } from '../../components/icons';
import { formatList } from '../../lib/format';
import { languageName } from '../../lib/languages';
import { useHeldConnection, useLiveStatus } from '../../lib/live';
import { useChatInvitationAnswers } from './invitations';
import { isRemovalExpected, useChatLiveSync, useWatchChats } from './live-sync';
import { plainWithNames } from './mentions';
import { MembersDialog } from './members-dialog';
import { MessageList } from './message-list';
import { useOnline, useOutboxSender } from './outbox-sender';
import { chatControls } from './permissions';
import { ChatSearchDialog } from './search';
import { SettingsDialog } from './settings-dialog';
import { activeTypists, addTypist, nextExpiry, removeTypist, type Typist } from './typing';
import '../../components/shared.css';
import './chats.css';
import { CreatedNotice } from '../../components/created-notice';

const chatRoute = getRouteApi('/protected/chat/$chatId');

/** A message of someone else still being translated is said aloud as written after this long. */
const ANNOUNCE_WAIT_MS = 15_000;

export function ChatPage() {
  const { chatId } = chatRoute.useParams();
  const id = Number(chatId);
  if (!/^\d+$/.test(chatId) || id < 1 || id > LIMITS.idMax) return <ChatUnavailable />;
  return <ChatScreen key={id} chatId={id} />;
}

function ChatUnavailable({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <main className="page">
      <h1>{t('chats.unavailableTitle')}</h1>
      {onRetry ? (
        <LoadFailed message={t('chats.unavailable')} retryLabel={t('common.retry')} onRetry={onRetry} />
      ) : (
        <p>{t('chats.unavailable')}</p>
      )}
      <p>
        <Link to="/chat">{t('chats.back')}</Link>
      </p>
    </main>
  );
}

type Panel = 'search' | 'pins' | 'members' | 'settings' | 'edit' | 'glossary' | null;

// The glossary and the pinned messages are opened now and then: their code loads with the dialog.
const PinsDialog = lazy(() => loadChunk(() => import('./pins').then((module) => ({ default: module.PinsDialog }))));
const GlossaryDialog = lazy(() => loadChunk(() => import('../../components/glossary').then((module) => ({ default: module.GlossaryDialog }))));

function ChatScreen({ chatId }: { chatId: number }) {
  const { t } = useTranslation();
  // Just created (chat-list-page.tsx): what to do next, said once on its page.
  const created = useRouterState({ select: (state) => state.location.state.created === true });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  useChatLiveSync();
  useOutboxSender(user.data?.id);
  const chat = useQuery(chatQuery(chatId));
  const member = useQuery(memberQuery(chatId));
  // The chat's events once the reader is known to be a member (the server refuses someone only
  // invited); until they accept, only their own events (the invitation withdrawn, say).
  const state = member.data?.memberState;
  useWatchChats(state === 'joined' ? [chatId] : []);
  useHeldConnection(state === 'invited');
  const [panel, setPanel] = useState<Panel>(null);
  // The "what next" notice goes once it was followed (the members opened) or dismissed, and the
  // address forgets it (it stayed for good: issue 37).
  const [createdNotice, setCreatedNotice] = useState(created);
  const dismissCreated = useCallback(() => {
    setCreatedNotice(false);
    void navigate({ to: '/chat/$chatId', params: { chatId: String(chatId) }, search: true, state: {}, replace: true, resetScroll: false });
  }, [navigate, chatId]);
  useEffect(() => {
    if (panel === 'members' && createdNotice) dismissCreated();
  }, [panel, createdNotice, dismissCreated]);
  /** The message the reader is answering (the composer's reply bar). */
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const screen = useFillViewport();
  // Files dropped anywhere on the chat go to the composer (uploaded at once).
  const composer = useRef<ComposerHandle>(null);
  const drop = useFileDrop((files) => composer.current?.addFiles(files));
  /** What the chat's search dialog searched last (shown again when it is opened again). */
  const [searched, setSearched] = useState('');
  /** A term to add to the glossary, from a reader's correction. */
  const [glossaryDraft, setGlossaryDraft] = useState<GlossaryDraft | undefined>(undefined);
  const glossary = useMemo(() => chatGlossary(chatId), [chatId]);
  const openGlossary = useCallback((draft?: GlossaryDraft) => {
    setGlossaryDraft(draft);
    setPanel('glossary');
  }, []);
  // `?message=`: the message to go to (a search result); once there, the address forgets it.
  const target = chatRoute.useSearch({ select: (search) => search.message });
  const targetDone = useCallback(
    () => void navigate({ to: '/chat/$chatId', params: { chatId: String(chatId) }, search: {}, replace: true, resetScroll: false }),
    [navigate, chatId],
  );

  // Removed from the chat, or the chat deleted: leave it.
  useEffect(() => {
    const leave = (removedId: number) => {
      if (removedId !== chatId || isRemovalExpected(chatId)) return;
      notify.info(t('chats.removedNotice'));
      void navigate({ to: '/chat', replace: true }).then(() => queryClient.removeQueries({ queryKey: chatKeys.chat(chatId) }));
    };
    return addLiveListener({ 'chat:removed': ({ chatId: removedId }) => leave(removedId), refused: (topic) => topic.kind === 'chat' && leave(topic.id) });
  }, [chatId, navigate, queryClient, t]);

  if (chat.isPending || member.isPending) {
    return (
      <main className="chat-screen" ref={screen}>
        <div className="center-screen">
          <Spinner label={t('common.loading')} />
        </div>
      </main>
    );
  }
  // Only a first load that failed: a refetch that fails (the network went away while it was on
  // its way, say) keeps the chat on screen with the data it had, composer and outbox included.
  if (chat.data === undefined || member.data === undefined) {
    return (
      <ChatUnavailable
        onRetry={() => {
          void chat.refetch();
          void member.refetch();
        }}
      />
    );
  }

  if (member.data.memberState === 'invited') return <ChatInvitation chat={chat.data} />;

  const controls = chatControls(member.data.chatRole);
  return (
    <main className="chat-screen" ref={screen} {...drop.handlers}>
      {drop.dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <span>{t('chats.attachDrop')}</span>
        </div>
      )}
      <ChatHeader chat={chat.data} member={member.data} onOpen={setPanel} />
      {createdNotice && <CreatedNotice text={t('chats.created')} onDismiss={dismissCreated} />}
      <LiveStatusLine />
      <MessageList
        chatId={chatId}
        member={member.data}
        userId={user.data?.id}
        onReply={setReplyTo}
        target={target}
        onTargetDone={targetDone}
        onAddToGlossary={controls.editGlossary ? openGlossary : undefined}
      />
      <TypingLine chatId={chatId} memberId={member.data.id} />
      <Announcer chatId={chatId} />
      <Composer ref={composer} chatId={chatId} userId={user.data?.id} member={member.data} replyTo={replyTo} onReplyDone={() => setReplyTo(null)} />
      <ChatSearchDialog open={panel === 'search'} onClose={() => setPanel(null)} chatId={chatId} q={searched} onSearch={setSearched} />
      {panel === 'pins' && (
        <Suspense fallback={null}>
          <PinsDialog open onClose={() => setPanel(null)} chat={chat.data} canPin={controls.pinMessages} />
        </Suspense>
      )}
      <SettingsDialog
        open={panel === 'settings'}
        onClose={() => setPanel(null)}
        chat={chat.data}
        member={member.data}
        onEditChat={controls.editChat ? () => setPanel('edit') : undefined}
        onGlossary={() => openGlossary()}
        editsGlossary={controls.editGlossary}
      />
      <MembersDialog open={panel === 'members'} onClose={() => setPanel(null)} chat={chat.data} member={member.data} />
      {controls.editChat && <EditChatDialog open={panel === 'edit'} onClose={() => setPanel(null)} chat={chat.data} />}
      {panel === 'glossary' && (
        <Suspense fallback={null}>
          <GlossaryDialog open onClose={() => setPanel(null)} api={glossary} languages={chat.data.languages} kind="chat" draft={glossaryDraft} />
        </Suspense>
      )}
    </main>
  );
}

/** The invitation in place of the chat: what it is, and the two answers. Accepted, the chat itself shows. */
function ChatInvitation({ chat }: { chat: GroupChat }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const answers = useChatInvitationAnswers();
  return (
    <InvitationPanel
      title={chat.title}
      intro={t('invitations.chatIntro')}
      by={chat.invitedBy}
      description={chat.description}
      languages={chat.languages}
      back={
        <Link to="/chat" className="back-link">
          <BackIcon width={18} height={18} />
          {t('chats.back')}
        </Link>
      }
      onAccept={() => answers.accept(chat)}
      onDecline={async () => {
        if (!(await answers.decline(chat))) return;
        await navigate({ to: '/chat' });
        queryClient.removeQueries({ queryKey: chatKeys.chat(chat.id) });
      }}
    />
  );
}

function ChatHeader({ chat, member, onOpen }: { chat: GroupChat; member: ChatMember; onOpen: (panel: Panel) => void }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  return (
    <header className="chat-head">
      <Link to="/chat" className="icon-btn" aria-label={t('chats.back')}>
        <BackIcon />
      </Link>
      <div className="chat-head-main">
        <h1 className="chat-title">
          <span dir="auto">{chat.title}</span>
        </h1>
        {chat.description && (
          // One line here (the whole text on hover, and for screen readers): what the chat is for.
          <p className="chat-description" dir="auto" title={chat.description}>
            {chat.description}
          </p>
        )}
        <p className="chat-sub">
          {t('chats.readingIn', { language: languageName(member.language, uiLang, { inSentence: true }) })}
          <span className="chat-languages">
            <span aria-hidden="true"> · </span>
            {t('chats.chatLanguages', { languages: formatList(chat.languages.map((code) => languageName(code, uiLang)), uiLang) })}
          </span>
        </p>
      </div>
      <div className="chat-head-actions">
        <button type="button" className="btn btn-secondary btn-small head-button head-button-icon" aria-label={t('chats.searchInChat')} title={t('chats.searchInChat')} onClick={() => onOpen('search')}>
          <SearchIcon />
        </button>
        <button type="button" className="btn btn-secondary btn-small head-button head-button-icon" aria-label={t('chats.pins')} title={t('chats.pins')} onClick={() => onOpen('pins')}>
          <PinIcon />
        </button>
        <button type="button" className="btn btn-secondary btn-small head-button" onClick={() => onOpen('members')}>
          <UsersIcon />
          <span className="head-label">{t('chats.members.button')}</span>
        </button>
        <button type="button" className="btn btn-secondary btn-small head-button" onClick={() => onOpen('settings')}>
          <SettingsIcon />
          <span className="head-label">{t('chats.settings.button')}</span>
        </button>
      </div>
    </header>
  );
}

/** Says when live updates are interrupted (the offline banner already says it when the browser is offline). */
function LiveStatusLine() {
  const { t } = useTranslation();
  const status = useLiveStatus();
  const online = useOnline();
  return (
    <p className="live-status" role="status">
      {status === 'reconnecting' && online ? t('chats.reconnecting') : ''}
    </p>
  );
}

/** "Ana is writing…" for TYPING_HOLD_MS after each of Ana's typing events. */
function TypingLine({ chatId, memberId }: { chatId: number; memberId: number }) {
  const { t } = useTranslation();
  const [typists, setTypists] = useState<Typist[]>([]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(
    () =>
      addLiveListener({
        typing: (event) => {
          if (event.chatId !== chatId || event.member.id === memberId) return;
          const time = Date.now();
          setNow(time);
          setTypists((current) => addTypist(activeTypists(current, time), event, time));
        },
        'message:created': ({ chatId: id, message }) => {
          if (id === chatId) setTypists((current) => removeTypist(current, message.sender.id));
        },
      }),
    [chatId, memberId],
  );
  const active = activeTypists(typists, now);
  const expiry = nextExpiry(active);
  useEffect(() => {
    if (expiry === undefined) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, expiry - Date.now()) + 10);
    return () => clearTimeout(timer);
  }, [expiry]);
  const names = active.map((typist) => typist.nickName);
  const text =
    names.length === 0
      ? ''
      : names.length === 1
        ? t('chats.typingOne', { name: names[0] })
        : names.length === 2
          ? t('chats.typingTwo', { first: names[0], second: names[1] })
          : t('chats.typingMany', { count: names.length });
  return (
    <p className="typing-line" role="status" aria-live="polite">
      {text}
    </p>
  );
}

/**
 * Says new messages of others aloud to screen readers (the list itself is not a live region), in
 * the reader's language: one that arrives still being translated is said once its translation is
 * done (or has failed, or takes too long: then as written).
 */
function Announcer({ chatId }: { chatId: number }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  useEffect(() => {
    /** Messages of others still being translated: said when their rendering comes. */
    const waiting = new Map<number, ReturnType<typeof setTimeout>>();
    const say = (message: ChatMessage) => {
      const words = messageLine(message.content, message.attachments, (content) => plainWithNames(content, message.mentions, t('chats.formerMember')), t);
      setText(t('chats.announce', { name: message.sender.nickName, text: words }));
    };
    const stop = addLiveListener({
      'message:created': ({ chatId: id, message }) => {
        if (id !== chatId || message.isMe) return;
        if (message.translation !== 'pending') return say(message);
        clearTimeout(waiting.get(message.id));
        waiting.set(
          message.id,
          setTimeout(() => {
            waiting.delete(message.id);
            say(message);
          }, ANNOUNCE_WAIT_MS),
        );
      },
      'message:rendered': ({ chatId: id, message }) => {
        if (id !== chatId || message.isMe || message.translation === 'pending' || !waiting.has(message.id)) return;
        clearTimeout(waiting.get(message.id));
        waiting.delete(message.id);
        say(message);
      },
      'message:deleted': ({ messageId }) => {
        clearTimeout(waiting.get(messageId));
        waiting.delete(messageId);
      },
    });
    return () => {
      stop();
      waiting.forEach((timer) => clearTimeout(timer));
    };
  }, [chatId, t]);
  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true">
      {text}
    </div>
  );
}

/**
 * Sizes the chat screen to what is left of the viewport under the top bar (and above a bottom
 * nav): once when the screen's element is put in the page (a callback ref, run as layout effects
 * are, before the paint), then on resizes. Not on every render: each fit reads the layout, which
 * made the browser lay the page out again for every render while the chat loaded.
 */
function useFillViewport() {
  return useCallback((element: HTMLElement | null) => {
    if (!element) return;
    const fit = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      const nav = document.querySelector('.nav');
      const bottomNav = nav && getComputedStyle(nav).position === 'fixed' ? nav.getBoundingClientRect().height : 0;
      element.style.height = `${Math.max(320, window.innerHeight - top - bottomNav)}px`;
    };
    // The offline banner comes and goes above the chrome: fit again once it has.
    const later = () => requestAnimationFrame(fit);
    fit();
    window.addEventListener('resize', fit);
    window.addEventListener('online', later);
    window.addEventListener('offline', later);
    return () => {
      window.removeEventListener('resize', fit);
      window.removeEventListener('online', later);
      window.removeEventListener('offline', later);
    };
  }, []);
}
