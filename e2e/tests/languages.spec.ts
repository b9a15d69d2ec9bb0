// The interface in other languages: Arabic turns the page right to left (dir and lang on <html>,
// the navigation mirrored), Japanese (picked from the browser's language) leaves no English word
// on the sign-in and home pages, and screenshots of sign-in, home, a chat and a room in six
// languages at 375 and 1280 px go to test-results/languages/ to be looked at.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { createActivatedUser, type TestUser } from '../fixtures';

const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results', 'languages');

/** Opens the interface-language list (the globe button), finds `search` and picks `name`. */
async function chooseLanguage(page: Page, search: string, name: string) {
  await page.locator('.language-button').first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('searchbox').fill(search);
  await dialog.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', /./);
}

/** Signs in through the form, whatever language it is in. */
async function signIn(page: Page, user: TestUser) {
  await page.locator('input[type="email"]').fill(user.email);
  await page.locator('input[type="password"]').fill(user.password);
  await page.locator('form button[type="submit"]').click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
}

/** Every text the reader can see (text nodes of rendered elements, and placeholders). */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const element = node.parentElement;
      if (!text || !element || element.closest('script, style, noscript, svg')) continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden' || element.getClientRects().length === 0) continue;
      texts.push(text);
    }
    for (const field of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]')) texts.push(field.placeholder);
    return texts;
  });
}

/** Words of three Latin letters or more, but for the names allowed to stay as they are. */
function englishLeft(texts: string[], allowed: string[]): string[] {
  return texts.flatMap((text) => {
    let rest = text;
    for (const name of allowed) rest = rest.split(name).join(' ');
    return /[A-Za-z]{3,}/.test(rest) ? [text] : [];
  });
}

test('Arabic turns the interface right to left, and English back', async ({ page, request }) => {
  const user = await createActivatedUser(request, 'Ada Lovelace');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/signin');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');

  // "arab" finds Arabic by its English name; the list names it in itself.
  await chooseLanguage(page, 'arab', 'العربية');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('.language-button')).toContainText('العربية');

  await signIn(page, user);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  // Mirrored: the brand at the right, the navigation's first item right of its last.
  const nav = page.locator('nav .nav-link');
  await expect(nav).toHaveCount(4);
  const first = (await nav.first().boundingBox())!;
  const last = (await nav.last().boundingBox())!;
  expect(first.x).toBeGreaterThan(last.x);
  const brand = (await page.locator('.brand').boundingBox())!;
  const language = (await page.locator('.language-button').boundingBox())!;
  expect(brand.x).toBeGreaterThan(language.x);
  expect(brand.x + brand.width).toBeGreaterThan(1280 - 40);
  // The same on a phone, where the navigation is a bar at the bottom.
  await page.setViewportSize({ width: 375, height: 740 });
  expect((await nav.first().boundingBox())!.x).toBeGreaterThan((await nav.last().boundingBox())!.x);

  // Kept after a reload; English turns it back.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await chooseLanguage(page, 'engl', 'English');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('link', { name: 'Home', exact: true })).toBeVisible();
});

test('a Japanese browser gets the interface in Japanese: no English word on sign-in and home', async ({ browser, request }) => {
  const user = await createActivatedUser(request, '山田 花子');
  const context = await browser.newContext({ locale: 'ja-JP' });
  const page = await context.newPage();
  await page.goto('/signin');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.locator('form button[type="submit"]')).toBeVisible();
  expect(englishLeft(await visibleTexts(page), ['Parla']), 'English left on /signin').toEqual([]);

  await signIn(page, user);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('山田 花子');
  await expect(page.locator('.room-list, .empty-state').first()).toBeVisible();
  expect(englishLeft(await visibleTexts(page), ['Parla']), 'English left on /').toEqual([]);
  await context.close();
});

// ---- screenshots ----

const LANGUAGES = ['en', 'ar', 'ja', 'hi', 'ru', 'de'] as const;

async function bearer(request: APIRequestContext, user: TestUser): Promise<Record<string, string>> {
  const login = await request.post('/api/accounts/login/', { data: { email: user.email, password: user.password } });
  expect(login.status()).toBe(200);
  const { access } = (await login.json()) as { access: string };
  return { Authorization: `Bearer ${access}` };
}

/** The stored interface language (the `lang` store), before the page's scripts run. */
const storeLanguage = (lang: string) => `localStorage.setItem('lang', JSON.stringify({ state: { currentLang: '${lang}' }, version: 0 }))`;

async function screenshots(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(shots, `${name}-${width}.png`) });
  }
}

async function signedInContext(browser: Browser, user: TestUser, lang: string): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(storeLanguage(lang));
  const page = await context.newPage();
  await page.goto('/signin');
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await signIn(page, user);
  return page;
}

test('screenshots: sign-in, home, a chat and a room in six languages at 375 and 1280 px', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const headers = await bearer(request, ada);
  const chat = await request.post('/api/chat/', { headers, data: { title: 'Team Lisbon · فريق لشبونة', description: 'Planning the trip', languages: ['en', 'ar', 'ja'] } });
  expect(chat.status()).toBe(201);
  const chatId = ((await chat.json()) as { id: number }).id;
  for (const content of ['Good morning! The train leaves at nine.', 'صباح الخير، أين المحطة؟', '駅はどこですか？']) {
    expect((await request.post(`/api/chat/${chatId}/messages/`, { headers, data: { content } })).ok()).toBe(true);
  }
  const room = await request.post('/api/rooms/', { headers, data: { title: 'Lisbon planning', description: 'Where we meet and what we visit', languages: ['en', 'ar', 'hi'], domain: 'TRAVEL' } });
  expect(room.status()).toBe(201);
  const roomId = ((await room.json()) as { id: number }).id;

  for (const lang of LANGUAGES) {
    const visitor = await browser.newContext();
    await visitor.addInitScript(storeLanguage(lang));
    const signin = await visitor.newPage();
    await signin.goto('/signin');
    await expect(signin.locator('html')).toHaveAttribute('lang', lang);
    await expect(signin.locator('form button[type="submit"]')).toBeVisible();
    await screenshots(signin, `signin-${lang}`);
    await visitor.close();

    const page = await signedInContext(browser, ada, lang);
    await expect(page.locator('h1.greeting')).toContainText('Ada');
    await expect(page.locator('.room-list .room-card').first()).toBeVisible();
    await screenshots(page, `home-${lang}`);
    // The interface-language list, found by a search in Latin letters.
    await page.locator('.language-button').first().click();
    await page.getByRole('dialog').getByRole('searchbox').fill('a');
    await screenshots(page, `language-list-${lang}`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    // A new chat's language picker (both names of each language, chips of the chosen ones).
    await page.goto('/chat');
    await page.locator('.page-head .btn-primary').click();
    const create = page.getByRole('dialog');
    await create.locator('.language-options input[type="checkbox"]').nth(3).check();
    await screenshots(page, `new-chat-${lang}`);
    await page.keyboard.press('Escape');

    await page.goto(`/chat/${chatId}`);
    await expect(page.locator('.message .bubble-text')).toHaveCount(3);
    await screenshots(page, `chat-${lang}`);

    await page.goto(`/room/${roomId}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Lisbon planning');
    await screenshots(page, `room-${lang}`);
    await page.context().close();
  }
});
