// The service worker: registered from /sw.js at root scope, and the app shell keeps working
// offline and says so.
import { expect, test } from '@playwright/test';

test.use({ serviceWorkers: 'allow' });

test('the app shell loads offline from the service worker and says it is offline', async ({ page, context }) => {
  await page.goto('/signin');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  const registration = await page.evaluate(async () => {
    const ready = await navigator.serviceWorker.ready;
    return { script: ready.active?.scriptURL ?? '', scope: ready.scope };
  });
  expect(new URL(registration.script).pathname).toBe('/sw.js');
  expect(new URL(registration.scope).pathname).toBe('/');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByText('You are offline.', { exact: false })).toBeVisible();

  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page.getByText('You are offline.', { exact: false })).toBeHidden();
});
