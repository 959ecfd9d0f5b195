// Journeys through e-mail on the real server: a coordinator reaches its congregation's e-mail
// addresses from the account menu's Profile, adds one (after the dialog refused what is no
// address) and deletes it after the spec's confirm; an admin opens the Emails tile of a
// congregation and the Mail record from the admin dashboard.
import type { Browser, Page } from 'playwright-core';
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

const bodyText = async (page: Page) => (await page.textContent('body')) ?? '';

describe('as a coordinator', () => {
  let page: Page;
  beforeAll(async () => {
    ({ page } = await signedInPage(browser, baseUrl, DEMO.coordinator));
  });

  it('adds an e-mail address to its congregation and deletes it again', async () => {
    await page.goto('/');
    await page.locator('.account-menu-button').click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect.poll(() => page.url()).toMatch(/\/profile$/);
    await page.getByRole('link', { name: "My congregation's e-mail addresses" }).click();
    await expect.poll(() => page.url()).toMatch(/\/admin\/congregations\/[0-9a-f-]{36}\/emails$/);
    await expect.poll(() => bodyText(page)).toContain('There are no e-mails to display');

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add E-mail' });
    await dialog.getByLabel('E-mail').fill('helpers at example');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.textContent()).toContain('Enter one e-mail address, like name@example.org.');
    await dialog.getByLabel('E-mail').fill('Helpers@Example.org');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Emails' }).textContent()).toContain('helpers@example.org');
    await snap(page, 'emails-01-added');
    await expectAccessible(page, 'congregation emails');

    await page.getByRole('button', { name: 'Delete helpers@example.org' }).click();
    const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete E-mail' }));
    await expect.poll(() => confirm.textContent()).toContain('Are you sure you want to delete this e-mail? This action cannot be undone.');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => bodyText(page)).toContain('There are no e-mails to display');
    await page.reload();
    await expect.poll(() => bodyText(page)).toContain('There are no e-mails to display');
  });
});

describe('as a scanning admin', () => {
  let page: Page;
  beforeAll(async () => {
    ({ page } = await signedInPage(browser, baseUrl, DEMO.admin));
  });

  it('opens a congregation\'s Emails tile and the Mail record', async () => {
    await page.goto('/admin/congregations');
    await page.locator('table tbody tr a').first().click();
    await expect.poll(() => page.url()).toMatch(/\/admin\/congregations\/[0-9a-f-]{36}\/files$/);
    await page.goto(page.url().replace(/files$/, ''));
    await page.getByRole('navigation', { name: 'Congregation shortcuts' }).getByRole('link', { name: 'Emails' }).click();
    await expect.poll(() => page.url()).toMatch(/\/emails$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Congregation Emails');
    await page.goto('/admin/');
    await page.getByRole('link', { name: 'Mail' }).click();
    await expect.poll(() => page.url()).toMatch(/\/admin\/mail$/);
    await expect.poll(() => bodyText(page)).toMatch(/There are no e-mails to display|not sent: no mail server set/);
    await snap(page, 'emails-02-mail-record');
    await expectAccessible(page, 'mail record');
  });
});
