// Searching messages, through the real router and pages against a stand-in API (fetch) and a
// stand-in live connection: the chat list's search shows results in the list's place (the reader's
// rendering with the matched words marked, the original too when only it matched, more on demand),
// says when nothing matches and gives the list back when cleared; a result opens its chat at the
// message (older pages loaded until it is there), which takes the focus; a chat's own search (from
// its header) asks for that chat only and goes to the message in place.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider } from '@tanstack/react-router';
import { initReactI18next } from 'react-i18next';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMember, ChatSearchPage, ChatSearchResult, GroupChat } from '@parla/contract/chat';
import { CHAT_ROLE } from '@parla/contract/constants';
import english from '../public/locales/en/translation.json';
import englishForm from '../public/locales/en/form.json';
import englishZod from '../public/locales/en/zod.json';
import { queryClient } from '../src/app/protected-shell';
import { router } from '../src/app/router';
import { i18n } from '../src/lib/i18n';
import { useTokenStore } from '../src/lib/stores';
import { notify } from '../src/lib/toast';
import { installZodMessages } from '../src/lib/zod-i18n';
import { at, chat, message } from './chat-fixtures';

vi.mock('socket.io-client', () => ({
  io: () => {
    const socket = {
      connected: false,
      active: false,
      on: () => socket,
      connect() {
        socket.connected = true;
        socket.active = true;
        return socket;
      },
      disconnect() {
        socket.connected = false;
        socket.active = false;
        return socket;
      },
      emit: () => socket,
      timeout: () => ({ emit: (_name: string, _payload: unknown, ack: (error: Error | null, answer: unknown) => void) => ack(null, { ok: true }) }),
    };
    return socket;
  },
}));

type Route = (url: URL) => { status: number; body?: unknown };
let routes: Record<string, Route> = {};
const requests: URL[] = [];
const searches = () => requests.filter((url) => url.pathname === '/api/chat/search/').map((url) => Object.fromEntries(url.searchParams));

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    ns: ['translation', 'form', 'zod'],
    defaultNS: 'translation',
    resources: { en: { translation: english, form: englishForm, zod: englishZod } },
    interpolation: { escapeValue: false },
  });
  installZodMessages();
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), window.location.origin);
    requests.push(url);
    const route = routes[`${init?.method ?? 'GET'} ${url.pathname}`];
    const answer = route ? route(url) : { status: 404, body: { type: 'client_error', errors: [{ code: 'not_found', attr: null, detail: 'Not found.' }] } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
});
afterAll(() => vi.unstubAllGlobals());
beforeEach(() => {
  requests.length = 0;
  queryClient.clear();
  useTokenStore.setState({ accessExpiration: Date.now() + 5 * 60_000, refreshExpiration: Date.now() + 7 * 24 * 3_600_000 });
});
afterEach(() => cleanup());

const ok = (body: unknown): Route => () => ({ status: 200, body });
const team: GroupChat = { id: 5, title: 'Team Lisbon', description: null, languages: ['en', 'es'], created: at(0), modified: at(40), chatRole: CHAT_ROLE.MEMBER, memberState: 'joined', muted: false, invitedBy: null };
const me: ChatMember = { id: 12, lastReadMessage: 40, nickName: 'Ana', language: 'es', chatRole: CHAT_ROLE.MEMBER, tone: 'DEFAULT', memberState: 'joined', muted: false };
const bob = { id: 8, nickName: 'Bob', language: 'en' as const, chatRole: CHAT_ROLE.MEMBER, tone: 'DEFAULT' as const, avatarImage: null };

/** A message Bob wrote in English, as the Spanish reader reads it. */
const hit = (id: number, rendering: string, original: string, highlights: string[], chatId = 5, title = 'Team Lisbon'): ChatSearchResult => ({
  chat: { id: chatId, title },
  message: message(id, { language: 'es', content: rendering, sender: bob, rawMessage: { id, language: 'en', content: original, created: at(id) } }),
  highlights,
});
const page = (results: ChatSearchResult[], toId: number | null = null): ChatSearchPage => ({
  next: toId === null ? null : `http://x/api/chat/search/?q=reuni%C3%B3n&limit=20&toId=${toId}`,
  previous: null,
  results,
});

function commonRoutes(): Record<string, Route> {
  return {
    'GET /api/accounts/user/': ok({ id: 1, email: 'ana@example.com', fullName: 'Ana García', avatarImage: null }),
    'GET /api/translation/': ok({ provider: 'none', supportsTone: false, reach: null }),
    'GET /api/chat/unread/': ok({ messages: 0, chats: 0, mentions: 0 }),
    'GET /api/chat/': ok({ next: null, previous: null, results: [chat(5, { title: 'Team Lisbon', lastMessage: message(40, { content: 'Hasta luego' }) })] }),
    'GET /api/chat/5/': ok(team),
    'GET /api/chat/5/member/': ok(me),
    'PATCH /api/chat/5/member/': ok(me),
    // Two pages: the message searched for is on the older one.
    'GET /api/chat/5/messages/': (url) =>
      url.searchParams.get('toId') === '39'
        ? { status: 200, body: { next: null, previous: null, results: [message(3, { content: 'Nos vemos en la reunión' }), message(2)] } }
        : { status: 200, body: { next: 'http://x/api/chat/5/messages/?limit=30&toId=39', previous: null, results: [message(40), message(39)] } },
  };
}

async function open(href: string) {
  window.history.replaceState(null, '', href);
  render(<RouterProvider router={router} />);
  await act(() => router.load());
}

describe('the chat list’s search', () => {
  it('shows results in the list’s place, marked, with the original when only it matched, and more on demand', async () => {
    routes = {
      ...commonRoutes(),
      'GET /api/chat/search/': (url) =>
        url.searchParams.get('toId') === '3'
          ? ok(page([hit(2, 'Reunión mañana', 'Meeting tomorrow', ['Reunión', 'Meeting'], 6, 'Book club')]))(url)
          : ok(
              page(
                [
                  hit(4, '¿Movemos la <@12> reunión?', 'Can we move the meeting, <@12>?', ['reunión']),
                  hit(3, 'Nos vemos en la sala', 'See you at the <b>meeting</b>', ['meeting']),
                ],
                3,
              ),
            )(url),
    };
    routes['GET /api/chat/5/messages/'] = commonRoutes()['GET /api/chat/5/messages/']!;
    await open('/chat');
    expect(await screen.findByRole('link', { name: /Team Lisbon/ })).toBeTruthy();
    const form = screen.getByRole('search', { name: english.chats.searchLabel });
    const field = within(form).getByRole('searchbox', { name: english.chats.searchLabel });
    expect(field.getAttribute('placeholder')).toBe(english.chats.searchPlaceholder);

    // One letter waits for Enter; two search after a pause.
    fireEvent.change(field, { target: { value: 'r' } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(searches()).toEqual([]);
    fireEvent.change(field, { target: { value: 'reunión' } });
    const results = await screen.findByRole('region', { name: 'Messages matching “reunión”' });
    expect(await within(results).findAllByRole('link')).toHaveLength(2);
    expect(searches()).toEqual([{ q: 'reunión', limit: '20' }]);
    expect(router.state.location.search).toEqual({ q: 'reunión' });
    // The list is not shown meanwhile.
    expect(screen.queryByText('Hasta luego')).toBeNull();

    const links = within(results).getAllByRole('link');
    expect(links).toHaveLength(2);
    const first = links[0]!;
    expect(first.getAttribute('href')).toBe('/chat/5?message=4');
    expect(within(first).getByText('Team Lisbon')).toBeTruthy();
    expect(within(first).getByText('Bob')).toBeTruthy();
    expect(first.querySelector('time')?.getAttribute('dateTime')).toBe(at(4));
    // The rendering, mentions by name, the word marked; the original holds no other matched word: not shown.
    expect(first.querySelector('.search-hit-text')?.innerHTML).toBe('¿Movemos la @former member <mark>reunión</mark>?');
    expect(first.querySelector('.search-hit-original')).toBeNull();
    // Only the original matched: shown under the rendering, its word marked, as text.
    const second = links[1]!;
    expect(second.querySelector('.search-hit-text')?.textContent).toBe('Nos vemos en la sala');
    expect(second.querySelector('.search-hit-original')?.textContent).toBe('Original (English): See you at the <b>meeting</b>');
    expect(second.querySelector('.search-hit-original mark')?.textContent).toBe('meeting');
    expect(second.querySelector('b')).toBeNull();

    fireEvent.click(within(results).getByRole('button', { name: english.chats.searchLoadMore }));
    expect(await within(results).findByText('Book club')).toBeTruthy();
    expect(searches()[1]).toEqual({ q: 'reunión', limit: '20', toId: '3' });
    expect(within(results).queryByRole('button', { name: english.chats.searchLoadMore })).toBeNull();
    expect(within(results).getByRole('status').textContent).toBe('3 messages found');
  });

  it('says when nothing matches; cleared, the list comes back', async () => {
    routes = { ...commonRoutes(), 'GET /api/chat/search/': ok(page([])) };
    await open('/chat');
    const field = await screen.findByRole('searchbox', { name: english.chats.searchLabel });
    // Enter searches at once, even one letter.
    fireEvent.change(field, { target: { value: 'z' } });
    fireEvent.submit(field.closest('form')!);
    expect(await screen.findByText('No messages match “z”.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Team Lisbon/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: english.chats.searchClear }));
    expect(await screen.findByRole('link', { name: /Team Lisbon/ })).toBeTruthy();
    expect((field as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(field);
    expect(router.state.location.search).toEqual({});

    // Escape clears too.
    fireEvent.change(field, { target: { value: 'zz' } });
    expect(await screen.findByText('No messages match “zz”.')).toBeTruthy();
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(await screen.findByRole('link', { name: /Team Lisbon/ })).toBeTruthy();
  });

  it('opens a result’s chat at its message, loading older pages until it is there', async () => {
    routes = { ...commonRoutes(), 'GET /api/chat/search/': ok(page([hit(3, 'Nos vemos en la reunión', 'See you at the meeting', ['reunión'])])) };
    await open('/chat?q=reuni%C3%B3n');
    const result = await screen.findByRole('link', { name: /Nos vemos en la reunión/ });
    fireEvent.click(result);
    await waitFor(() => expect(document.activeElement?.id).toBe('message-3'), { timeout: 5000 });
    expect(document.getElementById('message-3')?.classList.contains('flash')).toBe(true);
    expect(requests.filter((url) => url.pathname === '/api/chat/5/messages/').map((url) => url.searchParams.get('toId'))).toEqual([null, '39']);
    // Once there, the address forgets the message (choosing it again goes there again).
    await waitFor(() => expect(router.state.location.href).toBe('/chat/5'));

    // Back: the results again.
    act(() => router.history.back());
    expect(await screen.findByRole('link', { name: /Nos vemos en la reunión/ })).toBeTruthy();
  });
});

describe('an address to a message', () => {
  it('that is no longer there says so, and the chat stays open', async () => {
    const info = vi.spyOn(notify, 'info').mockImplementation(() => undefined);
    routes = commonRoutes();
    await open('/chat/5?message=1');
    await waitFor(() => expect(info).toHaveBeenCalledWith(english.chats.searchGone), { timeout: 5000 });
    expect(requests.filter((url) => url.pathname === '/api/chat/5/messages/').map((url) => url.searchParams.get('toId'))).toEqual([null, '39']);
    await waitFor(() => expect(router.state.location.href).toBe('/chat/5'));
    expect(screen.getByRole('region', { name: english.chats.messages })).toBeTruthy();
    info.mockRestore();
  });
});

describe('a chat’s own search', () => {
  it('asks for this chat only and goes to the message in place', async () => {
    routes = { ...commonRoutes(), 'GET /api/chat/search/': ok(page([hit(3, 'Nos vemos en la reunión', 'See you at the meeting', ['reunión'])])) };
    await open('/chat/5');
    fireEvent.click(await screen.findByRole('button', { name: english.chats.searchInChat }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: english.chats.searchInChat });
    const field = within(dialog).getByRole('searchbox', { name: english.chats.searchInChatLabel });
    requests.length = 0;
    fireEvent.change(field, { target: { value: 'reunión' } });
    const result = await within(dialog).findByRole('link', { name: /Nos vemos en la reunión/ });
    expect(searches()).toEqual([{ q: 'reunión', chatId: '5', limit: '20' }]);
    // The chat's title is not repeated on each result: the sender is.
    expect(within(result).queryByText('Team Lisbon')).toBeNull();
    expect(within(result).getByText('Bob')).toBeTruthy();

    fireEvent.click(result);
    await waitFor(() => expect(document.activeElement?.id).toBe('message-3'), { timeout: 5000 });
    expect(screen.queryByRole('dialog', { name: english.chats.searchInChat })).toBeNull();
    await waitFor(() => expect(router.state.location.href).toBe('/chat/5'));

    // Opened again, it shows the same search.
    fireEvent.click(screen.getByRole('button', { name: english.chats.searchInChat }));
    const again = await screen.findByRole('dialog', { name: english.chats.searchInChat });
    expect((within(again).getByRole('searchbox') as HTMLInputElement).value).toBe('reunión');
    expect(within(again).getByRole('link', { name: /Nos vemos en la reunión/ })).toBeTruthy();
  });
});
