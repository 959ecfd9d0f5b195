// Journeys through the people and organisation screens on the real server, as an admin and as
// a coordinator: lists with filter/sort/paging kept in the address, creating congregations,
// service centers (points, recruiters), study helpers, baptism requests (every message),
// editing a student's attributes, and View As with its exit.
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

describe('as a scanning admin', () => {
  let page: Page;
  beforeAll(async () => {
    ({ page } = await signedInPage(browser, baseUrl, DEMO.admin));
  });

  it('pages, sorts and reloads the students list without losing its state', async () => {
    await page.goto('/students');
    await expect.poll(() => bodyText(page)).toMatch(/Showing 1 to 10 of \d+ results/);
    await page.getByRole('button', { name: /^Next/ }).click();
    await expect.poll(() => bodyText(page)).toMatch(/Showing 11 to 20 of \d+ results/);
    await page.getByRole('columnheader', { name: /First Seen/ }).getByRole('button').first().click();
    await expect.poll(() => page.url()).toMatch(/order_by=created_at/);
    const before = page.url();
    await page.reload();
    await expect.poll(() => bodyText(page)).toMatch(/Showing \d+ to \d+ of \d+ results/);
    expect(page.url()).toBe(before);
    await page.goto('/students?country=GH');
    await expect.poll(() => bodyText(page)).toMatch(/Showing|There are no students to display/);
    await snap(page, 'people-01-students');
    await expectAccessible(page, 'students');
    // A page beyond the last goes to the last.
    await page.goto('/students?page=99');
    await expect.poll(() => page.url()).toMatch(/page=[1-9]$/);
    // The last page's rows: "Showing 51 to 60 of 60 results" with the demo's 60 students.
    await expect.poll(() => bodyText(page)).toMatch(/Showing \d+ to (\d+) of \1 results/);
    expect(await page.locator('table tbody tr').count()).toBeGreaterThan(0);
    // The filter panel's searchable pickers, open.
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator('.p-sidebar .p-dropdown').first().click();
    await expect.poll(() => page.locator('.p-dropdown-filter').count()).toBe(1);
    await snap(page, 'people-01-students-picker-open');
    await expectAccessible(page, 'students, filter picker open');
    await page.keyboard.press('Escape');
  });

  it('refuses an invalid WBS code and creates a valid congregation', async () => {
    await page.goto('/admin/congregations');
    await page.getByRole('button', { name: 'Add A New Congregation' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('WBS Code').fill('AB1234');
    await dialog.getByLabel('Display Name').fill('E2E congregation');
    await expect.poll(() => dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await dialog.getByLabel('WBS Code').getAttribute('aria-invalid')).toBe('true');
    await snap(page, 'people-02-congregation-invalid');
    await dialog.getByLabel('WBS Code').fill('ZZ 98765');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => bodyText(page)).toContain('ZZ 98765');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expectAccessible(page, 'congregations');
  });

  it('creates a service center with a recruiting point and a recruiter', async () => {
    await page.goto('/admin/service-centers');
    await page.getByRole('button', { name: 'Add a Service Center' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('E2E Service Center');
    await dialog.getByLabel('Location').fill('Kumasi');
    await dialog.locator('.p-dropdown').first().click();
    await page.locator('.p-dropdown-filter').fill('Ghana');
    // A searchable picker, open: its search box and list are checked too.
    await expectAccessible(page, 'service center dialog, country picker open');
    await page.locator('.p-dropdown-item', { hasText: 'Ghana' }).first().click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /E2E Service Center/ }).isVisible()).toBe(true);
    const points = page.getByRole('form', { name: 'Add a recruiting point' });
    await points.getByLabel('Name').fill('Kejetia Market');
    await points.getByLabel('Location').fill('Kejetia');
    await points.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Recruiting points' }).textContent()).toContain('Kejetia Market');
    const recruiters = page.getByRole('form', { name: 'Add a recruiter' });
    await recruiters.getByLabel('Name').fill('Kofi Mensah');
    await recruiters.getByLabel('Contact Info').fill('+233 20 111 2222');
    await recruiters.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Recruiters' }).textContent()).toContain('Kofi Mensah');
    // The same name twice in one service center is refused, and the form says why.
    await recruiters.getByLabel('Name').fill('kofi mensah');
    await recruiters.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => recruiters.textContent()).toContain('This service center already has a recruiter named "kofi mensah".');
    await snap(page, 'people-03-recruiter-name-taken');
    await page.getByRole('button', { name: /Delete Kejetia Market/ }).click();
    await expect.poll(() => bodyText(page)).toContain('Are you sure you want to delete this location? This action cannot be undone.');
    await snap(page, 'people-03-service-center');
    await page.locator('.p-confirm-dialog-reject').click();
    await expect.poll(() => page.locator('.p-confirm-dialog').count()).toBe(0);
    await expectAccessible(page, 'service center');
  });

  it('shows every baptism request message', async () => {
    await page.goto('/baptism-requests');
    await page.getByRole('button', { name: 'Add Baptism Request' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => dialog.textContent()).toContain('Please enter a Student ID to continue.');
    await dialog.getByLabel('Student ID').fill('12ab');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => dialog.textContent()).toContain('Invalid Student ID format.');
    await dialog.getByLabel('Student ID').fill('987654321');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => dialog.textContent()).toContain('Student ID not found.');
    // The last demo student has no answer sheet; the first has some (the demo's files in flight).
    await dialog.getByLabel('Student ID').fill('1060');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => dialog.textContent()).toContain('No answer sheet found for this student.');
    await dialog.getByLabel('Student ID').fill('1001');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => bodyText(page)).toContain('Baptism request successfully created.');
    await snap(page, 'people-04-baptism-dialog');
    await expectAccessible(page, 'baptism dialog');
  });

  it('edits a student attribute and sends only what changed', async () => {
    await page.goto('/students');
    await page.locator('table tbody tr a').first().click();
    await expect.poll(() => page.getByRole('form', { name: 'Attributes' }).isVisible()).toBe(true);
    const form = page.getByRole('form', { name: 'Attributes' });
    await expect.poll(() => form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    const patches: string[] = [];
    page.on('request', (r) => r.method() === 'PATCH' && patches.push(r.postData() ?? ''));
    await form.getByLabel('Employment').fill('Carpenter');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => patches.length).toBe(1);
    expect(JSON.parse(patches[0]!)).toEqual({ attributes: { employment: 'Carpenter' } });
    await snap(page, 'people-05-student');
    await expectAccessible(page, 'student detail');
  });

  it('views the portal as a congregation and exits', async () => {
    await page.goto('/admin/congregations');
    await page.getByRole('link', { name: 'TX 40213' }).first().click();
    await page.getByRole('button', { name: 'View As' }).click();
    await expect.poll(() => bodyText(page), { timeout: 30_000 }).toContain('TX 40213');
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).textContent()).toContain('Ready to Print');
    await snap(page, 'people-06-view-as');
    await page.getByRole('button', { name: /TX 40213/ }).click();
    await page.getByRole('menuitem', { name: 'Exit View As' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Admin', exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
  });
});

describe('as a coordinator', () => {
  it('adds a study helper to its congregation', async () => {
    const { context, page } = await signedInPage(browser, baseUrl, DEMO.coordinator);
    await page.goto('/study-helpers');
    await page.getByRole('button', { name: 'Add A New Study Helper' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Sister E2E Helper');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => bodyText(page)).toContain('Sister E2E Helper');
    await snap(page, 'people-07-study-helpers');
    await expectAccessible(page, 'study helpers');
    await context.close();
  });
});
