// Pictures and files of chat messages: in the bubble (pictures as thumbnails in a small grid, a
// click opens the viewer; other files as a row with their name, size and a download link), in
// one line of text (the chat list's preview, a quote), and dropped onto the chat. Every address
// is the API's (members only): the browser fetches it with the access cookie, refreshed first
// when due; a picture refused once (the cookie had expired) is asked for again after a refresh.
import { useCallback, useRef, useState, type DragEvent, type ImgHTMLAttributes, type MouseEvent, type ReactNode, type SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Attachment } from '@parla/contract/chat';
import { Dialog } from '../../components/dialog';
import { freshSession } from './api';

// ---- icons (drawn here: only the chat pages need them) ----

const Icon = ({ children, ...props }: SVGProps<SVGSVGElement>) => (
  <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" {...props}>
    {children}
  </svg>
);
export const PaperclipIcon = (props: SVGProps<SVGSVGElement>) => (
  <Icon {...props}>
    <path d="M21 11.5l-8.6 8.6a5.5 5.5 0 01-7.8-7.8l8.6-8.6a3.7 3.7 0 015.2 5.2l-8.6 8.6a1.8 1.8 0 01-2.6-2.6l7.9-7.9" />
  </Icon>
);
export const FileIcon = (props: SVGProps<SVGSVGElement>) => (
  <Icon {...props}>
    <path d="M14 3H7a2 2 0 00-2 2v14a2 2 0 002 2h10a2 2 0 002-2V8z" />
    <path d="M14 3v5h5" />
  </Icon>
);
export const OpenIcon = (props: SVGProps<SVGSVGElement>) => (
  <Icon {...props}>
    <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 01-1 1H5a1 1 0 01-1-1V7a1 1 0 011-1h5" />
  </Icon>
);
export const DownloadIcon = (props: SVGProps<SVGSVGElement>) => (
  <Icon {...props}>
    <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
  </Icon>
);

// ---- words ----

const UNITS = [
  ['gigabyte', 1024 ** 3],
  ['megabyte', 1024 ** 2],
  ['kilobyte', 1024],
] as const;

/** A size for people: "820 byte", "12 kB", "1.5 MB" (one decimal under 10), in the interface language. */
export function formatSize(bytes: number, lang: string): string {
  const [unit, scale] = UNITS.find(([, size]) => bytes >= size) ?? (['byte', 1] as const);
  const value = bytes / scale;
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: unit !== 'byte' && value < 10 ? 1 : 0 }).format(value);
}

/** What a message's attachments are, in one line: "📷 Photo", "📷 3 photos", "📎 report.pdf", "📎 4 files". */
/** A picture re-encoded by the server (sent as WebP under the name it was given). */
export const isConverted = (attachment: Pick<Attachment, 'kind' | 'name' | 'contentType'>) => attachment.kind === 'image' && attachment.contentType === 'image/webp' && !/\.webp$/i.test(attachment.name);

export function attachmentSummary(attachments: readonly Pick<Attachment, 'kind' | 'name'>[], t: TFunction): string {
  const [first] = attachments;
  if (!first) return '';
  if (attachments.every((attachment) => attachment.kind === 'image')) {
    return attachments.length === 1 ? t('chats.attachmentPhoto') : t('chats.attachmentPhotos', { count: attachments.length });
  }
  return attachments.length === 1 ? t('chats.attachmentFile', { name: first.name }) : t('chats.attachmentFiles', { count: attachments.length });
}

/** A message in one line: its text, or (no caption) what it carries. */
export function messageLine(content: string, attachments: readonly Pick<Attachment, 'kind' | 'name'>[], text: (content: string) => string, t: TFunction): string {
  return content === '' && attachments.length > 0 ? attachmentSummary(attachments, t) : text(content);
}

// ---- the browser fetches them ----

/**
 * A picture of the API. Refused once (the access cookie had expired while the page stayed open),
 * the session is refreshed when due and the picture asked for again (a new element: the same
 * address, never a cached failure).
 */
export function ApiImage({ src, alt, ...props }: ImgHTMLAttributes<HTMLImageElement> & { src: string; alt: string }) {
  const [attempt, setAttempt] = useState(0);
  return (
    <img
      key={attempt}
      src={src}
      alt={alt}
      {...props}
      onError={() => {
        if (attempt === 0) void freshSession().then((going) => going && setAttempt(1));
      }}
    />
  );
}

/** Saves a file of the API: the session is refreshed first when due (the browser sends the cookie). */
function useDownload(url: string, name: string) {
  return useCallback(
    async (event: MouseEvent<HTMLAnchorElement>) => {
      // A click that asks for a new tab or window, say, is the browser's.
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      await freshSession();
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.hidden = true;
      document.body.append(link);
      link.click();
      link.remove();
    },
    [url, name],
  );
}

function DownloadLink({ attachment, className, children, label }: { attachment: Attachment; className: string; children: ReactNode; label?: string | undefined }) {
  // A re-encoded picture is saved under its name with the extension of what it is now.
  const name = isConverted(attachment) ? `${attachment.name.replace(/\.[^.]{1,10}$/, '') || 'picture'}.webp` : attachment.name;
  const download = useDownload(attachment.url, name);
  return (
    <a className={className} href={attachment.url} download={name} aria-label={label} onClick={(event) => void download(event)}>
      {children}
    </a>
  );
}

/** Whether the browser shows PDFs itself (a phone's may only download them). */
const showsPdf = () => typeof navigator !== 'undefined' && navigator.pdfViewerEnabled === true;

/**
 * Opens a file of the API in a new tab, where the browser shows it (a PDF in its viewer): the tab
 * is opened at the click (no pop-up blocker stops it) and sent to the file once the session is
 * fresh, so the cookie it carries is valid.
 */
function OpenLink({ attachment, className, children, label }: { attachment: Attachment; className: string; children: ReactNode; label: string }) {
  const open = async (event: MouseEvent<HTMLAnchorElement>) => {
    // A click that asks for a new tab or window, say, is the browser's.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const tab = window.open('', '_blank');
    await freshSession();
    if (!tab) return void window.location.assign(attachment.url);
    tab.opener = null;
    tab.location.href = attachment.url;
  };
  return (
    <a className={className} href={attachment.url} target="_blank" rel="noopener" aria-label={label} onClick={(event) => void open(event)}>
      {children}
    </a>
  );
}

// ---- in the bubble ----

/** A message's pictures (a grid of thumbnails; a click opens the viewer) and files (name, size, download; a PDF opens in the browser's viewer). */
export function MessageAttachments({ attachments }: { attachments: readonly Attachment[] }) {
  const { t, i18n } = useTranslation();
  const uiLang = i18n.resolvedLanguage ?? i18n.language;
  const images = attachments.filter((attachment) => attachment.kind === 'image');
  const files = attachments.filter((attachment) => attachment.kind !== 'image');
  const [viewing, setViewing] = useState<Attachment | null>(null);
  const openers = useRef(new Map<number, HTMLButtonElement>());
  const close = () => {
    const opener = viewing ? openers.current.get(viewing.id) : undefined;
    setViewing(null);
    // The focus goes back to the thumbnail that opened the viewer.
    setTimeout(() => opener?.focus(), 0);
  };
  return (
    <div className="attachments">
      {images.length > 0 && (
        <ul className={`attachment-grid count-${Math.min(images.length, 4)}`} aria-label={t('chats.attachmentPictures', { count: images.length })}>
          {images.map((image) => (
            <li key={image.id}>
              <button
                type="button"
                className="attachment-thumb"
                aria-haspopup="dialog"
                ref={(element) => {
                  if (element) openers.current.set(image.id, element);
                  else openers.current.delete(image.id);
                }}
                onClick={() => setViewing(image)}
              >
                <ApiImage
                  src={image.thumbnailUrl ?? image.url}
                  alt={image.name}
                  width={image.width ?? undefined}
                  height={image.height ?? undefined}
                  loading="lazy"
                  decoding="async"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
      {files.length > 0 && (
        <ul className="attachment-files">
          {files.map((file) => (
            <li key={file.id} className="attachment-file">
              <FileIcon className="attachment-file-icon" />
              <span className="attachment-file-main">
                <bdi className="attachment-file-name" title={file.name}>
                  {file.name}
                </bdi>
                <span className="attachment-file-size">{formatSize(file.size, uiLang)}</span>
              </span>
              {file.contentType === 'application/pdf' && showsPdf() && (
                <OpenLink attachment={file} className="icon-btn icon-btn-small attachment-download" label={t('chats.attachmentOpenName', { name: file.name })}>
                  <OpenIcon width={18} height={18} />
                </OpenLink>
              )}
              <DownloadLink attachment={file} className="icon-btn icon-btn-small attachment-download" label={t('chats.attachmentDownloadName', { name: file.name })}>
                <DownloadIcon width={18} height={18} />
              </DownloadLink>
            </li>
          ))}
        </ul>
      )}
      {viewing && (
        <Dialog open onClose={close} title={viewing.name} wide>
          <div className="attachment-viewer">
            <ApiImage src={viewing.url} alt={viewing.name} width={viewing.width ?? undefined} height={viewing.height ?? undefined} />
            <p className="attachment-viewer-meta">
              <span>
                {formatSize(viewing.size, uiLang)}
                {isConverted(viewing) && ` · ${t('chats.attachmentConverted')}`}
              </span>
              <DownloadLink attachment={viewing} className="btn btn-secondary btn-small">
                <DownloadIcon width={18} height={18} />
                {t('chats.attachmentDownload')}
              </DownloadLink>
            </p>
          </div>
        </Dialog>
      )}
    </div>
  );
}

/** The names of an unsent message's files, until the server has it. */
export function PendingAttachments({ names }: { names: readonly string[] }) {
  return (
    <ul className="attachment-files">
      {names.map((name, index) => (
        <li key={index} className="attachment-file">
          <FileIcon className="attachment-file-icon" />
          <span className="attachment-file-main">
            <bdi className="attachment-file-name" title={name}>
              {name}
            </bdi>
          </span>
        </li>
      ))}
    </ul>
  );
}

// ---- dropped onto the chat ----

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/** Files dragged onto an element: `dragging` while they are over it, `onFiles` when dropped. */
export function useFileDrop(onFiles: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave come for every child crossed: inside while more entered than left.
  const depth = useRef(0);
  const handlers = {
    onDragEnter: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      const files = Array.from(event.dataTransfer.files);
      if (files.length) onFiles(files);
    },
  };
  return { dragging, handlers };
}
