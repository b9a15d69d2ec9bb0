// One of the user's messages still in the outbox, below the server's: where its sending stands
// (sending, waiting for the network, retrying, not sent and why), with Retry and Discard.
import { useTranslation } from 'react-i18next';
import { PendingAttachments } from './attachments';
import { MessageText } from './message-text';
import { markRetryNow, updateOutbox, withoutEntry, type OutboxEntry } from './outbox';
import { useOnline } from './outbox-sender';

export function OutboxItem({ entry }: { entry: OutboxEntry }) {
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
