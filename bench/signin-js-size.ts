// Report, not a test: how much JavaScript a first visit to /signin costs. Starts the product as
// the browser tests do (@parla/e2e/stack: the real server, a fresh DATA_DIR, apps/web/dist),
// opens /signin in a fresh Chromium context (no cache, service workers blocked), keeps every
// script response until the network is idle and gzips each body at level 9.
// Exits 0 whatever the total; 1 only when the page does not load.
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '@parla/e2e/chromium';
import { startStack } from '@parla/e2e/stack';

const TARGET_KB = 150;
const KB = 1024;

interface Row {
  url: string;
  raw: number;
  gzip: number;
}

async function main(): Promise<number> {
  const stack = await startStack();
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const bodies: Promise<Row | undefined>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      bodies.push(
        response.body().then(
          (body) => ({ url: response.url(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length }),
          (error: Error) => {
            console.error(`could not read ${response.url()}: ${error.message}`);
            return undefined;
          },
        ),
      );
    });
    const response = await page.goto(`${stack.baseURL}/signin`, { waitUntil: 'networkidle' });
    if (!response?.ok()) {
      console.error(`/signin did not load: ${response ? `HTTP ${response.status()}` : 'no response'}`);
      return 1;
    }
    const rows = (await Promise.all(bodies)).filter((row): row is Row => row !== undefined);
    rows.sort((a, b) => b.gzip - a.gzip);
    report(rows, stack.baseURL);
    await context.close();
    return 0;
  } finally {
    await browser.close();
    await stack.stop();
  }
}

function report(rows: Row[], baseURL: string) {
  const shown = rows.map((row) => ({ ...row, url: row.url.startsWith(baseURL) ? row.url.slice(baseURL.length) : row.url }));
  const width = Math.max('url'.length, ...shown.map((row) => row.url.length));
  const line = (url: string, raw: string, gzip: string) => `${url.padEnd(width)}  ${raw.padStart(10)}  ${gzip.padStart(10)}`;
  const totalRaw = rows.reduce((sum, row) => sum + row.raw, 0);
  const totalGzip = rows.reduce((sum, row) => sum + row.gzip, 0);
  console.log(`JavaScript loaded by a cold visit to /signin (${rows.length} scripts, gzip -9, 1 KB = ${KB} bytes)\n`);
  console.log(line('url', 'raw bytes', 'gzip bytes'));
  console.log(line('-'.repeat(width), '-'.repeat(10), '-'.repeat(10)));
  for (const row of shown) console.log(line(row.url, String(row.raw), String(row.gzip)));
  console.log(line('-'.repeat(width), '-'.repeat(10), '-'.repeat(10)));
  console.log(line('total', String(totalRaw), String(totalGzip)));
  const totalKb = totalGzip / KB;
  const ratio = totalKb / TARGET_KB;
  console.log(`\ntotal gzip: ${totalKb.toFixed(1)} KB; target: at most ${TARGET_KB} KB; ratio total/target: ${ratio.toFixed(2)} (${ratio <= 1 ? 'within' : 'over'} the target)`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
