// One message of the list as its reader gets it: the sender (unless grouped with the one before),
// the quote it answers, its attachments, its text in the reader's language (or an editor in its
// place), the correction and missed-terms notes, the original on demand, why it was not
// translated, its time and state, its menu, and its reactions.
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMember, ChatMessage } from '@parla/contract/chat';
import { CorrectionNote, MissedTermsNote } from '../../components/correction';
import type { GlossaryDraft } from '../../components/glossary';
import { MoreIcon, PinIcon } from '../../components/icons';
import { correctionDraft } from '../../lib/correction-draft';
import { loadChunk } from '../../lib/load-chunk';
import { formatTime } from '../../lib/format';
import { languageName } from '../../lib/languages';
import { chatKeys, restoreRendering } from './api';
import { MessageAttachments } from './attachments';
import { PresenceDot, SeenDialog, SeenLine, usePresenceOf } from './awareness';
import { mentionsMember, plainWithNames } from './mentions';
import { MessageActions } from './message-actions';
import { CorrectTranslation, EditMessage } from './message-editors';
import { MessageText } from './message-text';
import { ReactionBar, ReactionPicker } from './reactions';
import { upsertMessage, type MessagePages } from './timeline';
import { messageElementId } from './use-jump-to-message';

// An edited message's earlier versions are looked at now and then: their code loads with the dialog.
const VersionsDialog = lazy(() => loadChunk(() => import('./versions').then((module) => ({ default: module.VersionsDialog }))));

/** A quote shows at most this much of the message (two lines of it, by the style). */
const QUOTE_MAX = 280;

export function MessageItem({
  chatId,
  message,
  member,
  translator,
  showSender,
  lastOwn,
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
  /** The reader's latest message: it says who has seen it. */
  lastOwn: boolean;
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
  /** The earlier texts of an edited message, in a dialog. */
  const [versions, setVersions] = useState(false);
  /** Who has read the message, in a dialog. */
  const [seen, setSeen] = useState(false);
  const presence = usePresenceOf(chatId, message.sender.id);
  /** The reader corrects the translation they read. */
  const [correcting, setCorrecting] = useState(false);
  /** The reaction picker, and what gets the focus back when it closes. */
  const [picker, setPicker] = useState<'menu' | 'chip' | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const addChip = useRef<HTMLButtonElement>(null);
  /** Pictures or files without a caption: no text line, nothing to translate. */
  const captionless = message.content === '';
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
          <PresenceDot presence={presence} />
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
          {message.edited && (
            <button type="button" className="link-button" aria-label={t('chats.editedShow')} onClick={() => setVersions(true)}>
              {t('chats.edited')}
            </button>
          )}
          {message.pinned && (
            <span className="bubble-pinned" title={message.pinned.by ? t('chats.pinnedBy', { name: message.pinned.by.nickName }) : undefined}>
              <PinIcon width={14} height={14} />
              {t('chats.pinned')}
            </span>
          )}
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
          <MessageActions
            chatId={chatId}
            message={message}
            member={member}
            correctable={!!raw}
            opener={menuButton}
            close={closeMenu}
            onReply={() => onReply(message)}
            onReact={() => setPicker('menu')}
            onEdit={() => setEditing(true)}
            onCorrect={() => setCorrecting(true)}
            onDelete={() => onDelete(message)}
            onSeen={() => setSeen(true)}
          />
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
      {versions && (
        <Suspense fallback={null}>
          <VersionsDialog open onClose={() => setVersions(false)} chatId={chatId} message={message} />
        </Suspense>
      )}
      <ReactionBar chatId={chatId} message={message} meId={member.id} addRef={addChip} onAdd={() => setPicker((open) => (open ? null : 'chip'))} />
      {lastOwn && <SeenLine chatId={chatId} message={message} />}
      {seen && <SeenDialog open onClose={() => setSeen(false)} chatId={chatId} message={message} />}
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
