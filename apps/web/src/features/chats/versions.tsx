// The earlier texts of an edited message (GET …/messages/{id}/versions/), in a dialog opened from
// its "edited" mark: the text now, then each earlier one, newest first, in the reader's language
// and tone (rendered on demand by the server) with the time it was written and, when translated,
// what was written.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@parla/contract/chat';
import { Dialog } from '../../components/dialog';
import { LoadFailed, Spinner } from '../../components/ui';
import { formatDate, formatTime } from '../../lib/format';
import { languageName } from '../../lib/languages';
import { versionsQuery } from './api';
import { plainWithNames } from './mentions';

export function VersionsDialog({ open, onClose, chatId, message }: { open: boolean; onClose: () => void; chatId: number; message: ChatMessage }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const query = useQuery({ ...versionsQuery(chatId, message.id), enabled: open });
  const former = t('chats.formerMember');
  const when = (iso: string) => `${formatDate(iso, uiLang)} ${formatTime(iso, uiLang)}`;
  return (
    <Dialog open={open} onClose={onClose} title={t('chats.versions')} wide>
      <ol className="versions">
        <li className="version version-now">
          <span className="version-when">{t('chats.versionNow')}</span>
          <span className="version-text" dir="auto" lang={message.language}>
            {plainWithNames(message.content, message.mentions, former)}
          </span>
        </li>
        {query.isPending ? (
          <li>
            <Spinner label={t('common.loading')} />
          </li>
        ) : query.data === undefined ? (
          <li>
            <LoadFailed message={t('chats.versionsFailed')} retryLabel={t('common.retry')} onRetry={() => void query.refetch()} />
          </li>
        ) : (
          query.data.results.map((version) => (
            <li key={version.version} className="version">
              <time className="version-when" dateTime={version.written}>
                {when(version.written)}
              </time>
              <span className="version-text" dir="auto" lang={version.language}>
                {plainWithNames(version.content, message.mentions, former)}
              </span>
              {version.translation === 'done' && (
                <span className="version-original">
                  <span className="bubble-original-label">{t('chats.originalIn', { language: languageName(version.original.language, uiLang) })} </span>
                  <span dir="auto" lang={version.original.language}>
                    {plainWithNames(version.original.content, message.mentions, former)}
                  </span>
                </span>
              )}
              {version.translation === 'failed' && <span className="bubble-note">{t('chats.translationFailed')}</span>}
            </li>
          ))
        )}
      </ol>
    </Dialog>
  );
}
