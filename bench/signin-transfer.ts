// Report, not a test: what a first visit to /signin costs over the wire. Starts the product as the
// browser tests do (@parla/e2e/stack: the real server, a fresh DATA_DIR, apps/web/dist), opens
// /signin in a fresh Chromium context (no cache, service workers blocked) and, through the Chrome
// DevTools Protocol, adds up `encodedDataLength` of `Network.loadingFinished` for each request
// until the network is idle: the bytes Chromium actually received (headers included, compressed
// bodies as sent), not the size of the files.
// Exits 0 whatever the totals; 1 only when the page does not load.
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '@parla/e2e/chromium';
import { startStack } from '@parla/e2e/stack';

const JS_TARGET_KB = 150;
const KB = 1024;

interface Row {
  url: string;
  type: string;
  status: number | undefined;
  encoding: string;
  /** Everything received for it: status line and headers, then the body as sent. */
  bytes: number;
  /** The status line and headers alone. */
  headerBytes: number;
}

async function main(): Promise<number> {
  const stack = await startStack();
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const requests = new Map<string, { url: string; type: string; status?: number; encoding?: string; headerBytes?: number }>();
    const rows: Row[] = [];
    const failed: string[] = [];
    cdp.on('Network.requestWillBeSent', (event) => {
      requests.set(event.requestId, { url: event.request.url, type: event.type ?? 'Other' });
    });
    cdp.on('Network.responseReceived', (event) => {
      const request = requests.get(event.requestId);
      if (!request) return;
      request.status = event.response.status;
      const headers = Object.fromEntries(Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), value]));
      request.encoding = headers['content-encoding'] ?? 'identity';
      request.type = event.type;
      // Bytes received when the headers were complete: the headers' own size.
      request.headerBytes = event.response.encodedDataLength;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = requests.get(event.requestId);
      if (!request || request.url.startsWith('data:')) return;
      rows.push({
        url: request.url,
        type: request.type,
        status: request.status,
        encoding: request.encoding ?? '?',
        bytes: event.encodedDataLength,
        headerBytes: request.headerBytes ?? 0,
      });
    });
    cdp.on('Network.loadingFailed', (event) => {
      const request = requests.get(event.requestId);
      if (request) failed.push(`${request.url}: ${event.errorText}`);
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

    const response = await page.goto(`${stack.baseURL}/signin`, { waitUntil: 'networkidle' });
    if (!response?.ok()) {
      console.error(`/signin did not load: ${response ? `HTTP ${response.status()}` : 'no response'}`);
      return 1;
    }
    const acceptEncoding = (await response.request().allHeaders())['accept-encoding'] ?? '(none)';
    rows.sort((a, b) => b.bytes - a.bytes);
    report(rows, stack.baseURL, acceptEncoding);
    for (const line of failed) console.error(`failed: ${line}`);
    await context.close();
    return 0;
  } finally {
    await browser.close();
    await stack.stop();
  }
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

function report(rows: Row[], baseURL: string, acceptEncoding: string) {
  const shown = rows.map((row) => ({ ...row, url: row.url.startsWith(baseURL) ? row.url.slice(baseURL.length) : row.url }));
  const width = Math.max('url'.length, 'total'.length, ...shown.map((row) => row.url.length));
  const line = (url: string, type: string, status: string, encoding: string, headers: string, bytes: string) =>
    `${url.padEnd(width)}  ${type.padEnd(10)}  ${status.padStart(6)}  ${encoding.padEnd(8)}  ${headers.padStart(8)}  ${bytes.padStart(10)}`;
  const rule = line('-'.repeat(width), '-'.repeat(10), '-'.repeat(6), '-'.repeat(8), '-'.repeat(8), '-'.repeat(10));
  console.log(`Bytes Chromium received for a cold visit to /signin (${rows.length} responses; encodedDataLength, headers included; 1 KB = ${KB} bytes)`);
  console.log(`Accept-Encoding sent by the browser: ${acceptEncoding}\n`);
  console.log(line('url', 'type', 'status', 'encoding', 'headers', 'bytes'));
  console.log(rule);
  for (const row of shown) console.log(line(row.url, row.type, String(row.status ?? '?'), row.encoding, String(row.headerBytes), String(row.bytes)));
  console.log(rule);

  const byType = new Map<string, { count: number; bytes: number }>();
  for (const row of rows) {
    const entry = byType.get(row.type) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += row.bytes;
    byType.set(row.type, entry);
  }
  console.log('\nper resource type');
  for (const [type, { count, bytes }] of [...byType].sort((a, b) => b[1].bytes - a[1].bytes)) {
    console.log(`  ${type.padEnd(12)} ${String(count).padStart(3)} responses  ${String(bytes).padStart(9)} bytes  ${kb(bytes).padStart(9)}`);
  }

  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  const headerTotal = rows.reduce((sum, row) => sum + row.headerBytes, 0);
  const script = byType.get('Script')?.bytes ?? 0;
  const ratio = script / KB / JS_TARGET_KB;
  console.log(`\nJavaScript received: ${script} bytes = ${kb(script)}; target: at most ${JS_TARGET_KB} KB; ratio JavaScript/target: ${ratio.toFixed(2)} (${ratio <= 1 ? 'within' : 'over'} the target)`);
  console.log(`All resources received: ${total} bytes = ${kb(total)} (of which status lines and headers: ${headerTotal} bytes = ${kb(headerTotal)})`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
