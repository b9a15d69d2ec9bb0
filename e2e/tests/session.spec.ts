// A session revoked elsewhere: the password is changed in one browser (the profile page), which
// ends the user's other sessions on the server. Each other browser, on a protected page, lands
// on /signin?access=<that page> with "Your session ended. Please sign in again.", never on a
// spinner: after a reload, after a navigation, and on a chat page whose live connection the
// server cut. Signing in again (new password) goes back to the page. Screenshots of the
// sign-in page with the explanation at 375 and 1280 px go to test-results/session/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { createActivatedUser, type TestUser } from '../fixtures';

const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results', 'session');
const EXPLANATION = 'Your session ended. Please sign in again.';
const NEW_PASSWORD = 'amber-lighthouse-97';

async function signedIn(browser: Browser, user: TestUser, password = user.password): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/signin');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  return page;
}

/** On sign-in, sent there from `from`, saying why; no spinner left. */
async function expectSentToSignIn(page: Page, from: string) {
  await expect(page.getByText(EXPLANATION)).toBeVisible();
  const url = new URL(page.url());
  expect(url.pathname).toBe('/signin');
  expect(url.searchParams.get('access')).toBe(from);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByText('Loading…')).toHaveCount(0);
}

test('a password change elsewhere sends every other browser to sign in, saying why, on every kind of page', async ({ browser, request }) => {
  test.setTimeout(150_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const login = await request.post('/api/accounts/login/', { data: { email: ada.email, password: ada.password } });
  const { access } = (await login.json()) as { access: string };
  const created = await request.post('/api/chat/', { headers: { Authorization: `Bearer ${access}` }, data: { title: 'Session test', languages: ['en'] } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  // Four other browsers: on the profile and at home (no live connection), on the chat list and
  // on a chat (live connection open).
  const onProfile = await signedIn(browser, ada);
  await onProfile.goto('/user');
  await expect(onProfile.getByRole('heading', { name: 'Change your password' })).toBeVisible();
  const atHome = await signedIn(browser, ada);
  await expect(atHome.getByRole('heading', { name: 'Your recent rooms' })).toBeVisible();
  const onList = await signedIn(browser, ada);
  await onList.getByRole('link', { name: 'Chats', exact: true }).click();
  await expect(onList.getByRole('link', { name: /Session test/ })).toBeVisible();
  const onChat = await signedIn(browser, ada);
  await onChat.goto(`/chat/${id}`);
  await expect(onChat.getByRole('heading', { name: 'Session test' })).toBeVisible();
  await expect(onChat.getByText('Reconnecting…')).toBeHidden();

  // The password is changed in yet another browser, through the profile page.
  const changer = await signedIn(browser, ada);
  await changer.goto('/user');
  // The form asks for the current password first; a wrong one is refused on that field.
  await changer.getByLabel('Current password').fill('not-the-password');
  await changer.getByLabel('New password').fill(NEW_PASSWORD);
  await changer.getByLabel('Repeat password').fill(NEW_PASSWORD);
  await changer.getByRole('button', { name: 'Change password' }).click();
  await expect(changer.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await changer.getByLabel('Current password').fill(ada.password);
  await changer.getByLabel('New password').fill(NEW_PASSWORD);
  await changer.getByLabel('Repeat password').fill(NEW_PASSWORD);
  await changer.getByRole('button', { name: 'Change password' }).click();
  await expect(changer.getByText('Your password is changed.', { exact: false }).first()).toBeVisible();

  // The chat and the chat list: the server cut their live connection and refuses a new one; the
  // client asks, the refresh is refused, and each leaves for sign-in by itself.
  await expectSentToSignIn(onChat, `/chat/${id}`);
  await expectSentToSignIn(onList, '/chat');

  // The profile page, reloaded: the stored expiries still look fresh, the first call is refused.
  await onProfile.reload();
  await expectSentToSignIn(onProfile, '/user');

  // Home, then a click to the rooms: the rooms' call is refused.
  await atHome.getByRole('link', { name: 'Rooms', exact: true }).click();
  await expectSentToSignIn(atHome, '/room');
  // Reloading the sign-in page keeps the explanation (history state), and the cache is gone:
  // no chat of the user is anywhere in the page.
  await onList.reload();
  await expect(onList.getByText(EXPLANATION)).toBeVisible();
  await expect(onList.getByText('Session test')).toHaveCount(0);

  for (const width of [375, 1280]) {
    await onProfile.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await onProfile.waitForTimeout(150);
    await onProfile.screenshot({ path: path.join(shots, `signin-session-ended-${width}.png`) });
  }
  await onProfile.setViewportSize({ width: 1280, height: 800 });

  // Signing in again, with the new password, leads back to the page.
  await onProfile.getByLabel('Email').fill(ada.email);
  await onProfile.getByLabel('Password').fill(NEW_PASSWORD);
  await onProfile.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(onProfile).toHaveURL((url) => url.pathname === '/user');
  await expect(onProfile.getByRole('heading', { name: 'Change your password' })).toBeVisible();

  // The browser that changed the password keeps its session.
  await changer.getByRole('link', { name: 'Chats', exact: true }).click();
  await expect(changer.getByRole('link', { name: /Session test/ })).toBeVisible();
});
