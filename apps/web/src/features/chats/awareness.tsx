// What members see of each other besides their messages: who read how far ("seen by", from the
// members' read markers, for a reader who shares their own) and who is online, away or offline.
// Both lists are fetched once per chat and kept by the live connection (live-sync.ts).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMessage, MemberPresence, ReadReceipt } from '@parla/contract/chat';
import { Dialog } from '../../components/dialog';
import { formatDate, formatList, formatTime, formatWhen } from '../../lib/format';
import { presenceQuery, receiptsQuery } from './api';

/** Who read a message: the others whose marker is at or past it; null while unknown or when the reader shares none. */
export function useSeenBy(chatId: number, message: Pick<ChatMessage, 'id' | 'sender'>): ReadReceipt[] | null {
  const receipts = useQuery(receiptsQuery(chatId)).data;
  if (!receipts?.enabled) return null;
  return receipts.results.filter((receipt) => receipt.lastReadMessage >= message.id && receipt.memberId !== message.sender.id);
}

/** A member's presence as the chat knows it (undefined until loaded). */
export function usePresenceOf(chatId: number, memberId: number): MemberPresence | undefined {
  return useQuery({ ...presenceQuery(chatId), select: (data) => data.results.find((item) => item.memberId === memberId) }).data;
}

/** "Online", "Away", "Last seen 14:05" (or a day), "Offline". */
export function usePresenceLabel() {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  return (presence: MemberPresence | undefined): string =>
    !presence || presence.state === 'offline'
      ? presence?.lastSeen
        ? t('presence.lastSeen', { when: formatWhen(presence.lastSeen, uiLang) })
        : t('presence.offline')
      : t(`presence.${presence.state}`);
}

/** A dot on an avatar: green online, amber away, nothing offline; its meaning as a title and for screen readers. */
export function PresenceDot({ presence }: { presence: MemberPresence | undefined }) {
  const label = usePresenceLabel();
  if (!presence || presence.state === 'offline') return null;
  return <span className={`presence-dot presence-${presence.state}`} role="img" aria-label={label(presence)} title={label(presence)} />;
}

/** Under the reader's latest message seen by someone: "Seen by Ben and Cy", which opens who and when. */
export function SeenLine({ chatId, message }: { chatId: number; message: ChatMessage }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const seen = useSeenBy(chatId, message);
  const [open, setOpen] = useState(false);
  if (!seen?.length) return null;
  const names = seen.map((receipt) => receipt.nickName);
  const text = names.length <= 3 ? t('seen.by', { names: formatList(names, uiLang) }) : t('seen.byMany', { names: formatList(names.slice(0, 2), uiLang), count: names.length - 2 });
  return (
    <>
      <button type="button" className="link-button seen-line" onClick={() => setOpen(true)}>
        {text}
      </button>
      <SeenDialog open={open} onClose={() => setOpen(false)} chatId={chatId} message={message} />
    </>
  );
}

/** Who read a message, and when they last read (their marker moved then, to here or further). */
export function SeenDialog({ open, onClose, chatId, message }: { open: boolean; onClose: () => void; chatId: number; message: ChatMessage }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const receipts = useQuery({ ...receiptsQuery(chatId), enabled: open }).data;
  const seen = useSeenBy(chatId, message);
  return (
    <Dialog open={open} onClose={onClose} title={t('seen.title')}>
      {receipts && !receipts.enabled ? (
        <p className="muted">{t('seen.off')}</p>
      ) : !seen?.length ? (
        <p className="muted">{t('seen.nobody')}</p>
      ) : (
        <ul className="seen-list">
          {seen.map((receipt) => (
            <li key={receipt.memberId}>
              <span dir="auto">{receipt.nickName}</span>
              {receipt.readAt && (
                <time className="muted" dateTime={receipt.readAt}>
                  {formatDate(receipt.readAt, uiLang)} {formatTime(receipt.readAt, uiLang)}
                </time>
              )}
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
