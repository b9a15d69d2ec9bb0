// What holds whatever the client screens look like: the API answers, the single-page app is
// served on client routes, and unknown routes get the client's Not Found page.
import { expect, test } from '@playwright/test';

test('GET /api/status/ answers status ok', async ({ request }) => {
  const response = await request.get('/api/status/');
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: 'ok', database: 'ok' });
});

test('an unknown route shows Not Found', async ({ page }) => {
  await page.goto('/some/unknown/route');
  await expect(page.getByText('Not Found').first()).toBeVisible();
});

test('/signin serves the single-page app titled Parla', async ({ page }) => {
  const response = await page.goto('/signin');
  expect(response?.status()).toBe(200);
  await expect(page.locator('div#root')).toHaveCount(1);
  await expect(page).toHaveTitle(/Parla/);
  // The tab names the page once it has rendered.
  await expect(page).toHaveTitle('Sign in · Parla');
});
