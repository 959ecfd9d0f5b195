// The product's reason to exist, in the browser on the real server: the admin uploads a scan of
// answer sheets printed from the portal's own masters, reviews and assigns it, sends it; the
// coordinator prints the packet, "grades" it on paper and uploads the graded scan; the admin
// downloads the return file and archives the file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, expectAccessible, launchBrowser, signedInPage, snap } from './browser';
import { printAndScan } from './paper';

const baseUrl = inject('baseUrl');
const work = mkdtempSync(join(tmpdir(), 'portal-workflow-'));
let browser: Browser;
let admin: Page;
let fileId = '';
const fileName = `Workflow journey ${Date.now()}`;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ page: admin } = await signedInPage(browser, baseUrl, DEMO.admin));
});
afterAll(async () => {
  await browser?.close();
});

const bodyText = async (page: Page) => (await page.textContent('body')) ?? '';

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.ok(), `${url}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

describe('a file from upload to return', () => {
  it('uploads a scan of printed answer sheets and processes it', async () => {
    const courses = await getJson<{ items: { id: string; lessons?: { id: string }[] }[] }>(admin, '/api/courses');
    const course = courses.items.find((c) => (c.lessons ?? []).length > 0)!;
    const master = await admin.request.get(`/api/courses/${course.id}/lessons/${course.lessons![0]!.id}/master.pdf`);
    expect(master.ok()).toBe(true);
    const masterPdf = new Uint8Array(await master.body());
    // Three students' worth of the lesson, written on and scanned.
    const scan = await printAndScan([masterPdf, masterPdf, masterPdf], { seed: 7, penMarks: true });
    const path = join(work, `${fileName}.pdf`);
    writeFileSync(path, scan);

    await admin.goto('/files');
    await admin.getByRole('button', { name: 'Upload' }).first().click();
    const dialog = admin.getByRole('dialog');
    await dialog.locator('input[type="file"]').setInputFiles(path);
    await snap(admin, 'workflow-01-upload-dialog');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await admin.waitForURL(/\/file\/[0-9a-f-]{36}/, { timeout: 60_000 });
    fileId = /\/file\/([0-9a-f-]{36})/.exec(admin.url())![1]!;
    await expect.poll(async () => (await getJson<{ process_status: string }>(admin, `/api/file/${fileId}`)).process_status, { timeout: 120_000 }).toBe('success');
    await admin.reload();
    await expect.poll(() => admin.getByRole('region', { name: 'Workflow' }).isVisible()).toBe(true);
    await snap(admin, 'workflow-02-file-processed');
    await expectAccessible(admin, 'file detail');
  });

  it('lists the responses of the file', async () => {
    await admin.goto(`/file/${fileId}/responses`);
    await expect.poll(async () => admin.locator('table tbody tr').count()).toBe(3);
    await snap(admin, 'workflow-03-responses');
    await expectAccessible(admin, 'responses');
    await admin.locator('table tbody tr').first().click();
    await expect.poll(() => admin.url()).toMatch(/\/responses\/[0-9a-f-]{36}/);
    await expect.poll(() => bodyText(admin)).toMatch(/Print/);
    await snap(admin, 'workflow-04-response');
    await expectAccessible(admin, 'response detail');
  });

  it('assigns every sheet and sends the file to the congregation', async () => {
    await admin.goto(`/file/${fileId}`);
    const steps = async () => (await getJson<{ step: string }>(admin, `/api/file/${fileId}/steps`)).step;
    await expect.poll(steps).toMatch(/assign|review/);
    if ((await steps()) === 'assign') {
      const workflow = admin.getByRole('region', { name: 'Workflow' });
      await workflow.locator('.p-dropdown').first().click();
      await admin.locator('.p-dropdown-item', { hasText: 'TX 40213' }).first().click();
      await workflow.getByRole('button', { name: 'Assign', exact: true }).click();
      await expect.poll(steps).toBe('send');
      await expect.poll(() => bodyText(admin)).toContain('Ready to send to study helpers!');
      await snap(admin, 'workflow-05-send');
      await admin.getByRole('region', { name: 'Workflow' }).getByRole('button', { name: 'Send', exact: true }).click();
      await expect.poll(steps, { timeout: 120_000 }).toBe('grading');
      // The file's details follow the job without a reload: the sent date shows once it is done.
      const sent = admin.locator('.file-fact', { has: admin.locator('dt', { hasText: /^Sent$/ }) }).locator('dd');
      await expect.poll(() => sent.textContent(), { timeout: 30_000 }).toMatch(/\d/);
      await admin.reload();
      await expect.poll(() => bodyText(admin)).toMatch(/0 of 3 responses graded/);
      await snap(admin, 'workflow-06-grading');
      await expectAccessible(admin, 'grading step');
    } else {
      throw new Error(`the file stayed in review: ${JSON.stringify(await getJson(admin, `/api/file/${fileId}/stats`))}`);
    }
  });

  it('lets the coordinator print the packet and upload it graded', async () => {
    const { context, page } = await signedInPage(browser, baseUrl, DEMO.coordinator);
    await page.goto('/files?mode=print');
    await expect.poll(() => bodyText(page)).toContain(fileName);
    await snap(page, 'workflow-07-ready-to-print');
    await expectAccessible(page, 'ready to print');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByRole('button', { name: `Print/Download ${fileName}` }).click(),
    ]);
    const packetPath = join(work, 'packet.pdf');
    await download.saveAs(packetPath);
    const { readFileSync } = await import('node:fs');
    const graded = await printAndScan([new Uint8Array(readFileSync(packetPath))], { seed: 11, penMarks: true, duplexBacks: true });
    const gradedPath = join(work, 'graded.pdf');
    writeFileSync(gradedPath, graded);

    await page.goto('/');
    await page.getByRole('button', { name: 'Upload' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'No' }).click();
    await dialog.locator('input[type="file"]').setInputFiles(gradedPath);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => dialog.textContent(), { timeout: 60_000 }).toMatch(/Upload complete|Operation successful/i);
    await snap(page, 'workflow-08-graded-upload');
    await context.close();
  });

  it('returns the graded file and archives it', async () => {
    const step = async () => getJson<{ step: string; prepped: boolean; complete: number; total: number }>(admin, `/api/file/${fileId}/steps`);
    await expect.poll(async () => (await step()).step, { timeout: 180_000 }).toBe('return');
    await expect.poll(async () => (await step()).prepped, { timeout: 180_000 }).toBe(true);
    await admin.goto(`/file/${fileId}`);
    const workflow = admin.getByRole('region', { name: 'Workflow' });
    await expect.poll(() => workflow.getByRole('button', { name: 'Download', exact: true }).isEnabled()).toBe(true);
    await snap(admin, 'workflow-09-return');
    const [download] = await Promise.all([admin.waitForEvent('download'), workflow.getByRole('button', { name: 'Download', exact: true }).click()]);
    await download.saveAs(join(work, 'return.pdf'));
    await expect.poll(() => workflow.getByRole('button', { name: 'Archive', exact: true }).isEnabled()).toBe(true);
    await workflow.getByRole('button', { name: 'Archive', exact: true }).click();
    await expect.poll(() => bodyText(admin)).toContain('Archived');
    await snap(admin, 'workflow-10-archived');
    await expectAccessible(admin, 'archived file');
  });
});
