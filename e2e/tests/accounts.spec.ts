// The account journey in the browser: sign up, activate from the e-mail, sign in, profile with
// avatar and interface language, sign out, the session guard, sign in again. English UI texts
// (the context's locale is en-US); Spanish once the user picks it.
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createActivatedUser, linkFrom, PASSWORD, screenshots, uniqueEmail, waitForMail } from '../fixtures';

const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results', 'accounts');

const onPath = (pathname: string) => (url: URL) => url.pathname === pathname;

/** Fills the sign-in form, in English or (after the switch) in Spanish. */
async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel(/^(Email|Correo electrónico)$/).fill(email);
  await page.getByLabel(/^(Password|Contraseña)$/).fill(password);
  await page.getByRole('button', { name: /^(Sign in|Iniciar sesión)$/ }).click();
}

test('sign up, activate, sign in, edit the profile, sign out and back in', async ({ page }) => {
  const fullName = 'Ada Lovelace';
  const email = uniqueEmail('journey');

  // Sign up.
  await page.goto('/signup/');
  await page.getByLabel('Full name', { exact: true }).fill(fullName);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByText('Check your e-mail').first()).toBeVisible();

  // The activation link from the e-mail lands on /signin with a toast.
  const mail = await waitForMail(email, /activ/i);
  const link = linkFrom(mail.text, '/signup/activation/');
  await page.goto(link);
  await expect(page).toHaveURL(onPath('/signin'));
  await expect(page.getByText('Your e-mail address is verified.').first()).toBeVisible();
  // The same link again (a second click, a mail scanner) says the account is active, with a way in.
  await page.goto(link);
  await expect(page.getByRole('status').filter({ hasText: 'This account is already active: sign in.' })).toBeVisible();
  await screenshots(page, shots, 'activation-used');
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(onPath('/signin'));

  // Sign in: home greets by name.
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(onPath('/'));
  await expect(page.getByRole('heading', { name: `Hello, ${fullName}` })).toBeVisible();

  // Profile: upload an avatar.
  await page.getByRole('link', { name: 'Profile', exact: true }).click();
  await expect(page).toHaveURL(onPath('/user'));
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: { r: 31, g: 79, b: 209 } } })
    .png()
    .toBuffer();
  await page.getByLabel('Avatar', { exact: true }).setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const avatar = page.getByRole('img', { name: 'Your avatar', exact: true });
  await expect(avatar).toBeVisible();
  await expect(avatar).toHaveAttribute('src', /\/media\/avatars\//);
  // The file is really served: the browser decoded it.
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

  // Reading language for new chats and rooms: Spanish, while the interface stays English.
  await page.getByLabel('Language I read new chats and rooms in').selectOption('es');
  await expect(page.getByText('Reading language saved.').first()).toBeVisible();
  await screenshots(page, shots, 'profile-reading-language');
  expect((await (await page.request.get('/api/accounts/user/')).json()).readingLanguage).toBe('es');

  // Interface language: Spanish.
  await page.getByRole('button', { name: /^Interface language/ }).click();
  await page.getByRole('dialog', { name: 'Interface language' }).getByLabel('Find a language').fill('espanol');
  await page.getByRole('dialog', { name: 'Interface language' }).getByRole('button', { name: /^Español/ }).click();
  await expect(page.getByRole('heading', { name: 'Perfil', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Inicio', exact: true })).toBeVisible();

  // Sign out (in Spanish).
  await page.getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
  await expect(page).toHaveURL(onPath('/signin'));

  // The session guard sends a protected page to /signin?access=/user ...
  await page.goto('/user');
  await expect(page).toHaveURL((url) => url.pathname === '/signin' && url.searchParams.get('access') === '/user');

  // ... and signing in goes back there.
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(onPath('/user'));
});

test('a wrong password shows the server message in the form', async ({ page, request }) => {
  const user = await createActivatedUser(request, 'Grace Hopper');
  await page.goto('/signin');
  await signIn(page, user.email, `${user.password}-wrong`);
  await expect(page.locator('form').getByText('Unable to log in with provided credentials.')).toBeVisible();
  await expect(page).toHaveURL(onPath('/signin'));
});

test('an unknown route shows Not Found', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Not Found').first()).toBeVisible();
});
