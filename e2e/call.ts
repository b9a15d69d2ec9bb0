// Helpers for the call tests: Chromium with a fake camera and microphone, a user signed in
// through the page, the API from a page's session, and the checks that a call's video plays.
import { chromium, expect, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import type { TestUser } from './fixtures';
import type { Stack } from './stack';

/**
 * Chromium with a fake camera (a moving test pattern) and a fake microphone, media permissions
 * granted and sound allowed to play: the microphone beeps, or plays `wavFile` once (over and over
 * with `loop`).
 */
export function launchWithFakeMedia(wavFile?: string, { loop = false } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      ...(wavFile ? [`--use-file-for-fake-audio-capture=${wavFile}${loop ? '' : '%noloop'}`] : []),
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

/** `user` signed in through the sign-in page of `stack`, in a new context of `browser`. */
export async function signedInOn(browser: Browser, stack: Stack, user: TestUser, locale = 'en-US'): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: stack.baseURL, locale, serviceWorkers: 'block' })).newPage();
  await page.goto('/signin');
  await page.locator('input[type="email"]').fill(user.email);
  await page.locator('input[type="password"]').fill(user.password);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  return page;
}

/** A call of the API from the page's session (its cookies and XSRF token); its JSON, or undefined for a 204. */
export async function api(page: Page, method: string, url: string, data?: unknown) {
  const xsrf = (await page.context().cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  const answer = await page.request.fetch(url, { method, data: data as never, headers: { 'x-xsrf-token': xsrf } });
  expect(answer.ok(), `${method} ${url}: ${answer.status()} ${await answer.text()}`).toBe(true);
  return answer.status() === 204 ? undefined : ((await answer.json()) as { id: number });
}

/** The tile of participant `id` on `page`, its video playing: frames keep coming. */
export async function expectVideoPlaying(page: Page, participantId: number) {
  const video = page.locator(`.stage-tile[data-participant="${participantId}"] video`);
  await expect(video).toBeVisible({ timeout: 20_000 });
  const frames = () => video.evaluate((element: HTMLVideoElement) => element.getVideoPlaybackQuality().totalVideoFrames);
  const before = await frames();
  await expect.poll(frames, { timeout: 10_000 }).toBeGreaterThan(before + 5);
  expect(await video.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBeGreaterThan(0);
}
