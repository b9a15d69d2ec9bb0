// Starts the product once for the whole run (see stack.ts) on the port the config chose, and
// tells the tests where the caught mails land (PARLA_E2E_MAIL_DIR, inherited by the workers).
// The returned function is Playwright's global teardown: it kills the server by its PID.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullConfig } from '@playwright/test';
import { startStack } from './stack';

export default async function globalSetup(_config: FullConfig) {
  const port = Number(process.env.PARLA_E2E_PORT);
  const stack = await startStack(Number.isInteger(port) && port > 0 ? { port } : {});
  process.env.PARLA_E2E_MAIL_DIR = stack.mailDir;
  process.env.PARLA_E2E_BASE_URL = stack.baseURL;
  console.log(`parla e2e: server pid ${stack.pid} at ${stack.baseURL}`);
  const here = path.dirname(fileURLToPath(import.meta.url));
  return async () => {
    await stack.stop({ saveLogTo: path.join(here, 'test-results', 'server.log') });
  };
}
