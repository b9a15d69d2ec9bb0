// Invitations as the invitee and the inviter see them, through the real router and pages against a
// stand-in API (fetch) and a stand-in live connection (socket.io-client): an invited reader sees
// the invitation instead of the chat or room, with nothing of their content fetched and no
// subscription, accepts it (then the chat itself shows and is watched) or declines it (it leaves
// the list); the call of a room one is only invited to goes back to the room's page; the members
// list marks people still invited, an invitation says so, a hand-over to one of them shows the
// server's reason; and the password form asks for the current password.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider } from '@tanstack/react-router';
import { initReactI18next } from 'react-i18next';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { ChatMember, GroupChat, ManageChatMember } from '@parla/contract/chat';
import { CHAT_ROLE, ROOM_ROLE, ROOM_STATE } from '@parla/contract/constants';
import type { Participant, Room } from '@parla/contract/rooms';
import english from '../public/locales/en/translation.json';
import englishForm from '../public/locales/en/form.json';
import englishZod from '../public/locales/en/zod.json';
import { queryClient } from '../src/app/protected-shell';
import { router } from '../src/app/router';
import { i18n } from '../src/lib/i18n';
import { useTokenStore } from '../src/lib/stores';
import { notify } from '../src/lib/toast';
import { installZodMessages } from '../src/lib/zod-i18n';
import { at, message } from './chat-fixtures';

/** What the page said on the live connection: `chat:subscribe` and the like, with their payloads. */
const live = vi.hoisted(() => ({ emitted: [] as [string, unknown][], connects: 0 }));
vi.mock('socket.io-client', () => ({
  io: () => {
    const handlers = new Map<string, (...args: unknown[]) => void>();
    const socket = {
      connected: false,
      active: false,
      on(name: string, handler: (...args: unknown[]) => void) {
        handlers.set(name, handler);
        return socket;
      },
      connect() {
        live.connects++;
        socket.connected = true;
        socket.active = true;
        handlers.get('connect')?.();
        return socket;
      },
      disconnect() {
        socket.connected = false;
        socket.active = false;
        return socket;
      },
      emit(name: string, payload: unknown) {
        live.emitted.push([name, payload]);
        return socket;
      },
      timeout() {
        return {
          emit(name: string, payload: unknown, ack: (error: Error | null, answer: unknown) => void) {
            live.emitted.push([name, payload]);
            ack(null, { ok: true });
          },
        };
      },
    };
    return socket;
  },
}));

type Answer = { status: number; body?: unknown };
type Route = (body: unknown) => Answer;
let routes: Record<string, Route> = {};
const calls: { call: string; body: unknown }[] = [];
const called = (call: string) => calls.some((item) => item.call === call);

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
  // jsdom has no modal dialogs.
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), window.location.origin);
    const call = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ call, body });
    const route = routes[call];
    const answer = route ? route(body) : { status: 404, body: { type: 'client_error', errors: [{ code: 'not_found', attr: null, detail: 'Not found.' }] } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
});
afterAll(() => vi.unstubAllGlobals());

let successes: MockInstance<typeof notify.success>;
let errors: MockInstance<typeof notify.error>;
beforeEach(() => {
  calls.length = 0;
  live.emitted.length = 0;
  queryClient.clear();
  useTokenStore.setState({ accessExpiration: Date.now() + 5 * 60_000, refreshExpiration: Date.now() + 7 * 24 * 3_600_000 });
  successes = vi.spyOn(notify, 'success').mockImplementation(() => undefined);
  errors = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  successes.mockRestore();
  errors.mockRestore();
  cleanup();
});

const ok = (body: unknown): Route => () => ({ status: 200, body });
const user = { id: 1, email: 'ana@example.com', fullName: 'Ana García', avatarImage: null };
const teamChat = (memberState: GroupChat['memberState'], chatRole: GroupChat['chatRole'] = CHAT_ROLE.MEMBER): GroupChat => ({
  id: 5,
  title: 'Team Lisbon',
  description: 'Planning the trip',
  languages: ['en', 'es'],
  created: at(0),
  modified: at(1),
  chatRole,
  memberState,
  muted: false,
  invitedBy: memberState === 'invited' ? 'Bob' : null,
});
const membership = (memberState: ChatMember['memberState'], chatRole: ChatMember['chatRole'] = CHAT_ROLE.MEMBER): ChatMember => ({
  id: 12,
  lastReadMessage: null,
  nickName: memberState === 'invited' ? 'ana' : 'Ana García',
  language: 'en',
  chatRole,
  tone: 'DEFAULT',
  memberState,
  muted: false,
});
const commonRoutes = (): Record<string, Route> => ({
  'GET /api/accounts/user/': ok(user),
  'GET /api/translation/': ok({ provider: 'none', supportsTone: false, reach: null }),
});

async function open(href: string) {
  window.history.replaceState(null, '', href);
  render(<RouterProvider router={router} />);
  await act(() => router.load());
}

describe('an invitation to a chat', () => {
  it('shows on the chat’s page instead of the chat, with nothing of it fetched or watched; accepted, the chat itself shows', async () => {
    let accepted = false;
    routes = {
      ...commonRoutes(),
      'GET /api/chat/5/': () => ({ status: 200, body: teamChat(accepted ? 'joined' : 'invited') }),
      'GET /api/chat/5/member/': () => ({ status: 200, body: membership(accepted ? 'joined' : 'invited') }),
      'POST /api/chat/5/member/accept/': () => {
        accepted = true;
        return { status: 200, body: membership('joined') };
      },
      'GET /api/chat/5/messages/': ok({ next: null, previous: null, results: [message(40, { content: 'Welcome aboard' })] }),
      'GET /api/chat/': ok({ next: null, previous: null, results: [] }),
    };
    await open('/chat/5');
    const panel = await screen.findByRole('region', { name: 'Team Lisbon' });
    expect(within(panel).getByRole('heading', { level: 1, name: 'Team Lisbon' })).toBeTruthy();
    expect(within(panel).getByText(english.invitations.badge)).toBeTruthy();
    expect(within(panel).getByText(english.invitations.chatIntro)).toBeTruthy();
    expect(within(panel).getByText('Bob invited you.')).toBeTruthy();
    expect(within(panel).getByText('Planning the trip')).toBeTruthy();
    expect(within(panel).getByText('Languages: English and Spanish')).toBeTruthy();
    // Not the "not available" error, no messages, no composer, no subscription; the connection is held for the reader's own events.
    expect(screen.queryByText(english.chats.unavailableTitle)).toBeNull();
    expect(screen.queryByLabelText(english.chats.messageLabel)).toBeNull();
    expect(called('GET /api/chat/5/messages/')).toBe(false);
    await waitFor(() => expect(live.connects).toBeGreaterThan(0));
    expect(live.emitted.filter(([name]) => name === 'chat:subscribe')).toEqual([]);

    fireEvent.click(within(panel).getByRole('button', { name: english.invitations.accept }));
    expect(await screen.findByLabelText(english.chats.messageLabel, {}, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText('Welcome aboard')).toBeTruthy();
    expect(called('POST /api/chat/5/member/accept/')).toBe(true);
    expect(successes).toHaveBeenCalledWith('You joined “Team Lisbon”.');
    await waitFor(() => expect(live.emitted).toContainEqual(['chat:subscribe', { chatId: 5 }]));
    expect(screen.queryByRole('region', { name: 'Team Lisbon' })).toBeNull();
  });

  it('comes first in the chat list, and declined (after a confirmation) it leaves the list', async () => {
    let declined = false;
    const invitation = { ...teamChat('invited'), id: 6, title: 'Trip to Porto', modified: at(0), lastMessage: null, unreadCount: 0, unreadMentions: 0 };
    const joined = { ...teamChat('joined'), id: 7, title: 'Book club', modified: at(50), lastMessage: message(41, { content: 'See you' }), unreadCount: 0, unreadMentions: 0 };
    routes = {
      ...commonRoutes(),
      'GET /api/chat/': () => ({ status: 200, body: { next: null, previous: null, results: declined ? [joined] : [invitation, joined] } }),
      'DELETE /api/chat/6/member/': () => {
        declined = true;
        return { status: 204 };
      },
    };
    await open('/chat');
    const card = await screen.findByRole('article', { name: 'Trip to Porto' });
    const rows = screen.getAllByRole('listitem').filter((item) => item.closest('.chat-rows'));
    expect(rows[0]?.contains(card)).toBe(true);
    expect(within(card).getByText(english.invitations.badge)).toBeTruthy();
    // Who invited them (issue 37: the card did not say).
    expect(within(card).getByText('Bob invited you to join this chat.')).toBeTruthy();
    // The chat the reader joined is watched; the invitation is not (the server would refuse it).
    await waitFor(() => expect(live.emitted).toContainEqual(['chat:subscribe', { chatId: 7 }]));
    expect(live.emitted).not.toContainEqual(['chat:subscribe', { chatId: 6 }]);

    fireEvent.click(within(card).getByRole('button', { name: english.invitations.decline }));
    const confirm = await screen.findByRole('dialog', { name: english.invitations.declineTitle });
    expect(called('DELETE /api/chat/6/member/')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: english.invitations.decline }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Trip to Porto' })).toBeNull());
    expect(called('DELETE /api/chat/6/member/')).toBe(true);
    expect(successes).toHaveBeenCalledWith('You declined the invitation to “Trip to Porto”.');
    expect(screen.getByRole('link', { name: /Book club/ })).toBeTruthy();
  });
});

describe('an invitation to a room', () => {
  const room = (memberState: Room['memberState']): Room => ({
    id: 3,
    title: 'Lisbon planning',
    description: null,
    languages: ['en', 'es'],
    domain: 'TRAVEL',
    created: at(0),
    modified: at(1),
    state: ROOM_STATE.LIVE,
    roomRole: ROOM_ROLE.MEMBER,
    memberState,
    invitedBy: memberState === 'invited' ? 'Bob' : null,
  });
  const participation: Participant = { id: 4, alias: 'ana', roomRole: ROOM_ROLE.MEMBER, language: 'en', lkToken: null, lkUrl: null, maleVoice: false, tone: 'DEFAULT', memberState: 'invited' };

  it('sends the call back to the room’s page, which offers the invitation', async () => {
    routes = { ...commonRoutes(), 'GET /api/rooms/3/': ok(room('invited')), 'GET /api/rooms/3/participant/': ok(participation) };
    await open('/room/3/connect');
    const panel = await screen.findByRole('region', { name: 'Lisbon planning' }, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/room/3');
    expect(within(panel).getByText(english.invitations.roomIntro)).toBeTruthy();
    expect(within(panel).getByRole('button', { name: english.invitations.accept })).toBeTruthy();
    expect(called('GET /api/rooms/3/segments/')).toBe(false);
    expect(live.emitted.filter(([name]) => name === 'room:subscribe')).toEqual([]);
  });
});

describe('the members of a chat, for its owner', () => {
  const invitee: ManageChatMember = { id: 30, user: 'bo@example.com', chatRole: CHAT_ROLE.MEMBER, nickName: 'bo', avatarImage: null, memberState: 'invited' };
  const self: ManageChatMember = { id: 12, user: 'ana@example.com', chatRole: CHAT_ROLE.OWNER, nickName: 'Ana García', avatarImage: null, memberState: 'joined' };

  it('marks people still invited, says an invitation was sent, and shows why ownership cannot go to one of them', async () => {
    routes = {
      ...commonRoutes(),
      'GET /api/chat/5/': ok(teamChat('joined', CHAT_ROLE.OWNER)),
      'GET /api/chat/5/member/': ok(membership('joined', CHAT_ROLE.OWNER)),
      'GET /api/chat/5/messages/': ok({ next: null, previous: null, results: [] }),
      'GET /api/chat/5/members/': ok({ count: 2, next: null, previous: null, results: [self, invitee] }),
      'POST /api/chat/5/members/': (body) => ({ status: 201, body: { ...invitee, id: 31, user: (body as { user: string }).user, nickName: 'cy' } }),
      'PATCH /api/chat/5/members/30/': () => ({
        status: 400,
        body: { type: 'validation_error', errors: [{ code: 'invalid', attr: 'chatRole', detail: 'This person has not accepted the invitation yet.' }] },
      }),
    };
    await open('/chat/5');
    fireEvent.click(await screen.findByRole('button', { name: english.chats.members.button }));
    const dialog = await screen.findByRole('dialog', { name: english.chats.members.title });
    const row = (await within(dialog).findByText('bo@example.com')).closest('li')!;
    expect(within(row).getByText(english.invitations.invited)).toBeTruthy();
    const ownRow = within(dialog).getByText('ana@example.com').closest('li')!;
    expect(within(ownRow).queryByText(english.invitations.invited)).toBeNull();

    // Inviting: any well-formed address; the answer says an invitation went out.
    const form = within(dialog).getByRole('form', { name: english.invitations.inviteTitle });
    expect(within(form).getByText(english.invitations.inviteHint)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText(englishForm.email), { target: { value: 'cy@example.com' } });
    fireEvent.click(within(form).getByRole('button', { name: english.invitations.invite }));
    await waitFor(() => expect(successes).toHaveBeenCalledWith('Invitation sent to cy@example.com.'));
    expect(calls.find((item) => item.call === 'POST /api/chat/5/members/')?.body).toEqual({ user: 'cy@example.com', chatRole: CHAT_ROLE.MEMBER });

    // Handing ownership to someone only invited: the server's reason, in the dialog.
    fireEvent.change(within(row).getByRole('combobox', { name: 'Role of bo' }), { target: { value: String(CHAT_ROLE.OWNER) } });
    const handOver = await screen.findByRole('dialog', { name: english.chats.members.handOverTitle });
    fireEvent.click(within(handOver).getByRole('button', { name: english.chats.members.handOver }));
    expect((await within(handOver).findByRole('alert')).textContent).toBe('This person has not accepted the invitation yet.');
    // Shown as a field error, not toasted.
    expect(errors).not.toHaveBeenCalledWith('This person has not accepted the invitation yet.');
  });
});

describe('changing the password', () => {
  it('asks for the current password, sends it as oldPassword and shows the server’s answer on that field', async () => {
    routes = {
      ...commonRoutes(),
      'POST /api/accounts/password/change/': () => ({
        status: 400,
        body: { type: 'validation_error', errors: [{ code: 'wrong_password', attr: 'oldPassword', detail: 'The current password is wrong.' }] },
      }),
    };
    await open('/user');
    const form = await screen.findByRole('form', { name: english.profile.passwordTitle });
    const current = within(form).getByLabelText(englishForm.currentPassword);
    expect(current.getAttribute('autocomplete')).toBe('current-password');
    fireEvent.change(within(form).getByLabelText(englishForm.newPassword), { target: { value: 'violet-harbour-43' } });
    fireEvent.change(within(form).getByLabelText(englishForm.repeatPassword), { target: { value: 'violet-harbour-43' } });
    fireEvent.click(within(form).getByRole('button', { name: english.profile.changePassword }));
    // Required by the form, even within minutes of signing in.
    expect(await within(form).findByText(englishZod.required)).toBeTruthy();
    expect(called('POST /api/accounts/password/change/')).toBe(false);

    fireEvent.change(current, { target: { value: 'not-my-password' } });
    fireEvent.click(within(form).getByRole('button', { name: english.profile.changePassword }));
    expect(await within(form).findByText('The current password is wrong.')).toBeTruthy();
    expect(calls.find((item) => item.call === 'POST /api/accounts/password/change/')?.body).toEqual({
      oldPassword: 'not-my-password',
      newPassword1: 'violet-harbour-43',
      newPassword2: 'violet-harbour-43',
    });
    expect(current.getAttribute('aria-invalid')).toBe('true');
  });
});
