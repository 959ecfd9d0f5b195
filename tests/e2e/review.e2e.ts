// Review in the browser on the real server: an intro file (two pages a student) scanned with one
// student's pages in reverse order, a page whose codes are covered and a student's letter after
// their sheet. The admin sees each page's reason,
// moves the reversed page to its student, types the covered page's code, starts a new response in
// the middle of the file and joins it back, joins the letter to the sheet before it, and keeps a
// page 2 that could belong to more than one response; the file then goes on to Assign.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CODE_STAMP } from '../../server/pdf/printed-page';
import { createPrng } from '../fixtures/prng';
import { renderPdfPage } from '../fixtures/render-pdf';
import { fillRect, scanLook, writeAnswers, writeLine } from '../fixtures/scan-effects';
import { ScanPdfBuilder } from '../fixtures/scan-pdf';
import type { GreyRaster } from '../../server/pipeline/raster';
import { DEMO, expectAccessible, launchBrowser, signedInPage, snap } from './browser';

const baseUrl = inject('baseUrl');
const DPI = 150;
const px = (millimetres: number) => Math.round((millimetres * DPI) / 25.4);
const fileName = `Review journey ${Date.now()}`;
let browser: Browser;
let admin: Page;
let fileId = '';
let coveredCode = '';

beforeAll(async () => {
  browser = await launchBrowser();
  ({ page: admin } = await signedInPage(browser, baseUrl, DEMO.admin));
});
afterAll(async () => {
  await browser?.close();
});

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.ok(), `${url}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

interface Sheet {
  id: string;
  flagged_count?: number;
}
interface PageRow {
  id: string;
  page_number: number;
  review_reason?: string | null;
}
const sheets = async () => (await getJson<{ items: Sheet[] }>(admin, `/api/answer-sheets?file=${fileId}&limit=50`)).items;
const pagesOf = (sheetId: string) => getJson<PageRow[]>(admin, `/api/answer-sheets/${sheetId}/pages`);
async function sheetWithPage(pageNumber: number): Promise<string> {
  for (const sheet of await sheets()) if ((await pagesOf(sheet.id)).some((page) => page.page_number === pageNumber)) return sheet.id;
  throw new Error(`no sheet holds page ${pageNumber}`);
}

async function makeScan(master: Uint8Array): Promise<Uint8Array> {
  const prng = createPrng(41);
  const [one, two] = [renderPdfPage(master, 0, DPI), renderPdfPage(master, 1, DPI)];
  const scan = await ScanPdfBuilder.create();
  const add = async (printed: GreyRaster, options: { coverQr?: boolean; letter?: boolean } = {}) => {
    const page = options.letter ? { ...printed, data: new Uint8Array(printed.data.length).fill(247) } : { ...printed, data: printed.data.slice() };
    if (options.letter) for (let line = 0; line < 8; line++) writeLine(page, prng, px(25), page.height * (0.2 + line * 0.07), page.width * 0.65, DPI);
    else writeAnswers(page, prng, DPI, 4);
    if (options.coverQr) {
      // Sticky notes over both QR symbols and the short codes beside them (nothing printed on a
      // blank master names its student, so its printed text cannot place it either): the admin
      // lifts a note and types the code.
      const size = px(CODE_STAMP.qrSizeMm + CODE_STAMP.edgeMarginMm + 30);
      fillRect(page, { x: page.width - size, y: 0, width: size, height: size }, 238);
      fillRect(page, { x: 0, y: page.height - size, width: size, height: size }, 238);
    }
    const scanned = await scanLook(page, { orientation: 0, tilt: prng.range(-1, 1), blur: 0, contrast: 1, brightness: 0, background: 250 });
    await scan.addPage({ raster: scanned, dpi: DPI, encoding: 'jpeg_grey', quality: 80 });
  };
  await add(one); // 1 A
  await add(two); // 2 A
  await add(two); // 3 B's page 2 before
  await add(one); // 4 B's page 1
  await add(one); // 5 C
  await add(two, { coverQr: true }); // 6 C, its QR codes covered
  await add(one); // 7 D
  await add(two); // 8 D
  await add(one, { letter: true }); // 9 D's letter
  await add(one); // 10 E
  await add(two); // 11 E
  return scan.save();
}

describe('Review mends in the browser', () => {
  it('uploads a messy two-page intro file and shows why each surprise waits', async () => {
    const courses = await getJson<{ items: { id: string; lessons?: { id: string }[] }[] }>(admin, '/api/courses');
    let lesson: { course: string; id: string } | null = null;
    for (const course of courses.items) {
      const templates = await getJson<{ lesson: { id: string }; page_number: number; code?: string }[]>(admin, `/api/courses/${course.id}/pages`);
      const first = course.lessons?.[0];
      const own = templates.filter((template) => template.lesson.id === first?.id);
      if (first && own.length === 2) {
        lesson = { course: course.id, id: first.id };
        coveredCode = own.find((template) => template.page_number === 2)!.code!;
        break;
      }
    }
    expect(lesson).not.toBeNull();
    const master = await admin.request.get(`/api/courses/${lesson!.course}/lessons/${lesson!.id}/master.pdf`);
    const path = join(mkdtempSync(join(tmpdir(), 'portal-review-')), `${fileName}.pdf`);
    writeFileSync(path, await makeScan(new Uint8Array(await master.body())));

    await admin.goto('/files');
    await admin.getByRole('button', { name: 'Upload' }).first().click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('2 (Two-page intro)').check();
    await dialog.getByLabel('Files to upload').setInputFiles(path);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    // The dialog follows the processing: the flagged pages make its summary a warning, never a success.
    await expect.poll(() => dialog.textContent(), { timeout: 120_000 }).toMatch(/not everything went through\. .*6 pages to review/);
    expect(await dialog.textContent()).toMatch(/Open the file and mend the flagged pages in Review\./);
    await snap(admin, 'review-00-upload-summary');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await admin.waitForURL(/\/file\/[0-9a-f-]{36}/, { timeout: 60_000 });
    fileId = /\/file\/([0-9a-f-]{36})/.exec(admin.url())![1]!;
    await expect.poll(async () => (await getJson<{ process_status: string }>(admin, `/api/file/${fileId}`)).process_status, { timeout: 120_000 }).toBe('success');
    await admin.reload();
    const items = admin.getByRole('list', { name: 'Action Items' });
    await expect.poll(() => items.textContent(), { timeout: 20_000 }).toMatch(/1 page: Out of order/);
    expect(await items.textContent()).toMatch(/1 page: No code found/);
    expect(await items.textContent()).toMatch(/1 page: Stray page/);
    // Once B's sheet was left short, every later page 2 is a guess (D's and E's), and B says it is short.
    expect(await items.textContent()).toMatch(/2 pages: Could belong to more than one sheet/);
    expect(await items.textContent()).toMatch(/1 page: Page missing/);
    await snap(admin, 'review-01-action-items');
    await expectAccessible(admin, 'file detail with review reasons');

    await items.getByRole('link', { name: '1 page: Out of order' }).click();
    await expect.poll(() => admin.locator('table tbody tr').count()).toBe(1);
    expect(await admin.textContent('body')).toMatch(/Responses with a page marked “Out of order”/);
    await snap(admin, 'review-02-responses-out-of-order');
  });

  it('moves the reversed page to its student', async () => {
    const flaggedSheet = await sheetWithPage(3);
    const target = await sheetWithPage(4);
    await admin.goto(`/responses/${flaggedSheet}`);
    const item = admin.getByRole('article', { name: 'Page 3' });
    await expect.poll(() => item.textContent()).toMatch(/Out of order/);
    expect(await item.textContent()).toMatch(/Its page number does not follow the page before/);
    await snap(admin, 'review-03-out-of-order-page');
    await expectAccessible(admin, 'response with a flagged page');
    const all = await sheets();
    const index = all.findIndex((sheet) => sheet.id === target);
    await item.locator('.page-mend-row .p-dropdown').click();
    await expectAccessible(admin, 'move picker open');
    await admin.locator('.p-dropdown-item', { hasText: new RegExp(`^Response ${index + 1}:`) }).first().click();
    await item.getByRole('button', { name: 'Move Page' }).click();
    // The page was its response's only one: the screen follows it to where it went.
    await admin.waitForURL(new RegExp(`/responses/${target}`));
    await expect.poll(async () => (await pagesOf(target)).map((page) => page.page_number)).toEqual([3, 4]);
    await expect.poll(() => admin.getByRole('article', { name: 'Page 3' }).textContent()).toMatch(/Mended by admin@demo\.local/);
    await snap(admin, 'review-04-moved');
  });

  it('types the code printed beside the covered QR code', async () => {
    const sheet = await sheetWithPage(6);
    await admin.goto(`/responses/${sheet}`);
    const item = admin.getByRole('article', { name: 'Page 6' });
    await expect.poll(() => item.textContent()).toMatch(/No code found/);
    await item.getByLabel('Code beside the QR code').fill(coveredCode);
    await item.getByRole('button', { name: 'Use Code' }).click();
    await expect.poll(async () => (await pagesOf(sheet)).find((page) => page.page_number === 6)?.review_reason ?? null).toBeNull();
    await expect.poll(() => item.textContent()).toMatch(/Mended by/);
    await snap(admin, 'review-05-code-typed');
  });

  it('starts a new response in the middle of the file, right after its own, and joins it back', async () => {
    // D's sheet (pages 7, 8) has the letter's and E's after it: the place that answered "Invalid input".
    const sheet = await sheetWithPage(8);
    const before = (await sheets()).map((row) => row.id);
    expect(before.indexOf(sheet)).toBeLessThan(before.length - 1);
    await admin.goto(`/responses/${sheet}`);
    const item = admin.getByRole('article', { name: 'Page 8' });
    // A flagged page (page 8 is a guess: D's sheet came after a short one) shows its mends at once.
    const mends = item.getByRole('button', { name: 'Move or Split…' });
    if ((await mends.count()) > 0) await mends.click();
    await item.getByRole('button', { name: 'Start New Response Here' }).click();
    await expect.poll(async () => (await pagesOf(sheet)).map((page) => page.page_number)).toEqual([7]);
    const started = await sheetWithPage(8);
    const at = before.indexOf(sheet) + 1;
    expect((await sheets()).map((row) => row.id)).toEqual([...before.slice(0, at), started, ...before.slice(at)]);
    await admin.goto(`/responses/${started}`);
    await admin.getByRole('button', { name: 'Join to Previous Response' }).click();
    await admin.waitForURL(new RegExp(`/responses/${sheet}`));
    await expect.poll(async () => (await pagesOf(sheet)).map((page) => page.page_number)).toEqual([7, 8]);
    expect((await sheets()).map((row) => row.id)).toEqual(before);
  });

  it('joins the letter to the sheet before it, and the file goes on to Assign', async () => {
    const letter = await sheetWithPage(9);
    const before = await sheetWithPage(8);
    await admin.goto(`/responses/${letter}`);
    await expect.poll(() => admin.getByRole('article', { name: 'Page 9' }).textContent()).toMatch(/Stray page/);
    await admin.getByRole('button', { name: 'Join to Previous Response' }).click();
    await admin.waitForURL(new RegExp(`/responses/${before}`));
    await expect.poll(async () => (await pagesOf(before)).map((page) => page.page_number)).toEqual([7, 8, 9]);
    await snap(admin, 'review-06-joined');
    // E's page 2 names the responses it could belong to; the admin keeps it where it is.
    const last = await sheetWithPage(11);
    await admin.goto(`/responses/${last}`);
    const guessed = admin.getByRole('article', { name: 'Page 11' });
    await expect.poll(() => guessed.textContent()).toMatch(/Could belong to more than one sheet/);
    const candidates = guessed.getByRole('group', { name: 'Responses page 11 could belong to' });
    expect(await candidates.getByRole('listitem').count()).toBeGreaterThan(1);
    await snap(admin, 'review-06b-candidates');
    await expectAccessible(admin, 'a page that could belong to more than one response');
    await candidates.getByRole('button', { name: 'Keep It Here' }).click();
    await expect.poll(async () => (await pagesOf(last)).find((page) => page.page_number === 11)?.review_reason ?? null).toBeNull();
    await expect.poll(async () => (await getJson<{ step: string }>(admin, `/api/file/${fileId}/steps`)).step).toBe('assign');
    await admin.goto(`/file/${fileId}`);
    await expect.poll(() => admin.textContent('body')).toMatch(/No action items|responses? without a congregation/);
    await snap(admin, 'review-07-file-at-assign');
  });
});
