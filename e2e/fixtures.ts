// Helpers for the browser tests: unique addresses, the mails caught by the SMTP catcher of
// global-setup.ts (JSON files in PARLA_E2E_MAIL_DIR), links out of mails, activated users.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { CaughtMail } from './stack';

export type { CaughtMail } from './stack';

export const PASSWORD = 'violet-harbour-42';

let counter = 0;
/** A fresh address per call (and per run): nobody registered it yet. */
export function uniqueEmail(label = 'user'): string {
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`;
  return `${label}.${stamp}@example.com`;
}

function mailDir(): string {
  const dir = process.env.PARLA_E2E_MAIL_DIR;
  if (!dir) throw new Error('PARLA_E2E_MAIL_DIR is not set: run the tests with `npx playwright test` (global-setup.ts sets it)');
  return dir;
}

/** Every mail caught so far, oldest first. */
export async function caughtMails(): Promise<CaughtMail[]> {
  const dir = mailDir();
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  return Promise.all(names.map(async (name) => JSON.parse(await readFile(path.join(dir, name), 'utf8')) as CaughtMail));
}

/** The newest mail to `to` whose subject matches, waiting for it (10 s by default). */
export async function waitForMail(to: string, subject: RegExp, options: { timeoutMs?: number; since?: number } = {}): Promise<CaughtMail> {
  const address = to.toLowerCase();
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const mails = await caughtMails();
    const found = mails
      .reverse()
      .find((mail) => mail.to.includes(address) && subject.test(mail.subject) && mail.receivedAt >= (options.since ?? 0));
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = mails.map((mail) => `"${mail.subject}" to ${mail.to.join(', ')}`).join('; ') || 'none';
      throw new Error(`no mail matching ${subject} to ${to} arrived; caught: ${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The first absolute link in `mailText` whose path starts with `pathPrefix` (e.g. '/signup/activation/'). */
export function linkFrom(mailText: string, pathPrefix: string): string {
  for (const match of mailText.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) {
    const url = new URL(match[0]);
    if (url.pathname.startsWith(pathPrefix)) return url.toString();
  }
  throw new Error(`no link to ${pathPrefix}… in the mail:\n${mailText}`);
}

export interface TestUser {
  email: string;
  password: string;
  fullName: string;
}

/** Registers through the API, takes the key from the activation mail and verifies the address. */
export async function createActivatedUser(request: APIRequestContext, fullName = 'Ada Lovelace', email = uniqueEmail()): Promise<TestUser> {
  const registered = await request.post('/api/accounts/registration/', {
    data: { email, password1: PASSWORD, password2: PASSWORD, fullName },
  });
  if (registered.status() !== 201) throw new Error(`registration failed (${registered.status()}): ${await registered.text()}`);
  const mail = await waitForMail(email, /activ/i);
  const key = new URL(linkFrom(mail.text, '/signup/activation/')).pathname.split('/').filter(Boolean).pop();
  const verified = await request.post('/api/accounts/registration/verify-email/', { data: { key } });
  if (!verified.ok()) throw new Error(`activation failed (${verified.status()}): ${await verified.text()}`);
  return { email, password: PASSWORD, fullName };
}

/** Screenshots at phone and desktop widths into `dir` (`name-375.png`, `name-1280.png`), then back to the desktop size. */
export async function screenshots(page: Page, dir: string, name: string): Promise<void> {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Bearer headers for API calls as `user` (no cookies, so no XSRF header needed). */
export async function bearer(request: APIRequestContext, user: TestUser): Promise<Record<string, string>> {
  const login = await request.post('/api/accounts/login/', { data: { email: user.email, password: user.password } });
  expect(login.status()).toBe(200);
  const { access } = (await login.json()) as { access: string };
  return { Authorization: `Bearer ${access}` };
}
