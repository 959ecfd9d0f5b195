// Journey: each role signs in through the embedded provider and lands on what the spec gives it.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, expectAccessible, launchBrowser, signedInPage, snap } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function tabNames(page: import('playwright-core').Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: /main|sections|tabs/i });
  return (await nav.getByRole('link').allTextContents()).map((t) => t.trim()).filter(Boolean);
}

describe('signing in', () => {
  it('shows the login landing to a visitor', async () => {
    const context = await browser.newContext({ baseURL: baseUrl });
    const page = await context.newPage();
    await page.goto('/');
    await expect.poll(() => page.getByRole('button', { name: /log ?in/i }).isVisible()).toBe(true);
    await expect.poll(async () => (await page.textContent('body')) ?? '').toMatch(/presented by/i);
    await snap(page, 'access-01-login-landing');
    await expectAccessible(page, 'login landing');
    await context.close();
  });

  it('gives a scanning admin the admin home and the admin tabs', async () => {
    const { context, page } = await signedInPage(browser, baseUrl, DEMO.admin);
    await expect.poll(() => page.getByRole('heading', { name: 'Admin', exact: true }).isVisible()).toBe(true);
    expect(await page.textContent('body')).toContain('Admin Tag');
    expect(await tabNames(page)).toEqual(['Dashboard', 'Files', 'Congregations', 'Service Centers', 'Students', 'Baptism Requests']);
    await snap(page, 'access-02-admin-home');
    await expectAccessible(page, 'admin home');
    await context.close();
  });

  it('gives a coordinator its congregation dashboard and the coordinator tabs', async () => {
    const { context, page } = await signedInPage(browser, baseUrl, DEMO.coordinator);
    await expect.poll(() => page.getByRole('link', { name: /Ready to Print/ }).first().isVisible()).toBe(true);
    expect(await tabNames(page)).toEqual([
      'Dashboard',
      'Ready to Print',
      'Files',
      'Baptism Requests',
      'Study Helpers',
      'Students',
      'Resources',
    ]);
    await snap(page, 'access-03-coordinator-dashboard');
    await expectAccessible(page, 'coordinator dashboard');
    // At 390 px the tabs stay one row that scrolls sideways (they wrapped into three rows).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/students');
    const row = page.getByRole('navigation', { name: 'Main' }).locator('ul');
    await expect.poll(async () => (await row.boundingBox())?.height ?? 0).toBeLessThan(60);
    expect(await row.evaluate((ul) => ul.scrollWidth > ul.clientWidth)).toBe(true);
    // The highlighted tab, far right, is scrolled into view.
    const current = page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');
    await expect.poll(async () => (await current.boundingBox())?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect(((await current.boundingBox())?.x ?? 0) + ((await current.boundingBox())?.width ?? 0)).toBeLessThanOrEqual(390);
    await snap(page, 'access-04-coordinator-390px');
    await expectAccessible(page, 'coordinator students at 390 px');
    await context.close();
  });

  it('blocks a standard user without a congregation with "No Group Assigned"', async () => {
    const { context, page } = await signedInPage(browser, baseUrl, DEMO.user);
    await expect.poll(() => page.getByRole('heading', { name: 'No Group Assigned' }).isVisible()).toBe(true);
    expect(await page.textContent('body')).toContain(DEMO.user.toLowerCase());
    expect(await page.getByRole('navigation', { name: /main|sections|tabs/i }).count()).toBe(0);
    await snap(page, 'access-04-no-group');
    await expectAccessible(page, 'no group');
    await context.close();
  });
});
