// Searching the reader's messages (GET /api/chat/search/), in their own language: the field (a
// search landmark: Enter searches, typing searches after a pause once there are two letters,
// Escape or × clears) and the results, newest first, each the message as the reader reads it with
// the matched words marked (and its original, when only the original holds one of them); a result
// leads to its message in its chat (/chat/{id}?message={messageId}). The chat list searches every
// chat, a chat's page only its own (in a dialog).
import { useEffect, useId, useRef, useState } from 'react';
import { useInfiniteQuery, keepPreviousData } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { ChatSearchResult } from '@parla/contract/chat';
import { Dialog } from '../../components/dialog';
import { CloseIcon, SearchIcon } from '../../components/icons';
import { LoadMore } from '../../components/load-more';
import { LoadFailed, Spinner } from '../../components/ui';
import { formatDate, formatTime, formatWhen } from '../../lib/format';
import { languageName } from '../../lib/languages';
import { searchQuery } from './api';
import { excerpt, highlight, matchesAny } from './highlight';
import { plainWithNames } from './mentions';

/** Typing searches by itself from this many characters on (Enter searches any). */
export const SEARCH_MIN_CHARS = 2;
/** …after this pause in the typing. */
export const SEARCH_DEBOUNCE_MS = 300;
/** The API's limit on `q` (packages/contract/src/chat.ts). */
const SEARCH_MAX_CHARS = 200;

/**
 * The search field. `value` is the search being shown (the page keeps it: in the address, or its
 * state); `onSearch` is called with the trimmed text to search for, '' to stop searching.
 */
export function SearchBox({
  value,
  onSearch,
  label,
  autoFocus = false,
}: {
  value: string;
  onSearch: (q: string) => void;
  label: string;
  /** Focused when shown (in a dialog: the dialog gives it the focus as it opens). */
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(value);
  /** The last search asked for: a change of `value` from elsewhere (Back, a link) is taken into the field. */
  const asked = useRef(value);
  const search = useRef(onSearch);
  search.current = onSearch;
  useEffect(() => {
    if (value === asked.current) return;
    asked.current = value;
    setText(value);
  }, [value]);
  const ask = (q: string) => {
    if (q === asked.current) return;
    asked.current = q;
    search.current(q);
  };
  // As the reader types: after a pause, from two characters on; a field emptied stops at once.
  useEffect(() => {
    const q = text.trim();
    if (q === asked.current || (q !== '' && Array.from(q).length < SEARCH_MIN_CHARS)) return;
    const timer = setTimeout(
      () => {
        if (q === asked.current) return;
        asked.current = q;
        search.current(q);
      },
      q === '' ? 0 : SEARCH_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [text]);
  const clear = () => {
    setText('');
    ask('');
  };
  return (
    <form
      role="search"
      className="search-box"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        ask(text.trim());
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <SearchIcon className="search-box-icon" width={18} height={18} />
      <input
        ref={(element) => {
          input.current = element;
          // The native dialog focuses the field marked autofocus as it opens (React does not write the attribute).
          if (element && autoFocus) element.setAttribute('autofocus', '');
        }}
        id={id}
        type="search"
        dir="auto"
        value={text}
        placeholder={t('chats.searchPlaceholder')}
        maxLength={SEARCH_MAX_CHARS}
        autoComplete="off"
        enterKeyHint="search"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || text === '') return;
          // Escape empties the field first (in a dialog, a second one closes it).
          event.preventDefault();
          event.stopPropagation();
          clear();
        }}
      />
      {text !== '' && (
        <button
          type="button"
          className="icon-btn search-box-clear"
          aria-label={t('chats.searchClear')}
          onClick={() => {
            clear();
            input.current?.focus();
          }}
        >
          <CloseIcon width={18} height={18} />
        </button>
      )}
    </form>
  );
}

/** The results of `q` (in `chatId` only, when given): pages of them, "no match", or why there are none. */
export function SearchResults({ q, chatId, onChoose }: { q: string; chatId?: number; onChoose?: () => void }) {
  const { t } = useTranslation();
  const query = useInfiniteQuery({ ...searchQuery(q, chatId), placeholderData: keepPreviousData });
  const results = query.data?.pages.flatMap((page) => page.results) ?? [];
  // Another search's results stay while this one loads (no flicker as the reader types).
  const stale = query.isPlaceholderData;
  // How many were found (said to screen readers too): nothing while loading, nor for "no match" (said below).
  let status = '';
  if (query.isSuccess && !stale && results.length > 0) status = t(query.hasNextPage ? 'chats.searchFoundMore' : 'chats.searchFound', { count: results.length });
  return (
    <section className="search-results" aria-label={t('chats.searchResults', { q })} aria-busy={query.isFetching && !query.isFetchingNextPage ? true : undefined}>
      <p className="search-status muted" role="status">
        {status}
      </p>
      {query.isPending ? (
        <Spinner label={t('chats.searchLoading')} />
      ) : query.data === undefined ? (
        <LoadFailed message={t('chats.searchFailed')} retryLabel={t('common.retry')} onRetry={() => void query.refetch()} />
      ) : results.length === 0 && !stale ? (
        <p className="search-empty">{t('chats.searchNoMatch', { q })}</p>
      ) : (
        <>
          <ul className={`search-hits${stale ? ' stale' : ''}`}>
            {results.map((result) => (
              <SearchHit key={result.message.id} result={result} showChat={chatId === undefined} onChoose={onChoose} />
            ))}
          </ul>
          {!stale && <LoadMore pages={query} label={t('chats.searchLoadMore')} loadingLabel={t('chats.searchLoading')} />}
        </>
      )}
    </section>
  );
}

/** One result: a link to the message in its chat (also a pinned message: no words to mark). */
export function SearchHit({ result, showChat, onChoose }: { result: ChatSearchResult; showChat: boolean; onChoose: (() => void) | undefined }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const { chat, message, highlights } = result;
  const former = t('chats.formerMember');
  const text = plainWithNames(message.content, message.mentions, former);
  const raw = message.rawMessage;
  const original = raw && raw.content !== message.content ? plainWithNames(raw.content, message.mentions, former) : null;
  // The original too, when a word matched only there (a search in another language than the reader's).
  const originalShown = original !== null && highlights.some((word) => matchesAny(original, [word]) && !matchesAny(text, [word]));
  const sender = message.isMe ? t('chats.you') : message.sender.nickName;
  return (
    <li>
      <Link to="/chat/$chatId" params={{ chatId: String(chat.id) }} search={{ message: message.id }} className="search-hit" onClick={onChoose}>
        <span className="search-hit-top">
          {/* Names isolated in their own direction, placed in the page's. */}
          <span className="search-hit-where">
            <bdi>{showChat ? chat.title : sender}</bdi>
          </span>
          <time className="search-hit-time" dateTime={message.created} title={`${formatDate(message.created, uiLang)} ${formatTime(message.created, uiLang)}`}>
            {formatWhen(message.created, uiLang)}
          </time>
        </span>
        {showChat && (
          <span className="search-hit-sender">
            <bdi>{sender}</bdi>
          </span>
        )}
        <span className="search-hit-text" dir="auto" lang={message.language}>
          {highlight(excerpt(text, highlights), highlights)}
        </span>
        {originalShown && raw && (
          <span className="search-hit-original">
            <span className="search-hit-original-label">{t('chats.searchOriginal', { language: languageName(raw.language, uiLang) })} </span>
            <span dir="auto" lang={raw.language}>
              {highlight(excerpt(original, highlights), highlights)}
            </span>
          </span>
        )}
      </Link>
    </li>
  );
}

/** A chat's own search, in a dialog: a result chosen closes it and the chat goes to the message. */
export function ChatSearchDialog({ open, onClose, chatId, q, onSearch }: { open: boolean; onClose: () => void; chatId: number; q: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} title={t('chats.searchInChat')} wide>
      <SearchBox value={q} onSearch={onSearch} label={t('chats.searchInChatLabel')} autoFocus />
      {q !== '' && <SearchResults q={q} chatId={chatId} onChoose={onClose} />}
    </Dialog>
  );
}
