// Report, not a test: Lighthouse (the npm package, its default mobile preset: a mid-range phone,
// slow 4G, 4x CPU slowdown) on the product's pages, driving Debian's Chromium, against the
// targets performance >= 95 and accessibility 100. Starts the product as the browser tests do
// (@parla/e2e/stack), signs a user in, creates a chat and a room with content, then runs each page
// cold (browser cache cleared; the signed-in pages keep their session cookies and storage).
// Exits 0 whatever the scores; 1 only when something fails to start.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@parla/e2e/chromium';
import { startStack, type Stack } from '@parla/e2e/stack';

const TARGETS = { performance: 95, accessibility: 100 };
const PASSWORD = 'violet-harbour-42';

interface Row {
  page: string;
  performance: number;
  accessibility: number;
  failing: string[];
}

async function activationLink(stack: Stack, email: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    for (const file of (await readdir(stack.mailDir)).filter((name) => name.endsWith('.json')).sort().reverse()) {
      const mail = JSON.parse(await readFile(path.join(stack.mailDir, file), 'utf8')) as { to: string[]; text: string };
      const link = /(http\S+\/signup\/activation\/[\w-]+)/.exec(mail.text)?.[1];
      if (mail.to.includes(email) && link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no activation e-mail for ${email}`);
}

/** A signed-in user with a chat holding a few messages and a room: the pages to measure. */
async function prepare(stack: Stack, context: BrowserContext) {
  const email = `lighthouse.${Date.now()}@example.com`;
  const api = context.request;
  const json = (data: unknown) => ({ data: data as Record<string, unknown>, headers: { 'content-type': 'application/json' } });
  await api.post(`${stack.baseURL}/api/accounts/registration/`, json({ email, password1: PASSWORD, password2: PASSWORD, fullName: 'Lena Lighthouse' }));
  const key = (await activationLink(stack, email)).split('/').pop()!;
  await api.post(`${stack.baseURL}/api/accounts/registration/verify-email/`, json({ key }));
  // Sign in through the page, so the client stores its session as a user's would.
  const page = await context.newPage();
  await page.goto(`${stack.baseURL}/signin`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: /^sign in$/i }).click();
  await page.waitForURL(`${stack.baseURL}/`);
  const xsrf = (await context.cookies()).find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  const post = async (url: string, data: unknown) => {
    const answer = await api.post(`${stack.baseURL}${url}`, { ...json(data), headers: { 'content-type': 'application/json', 'x-xsrf-token': xsrf } });
    return (await answer.json()) as { id: number };
  };
  const chat = await post('/api/chat/', { title: 'Weekend plans', languages: ['en', 'es'] });
  for (const content of ['Who is coming on Saturday?', 'I am!', 'Bring snacks, please.']) await post(`/api/chat/${chat.id}/messages/`, { content });
  const room = await post('/api/rooms/', { title: 'Weekly sync', languages: ['en', 'es'], description: 'Status and plans' });
  await page.close();
  return { chatId: chat.id, roomId: room.id };
}

async function main(): Promise<number> {
  const stack = await startStack();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'parla-lighthouse-'));
  const port = 9300 + Math.floor(Math.random() * 500);
  // A persistent context is the browser's default one: Lighthouse's tabs share its cookies.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS.filter((arg) => arg !== '--headless'), `--remote-debugging-port=${port}`],
    headless: true,
    locale: 'en-US',
    serviceWorkers: 'block',
  }).catch(async (error: unknown) => {
    // No browser (Chromium missing, say): the server started above must not outlive the bench.
    await stack.stop();
    await rm(profile, { recursive: true, force: true });
    throw error;
  });
  const rows: Row[] = [];
  try {
    const { chatId, roomId } = await prepare(stack, context);
    // Signed-in pages first; then the session is ended (cookies and storage cleared: Lighthouse's
    // own storage reset keeps both, and a signed-in visitor of /signin is sent home) and the
    // signed-out ones measured.
    const pages: [string, boolean][] = [
      ['/', true],
      ['/chat', true],
      [`/chat/${chatId}`, true],
      ['/room', true],
      [`/room/${roomId}`, true],
      ['/user', true],
      ['/signin', false],
      ['/signup', false],
    ];
    // `npm run bench:lighthouse -w @parla/bench -- /signin /chat` measures only those.
    const only = process.argv.slice(2).filter((arg) => arg.startsWith('/'));
    let signedOut = false;
    for (const [pagePath, signedIn] of pages.filter(([p]) => only.length === 0 || only.some((o) => p === o || p.startsWith(`${o}/`)))) {
      if (!signedIn && !signedOut) {
        signedOut = true;
        await context.clearCookies();
        const blank = await context.newPage();
        await blank.goto(`${stack.baseURL}/manifest.webmanifest`);
        await blank.evaluate(() => localStorage.clear());
        await blank.close();
      }
      // Cold: no HTTP cache; a signed-in page keeps the session (cookies, the client's expiries).
      const cdp = await context.newCDPSession(await context.newPage());
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
      const result = await lighthouse(`${stack.baseURL}${pagePath}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        disableStorageReset: signedIn,
      });
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`Lighthouse gave no result for ${pagePath}`);
      if (new URL(lhr.finalDisplayedUrl).pathname !== pagePath) console.log(`${pagePath}: ended on ${lhr.finalDisplayedUrl} (measured that page)`);
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const failing = Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 0.9 && (audit.scoreDisplayMode === 'binary' || audit.scoreDisplayMode === 'numeric'))
        .map((audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
      rows.push({ page: pagePath, performance: score('performance'), accessibility: score('accessibility'), failing });
      if (lhr.runtimeError) console.log(`${pagePath}: Lighthouse error ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      for (const audit of Object.values(lhr.audits)) {
        const items = (audit.details as { items?: { node?: { snippet?: string; explanation?: string } }[] } | undefined)?.items ?? [];
        if (audit.score === 0 && audit.scoreDisplayMode === 'binary') {
          for (const item of items.slice(0, 3)) if (item.node?.snippet) console.log(`  ${audit.id}: ${item.node.snippet}`);
        }
      }
      if (process.env.LIGHTHOUSE_DETAILS) printDetails(lhr);
      // LIGHTHOUSE_SAVE=<folder>: each page's whole report, for Lighthouse's viewer or jq.
      if (process.env.LIGHTHOUSE_SAVE) {
        await mkdir(process.env.LIGHTHOUSE_SAVE, { recursive: true });
        const name = pagePath.replace(/\W+/g, '_') || 'home';
        await writeFile(path.join(process.env.LIGHTHOUSE_SAVE, `${name}.json`), JSON.stringify(lhr));
        // The observed (unthrottled) trace and network log the simulation starts from, for DevTools or
        // for replaying Lighthouse's simulation.
        await writeFile(path.join(process.env.LIGHTHOUSE_SAVE, `${name}.trace.json`), JSON.stringify(result.artifacts.Trace));
        await writeFile(path.join(process.env.LIGHTHOUSE_SAVE, `${name}.devtoolslog.json`), JSON.stringify(result.artifacts.DevtoolsLog));
        await writeFile(path.join(process.env.LIGHTHOUSE_SAVE, `${name}.context.json`), JSON.stringify({ URL: result.artifacts.URL, GatherContext: result.artifacts.GatherContext, settings: lhr.configSettings }));
      }
      console.log(`${pagePath}: performance ${score('performance')}, accessibility ${score('accessibility')}${failing.length ? `; below 0.9: ${failing.join(', ')}` : ''}`);
    }
  } finally {
    await context.close();
    await stack.stop();
    await rm(profile, { recursive: true, force: true });
  }
  console.log('\nLighthouse, mobile preset (Debian Chromium), cold cache');
  console.log(`${'page'.padEnd(14)}  performance  accessibility`);
  for (const row of rows) console.log(`${row.page.padEnd(14)}  ${String(row.performance).padStart(11)}  ${String(row.accessibility).padStart(13)}`);
  const worst = (key: 'performance' | 'accessibility') => Math.min(...rows.map((row) => row[key]));
  for (const key of ['performance', 'accessibility'] as const) {
    const low = worst(key);
    console.log(`lowest ${key}: ${low}; target at least ${TARGETS[key]}; ${low >= TARGETS[key] ? 'MEETS the target' : 'BELOW the target'}`);
  }
  return 0;
}

/** What delays the page: its metrics, the largest paint's element, and the chain of requests before it (LIGHTHOUSE_DETAILS=1). */
function printDetails(lhr: { audits: Record<string, { displayValue?: string; details?: unknown }> }) {
  for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'speed-index', 'cumulative-layout-shift']) {
    console.log(`  ${id}: ${lhr.audits[id]?.displayValue ?? '?'}`);
  }
  // What the browser did unthrottled (the simulation scales its tasks by 4): a busy machine shows here.
  const observed = (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0];
  if (observed) console.log(`  observed: FCP ${observed.observedFirstContentfulPaint} ms, LCP ${observed.observedLargestContentfulPaint} ms, load ${observed.observedLoad} ms`);
  const lcp = lhr.audits['largest-contentful-paint-element']?.details as { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined;
  const snippet = lcp?.items?.[0]?.items?.[0]?.node?.snippet;
  if (snippet) console.log(`  LCP element: ${snippet}`);
  // The observed chain (unthrottled times, end of each request since navigation).
  const tree = lhr.audits['network-dependency-tree-insight']?.details as { items?: { value?: { chains?: unknown } }[] } | undefined;
  // Lighthouse 12 keys the chains by request id (an object); older versions gave an array.
  const walk = (chains: unknown, depth: number) => {
    const list = (Array.isArray(chains) ? chains : Object.values(chains ?? {})) as { url?: string; navStartToEndTime?: number; timeFromInitialRequest?: number; transferSize?: number; children?: unknown }[];
    for (const chain of list.sort((a, b) => (a.navStartToEndTime ?? 0) - (b.navStartToEndTime ?? 0))) {
      const ended = chain.navStartToEndTime ?? chain.timeFromInitialRequest ?? 0;
      console.log(`  ${'  '.repeat(depth)}${Math.round(ended)} ms ${chain.url?.replace(/^https?:\/\/[^/]+/, '')} (${Math.round((chain.transferSize ?? 0) / 1024)} KB)`);
      walk(chain.children, depth + 1);
    }
  };
  const first = tree?.items?.[0]?.value?.chains;
  if (first) walk(first, 0);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
