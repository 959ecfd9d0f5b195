// Uploads over a poor link, in the browser on the real server: the admin's upload loses its
// network half-way (the browser goes through a proxy that cuts every connection and refuses new
// ones for a while), says so and counts down, then finishes from the bytes the server kept when
// the network is back; another upload is left at a reload and continued from where it stopped
// when the same file is chosen again. Every byte request is watched, so "from where it stopped"
// is the offset the browser asked to write at, not a figure on screen.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import type { Socket } from 'node:net';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, signedInPage, snap } from './browser';
import { printAndScan } from './paper';

const baseUrl = inject('baseUrl');
const work = mkdtempSync(join(tmpdir(), 'portal-resumable-'));
let browser: Browser;
let admin: Page;
let scanPath = '';
let scanSize = 0;

/** About 400 kbit/s up: slow enough to stop an upload half-way. */
const SLOW_LINK = { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 50_000 };
const FULL_LINK = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

/** The offsets each PATCH of a resumable upload asked to write at, in order. */
function watchWrites(page: Page): number[] {
  const offsets: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && request.url().includes('/api/uploads/resumable/')) offsets.push(Number(request.headers()['upload-offset']));
  });
  return offsets;
}

async function slowLink(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_LINK);
  return cdp;
}

/** The percent the dialog says was sent, or -1 while it says none. */
async function percentSent(page: Page): Promise<number> {
  const text = (await page.getByRole('dialog').textContent()) ?? '';
  const match = /sent \((\d+)%\)/.exec(text);
  return match ? Number(match[1]) : -1;
}

async function openUploadDialog(page: Page, path: string) {
  await page.goto('/files');
  await page.getByRole('button', { name: 'Upload' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Files to upload').setInputFiles(path);
  return dialog;
}

/**
 * The browser's way to the server: a forward proxy whose link can drop. Dropped, it cuts every
 * connection at once and refuses new ones until it is back.
 */
class Link {
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private up = true;
  port = 0;

  constructor() {
    this.server = http.createServer((request, response) => {
      if (!this.up) return request.socket.destroy();
      const onward = http.request(request.url!, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      });
      onward.on('error', () => response.destroy());
      onward.on('socket', (socket) => this.track(socket));
      request.pipe(onward);
    });
    this.server.on('connection', (socket) => (this.up ? this.track(socket) : socket.destroy()));
  }

  private track(socket: Socket) {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  drop() {
    this.up = false;
    for (const socket of this.sockets) socket.destroy();
  }

  restore() {
    this.up = true;
  }

  close(): Promise<void> {
    this.drop();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
const link = new Link();

beforeAll(async () => {
  await link.start();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    // Loopback too goes through the proxy (Chromium bypasses it for loopback by default).
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', `--proxy-server=http://127.0.0.1:${link.port}`, '--proxy-bypass-list=<-loopback>'],
  });
  ({ page: admin } = await signedInPage(browser, baseUrl, DEMO.admin));
  const courses = await admin.request.get('/api/courses');
  const course = ((await courses.json()) as { items: { id: string; lessons?: { id: string }[] }[] }).items.find((c) => (c.lessons ?? []).length > 0)!;
  const master = new Uint8Array(await (await admin.request.get(`/api/courses/${course.id}/lessons/${course.lessons![0]!.id}/master.pdf`)).body());
  const scan = await printAndScan([master, master, master, master], { seed: 34, penMarks: true });
  scanSize = scan.length;
  scanPath = join(work, `Resumable journey ${Date.now()}.pdf`);
  writeFileSync(scanPath, scan);
});
afterAll(async () => {
  await browser?.close();
  await link.close();
});

describe('an upload over a link that drops', () => {
  it('says the connection was lost, retries, and finishes from the bytes the server kept', async () => {
    expect(scanSize).toBeGreaterThan(200_000);
    const writes = watchWrites(admin);
    const dialog = await openUploadDialog(admin, scanPath);
    const cdp = await slowLink(admin);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => percentSent(admin), { timeout: 60_000 }).toBeGreaterThanOrEqual(20);

    link.drop();
    await expect.poll(() => dialog.textContent(), { timeout: 60_000 }).toMatch(/Connection lost, retrying (in \d+ s|now)…/);
    await snap(admin, 'resumable-01-connection-lost');
    await cdp.send('Network.emulateNetworkConditions', FULL_LINK);
    link.restore();
    await expect.poll(() => dialog.textContent(), { timeout: 120_000 }).toMatch(/Upload complete|not everything went through|Uploaded\. Reading the pages/);

    // The first write began at 0; a later one began where the server had stopped, not at 0.
    expect(writes[0]).toBe(0);
    const resumedAt = writes.slice(1).filter((offset) => offset > 0);
    expect(resumedAt.length).toBeGreaterThan(0);
    expect(Math.max(...resumedAt)).toBeLessThan(scanSize);
    await snap(admin, 'resumable-02-finished');
  });
});

describe('an upload left at a reload', () => {
  it('is offered again for the same file and continues from where it stopped', async () => {
    // The same scan under another name: the first journey's content is stored already.
    const path = join(work, `Reloaded journey ${Date.now()}.pdf`);
    const { PDFDocument } = await import('pdf-lib');
    const other = await PDFDocument.load(new Uint8Array(readFileSync(scanPath)));
    other.setTitle('Reloaded');
    writeFileSync(path, await other.save());

    const { page } = await signedInPage(browser, baseUrl, DEMO.admin);
    const writes = watchWrites(page);
    const dialog = await openUploadDialog(page, path);
    await slowLink(page);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => percentSent(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(20);

    await page.reload();
    const again = await openUploadDialog(page, path);
    await again.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => again.textContent(), { timeout: 30_000 }).toMatch(/An earlier upload of .* stopped at \d+ ?%/);
    await snap(page, 'resumable-03-offered-to-continue');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FULL_LINK);
    await again.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => again.textContent(), { timeout: 120_000 }).toMatch(/Upload complete|not everything went through|Uploaded\. Reading the pages/);

    expect(writes[0]).toBe(0);
    const afterReload = writes.slice(1);
    expect(afterReload.length).toBeGreaterThan(0);
    expect(afterReload[0]).toBeGreaterThan(0);
    await page.context().close();
  });
});
