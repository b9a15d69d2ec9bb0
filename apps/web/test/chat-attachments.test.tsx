// Pictures and files in the chat: the composer uploads each file at once (progress, the server's
// refusal, too large before uploading) and sends the ids with the message; the bubble shows
// pictures as thumbnails (a click opens the viewer, which closes with the focus back) and other
// files as a row with a download link; the chat list names a message without caption.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attachment, ChatMember, ChatMessagesPage } from '@parla/contract/chat';
import { CHAT_ROLE } from '@parla/contract/constants';
import english from '../public/locales/en/translation.json';
import { attachmentSummary, formatSize, messageLine, useFileDrop } from '../src/features/chats/attachments';
import { Composer } from '../src/features/chats/composer';
import { admit } from '../src/features/chats/composer-uploads';
import { MessageList } from '../src/features/chats/message-list';
import { enqueue, useOutbox } from '../src/features/chats/outbox';
import { bodyOf } from '../src/features/chats/outbox-sender';
import { http } from '../src/lib/api';
import { HttpError } from '../src/lib/error-catalogue';
import type { RequestConfig } from '../src/lib/http';
import { message } from './chat-fixtures';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: english } }, interpolation: { escapeValue: false } });
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
});

const me: ChatMember = { id: 3, lastReadMessage: 50, nickName: 'Me', language: 'en', chatRole: CHAT_ROLE.MEMBER, tone: 'DEFAULT', memberState: 'joined', muted: false };

const picture = (id: number, name = `photo-${id}.webp`): Attachment => ({
  id,
  kind: 'image',
  name,
  size: 120_000,
  contentType: 'image/webp',
  width: 1600,
  height: 1200,
  url: `/api/chat/1/attachments/${id}/file`,
  thumbnailUrl: `/api/chat/1/attachments/${id}/thumbnail`,
});
const document_ = (id: number, name: string, size: number): Attachment => ({
  id,
  kind: 'file',
  name,
  size,
  contentType: 'application/pdf',
  width: null,
  height: null,
  url: `/api/chat/1/attachments/${id}/file`,
  thumbnailUrl: null,
});

/** A request the test answers when it wants (an upload under way). */
interface Pending {
  config: RequestConfig;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

let request: ReturnType<typeof vi.spyOn>;
let uploads: Pending[];
let page: ChatMessagesPage;
beforeEach(() => {
  uploads = [];
  page = { next: null, previous: null, results: [] };
  useOutbox.setState({ entries: [] });
  request = vi.spyOn(http, 'request').mockImplementation((config) => {
    if (config.method === 'POST' && config.url === '/api/chat/1/attachments/') {
      return new Promise((resolve, reject) => uploads.push({ config, resolve, reject })) as never;
    }
    if (config.url === '/api/translation/') return Promise.resolve({ provider: 'none' }) as never;
    if (config.method === 'GET' && config.url === '/api/chat/1/messages/') return Promise.resolve(page) as never;
    if (config.method === 'PATCH') return Promise.resolve(undefined) as never;
    return Promise.reject(new Error(`unexpected ${config.method} ${config.url}`));
  });
});
afterEach(() => {
  request.mockRestore();
  cleanup();
});

function renderComposer() {
  const queryClient = new QueryClient();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <Composer chatId={1} userId={1} member={me} replyTo={null} onReplyDone={() => undefined} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
  const picker = view.container.querySelector<HTMLInputElement>('input[type="file"]')!;
  return { field: screen.getByLabelText('Message') as HTMLTextAreaElement, picker, send: screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement };
}

const choose = (picker: HTMLInputElement, files: File[]) => fireEvent.change(picker, { target: { files } });
const pngFile = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
const sized = (file: File, size: number) => Object.defineProperty(file, 'size', { value: size });

describe('attaching in the composer', () => {
  it('uploads each chosen file at once, shows its progress, and sends the ids with the caption', async () => {
    const { field, picker, send } = renderComposer();
    expect(screen.getByRole('button', { name: 'Attach files' })).toBeTruthy();
    choose(picker, [pngFile('cat.png'), new File(['%PDF'], 'plan.pdf', { type: 'application/pdf' })]);
    expect(uploads).toHaveLength(2);
    const [first, second] = uploads as [Pending, Pending];
    expect(first.config.data).toBeInstanceOf(FormData);
    expect(((first.config.data as FormData).get('file') as File).name).toBe('cat.png');
    expect(first.config.skipErrorCatalogue).toBe(true);

    const chips = within(screen.getByRole('list', { name: 'Files to send' }));
    expect(chips.getAllByRole('listitem')).toHaveLength(2);
    act(() => first.config.onUploadProgress?.(0.5));
    expect((chips.getByLabelText('Uploading cat.png') as HTMLProgressElement).value).toBe(0.5);

    // Not while an upload is under way.
    expect(send.disabled).toBe(true);
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(useOutbox.getState().entries).toHaveLength(0);
    expect(screen.getByRole('alert').textContent).toBe('Wait until the files are uploaded, then send.');

    await act(async () => {
      first.resolve(picture(41, 'cat.webp'));
      second.resolve(document_(42, 'plan.pdf', 2_500_000));
    });
    expect(chips.queryByLabelText('Uploading cat.png')).toBeNull();
    // With no text at all: the files alone.
    expect(send.disabled).toBe(false);
    fireEvent.change(field, { target: { value: 'Our plan', selectionStart: 8, selectionEnd: 8 } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(useOutbox.getState().entries).toMatchObject([{ content: 'Our plan', attachments: [41, 42], attachmentNames: ['cat.webp', 'plan.pdf'] }]);
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull();
    expect(bodyOf(useOutbox.getState().entries[0]!)).toEqual({ content: 'Our plan', clientId: expect.any(String), attachments: [41, 42] });
  });

  it('sends files without a caption', async () => {
    const { field, picker } = renderComposer();
    choose(picker, [pngFile('a.png')]);
    await act(async () => uploads[0]!.resolve(picture(7)));
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(useOutbox.getState().entries).toMatchObject([{ content: '', attachments: [7] }]);
  });

  it('refuses a file over 10 MB before uploading, and shows the server’s refusal on a removable chip', async () => {
    const { picker, send } = renderComposer();
    choose(picker, [sized(new File(['x'], 'huge.mov'), 11 * 1024 * 1024)]);
    expect(uploads).toHaveLength(0);
    expect(screen.getByRole('alert').textContent).toBe('“huge.mov” is too large: a file can be at most 10 MB.');

    choose(picker, [new File(['MZ'], 'setup.exe')]);
    const refusal = { type: 'validation_error', errors: [{ code: 'invalid', attr: 'file', detail: 'This file cannot be sent: programs, scripts and damaged pictures are refused.' }] };
    await act(async () => uploads[0]!.reject(new HttpError(400, refusal)));
    const chip = screen.getByText('setup.exe').closest('li')!;
    expect(within(chip).getByRole('alert').textContent).toBe('This file cannot be sent: programs, scripts and damaged pictures are refused.');
    // Refused for good: no retry, nothing to send.
    expect(within(chip).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(send.disabled).toBe(true);
    fireEvent.click(within(chip).getByRole('button', { name: 'Remove setup.exe' }));
    expect(screen.queryByText('setup.exe')).toBeNull();
  });

  it('retries an upload that found no network', async () => {
    const { picker } = renderComposer();
    choose(picker, [pngFile('b.png')]);
    await act(async () => uploads[0]!.reject(new HttpError(undefined, undefined)));
    expect(screen.getByText('Not uploaded: check your connection and try again.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(uploads).toHaveLength(2);
    await act(async () => uploads[1]!.resolve(picture(8)));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('attaches pictures pasted alone, and pastes text as text', () => {
    const { field } = renderComposer();
    fireEvent.paste(field, { clipboardData: { files: [pngFile('image.png')], getData: () => '' } });
    expect(uploads).toHaveLength(1);
    fireEvent.paste(field, { clipboardData: { files: [pngFile('image.png')], getData: () => 'words' } });
    expect(uploads).toHaveLength(1);
  });

  it('holds at most 10 files', () => {
    const files = Array.from({ length: 12 }, (_, index) => new File(['x'], `f${index}.txt`));
    const { accepted, tooMany, tooLarge } = admit([], files);
    expect(accepted).toHaveLength(10);
    expect(tooMany).toBe(true);
    expect(tooLarge).toEqual([]);
    const { picker } = renderComposer();
    choose(picker, files);
    expect(uploads).toHaveLength(10);
    expect(screen.getByRole('alert').textContent).toBe('A message holds at most 10 files.');
    expect((screen.getByRole('button', { name: 'Attach files' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('cannot attach offline', () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      renderComposer();
      const button = screen.getByRole('button', { name: 'Attach files' }) as HTMLButtonElement;
      expect(button.disabled).toBe(true);
      expect(button.title).toBe('Attaching files needs the network: you are offline.');
    } finally {
      online.mockRestore();
    }
  });
});

function renderList() {
  const queryClient = new QueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <MessageList chatId={1} member={me} userId={1} onReply={() => undefined} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('dropping files onto the chat', () => {
  function DropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
    const drop = useFileDrop(onFiles);
    return (
      <main data-testid="zone" {...drop.handlers}>
        {drop.dragging && <div className="drop-overlay">{i18n.t('chats.attachDrop')}</div>}
        <p>inside</p>
      </main>
    );
  }

  it('shows where to drop while files are over the chat, and hands them over', () => {
    const onFiles = vi.fn();
    render(<DropZone onFiles={onFiles} />);
    const zone = screen.getByTestId('zone');
    const files = [pngFile('dropped.png')];
    const dataTransfer = { types: ['Files'], files, dropEffect: 'none' };
    fireEvent.dragEnter(zone, { dataTransfer });
    fireEvent.dragEnter(screen.getByText('inside'), { dataTransfer });
    fireEvent.dragLeave(zone, { dataTransfer });
    expect(screen.getByText('Drop the files here to attach them')).toBeTruthy();
    fireEvent.dragLeave(screen.getByText('inside'), { dataTransfer });
    expect(screen.queryByText('Drop the files here to attach them')).toBeNull();
    fireEvent.dragEnter(zone, { dataTransfer });
    fireEvent.drop(zone, { dataTransfer });
    expect(onFiles).toHaveBeenCalledWith(files);
    expect(screen.queryByText('Drop the files here to attach them')).toBeNull();
    // Text dragged within the page is not a file.
    fireEvent.dragEnter(zone, { dataTransfer: { types: ['text/plain'], files: [] } });
    expect(screen.queryByText('Drop the files here to attach them')).toBeNull();
  });
});

describe('attachments in the bubble', () => {
  it('shows pictures as thumbnails and files with a download link; no empty text line', async () => {
    page.results = [message(50, { content: '', attachments: [picture(1, 'beach.webp'), picture(2), document_(3, 'notes.pdf', 1_572_864)] })];
    renderList();
    const thumbnail = (await screen.findByAltText('beach.webp')) as HTMLImageElement;
    expect(thumbnail.getAttribute('src')).toBe('/api/chat/1/attachments/1/thumbnail');
    expect(thumbnail.getAttribute('width')).toBe('1600');
    expect(thumbnail.getAttribute('height')).toBe('1200');
    expect(thumbnail.getAttribute('loading')).toBe('lazy');
    const bubble = thumbnail.closest('.bubble') as HTMLElement;
    expect(within(bubble).getByRole('list', { name: '2 pictures' })).toBeTruthy();
    const download = within(bubble).getByRole('link', { name: 'Download notes.pdf' });
    expect(download.getAttribute('href')).toBe('/api/chat/1/attachments/3/file');
    expect(download.getAttribute('download')).toBe('notes.pdf');
    expect(within(bubble).getByText('1.5 MB')).toBeTruthy();
    expect(bubble.querySelector('.bubble-text')).toBeNull();
  });

  it('asks again for a picture refused once, after refreshing the session when due', async () => {
    const ensure = vi.spyOn(http, 'ensureSession').mockResolvedValue(true);
    try {
      page.results = [message(50, { content: '', attachments: [picture(1, 'beach.webp')] })];
      renderList();
      const first = await screen.findByAltText('beach.webp');
      fireEvent.error(first);
      await waitFor(() => expect(screen.getByAltText('beach.webp')).not.toBe(first));
      expect(ensure).toHaveBeenCalledTimes(1);
      // Refused again: left as it is (its name shows).
      fireEvent.error(screen.getByAltText('beach.webp'));
      await act(() => Promise.resolve());
      expect(ensure).toHaveBeenCalledTimes(1);
    } finally {
      ensure.mockRestore();
    }
  });

  it('shows the caption under the files', async () => {
    page.results = [message(50, { content: 'Look *here*', attachments: [picture(1)] })];
    renderList();
    const thumbnail = await screen.findByAltText('photo-1.webp');
    const bubble = thumbnail.closest('.bubble') as HTMLElement;
    expect(bubble.querySelector('.bubble-text')?.textContent).toBe('Look here');
    expect(thumbnail.compareDocumentPosition(bubble.querySelector('.bubble-text')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('opens a picture in the viewer, which closes with the focus back on its thumbnail', async () => {
    page.results = [message(50, { content: '', attachments: [picture(1, 'beach.webp')] })];
    renderList();
    const opener = (await screen.findByAltText('beach.webp')).closest('button')!;
    opener.focus();
    fireEvent.click(opener);
    const viewer = screen.getByRole('dialog', { name: 'beach.webp' });
    const full = within(viewer).getByAltText('beach.webp');
    expect(full.getAttribute('src')).toBe('/api/chat/1/attachments/1/file');
    expect(within(viewer).getByRole('link', { name: 'Download' }).getAttribute('download')).toBe('beach.webp');
    fireEvent.click(within(viewer).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));

    // Escape: the browser closes the dialog (its close event).
    fireEvent.click(opener);
    act(() => screen.getByRole('dialog').closest('dialog')!.close());
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('shows an unsent message’s file names', async () => {
    useOutbox.setState({ entries: enqueue([], { clientId: 'c1', userId: 1, chatId: 1, content: '', attachments: [4], attachmentNames: ['draft.docx'] }, Date.now()) });
    renderList();
    expect(await screen.findByText('draft.docx')).toBeTruthy();
  });
});

describe('attachments in one line', () => {
  const t = i18n.t.bind(i18n);
  it('names them for the chat list', () => {
    expect(attachmentSummary([picture(1)], t)).toBe('📷 Photo');
    expect(attachmentSummary([picture(1), picture(2)], t)).toBe('📷 2 photos');
    expect(attachmentSummary([document_(3, 'plan.pdf', 10)], t)).toBe('📎 plan.pdf');
    expect(attachmentSummary([picture(1), document_(3, 'plan.pdf', 10)], t)).toBe('📎 2 files');
    expect(messageLine('', [picture(1)], (text) => text, t)).toBe('📷 Photo');
    expect(messageLine('Hello', [picture(1)], (text) => text, t)).toBe('Hello');
  });

  it('formats sizes', () => {
    expect(formatSize(820, 'en')).toBe('820 byte');
    expect(formatSize(12_800, 'en')).toBe('13 kB');
    expect(formatSize(1_572_864, 'en')).toBe('1.5 MB');
    expect(formatSize(10 * 1024 * 1024, 'en')).toBe('10 MB');
  });
});
