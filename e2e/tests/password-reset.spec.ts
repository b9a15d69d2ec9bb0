// Password reset as a signed-out visitor: ask for the link, follow it from the e-mail, choose a
// new password, sign in with it.
import { expect, test } from '@playwright/test';
import { createActivatedUser, linkFrom, waitForMail } from '../fixtures';

test('a forgotten password is reset through the e-mailed link', async ({ page, request }) => {
  const user = await createActivatedUser(request, 'Katherine Johnson');
  const since = Date.now();

  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/password/reset');
  // The URL changes before the page's chunk has loaded, and sign-in has an Email field too.
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByRole('button', { name: 'Send the link', exact: true }).click();
  await expect(page.getByText('If an account exists for that address, a reset link is on its way.')).toBeVisible();

  const mail = await waitForMail(user.email, /reset/i, { since });
  await page.goto(linkFrom(mail.text, '/password/reset/'));
  const newPassword = 'orbit-calculation-1962';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Save the new password', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/signin');
  await expect(page.getByText('Your password has been reset. Sign in with the new one.').first()).toBeVisible();

  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Hello, Katherine Johnson' })).toBeVisible();
});
