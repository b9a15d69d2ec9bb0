// The files of the message being written: each one uploads as soon as it is chosen, dropped or
// pasted (its progress shown), then waits as a chip above the field until the message is sent
// or it is removed. A file over the size limit, or past the number a message holds, is refused
// before uploading; one the server refuses shows the server's reason (and, when the refusal may
// pass, a retry). Uploads need the network: offline, none starts.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Attachment } from '@parla/contract/chat';
import { LIMITS } from '@parla/contract/constants';
import { CloseIcon } from '../../components/icons';
import { classifyError } from '../../lib/error-catalogue';
import { CancelledError } from '../../lib/http';
import { uploadAttachment } from './api';
import { isConverted } from './attachments';
import { FileIcon, formatSize } from './attachments';
import { isTransient } from './outbox-sender';

export interface Upload {
  key: string;
  file: File;
  /** Shown as a picture (its own preview while it uploads). */
  image: boolean;
  /** An object URL of the picture chosen, for its chip. */
  preview?: string | undefined;
  state: 'uploading' | 'ready' | 'failed';
  /** 0 to 1. */
  progress: number;
  /** Once uploaded. */
  attachment?: Attachment | undefined;
  /** Why it failed: the server's words when it gave some. */
  error?: string | undefined;
  /** The failure may pass (no answer, a 5xx, too many requests): it may be tried again. */
  retryable?: boolean | undefined;
}

/** The uploads that still count toward the files a message holds. */
export const counted = (uploads: readonly Upload[]) => uploads.filter((upload) => upload.state !== 'failed').length;

/** Which of `files` may be uploaded next to `uploads`: not those over the size limit, nor those past the number a message holds. */
export function admit(uploads: readonly Upload[], files: readonly File[], max = LIMITS.attachmentsPerMessage, maxBytes = LIMITS.attachmentMaxBytes) {
  const tooLarge = files.filter((file) => file.size > maxBytes);
  const fitting = files.filter((file) => file.size <= maxBytes);
  const room = Math.max(0, max - counted(uploads));
  return { accepted: fitting.slice(0, room), tooLarge, tooMany: fitting.length > room };
}

/** The server's reason for refusing an upload (its `file` error first), else a word on the network. */
export function uploadError(error: unknown, t: TFunction): { message: string; retryable: boolean } {
  const retryable = isTransient(error);
  const outcome = classifyError(error, error instanceof CancelledError);
  switch (outcome.kind) {
    case 'fields':
      return { message: outcome.fields['file'] ?? Object.values(outcome.fields).join(' '), retryable };
    case 'toast':
      return { message: outcome.message, retryable };
    case 'silent':
    case 'fallback':
      return { message: retryable ? t('chats.attachFailed') : t('errors.fallback'), retryable };
  }
}

let nextKey = 0;
const objectUrl = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : undefined);
const revoke = (upload: Upload) => {
  if (upload.preview && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(upload.preview);
};

/** The uploads of the message being written in `chatId`, and what can be done with them. */
export function useUploads(chatId: number, online: boolean) {
  const { t, i18n } = useTranslation();
  const [uploads, setUploads] = useState<Upload[]>([]);
  /** Why files were refused before uploading (too large, too many, offline); cleared by the next choice. */
  const [notice, setNotice] = useState('');
  const current = useRef(uploads);
  current.current = uploads;
  useEffect(() => () => current.current.forEach(revoke), []);

  const change = (key: string, patch: Partial<Upload>) => setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  const start = useCallback(
    (upload: Upload) => {
      // A file removed meanwhile is no longer in the list: its answer changes nothing.
      uploadAttachment(chatId, upload.file, (progress) => change(upload.key, { progress }))
        .then((attachment) =>
          change(upload.key, attachment ? { state: 'ready', progress: 1, attachment } : { state: 'failed', error: t('chats.attachFailed'), retryable: true }),
        )
        .catch((error: unknown) => {
          const { message, retryable } = uploadError(error, t);
          change(upload.key, { state: 'failed', error: message, retryable });
        });
    },
    [chatId, t],
  );

  const add = (files: readonly File[]) => {
    if (!files.length) return;
    if (!online) return setNotice(t('chats.attachOffline'));
    const { accepted, tooLarge, tooMany } = admit(current.current, files);
    const lang = i18n.resolvedLanguage ?? i18n.language;
    const max = formatSize(LIMITS.attachmentMaxBytes, lang);
    const notes = [
      ...tooLarge.map((file) => t('chats.attachTooLarge', { name: file.name, max })),
      ...(tooMany ? [t('chats.attachTooMany', { count: LIMITS.attachmentsPerMessage })] : []),
    ];
    setNotice(notes.join(' '));
    const added = accepted.map(
      (file): Upload => {
        const image = file.type.startsWith('image/');
        return { key: `upload-${++nextKey}`, file, image, preview: image ? objectUrl(file) : undefined, state: 'uploading', progress: 0 };
      },
    );
    if (!added.length) return;
    setUploads((list) => [...list, ...added]);
    added.forEach(start);
  };

  const remove = (key: string) => {
    const upload = current.current.find((item) => item.key === key);
    if (upload) revoke(upload);
    setUploads((list) => list.filter((item) => item.key !== key));
    setNotice('');
  };

  const retry = (key: string) => {
    const upload = current.current.find((item) => item.key === key);
    if (!upload || upload.state !== 'failed') return;
    if (!online) return setNotice(t('chats.attachOffline'));
    const again: Upload = { ...upload, state: 'uploading', progress: 0, error: undefined, retryable: undefined };
    setUploads((list) => list.map((item) => (item.key === key ? again : item)));
    start(again);
  };

  /** After sending: the chips go (the pictures' previews with them). */
  const clear = () => {
    current.current.forEach(revoke);
    setUploads([]);
    setNotice('');
  };

  const ready = uploads.flatMap((upload) => (upload.state === 'ready' && upload.attachment ? [upload.attachment] : []));
  const busy = uploads.some((upload) => upload.state === 'uploading');
  const full = counted(uploads) >= LIMITS.attachmentsPerMessage;
  return { uploads, ready, busy, full, notice, setNotice, add, remove, retry, clear };
}

/**
 * A chosen picture's preview: the file itself, else (a format the browser cannot show) the
 * server's thumbnail once uploaded, else a file icon (as for any other file).
 */
function ChipThumbnail({ sources }: { sources: readonly (string | null | undefined)[] }) {
  const [broken, setBroken] = useState<readonly string[]>([]);
  const src = sources.find((source): source is string => !!source && !broken.includes(source));
  return src ? <img src={src} alt="" width={40} height={40} onError={() => setBroken((list) => [...list, src])} /> : <FileIcon />;
}

/** The chips of the files to send: a preview or a file icon, the name, the progress or the failure, remove (and retry). */
export function UploadList({ uploads, onRemove, onRetry }: { uploads: readonly Upload[]; onRemove: (key: string) => void; onRetry: (key: string) => void }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  if (!uploads.length) return null;
  return (
    <ul className="upload-list" aria-label={t('chats.attachList')}>
      {uploads.map((upload) => {
        const name = upload.file.name;
        return (
          <li key={upload.key} className={`upload-chip upload-${upload.state}`}>
            <span className="upload-thumb" aria-hidden="true">
              <ChipThumbnail sources={upload.image ? [upload.preview, upload.attachment?.thumbnailUrl] : []} />
            </span>
            <span className="upload-main">
              <bdi className="upload-name" title={name}>
                {name}
              </bdi>
              {upload.state === 'uploading' ? (
                <progress className="upload-progress" max={1} value={upload.progress} aria-label={t('chats.attachUploading', { name })} />
              ) : upload.state === 'failed' ? (
                <span className="upload-error" role="alert">
                  {upload.error}
                </span>
              ) : (
                <span className="upload-size">
                  {formatSize(upload.attachment?.size ?? upload.file.size, uiLang)}
                  {/* A picture is sent as the WebP the server made of it: said, not done unannounced (issue 37). */}
                  {upload.attachment && isConverted(upload.attachment) && (
                    <span title={t('chats.attachmentConverted')}>
                      {' · WebP'}
                      <span className="visually-hidden">: {t('chats.attachmentConverted')}</span>
                    </span>
                  )}
                </span>
              )}
            </span>
            {upload.state === 'failed' && upload.retryable && (
              <button type="button" className="link-button upload-retry" onClick={() => onRetry(upload.key)}>
                {t('chats.retry')}
              </button>
            )}
            <button type="button" className="icon-btn icon-btn-small upload-remove" aria-label={t('chats.attachRemove', { name })} onClick={() => onRemove(upload.key)}>
              <CloseIcon width={16} height={16} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
