// The service worker's update, as a visitor meets it: they opened build A (its worker took
// control), build B is deployed, they come back, and the page reloads exactly once onto B's
// assets, then stays there.
//
// Build A is the real build (apps/web/dist, copied). Build B is derived from it rather than built
// a second time (a `vite build` takes ~10 s here, more beside a full test run): the entry script
// gets one more statement (it marks <html data-parla-build="B">) and so a new hashed name, and
// index.html and sw.js follow as a build would write them: index.html points at the new entry,
// sw.js's precache manifest lists the new entry and index.html's new revision (the md5 of its
// content, as workbox computes it), with fresh .br/.gz variants. So the page runs the app's own
// registration code (src/lib/service-worker.ts) and the browser installs vite-plugin-pwa's own
// sw.js, changed only in the manifest. The server serves a symlink that is switched from A to B.
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { startStack, WEB_DIST_DIR, type Stack } from '../stack';

const here = path.dirname(fileURLToPath(import.meta.url));
const ENTRY = /<script type="module" crossorigin src="\/assets\/(index-[\w-]+\.js)"><\/script>/;
const TEXT = /\.(js|mjs|css|html|json|webmanifest)$/;

let tmp: string;
let served: string;
let stack: Stack;
let entryA: string;
let entryB: string;

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Writes `file` and, as the build's precompress plugin does, its .br and .gz when smaller. */
async function writeWithVariants(file: string, content: string) {
  const bytes = Buffer.from(content);
  await writeFile(file, bytes);
  for (const [extension, compressed] of [
    ['.br', brotliCompressSync(bytes)],
    ['.gz', gzipSync(bytes, { level: 9 })],
  ] as const) {
    if (compressed.length < bytes.length) await writeFile(file + extension, compressed);
    else await rm(file + extension, { force: true });
  }
}

function replaceOnce(text: string, from: string, to: string, what: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`${what}: expected "${from}" exactly once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** Copies build A into `b` and turns it into build B (see the top of the file). */
async function deriveBuildB(a: string, b: string) {
  await cp(a, b, { recursive: true });
  const html = await readFile(path.join(b, 'index.html'), 'utf8');
  const entry = ENTRY.exec(html)?.[1];
  if (!entry) throw new Error(`no entry script in ${a}/index.html`);
  // The entry is renamed alone: nothing but index.html and sw.js may name it (a chunk importing
  // it would have to be renamed too).
  const names = (await readdir(b, { recursive: true })).filter((name) => TEXT.test(name) && name !== 'index.html' && name !== 'sw.js');
  for (const name of names) {
    if ((await readFile(path.join(b, name), 'utf8')).includes(entry)) throw new Error(`${name} refers to the entry ${entry}: rename it too`);
  }

  const code = `${await readFile(path.join(b, 'assets', entry), 'utf8')}\ndocument.documentElement.dataset.parlaBuild = 'B';\n`;
  const renamed = `index-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
  for (const suffix of ['', '.br', '.gz']) await rm(path.join(b, 'assets', entry + suffix), { force: true });
  await writeWithVariants(path.join(b, 'assets', renamed), code);

  const htmlB = replaceOnce(html, `/assets/${entry}`, `/assets/${renamed}`, 'index.html');
  await writeWithVariants(path.join(b, 'index.html'), htmlB);
  let sw = await readFile(path.join(b, 'sw.js'), 'utf8');
  sw = replaceOnce(sw, `"assets/${entry}"`, `"assets/${renamed}"`, 'sw.js');
  sw = replaceOnce(sw, `url:"index.html",revision:"${md5(html)}"`, `url:"index.html",revision:"${md5(htmlB)}"`, 'sw.js');
  await writeWithVariants(path.join(b, 'sw.js'), sw);
  return { entryA: entry, entryB: renamed };
}

/** Points the served folder (a symlink) at `build`, in one rename. */
async function serve(build: string) {
  const next = `${served}.next`;
  await symlink(build, next);
  await rename(next, served);
}

test.use({ serviceWorkers: 'allow' });

test.beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'parla-sw-update-'));
  const a = path.join(tmp, 'a');
  await cp(WEB_DIST_DIR, a, { recursive: true });
  served = path.join(tmp, 'web');
  await serve(a);
  // B is made while the server starts on A.
  const [names, started] = await Promise.all([deriveBuildB(a, path.join(tmp, 'b')), startStack({ env: { WEB_DIST_DIR: served } })]);
  ({ entryA, entryB } = names);
  stack = started;
});

test.afterAll(async () => {
  await stack?.stop({ saveLogTo: path.join(here, '..', 'test-results', 'service-worker-update', 'server.log') });
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/**
 * Waits for the registration's update check (joining the one the page started, if any) and
 * returns where it left the worker: nothing installing or waiting means no takeover is coming.
 */
function settledWorker(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration?.update();
    return {
      script: new URL(navigator.serviceWorker.controller?.scriptURL ?? 'none:').pathname,
      pending: Boolean(registration?.installing ?? registration?.waiting),
      controlledByActive: navigator.serviceWorker.controller === registration?.active,
    };
  });
}

function entryScript(page: Page) {
  return page.evaluate(() => document.querySelector('script[type="module"][src]')?.getAttribute('src'));
}

test('a new build takes over with exactly one reload, onto its assets, and stays', async ({ page }) => {
  let loads = 0;
  page.on('load', () => loads++);
  const failures: string[] = [];
  page.on('console', (message) => {
    if (/service worker/i.test(message.text())) failures.push(message.text());
  });
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  const html = page.locator('html');

  // First visit, build A: its worker installs and takes control (clientsClaim) without a reload.
  await page.goto(`${stack.baseURL}/signin`);
  await expect(signIn).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
      message: 'the new worker takes control of the page that installed it (clientsClaim)',
    })
    .toBe(true);
  expect(await settledWorker(page)).toEqual({ script: '/sw.js', pending: false, controlledByActive: true });
  expect(await entryScript(page)).toBe(`/assets/${entryA}`);
  await expect(html).not.toHaveAttribute('data-parla-build');
  expect(loads, 'the first install must not reload the page').toBe(1);

  // Build B is deployed; the visitor comes back (a reload). A's worker serves A's page, whose
  // update check at start finds B's sw.js: B installs, takes over, and the page reloads onto B.
  await serve(path.join(tmp, 'b'));
  await page.reload();
  await expect(html).toHaveAttribute('data-parla-build', 'B', { timeout: 15_000 });
  await expect(signIn).toBeVisible();
  // Settled on B: the page's own update check is over and nothing newer is coming.
  expect(await settledWorker(page)).toEqual({ script: '/sw.js', pending: false, controlledByActive: true });
  expect(await entryScript(page)).toBe(`/assets/${entryB}`);
  expect(loads, 'the visitor reloaded once and the new worker once').toBe(3);

  // A further visit loads B once, with no reload after it.
  await page.reload();
  await expect(html).toHaveAttribute('data-parla-build', 'B');
  await expect(signIn).toBeVisible();
  expect(await settledWorker(page)).toEqual({ script: '/sw.js', pending: false, controlledByActive: true });
  expect(await entryScript(page)).toBe(`/assets/${entryB}`);
  expect(loads, 'a visit on the current build does not reload').toBe(4);
  expect(failures).toEqual([]);
});
