// Debian's Chromium, as the architecture's "Tests" section sets it up: no browser downloads are
// possible here, so Playwright drives /usr/bin/chromium (CHROMIUM_PATH overrides it). Playwright
// adds a fresh --user-data-dir itself. Without the background-networking flags Chromium keeps
// trying hosts that this machine's closed network refuses.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumLaunchOptions = { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };
