// The coordinator's side and the upload reports on the demo, in the browser: a coordinator sees
// only the files sent to it (not the one at Review, nor the one at Send), a response without the
// admin's controls, and its uploads from the Files screen; an admin reaches every upload's report
// from the navigation, a service center's file included. axe runs with each picker, preview and
// dialog open on a response with an ignored page, and the screens are looked at 390 px wide.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, expectAccessible, launchBrowser, signedInPage, snap } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;
let admin: Page;
let coordinator: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ page: admin } = await signedInPage(browser, baseUrl, DEMO.admin));
  ({ page: coordinator } = await signedInPage(browser, baseUrl, DEMO.coordinator));
});
afterAll(async () => {
  await browser?.close();
});

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.ok(), `${url}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

const bodyText = (page: Page) => page.locator('body').innerText();

/** Nothing wider than the window: no sideways scrolling of the page. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** The right edge of an element, in CSS pixels from the window's left. */
async function rightEdge(page: Page, selector: ReturnType<Page['locator']>): Promise<number> {
  const box = await selector.boundingBox();
  expect(box, 'the element is shown').not.toBeNull();
  return box!.x + box!.width;
}

/** Waits for the open dropdown panel to finish fading in: axe reads a half-faded panel's text as too pale. */
async function panelSettled(page: Page): Promise<void> {
  const panel = page.locator('.p-dropdown-panel');
  await expect.poll(() => panel.evaluate((element) => getComputedStyle(element).opacity === '1' && !element.classList.contains('p-connected-overlay-enter-active'))).toBe(true);
}

async function demoFile(name: string): Promise<string> {
  const files = await getJson<{ items: { id: string; name: string }[] }>(admin, `/api/files?query_name=${encodeURIComponent(name)}`);
  const file = files.items.find((item) => item.name === name);
  expect(file, name).toBeDefined();
  return file!.id;
}

describe("the coordinator's side", () => {
  it('lists only the files sent to it, counted alike on the dashboard, Status and Print in view at 390 px', async () => {
    await coordinator.setViewportSize({ width: 1280, height: 900 });
    await coordinator.goto('/files');
    await expect.poll(() => bodyText(coordinator)).toContain('Accra batch 4');
    const text = await bodyText(coordinator);
    // At Review, at Assign and at Send: none of them was sent to the congregation.
    for (const notSent of ['Manila batch 6', 'Nairobi batch 5', 'Accra batch 7']) expect(text).not.toContain(notSent);
    const listed = await getJson<{ total: number }>(coordinator, '/api/files');
    await coordinator.goto('/');
    const filesTile = coordinator.locator('a.tile', { hasText: /^Files/ });
    await expect.poll(() => filesTile.locator('.tile-count').textContent()).toBe(String(listed.total));

    await coordinator.setViewportSize({ width: 390, height: 844 });
    await coordinator.goto('/files');
    await expect.poll(() => bodyText(coordinator)).toContain('Accra batch 4');
    expect(await pageWidth(coordinator)).toBeLessThanOrEqual(390);
    const table = coordinator.getByRole('table', { name: 'Files' });
    expect(await table.evaluate((element) => element.parentElement!.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);
    for (const header of ['Status', 'Print']) {
      expect(await rightEdge(coordinator, table.getByRole('columnheader', { name: header }))).toBeLessThanOrEqual(390);
    }
    await snap(coordinator, 'reports-01-coordinator-files-390px');
    await expectAccessible(coordinator, 'coordinator files at 390 px');
    await coordinator.setViewportSize({ width: 1280, height: 900 });
  });

  it("shows a response without the admin's instructions, pickers or Save, and says what it may do", async () => {
    // A response still being graded (other journeys may have graded some by now).
    const sheets = await getJson<{ items: { id: string; graded: boolean }[] }>(coordinator, '/api/answer-sheets?limit=100');
    const open = sheets.items.find((sheet) => !sheet.graded);
    expect(open).toBeDefined();
    await coordinator.goto(`/responses/${open!.id}`);
    const details = coordinator.getByRole('region', { name: 'Details' });
    await expect.poll(() => details.innerText()).toContain('You can print this response, open its student, and submit a baptism request.');
    expect(await details.getByLabel('Course').count()).toBe(0);
    expect(await details.getByLabel('Congregation').count()).toBe(0);
    expect(await coordinator.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await bodyText(coordinator)).not.toContain('Type the code printed beside the QR code');
    await snap(coordinator, 'reports-02-coordinator-response');
    await expectAccessible(coordinator, 'coordinator response');

    await coordinator.setViewportSize({ width: 390, height: 844 });
    await coordinator.reload();
    await expect.poll(() => details.innerText()).toContain('You can print this response');
    expect(await pageWidth(coordinator)).toBeLessThanOrEqual(390);
    expect(await rightEdge(coordinator, coordinator.getByRole('button', { name: /Baptism Request/ }))).toBeLessThanOrEqual(390);
    await snap(coordinator, 'reports-03-coordinator-response-390px');
    await coordinator.setViewportSize({ width: 1280, height: 900 });
  });

  it('reaches its uploads from the Files screen, each with its report and Withdraw', async () => {
    await coordinator.goto('/files');
    await coordinator.getByRole('link', { name: 'Uploads' }).click();
    await coordinator.waitForURL(/\/files\/uploads$/);
    // The spec's Files tab stays highlighted there.
    expect(await coordinator.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]').innerText()).toBe('Files');
    const table = coordinator.getByRole('table', { name: 'Uploads' });
    // The demo's three graded uploads, and any other journey's: every one of them a graded upload it may withdraw.
    await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThanOrEqual(3);
    expect(await table.getByRole('button', { name: /^Withdraw / }).count()).toBe(await table.locator('tbody tr').count());
    expect(await table.innerText()).not.toContain('Service center file');
    await snap(coordinator, 'reports-04-coordinator-uploads');
    await expectAccessible(coordinator, 'coordinator uploads');
    await table.locator('tbody tr').first().getByRole('link').click();
    await expect.poll(() => coordinator.getByRole('heading', { level: 1 }).innerText()).toBe('Feedback Upload Page');
    await expect.poll(() => bodyText(coordinator)).toContain('Pages matched');
    await snap(coordinator, 'reports-05-coordinator-upload-report');
    await expectAccessible(coordinator, 'coordinator upload report');
  });
});

describe('after Send', () => {
  it('lists no Action Items on a sent file, and Withdraw says what it does to a completed file', async () => {
    // Nairobi batch 2 is at Return, Accra batch 1 archived: their responses are fixed.
    for (const name of ['Nairobi batch 2', 'Accra batch 1']) {
      await admin.goto(`/file/${await demoFile(name)}`);
      const card = admin.getByRole('region', { name: 'Action Items' });
      await expect.poll(() => card.innerText()).toContain('No action items');
    }
    await snap(admin, 'reports-12-archived-file-action-items');
    await coordinator.goto('/files/uploads');
    const table = coordinator.getByRole('table', { name: 'Uploads' });
    await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThanOrEqual(3);
    await table.getByRole('button', { name: /^Withdraw / }).first().click();
    const dialog = coordinator.getByRole('alertdialog').or(coordinator.getByRole('dialog'));
    await expect.poll(() => dialog.innerText()).toContain('a file it completed goes back to Grading');
    await snap(coordinator, 'reports-13-withdraw-confirm');
    await expectAccessible(coordinator, 'withdraw confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
  });
});

describe('upload reports for an admin', () => {
  it("leads from the admin home and the Files screen to every upload, a service center's file with its report", async () => {
    await admin.goto('/files');
    await expect.poll(() => admin.getByRole('link', { name: 'Uploads' }).count()).toBe(1);
    await admin.goto('/');
    await admin.getByRole('link', { name: 'Uploads' }).click();
    await admin.waitForURL(/\/files\/uploads$/);
    const table = admin.getByRole('table', { name: 'Uploads' });
    await expect.poll(() => table.innerText()).toContain('Manila batch 6');
    const listed = await table.innerText();
    expect(listed).toContain('Service center file');
    expect(listed).toContain('Graded pages');
    await snap(admin, 'reports-06-admin-uploads');
    await expectAccessible(admin, 'admin uploads');

    // The congregation filter leaves that congregation's graded uploads.
    await admin.getByRole('button', { name: 'Filter' }).click();
    await admin.locator('.p-sidebar .p-dropdown').first().click();
    await admin.locator('.p-dropdown-item', { hasText: 'TX 40213' }).first().click();
    await admin.waitForURL(/groupId=/);
    await admin.keyboard.press('Escape');
    await expect.poll(() => table.innerText()).not.toContain('Manila batch 6');
    // Its graded uploads only (the demo's three, and any another journey made).
    await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThanOrEqual(3);
    expect(await table.innerText()).not.toContain('Service center file');

    await admin.goto('/files/uploads');
    await table.getByRole('link', { name: 'Manila batch 6' }).click();
    await expect.poll(() => admin.getByRole('heading', { level: 1 }).innerText()).toBe('Feedback Upload Page');
    await expect.poll(() => bodyText(admin)).toContain('Waits in Review');
    expect(await bodyText(admin)).toContain("This is a service center's file");
    await snap(admin, 'reports-07-service-center-report');
    await expectAccessible(admin, 'service center upload report');

    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.reload();
    await expect.poll(() => bodyText(admin)).toContain('Waits in Review');
    expect(await pageWidth(admin)).toBeLessThanOrEqual(390);
    const cards = admin.locator('.upload-report-page');
    expect(await cards.count()).toBeGreaterThan(0);
    for (const card of await cards.all()) {
      expect(await card.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      expect(await rightEdge(admin, card)).toBeLessThanOrEqual(390);
    }
    await snap(admin, 'reports-08-service-center-report-390px');
    await admin.setViewportSize({ width: 1280, height: 900 });
  });
});

describe('a response with an ignored page, every picker and dialog open', () => {
  it('passes axe, and Move or Split… holds its icon and label together', async () => {
    const fileId = await demoFile('Manila batch 6');
    const sheets = await getJson<{ items: { id: string; page_count?: number }[] }>(admin, `/api/answer-sheets?file=${fileId}&limit=50`);
    const sheet = sheets.items.find((item) => (item.page_count ?? 0) >= 2) ?? sheets.items[0]!;
    await admin.goto(`/responses/${sheet.id}`);
    const secondName = await admin.getByRole('article', { name: /^Page / }).nth(1).getAttribute('aria-label', { timeout: 30_000 });
    const second = admin.getByRole('article', { name: secondName!, exact: true });
    await expect.poll(() => second.isVisible()).toBe(true);
    await second.getByRole('button', { name: 'Ignore Page' }).click();
    await expect.poll(() => second.getByRole('button', { name: 'Unignore Page' }).isVisible()).toBe(true);
    await expectAccessible(admin, 'response with an ignored page');

    // The grouped Course dropdown, open.
    await admin.getByRole('region', { name: 'Details' }).locator('.p-dropdown').first().click();
    await expect.poll(() => admin.locator('.p-dropdown-panel').isVisible()).toBe(true);
    await panelSettled(admin);
    await expectAccessible(admin, 'response with the Course dropdown open');
    await admin.keyboard.press('Escape');

    // Every preview open.
    // Each click turns its button into "Hide Preview": open the first closed one until none is left.
    const showPreview = admin.getByRole('button', { name: 'Show Preview' });
    for (let open = await showPreview.count(); open > 0; open--) {
      await showPreview.first().click();
      await expect.poll(() => showPreview.count()).toBe(open - 1);
    }
    await expectAccessible(admin, 'response with every preview open');

    // Move or Split…: its icon beside its label, then the mends open.
    const first = admin.getByRole('article', { name: /^Page / }).first();
    const moveOrSplit = first.getByRole('button', { name: 'Move or Split…' });
    if ((await moveOrSplit.count()) > 0) {
      const icon = await moveOrSplit.locator('.p-button-icon').boundingBox();
      const label = await moveOrSplit.locator('.p-button-label').boundingBox();
      expect(label!.x - (icon!.x + icon!.width)).toBeLessThan(16);
      await moveOrSplit.click();
    }
    const templatePicker = first.locator('.p-dropdown').first();
    if ((await templatePicker.count()) > 0) {
      await templatePicker.click();
      await panelSettled(admin);
      await snap(admin, 'reports-09a-page-template-picker-open');
      await expectAccessible(admin, 'response with a page template picker open');
      await admin.keyboard.press('Escape');
      // Gone, not fading out: a panel half faded fails the contrast check for what it no longer shows.
      await expect.poll(() => admin.locator('.p-dropdown-panel').count()).toBe(0);
    }
    await expectAccessible(admin, 'response with the mends open');
    await snap(admin, 'reports-09-response-ignored-page');

    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.reload();
    await expect.poll(() => second.isVisible()).toBe(true);
    expect(await pageWidth(admin)).toBeLessThanOrEqual(390);
    expect(await rightEdge(admin, admin.getByRole('button', { name: /Baptism Request/ }))).toBeLessThanOrEqual(390);
    await snap(admin, 'reports-10-response-390px');
    await admin.setViewportSize({ width: 1280, height: 900 });
    await second.getByRole('button', { name: 'Unignore Page' }).click();
    await expect.poll(() => second.getByRole('button', { name: 'Ignore Page' }).isVisible()).toBe(true);

    // The Delete File confirm.
    await admin.goto(`/file/${fileId}`);
    await admin.getByRole('button', { name: 'Delete File' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Delete File' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    // Axe reads colours as drawn: a dialog still fading in has text too faint for its contrast rule.
    await expect
      .poll(() => dialog.evaluate((element) => getComputedStyle(element).opacity === '1' && !/enter-active/.test(element.className)))
      .toBe(true);
    await expectAccessible(admin, 'Delete File confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it("keeps a service center's Archive and cover sheet on screen at 390 px", async () => {
    await admin.goto('/admin/service-centers');
    await admin.getByRole('link', { name: /Accra/ }).first().click();
    await admin.waitForURL(/\/admin\/service-centers\/[0-9a-f-]{36}/);
    await admin.setViewportSize({ width: 390, height: 844 });
    const archive = admin.getByRole('button', { name: 'Archive' });
    await expect.poll(() => archive.isVisible()).toBe(true);
    expect(await pageWidth(admin)).toBeLessThanOrEqual(390);
    expect(await rightEdge(admin, archive)).toBeLessThanOrEqual(390);
    expect(await rightEdge(admin, admin.getByRole('link', { name: 'Cover Sheet' }))).toBeLessThanOrEqual(390);
    expect(await admin.getByRole('region', { name: 'Blank Lesson Masters' }).count()).toBe(1);
    await snap(admin, 'reports-11-service-center-390px');
    await expectAccessible(admin, 'service center at 390 px');
    await admin.setViewportSize({ width: 1280, height: 900 });
  });
});
