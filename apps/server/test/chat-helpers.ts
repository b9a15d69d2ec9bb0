// Factories for chat tests: members signed in as browsers would be, chats built through the API.
import { expect } from 'vitest';
import { signedIn, type Client, type TestServer } from './harness';

export interface Person {
  client: Client;
  email: string;
  userId: number;
  access: string;
}

export async function person(server: TestServer, name = 'Member'): Promise<Person> {
  const { client, email, login } = await signedIn(server, undefined, name);
  return { client, email, userId: login.user.id, access: login.access };
}

export const send = (who: Person, method: string, url: string, json?: unknown) =>
  who.client.request(method, url, { ...(json === undefined ? {} : { json }), xsrf: true });

export async function createChat(owner: Person, body: Record<string, unknown> = { title: 'Team', languages: ['en', 'es'] }) {
  const answer = await send(owner, 'POST', '/api/chat/', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: number; title: string; languages: string[] };
}

/** Invites `who` to the chat with `role` (by the owner or an admin); returns the member id. */
export async function invite(by: Person, chatId: number, email: string, role = 2003): Promise<number> {
  const answer = await send(by, 'POST', `/api/chat/${chatId}/members/`, { user: email, chatRole: role });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as number;
}

/** Adds `who` to the chat with `role`: invited, and `who` accepts; returns the member id. */
export async function addMember(by: Person, chatId: number, who: Person, role = 2003): Promise<number> {
  const id = await invite(by, chatId, who.email, role);
  const accepted = await send(who, 'POST', `/api/chat/${chatId}/member/accept/`);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return id;
}

export async function setReading(who: Person, chatId: number, language: string, tone = 'DEFAULT') {
  const answer = await send(who, 'PATCH', `/api/chat/${chatId}/member/`, { language, tone });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

export async function post(who: Person, chatId: number, content: string, clientId?: string) {
  const answer = await send(who, 'POST', `/api/chat/${chatId}/messages/`, clientId ? { content, clientId } : { content });
  expect([200, 201], JSON.stringify(answer.body)).toContain(answer.status);
  return answer.body as { id: number; content: string; translation: string };
}

/** Polls until `check` passes (translations arrive from background jobs). */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
