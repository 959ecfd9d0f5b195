// Duplicates and the end of Review in the browser on the real server: a service center scans a
// student's next-lesson sheet three times. The two later copies are duplicates and hold the file
// in Review; the admin keeps one and ignores the other's
// pages, and Review ends with a word on the page they are on, saying what comes next. Start New
// Response Here says where the new response is, and its Details let the admin name its student.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, expectAccessible, launchBrowser, signedInPage, snap } from './browser';
import * as mupdf from 'mupdf';
import { printAndScan } from './paper';

const baseUrl = inject('baseUrl');
const work = mkdtempSync(join(tmpdir(), 'portal-review-end-'));
const fileName = `Scanned twice ${Date.now()}`;
let browser: Browser;
let admin: Page;
let fileId = '';

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
  duplicate?: boolean;
  duplicate_kept?: boolean;
  student: { id: string; human_id: number } | null;
  page_count?: number;
}
const sheetsOf = async (id: string) => (await getJson<{ items: Sheet[] }>(admin, `/api/answer-sheets?file=${id}&limit=50`)).items;
const step = async () => (await getJson<{ step: string }>(admin, `/api/file/${fileId}/steps`)).step;
const bodyText = async (page: Page) => (await page.textContent('body')) ?? '';

/** The first run of next-lesson pages in a return file: its pages with text (graded scans have none). */
async function firstNextLesson(pdf: Uint8Array): Promise<Uint8Array | null> {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const run: number[] = [];
  try {
    for (let index = 0; index < doc.countPages(); index++) {
      const page = doc.loadPage(index);
      const text = page.toStructuredText('preserve-whitespace').asText().trim();
      page.destroy();
      if (text !== '') run.push(index);
      else if (run.length > 0) break;
    }
  } finally {
    doc.destroy();
  }
  if (run.length === 0) return null;
  const { PDFDocument } = await import('pdf-lib');
  const source = await PDFDocument.load(pdf);
  const out = await PDFDocument.create();
  for (const page of await out.copyPages(source, run)) out.addPage(page);
  return out.save();
}

describe('duplicates and the end of Review', () => {
  it('holds a file with a sheet scanned twice in Review, its duplicates listed', async () => {
    // The next-lesson sheet a return file brought one student (its pages carry the student's
    // codes), filled in, and scanned three times over by the service center.
    const files = await getJson<{ items: { id: string; file_status: string | null }[] }>(admin, '/api/files?limit=50');
    // The demo's archived file; another journey may have archived one whose course ends there.
    let nextLesson: Uint8Array | null = null;
    for (const archived of files.items.filter((file) => file.file_status === 'archived')) {
      const returned = await admin.request.get(`/api/file/${archived.id}/graded_pdf?sides=one`);
      expect(returned.ok()).toBe(true);
      nextLesson = await firstNextLesson(new Uint8Array(await returned.body()));
      if (nextLesson) break;
    }
    if (nextLesson === null) throw new Error('no archived file brought a next-lesson sheet');
    const path = join(work, `${fileName}.pdf`);
    writeFileSync(path, await printAndScan([nextLesson, nextLesson, nextLesson], { seed: 31, penMarks: true }));

    await admin.goto('/files');
    await admin.getByRole('button', { name: 'Upload' }).first().click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Files to upload').setInputFiles(path);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => dialog.textContent(), { timeout: 120_000 }).toMatch(/Upload complete|not everything went through/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await admin.waitForURL(/\/file\/[0-9a-f-]{36}/, { timeout: 60_000 });
    fileId = /\/file\/([0-9a-f-]{36})/.exec(admin.url())![1]!;
    await expect.poll(async () => (await getJson<{ process_status: string }>(admin, `/api/file/${fileId}`)).process_status, { timeout: 120_000 }).toBe('success');

    // One student's lesson three times: the later copies repeat the first (and the first may
    // repeat a copy the demo already received).
    const sheets = await sheetsOf(fileId);
    expect(sheets.length).toBe(3);
    expect(new Set(sheets.map((sheet) => sheet.student?.id)).size).toBe(1);
    expect(sheets.slice(1).every((sheet) => sheet.duplicate === true)).toBe(true);
    const duplicates = sheets.filter((sheet) => sheet.duplicate).length;
    expect(await step()).toBe('review');
    await admin.reload();
    const items = admin.getByRole('list', { name: 'Action Items' });
    await expect.poll(() => items.textContent(), { timeout: 20_000 }).toMatch(new RegExp(`${duplicates} duplicate responses`));
    await snap(admin, 'review-end-01-duplicates-listed');
    await items.getByRole('link', { name: `${duplicates} duplicate responses` }).click();
    await expect.poll(() => admin.locator('table tbody tr').count()).toBe(duplicates);
    await snap(admin, 'review-end-01a-duplicate-responses');
    expect(await bodyText(admin)).toMatch(/Duplicate: keep it or ignore its pages/);
  });

  it('keeps copies and ignores one; Review then ends with a word, in place', async () => {
    // The later copies are kept; the earliest duplicate's pages are ignored last.
    const duplicates = (await sheetsOf(fileId)).filter((sheet) => sheet.duplicate);
    const last = duplicates.shift()!;
    for (const [index, sheet] of duplicates.entries()) {
      await admin.goto(`/responses/${sheet.id}`);
      const decision = admin.getByRole('group', { name: 'Duplicate response' });
      await expect.poll(() => decision.textContent()).toMatch(/repeats a lesson this student already sent/);
      if (index === 0) {
        await snap(admin, 'review-end-02-duplicate-question');
        await expectAccessible(admin, 'duplicate response');
      }
      await decision.getByRole('button', { name: 'Keep Response' }).click();
      await expect.poll(() => bodyText(admin)).toMatch(/Kept: this duplicate is sent like any other response\./);
    }
    // The copy not decided yet still holds the file.
    expect(await step()).toBe('review');
    expect(await bodyText(admin)).not.toMatch(/Review is complete/);

    await admin.goto(`/responses/${last.id}`);
    await admin.getByRole('group', { name: 'Duplicate response' }).getByRole('button', { name: 'Ignore Its Pages' }).click();
    await expect.poll(() => bodyText(admin), { timeout: 20_000 }).toMatch(/Review is complete: nothing in this file waits for a person any more\. Next: (send it to the study helpers|assign its responses to congregations)\./);
    // Not moved on: the person is still on the response they were checking.
    expect(admin.url()).toContain(`/responses/${last.id}`);
    await snap(admin, 'review-end-03-review-complete');
    expect(await step()).toMatch(/^(send|assign)$/);

    await admin.getByRole('link', { name: 'Go to the file' }).click();
    await admin.waitForURL(new RegExp(`/file/${fileId}/?$`));
    // After Review the Action Items no longer list the decided duplicate or the ignored pages.
    const items = admin.locator('.file-detail-left');
    await expect.poll(() => items.textContent()).toMatch(/No action items|without a congregation/);
    expect(await items.textContent()).not.toMatch(/duplicate|ignored page/);
    await snap(admin, 'review-end-04-file-after-review');
  });

  it('starts a new response at a page, says where it is, and names its student there', async () => {
    const kept = (await sheetsOf(fileId)).at(-1)!;
    expect(kept.page_count).toBeGreaterThanOrEqual(2);
    // Its second page starts a response of its own (as if two students' pages had run together).
    await admin.goto(`/responses/${kept.id}`);
    const second = admin.getByRole('article').nth(1);
    await second.getByRole('button', { name: 'Move or Split…' }).click();
    await second.getByRole('button', { name: 'Start New Response Here' }).click();
    const link = admin.getByRole('link', { name: 'Open the new response' });
    await expect.poll(() => link.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await bodyText(admin)).toMatch(/Page \d+ now starts a new response, with the pages after it\./);
    await snap(admin, 'review-end-05-new-response-message');
    await link.click();
    await admin.waitForURL(/\/responses\/[0-9a-f-]{36}/);
    const details = admin.getByRole('region', { name: 'Details' });
    const created = /\/responses\/([0-9a-f-]{36})/.exec(admin.url())![1]!;
    const sheet = await getJson<Sheet>(admin, `/api/answer-sheets/${created}`);
    if (sheet.student === null) {
      // Its page carried no student's code: the admin names the student.
      const student = await getJson<{ items: { id: string; human_id: number }[] }>(admin, '/api/students?limit=1');
      await details.locator('.p-dropdown').first().click();
      await admin.locator('.p-dropdown-filter').fill(String(student.items[0]!.human_id));
      await admin.locator('.p-dropdown-item', { hasText: String(student.items[0]!.human_id) }).first().click();
      await details.getByRole('button', { name: 'Save' }).click();
      await expect.poll(async () => (await getJson<Sheet>(admin, `/api/answer-sheets/${created}`)).student?.id).toBe(student.items[0]!.id);
    } else {
      expect(await details.textContent()).toContain(String(sheet.student.human_id));
    }
    await snap(admin, 'review-end-06-new-response');
    await admin.setViewportSize({ width: 390, height: 844 });
    await snap(admin, 'review-end-07-new-response-390');
    // The decision and its buttons stay inside the pages column (the header's own width is
    // another matter, issue 31's 390 px point).
    const column = (await admin.getByRole('region', { name: 'Pages' }).boundingBox())!;
    const decision = (await admin.getByRole('group', { name: 'Duplicate response' }).boundingBox())!;
    expect(decision.x + decision.width).toBeLessThanOrEqual(column.x + column.width + 1);
    await admin.setViewportSize({ width: 1280, height: 900 });
  });
});
