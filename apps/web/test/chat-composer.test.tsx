// The composer's mentions (a combobox over the chat's members: `@` and letters, arrows, Enter,
// Escape; sent as references) and its reply bar (what is answered, cancel, sent with the message).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMember, ChatMembersPage, ManageChatMember } from '@parla/contract/chat';
import { CHAT_ROLE } from '@parla/contract/constants';
import english from '../public/locales/en/translation.json';
import { Composer } from '../src/features/chats/composer';
import { useOutbox } from '../src/features/chats/outbox';
import { http } from '../src/lib/api';
import { message } from './chat-fixtures';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: english } }, interpolation: { escapeValue: false } });
});

const me: ChatMember = { id: 3, lastReadMessage: null, nickName: 'Me', language: 'en', chatRole: CHAT_ROLE.MEMBER, tone: 'DEFAULT', memberState: 'joined', muted: false };
const person = (id: number, nickName: string, memberState: ManageChatMember['memberState'] = 'joined'): ManageChatMember => ({
  id,
  user: `${id}@example.org`,
  chatRole: CHAT_ROLE.MEMBER,
  nickName,
  avatarImage: null,
  memberState,
});

let request: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  useOutbox.setState({ entries: [] });
  request = vi.spyOn(http, 'request').mockImplementation(async (config) => {
    const page: ChatMembersPage = {
      count: 4,
      next: null,
      previous: null,
      results: [person(12, 'Ana María'), person(3, 'Me'), person(20, 'Anatole', 'invited'), person(14, 'Andrés')],
    };
    if (config.method === 'GET' && config.url === '/api/chat/1/members/') return page as never;
    throw new Error(`unexpected ${config.method} ${config.url}`);
  });
});
afterEach(() => {
  request.mockRestore();
  cleanup();
});

function renderComposer(props: Partial<Parameters<typeof Composer>[0]> = {}) {
  const queryClient = new QueryClient();
  const onReplyDone = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <Composer chatId={1} userId={1} member={me} replyTo={null} onReplyDone={onReplyDone} {...props} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return { field: screen.getByLabelText('Message') as HTMLTextAreaElement, onReplyDone };
}

const type = (field: HTMLTextAreaElement, value: string) => fireEvent.change(field, { target: { value, selectionStart: value.length, selectionEnd: value.length } });

describe('mentions in the composer', () => {
  it('suggests the joined members but oneself, picks with the keyboard and sends references', async () => {
    const { field } = renderComposer();
    type(field, 'Hi @An');
    const list = await screen.findByRole('listbox');
    expect(request).toHaveBeenCalledWith(expect.objectContaining({ url: '/api/chat/1/members/', params: expect.objectContaining({ q: 'An', pageSize: 8 }) }));
    const options = screen.getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['AAna María', 'AAndrés']);
    expect(field.getAttribute('aria-autocomplete')).toBe('list');
    expect(field.getAttribute('aria-controls')).toBe(list.id);
    expect(field.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(field.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[1]!.id);
    fireEvent.keyDown(field, { key: 'ArrowUp' });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(field.value).toBe('Hi @Ana María ');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(field.hasAttribute('aria-activedescendant')).toBe(false);
    type(field, 'Hi @Ana María and @Ana, bye');
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(useOutbox.getState().entries).toMatchObject([{ content: 'Hi <@12> and @Ana, bye', mentions: [{ id: 12, nickName: 'Ana María' }] }]);
    expect(useOutbox.getState().entries[0]).not.toHaveProperty('replyTo');
  });

  it('puts the caret after a name picked mid-text in the same turn, before the next keystroke', async () => {
    const { field } = renderComposer();
    fireEvent.change(field, { target: { value: 'Hi @An, see you', selectionStart: 6, selectionEnd: 6 } });
    await screen.findByRole('listbox');
    fireEvent.keyDown(field, { key: 'Enter' });
    const before = 'Hi @Ana María ';
    expect(field.value.startsWith(before)).toBe(true);
    expect(field.value.endsWith(', see you')).toBe(true);
    // No frame waited: a letter typed now goes after the name, not at the end.
    expect(field.selectionStart).toBe(before.length);
    expect(document.activeElement).toBe(field);
  });

  it('closes with Escape (Enter then sends) and opens again for another @', async () => {
    const { field } = renderComposer();
    type(field, '@And');
    await screen.findByRole('listbox');
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    type(field, '@Andr');
    await act(() => new Promise((resolve) => setTimeout(resolve, 250)));
    expect(screen.queryByRole('listbox')).toBeNull();
    type(field, '@Andr @An');
    expect(await screen.findByRole('listbox')).toBeTruthy();
    fireEvent.keyDown(field, { key: 'Escape' });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(useOutbox.getState().entries).toMatchObject([{ content: '@Andr @An' }]);
  });
});

describe('replying', () => {
  it('shows what is answered, sends it with the message, and can be cancelled', () => {
    const answered = message(40, { content: 'See <@3> at *ten*', mentions: [{ id: 3, nickName: 'Me' }] });
    const first = renderComposer({ replyTo: answered });
    expect(screen.getByText('Replying to Ana')).toBeTruthy();
    expect(screen.getByText('See @Me at ten')).toBeTruthy();
    expect(document.activeElement).toBe(first.field);
    type(first.field, 'Sure');
    fireEvent.keyDown(first.field, { key: 'Enter' });
    expect(useOutbox.getState().entries).toMatchObject([{ content: 'Sure', replyTo: 40, quote: { name: 'Ana', excerpt: 'See @Me at ten' } }]);
    expect(first.onReplyDone).toHaveBeenCalledTimes(1);
    cleanup();

    const second = renderComposer({ replyTo: answered });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the reply' }));
    expect(second.onReplyDone).toHaveBeenCalledTimes(1);
  });
});
