// What the chat browser tests share: the interface's strings in a language (read from the locale
// files the app serves, so a test names controls as a user of that language sees them), a person
// signed in through the sign-in page in a browser of their own locale, and a chat in English and
// Spanish with a second member who reads it in Spanish, made through the API.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { bearer, type TestUser } from './fixtures';

const root = path.dirname(fileURLToPath(import.meta.url));

/** The app's interface strings in `lang` (apps/web/public/locales/<lang>/translation.json). */
export const uiStrings = (lang: string) => JSON.parse(readFileSync(path.join(root, '..', 'apps', 'web', 'public', 'locales', lang, 'translation.json'), 'utf8'));

/** A new browser context in `locale` (service workers blocked unless allowed), signed in through the sign-in page (whatever its language). */
export async function signedIn(browser: Browser, user: TestUser, locale: string, options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<Page> {
  const context = await browser.newContext({ locale, ...options });
  const page = await context.newPage();
  await page.goto('/signin');
  await page.locator('input[type="email"]').fill(user.email);
  await page.locator('input[type="password"]').fill(user.password);
  await page.locator('form button[type="submit"]').click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  return page;
}

/**
 * `owner`'s chat titled `title` in `languages` (English and Spanish by default), with each of
 * `readers` invited, accepted and reading in the language given; answers the chat and the bearer
 * headers of everyone.
 */
export async function chatWithReaders(
  request: APIRequestContext,
  owner: TestUser,
  readers: { user: TestUser; language: string; nickName?: string }[],
  options: { title?: string; description?: string; languages?: string[] } = {},
) {
  const asOwner = await bearer(request, owner);
  const body = { title: options.title ?? 'Lisbon trip', languages: options.languages ?? ['en', 'es'], ...(options.description ? { description: options.description } : {}) };
  const chat = (await (await request.post('/api/chat/', { headers: asOwner, data: body })).json()) as { id: number };
  const headers: Record<string, string>[] = [];
  for (const { user, language, nickName } of readers) {
    const asReader = await bearer(request, user);
    headers.push(asReader);
    expect((await request.post(`/api/chat/${chat.id}/members/`, { headers: asOwner, data: { user: user.email, chatRole: 2003 } })).status()).toBe(201);
    expect((await request.post(`/api/chat/${chat.id}/member/accept/`, { headers: asReader })).status()).toBe(200);
    expect((await request.patch(`/api/chat/${chat.id}/member/`, { headers: asReader, data: { language, ...(nickName ? { nickName } : {}) } })).status()).toBe(200);
  }
  return { chat, asOwner, asReaders: headers };
}
