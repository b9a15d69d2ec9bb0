// Writing a message: Enter sends, Shift+Enter starts a new line. A sent message goes into the
// outbox at once (shown as sending) and the outbox sender posts it; the others are told the
// reader is writing at most every 2 s. `@` and letters suggest the chat's members (a combobox's
// list: arrows move, Enter or Tab picks, Escape closes); a pick is written `@NickName` and sent as
// a reference (`<@id>`). A message being answered shows above the field until sent or cancelled.
// Files (the paperclip's picker, pasted pictures, files dropped onto the chat: `ref.addFiles`)
// upload at once and are sent with the message, its text then their caption (possibly none).
import { useEffect, useId, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type Ref } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMember, ChatMessage, ManageChatMember, MemberRef } from '@parla/contract/chat';
import { LIMITS } from '@parla/contract/constants';
import { sendTyping } from '../../lib/live';
import { CloseIcon, SendIcon } from '../../components/icons';
import { mentionCandidatesQuery } from './api';
import { encodeMentions, insertMention, mentionQueryAt, namesInText, plainWithNames } from './mentions';
import { enqueue, newClientId, updateOutbox } from './outbox';
import { useOnline } from './outbox-sender';
import { attachmentSummary, PaperclipIcon } from './attachments';
import { UploadList, useUploads } from './composer-uploads';
import { createTypingThrottle } from './typing';

const MAX_HEIGHT_PX = 160;
/** Typing pauses this long before the members are asked for. */
const SUGGEST_DELAY_MS = 150;
/** The excerpt of the message answered, in the reply bar and the outbox. */
const EXCERPT_MAX = 140;

interface Draft {
  text: string;
  /** The members picked from the suggestions (their `@NickName` is sent as a reference). */
  picked: MemberRef[];
}
/** Drafts survive moving between chats (not a reload). */
const drafts = new Map<number, Draft>();

/** What the chat page hands the composer: files dropped onto the chat. */
export interface ComposerHandle {
  addFiles: (files: File[]) => void;
}

const excerptOf = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_MAX ? `${line.slice(0, EXCERPT_MAX)}…` : line;
};

export function Composer({
  chatId,
  userId,
  member,
  replyTo,
  onReplyDone,
  ref,
}: {
  ref?: Ref<ComposerHandle> | undefined;
  chatId: number;
  userId: number | undefined;
  member: ChatMember;
  /** The message being answered, if any. */
  replyTo: ChatMessage | null;
  /** The reply was sent or cancelled. */
  onReplyDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState(() => drafts.get(chatId)?.text ?? '');
  const picked = useRef<MemberRef[]>(drafts.get(chatId)?.picked ?? []);
  /** A paste ran past the limit and the field kept its start: said until the text is shorter again. */
  const [cut, setCut] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const typing = useMemo(() => createTypingThrottle(() => sendTyping(chatId)), [chatId]);
  const left = LIMITS.messageMax - text.length;
  const ids = useId();
  const listId = `${ids}-mentions`;
  const online = useOnline();
  const files = useUploads(chatId, online);
  const picker = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => ({ addFiles: files.add }));

  // ---- the mention being typed ----
  const [caret, setCaret] = useState(0);
  /** The `@` whose suggestions Escape closed: they stay closed until another `@`. */
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const typed = mentionQueryAt(text, caret);
  const mention = typed && typed.start !== dismissedAt ? typed : null;
  const [query, setQuery] = useState<string | null>(null);
  useEffect(() => {
    const wanted = mention?.query ?? null;
    if (wanted === null) return setQuery(null);
    const timer = setTimeout(() => setQuery(wanted), SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [mention?.query]);
  const candidates = useQuery({ ...mentionCandidatesQuery(chatId, query ?? ''), enabled: query !== null && mention !== null, placeholderData: keepPreviousData });
  const options: ManageChatMember[] = mention && query !== null ? (candidates.data ?? []).filter((item) => item.id !== member.id) : [];
  const open = options.length > 0;
  const [active, setActive] = useState(0);
  useEffect(() => setActive(0), [query]);
  const activeIndex = Math.min(active, Math.max(0, options.length - 1));

  // After a picked mention the caret goes after the inserted name, in the commit that writes the
  // new text: before any further keystroke (a frame later, a fast typist's next letter had already
  // gone in at the end, and the caret was then put back before it).
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const element = field.current;
    const at = pendingCaret.current;
    if (!element || at === null) return;
    pendingCaret.current = null;
    element.focus();
    element.setSelectionRange(at, at);
  }, [text]);

  useLayoutEffect(() => {
    const element = field.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  // Answering a message: the field takes the focus.
  useEffect(() => {
    if (replyTo) field.current?.focus();
  }, [replyTo]);

  const remember = (value: string) => drafts.set(chatId, { text: value, picked: picked.current });

  const change = (value: string, at: number) => {
    setText(value);
    setCaret(at);
    if (dismissedAt !== null && value[dismissedAt] !== '@') setDismissedAt(null);
    if (value.length < LIMITS.messageMax) setCut(false);
    remember(value);
    if (value.trim()) typing.typed();
  };

  const pick = (chosen: ManageChatMember) => {
    if (!mention) return;
    const next = insertMention(text, mention.start, caret, chosen.nickName);
    if (next.text.length > LIMITS.messageMax) return;
    picked.current = [...picked.current.filter((item) => item.nickName !== chosen.nickName), { id: chosen.id, nickName: chosen.nickName }];
    pendingCaret.current = next.caret;
    change(next.text, next.caret);
    setQuery(null);
  };

  /** The answered message in a line: its words, or what it carries. */
  const replyText = replyTo
    ? replyTo.content === '' && replyTo.attachments.length > 0
      ? attachmentSummary(replyTo.attachments, t)
      : excerptOf(plainWithNames(replyTo.content, replyTo.mentions, t('chats.formerMember')))
    : '';
  const ready = files.ready;
  const sendable = userId !== undefined && !files.busy && (text.trim() !== '' || ready.length > 0);

  const send = () => {
    const written = text.trim();
    if (userId === undefined) return;
    if (files.busy) return files.setNotice(t('chats.attachWait'));
    if (!written && !ready.length) return;
    const names = namesInText(written, picked.current);
    const content = encodeMentions(written, names);
    if (content.length > LIMITS.messageMax) return;
    const reply = replyTo ? { replyTo: replyTo.id, quote: { name: replyTo.sender.nickName, excerpt: replyText } } : {};
    const attached = ready.length ? { attachments: ready.map((attachment) => attachment.id), attachmentNames: ready.map((attachment) => attachment.name) } : {};
    updateOutbox((entries) => enqueue(entries, { clientId: newClientId(), userId, chatId, content, mentions: names, ...reply, ...attached }, Date.now()));
    files.clear();
    setText('');
    setCaret(0);
    setCut(false);
    picked.current = [];
    drafts.delete(chatId);
    typing.reset();
    if (replyTo) onReplyDone();
    field.current?.focus();
  };

  const replyName = replyTo ? (replyTo.isMe ? t('chats.replyingToSelf') : t('chats.replyingTo', { name: replyTo.sender.nickName })) : '';

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {replyTo && (
        <div className="reply-bar" id={`${ids}-reply`}>
          <div className="reply-bar-main">
            <span className="reply-bar-name" dir="auto">
              {replyName}
            </span>
            <span className="reply-bar-text" dir="auto" lang={replyTo.language}>
              {replyText}
            </span>
          </div>
          <button
            type="button"
            className="icon-btn icon-btn-small"
            aria-label={t('chats.cancelReply')}
            onClick={() => {
              onReplyDone();
              field.current?.focus();
            }}
          >
            <CloseIcon width={18} height={18} />
          </button>
        </div>
      )}
      {open && (
        <ul className="mention-list" id={listId} role="listbox" aria-label={t('chats.mentionSuggestions')}>
          {options.map((option, index) => (
            <li
              key={option.id}
              id={`${listId}-${option.id}`}
              role="option"
              aria-selected={index === activeIndex}
              className={`mention-option${index === activeIndex ? ' active' : ''}`}
              // The field keeps the focus (and the caret) while the pointer picks.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(option)}
            >
              <span className="mention-option-avatar" aria-hidden="true">
                {option.avatarImage ? <img src={option.avatarImage} alt="" width={24} height={24} /> : (Array.from(option.nickName)[0] ?? '?').toLocaleUpperCase()}
              </span>
              <bdi className="mention-option-name">{option.nickName}</bdi>
            </li>
          ))}
        </ul>
      )}
      <UploadList uploads={files.uploads} onRemove={files.remove} onRetry={files.retry} />
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        onChange={(event) => {
          files.add(Array.from(event.target.files ?? []));
          // The same file can be chosen again.
          event.target.value = '';
        }}
      />
      <button
        type="button"
        className="icon-btn attach-button"
        aria-label={t('chats.attach')}
        title={!online ? t('chats.attachOffline') : files.full ? t('chats.attachTooMany', { count: LIMITS.attachmentsPerMessage }) : t('chats.attach')}
        disabled={!online || files.full}
        onClick={() => picker.current?.click()}
      >
        <PaperclipIcon />
      </button>
      <label htmlFor={`composer-${chatId}`} className="visually-hidden">
        {t('chats.messageLabel')}
      </label>
      <textarea
        ref={field}
        id={`composer-${chatId}`}
        className="composer-input"
        rows={1}
        dir="auto"
        value={text}
        maxLength={LIMITS.messageMax}
        placeholder={t('chats.placeholder')}
        aria-describedby={`${replyTo ? `${ids}-reply ` : ''}composer-hint-${chatId}`}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? `${listId}-${options[activeIndex]?.id}` : undefined}
        enterKeyHint="send"
        onChange={(event) => change(event.target.value, event.target.selectionStart)}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onPaste={(event) => {
          // Pictures (files) alone on the clipboard are attached; with text, the text is pasted.
          const pasted = Array.from(event.clipboardData.files);
          if (pasted.length && !event.clipboardData.getData('text')) {
            event.preventDefault();
            files.add(pasted);
            return;
          }
          const element = event.currentTarget;
          const kept = element.value.length - (element.selectionEnd - element.selectionStart);
          if (kept + event.clipboardData.getData('text').length > LIMITS.messageMax) setCut(true);
        }}
        onKeyDown={(event) => {
          if (event.nativeEvent.isComposing) return;
          if (open) {
            const chosen = options[activeIndex];
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              const step = event.key === 'ArrowDown' ? 1 : -1;
              setActive((activeIndex + step + options.length) % options.length);
              return;
            }
            if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && chosen) {
              event.preventDefault();
              pick(chosen);
              return;
            }
            if (event.key === 'Escape') {
              event.preventDefault();
              setDismissedAt(mention?.start ?? null);
              return;
            }
          }
          if (event.key === 'Escape' && replyTo) {
            event.preventDefault();
            onReplyDone();
            return;
          }
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            send();
          }
        }}
      />
      <button type="submit" className="send-button" disabled={!sendable} aria-label={t('chats.send')} title={files.busy ? t('chats.attachWait') : undefined}>
        <SendIcon />
      </button>
      <p id={`composer-hint-${chatId}`} className={left < 200 ? 'composer-count' : 'visually-hidden'}>
        {left < 200 ? t('chats.charactersLeft', { count: left }) : t('chats.composerHint')}
      </p>
      {files.notice && (
        <p className="composer-count composer-cut" role="alert">
          {files.notice}
        </p>
      )}
      {cut && (
        <p className="composer-count composer-cut" role="alert">
          {t('chats.pasteCut', { max: LIMITS.messageMax.toLocaleString(i18n.resolvedLanguage ?? i18n.language) })}
        </p>
      )}
    </form>
  );
}
