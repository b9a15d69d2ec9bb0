// The bubbles' new parts: reactions (chips that toggle, the picker), the quote of a reply (a click
// loads older pages until the original is there, then it flashes and takes the focus), the
// reader's mentions highlighted.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMember, ChatMessagesPage, Reactions } from '@parla/contract/chat';
import { CHAT_ROLE } from '@parla/contract/constants';
import english from '../public/locales/en/translation.json';
import { MessageList } from '../src/features/chats/message-list';
import { useOutbox } from '../src/features/chats/outbox';
import { http } from '../src/lib/api';
import { notify } from '../src/lib/toast';
import { message } from './chat-fixtures';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: english } }, interpolation: { escapeValue: false } });
});

const me: ChatMember = { id: 3, lastReadMessage: 40, nickName: 'Me', language: 'en', chatRole: CHAT_ROLE.MEMBER, tone: 'DEFAULT', memberState: 'joined', muted: false };
const ada = { id: 1, nickName: 'Ada' };
const ben = { id: 2, nickName: 'Ben' };
const meRef = { id: 3, nickName: 'Me' };

const pageOf = (ids: number[], toId: number | null): ChatMessagesPage => ({
  next: toId === null ? null : `http://x/api/chat/1/messages/?limit=30&toId=${toId}`,
  previous: null,
  results: ids.map((id) => message(id)),
});

let request: ReturnType<typeof vi.spyOn>;
let calls: string[];
beforeEach(() => {
  calls = [];
  useOutbox.setState({ entries: [] });
  request = vi.spyOn(http, 'request').mockImplementation(async (config) => {
    const params = (config.params ?? {}) as Record<string, unknown>;
    calls.push(`${config.method} ${config.url}${params.toId ? `?toId=${String(params.toId)}` : ''}${params.emoji ? `?emoji=${String(params.emoji)}` : ''}`);
    if (config.url === '/api/translation/') return { provider: 'none' } as never;
    if (config.method === 'GET' && config.url === '/api/chat/1/messages/') {
      if (params.toId === undefined) {
        const first = pageOf([40, 39], 39);
        first.results[0] = message(40, {
          content: 'Yes, <@3>!',
          mentions: [meRef],
          replyTo: { id: 5, sender: ben, language: 'en', content: 'Lunch *at* noon with <@1>?', translated: true },
        });
        first.results[1] = message(39, { reactions: [{ emoji: '👍', members: [ada, meRef] }, { emoji: '❤️', members: [ben] }] });
        first.results[1]!.mentions = [ada];
        return first as never;
      }
      if (params.toId === 39) return pageOf([10, 9], 9) as never;
      if (params.toId === 9) return pageOf([5, 4], null) as never;
    }
    if (config.method === 'POST' && config.url === '/api/chat/1/messages/39/reactions/') {
      const { emoji } = config.data as { emoji: string };
      const answer: Reactions = { messageId: 39, reactions: [{ emoji: '👍', members: [ada, meRef] }, { emoji: '❤️', members: [ben, meRef] }] };
      if (emoji === '🎉') answer.reactions.push({ emoji: '🎉', members: [meRef] });
      return answer as never;
    }
    if (config.method === 'DELETE' && config.url === '/api/chat/1/messages/39/reactions/') return undefined as never;
    if (config.method === 'PATCH') return undefined as never;
    throw new Error(`unexpected ${config.method} ${config.url}`);
  });
});
afterEach(() => {
  request.mockRestore();
  cleanup();
});

function renderList() {
  const queryClient = new QueryClient();
  const onReply = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <MessageList chatId={1} member={me} userId={1} onReply={onReply} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return { onReply };
}

describe('reactions', () => {
  it('show who reacted, pressed when the reader did, and toggle', async () => {
    renderList();
    const thumbs = await screen.findByRole('button', { name: '👍 Ada and You' });
    expect(thumbs.getAttribute('aria-pressed')).toBe('true');
    expect(thumbs.textContent).toBe('👍2');
    const heart = screen.getByRole('button', { name: '❤️ Ben' });
    expect(heart.getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(heart);
    await waitFor(() => expect(screen.getByRole('button', { name: '❤️ Ben and You' }).getAttribute('aria-pressed')).toBe('true'));
    expect(calls).toContain('POST /api/chat/1/messages/39/reactions/');

    fireEvent.click(screen.getByRole('button', { name: '👍 Ada and You' }));
    await waitFor(() => expect(screen.getByRole('button', { name: '👍 Ada' }).getAttribute('aria-pressed')).toBe('false'));
    expect(calls).toContain('DELETE /api/chat/1/messages/39/reactions/?emoji=👍');
  });

  it('are added from the picker of the message’s menu, which Escape closes', async () => {
    const { onReply } = renderList();
    const bubble = (await screen.findByRole('button', { name: '👍 Ada and You' })).closest('li.message') as HTMLElement;
    const menuButton = within(bubble).getByRole('button', { name: 'Message options' });
    const menuItem = (name: string) => within(bubble.querySelector<HTMLElement>('.bubble-actions')!).getByRole('button', { name });
    fireEvent.click(menuButton);
    expect(document.activeElement).toBe(menuItem('Reply'));
    fireEvent.click(menuItem('Add reaction'));
    const picker = within(bubble).getByRole('group', { name: 'Add reaction' });
    const emoji = within(picker).getAllByRole('button');
    expect(emoji.map((button) => button.getAttribute('aria-label'))).toEqual(['Thumbs up', 'Heart', 'Laughing', 'Celebrate', 'Surprised', 'Sad', 'Thank you', 'Looking']);
    expect(document.activeElement).toBe(emoji[0]);
    fireEvent.keyDown(emoji[0]!, { key: 'Escape' });
    expect(within(bubble).queryByRole('group', { name: 'Add reaction' })).toBeNull();
    expect(document.activeElement).toBe(menuButton);

    fireEvent.click(menuButton);
    fireEvent.click(menuItem('Add reaction'));
    fireEvent.click(within(bubble).getByRole('button', { name: 'Celebrate' }));
    await waitFor(() => expect(within(bubble).getByRole('button', { name: '🎉 You' })).toBeTruthy());

    // The chips' "+" opens the picker too, and gets the focus back.
    const add = within(bubble.querySelector<HTMLElement>('.reactions')!).getByRole('button', { name: 'Add reaction' });
    fireEvent.click(add);
    fireEvent.keyDown(within(bubble).getByRole('button', { name: 'Heart' }), { key: 'Escape' });
    expect(document.activeElement).toBe(add);

    fireEvent.click(menuButton);
    fireEvent.click(menuItem('Reply'));
    expect(onReply).toHaveBeenCalledWith(expect.objectContaining({ id: 39 }));
  });
});

describe('a reply', () => {
  it('quotes the original; a click loads older pages until it is there, then goes to it', async () => {
    renderList();
    const quote = await screen.findByRole('button', { name: /^In reply to Ben:/ });
    expect(quote.textContent).toContain('Lunch at noon with @former member?');
    const reply = quote.closest('li.message') as HTMLElement;
    expect(reply.id).toBe('message-40');
    // It mentions the reader: highlighted, and said.
    expect(reply.classList.contains('mentions-me')).toBe(true);
    expect(within(reply).getByText('Mentions you:')).toBeTruthy();
    expect(reply.querySelector('.mention-me')?.textContent).toBe('@Me (you)');

    fireEvent.click(quote);
    await waitFor(() => expect(document.activeElement?.id).toBe('message-5'));
    expect(calls.filter((call) => call.startsWith('GET /api/chat/1/messages/'))).toEqual(['GET /api/chat/1/messages/', 'GET /api/chat/1/messages/?toId=39', 'GET /api/chat/1/messages/?toId=9']);
    expect(document.getElementById('message-5')?.classList.contains('flash')).toBe(true);
  });

  it('whose original is gone says so', async () => {
    const info = vi.spyOn(notify, 'info').mockImplementation(() => undefined);
    request.mockImplementationOnce(async () => {
      const page = pageOf([40], null);
      page.results[0] = message(40, { replyTo: { id: 2, sender: ben, language: 'en', content: 'gone', translated: true } });
      return page as never;
    });
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: /^In reply to Ben:/ }));
    await waitFor(() => expect(info).toHaveBeenCalledWith('The message this replies to is no longer in the chat.'));
    info.mockRestore();
  });
});
