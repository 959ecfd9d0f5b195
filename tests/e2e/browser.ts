// What every journey needs: Debian's Chromium through playwright-core (never a downloaded
// browser), sign-in through the embedded provider's page, axe checks and screenshots saved
// under test-results/e2e/ so a person can look at them.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const screenshotDir = join(import.meta.dirname, '../../test-results/e2e');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export const DEMO = {
  admin: 'admin@demo.local',
  coordinator: 'coordinator@demo.local',
  user: 'user@demo.local',
  password: 'demo',
} as const;

/** A fresh browser context signed in as `email` through the real sign-in pages. */
export async function signedInPage(browser: Browser, baseUrl: string, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  watchContentSecurityPolicy(page);
  await page.goto('/');
  await page.getByRole('button', { name: /log ?in/i }).click();
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(DEMO.password);
  await Promise.all([page.waitForURL(`${baseUrl}/**`), page.locator('form button[type="submit"]').first().click()]);
  await page.waitForLoadState('networkidle');
  return { context, page };
}

/** What the browser refused under the server's Content-Security-Policy, per page. */
const policyViolations = new WeakMap<Page, string[]>();

function watchContentSecurityPolicy(page: Page): void {
  const seen: string[] = [];
  policyViolations.set(page, seen);
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) seen.push(message.text());
  });
}

/**
 * Saves a full-page screenshot named after the screen. Every screen shown so far must have
 * worked within the Content-Security-Policy: a refused script, style or request fails here.
 */
export async function snap(page: Page, name: string): Promise<string> {
  expect(policyViolations.get(page) ?? [], `${name}: refused by the Content-Security-Policy`).toEqual([]);
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Runs axe on the page: no serious or critical violations allowed. */
export async function expectAccessible(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${screen}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`),
  ).toEqual([]);
}
