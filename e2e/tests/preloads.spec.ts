// What index.html's Link header announces for a page (apps/server/src/platform/web-client.ts, from
// the build's route-preloads.json) is what the page then uses: its chunks, and the API answers a
// signed-in page fetches as soon as it renders. A preload nobody uses is a request for nothing
// that competes with the page's own; Chromium says so in the console a few seconds after load.
import { expect, test, type Page } from '@playwright/test';
import { signedIn } from '../chat';
import { bearer, createActivatedUser } from '../fixtures';

const UNUSED = /preloaded using link preload but not used/;

/** Opens `path` in a new tab of the context and answers what its document announced and the console's complaints about unused preloads. */
async function visit(page: Page, path: string) {
  const tab = await page.context().newPage();
  const unused: string[] = [];
  tab.on('console', (message) => {
    if (UNUSED.test(message.text())) unused.push(message.text());
  });
  const response = await tab.goto(path);
  const links = (response?.headers().link ?? '').split(/,\s*(?=<)/).filter(Boolean);
  await tab.waitForLoadState('load');
  // Chromium complains about an unused preload three seconds after the load event.
  await tab.waitForTimeout(4_000);
  await tab.close();
  return { links, unused };
}

test('every preload a page announces is used by that page', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const user = await createActivatedUser(request, 'Petra Preload');
  const headers = await bearer(request, user);
  const chat = (await (await request.post('/api/chat/', { headers, data: { title: 'Preloads', languages: ['en', 'es'] } })).json()) as { id: number };
  await request.post(`/api/chat/${chat.id}/messages/`, { headers, data: { content: 'Hello there' } });
  const room = (await (await request.post('/api/rooms/', { headers, data: { title: 'Preload room', languages: ['en', 'es'] } })).json()) as { id: number };

  const page = await signedIn(browser, user, 'en-US');
  for (const path of ['/', '/user', '/chat', `/chat/${chat.id}`, '/room', `/room/${room.id}`]) {
    const { links, unused } = await visit(page, path);
    // The page's API answers are announced (the test would prove nothing otherwise)…
    expect(links.some((link) => link.startsWith('</api/') && link.includes('rel=preload; as=fetch')), `${path}: ${links.join(', ')}`).toBe(true);
    // …with the page's own ids.
    for (const link of links.filter((item) => item.startsWith('</api/'))) expect(link).not.toContain('$');
    expect(unused, path).toEqual([]);
  }
  await page.context().close();

  // Signed out, a public page: its chunks only, all used.
  const visitor = await browser.newContext({ locale: 'en-US' });
  const signIn = await visitor.newPage();
  const { links, unused } = await visit(signIn, '/signin');
  expect(links.some((link) => link.includes('rel=modulepreload'))).toBe(true);
  expect(links.some((link) => link.startsWith('</api/'))).toBe(false);
  expect(unused).toEqual([]);
  await visitor.close();
});
