// Journey: a backend developer opens the API reference at /api/docs. It must render under the
// server's Content-Security-Policy (a refused script leaves a blank page) and list every
// operation of the contract, found by its operationId in the reference's menu.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, snap } from './browser';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Every operationId of the bundled contract, read here rather than through the server's code. */
function operationIds(): string[] {
  const document = JSON.parse(readFileSync(join(import.meta.dirname, '../../generated/openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return Object.values(document.paths).flatMap((item) =>
    ['get', 'head', 'post', 'put', 'patch', 'delete'].flatMap((method) => item[method]?.operationId ?? []),
  );
}

describe('the API reference', () => {
  it('renders every operation under the Content-Security-Policy', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    page.on('pageerror', (error) => refused.push(error.message));
    const response = await page.goto('/api/docs');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect.poll(() => page.getByRole('heading', { name: /Bible-study correspondence portal API/ }).isVisible()).toBe(true);

    const expected = operationIds();
    expect(expected.length).toBeGreaterThan(70);
    const listed = await page.$$eval('[data-item-id*="/operation/"]', (items) =>
      items.map((item) => item.getAttribute('data-item-id')!.replace(/^.*\/operation\//, '')),
    );
    expect(new Set(listed)).toEqual(new Set(expected));
    await expect.poll(() => page.getByRole('heading', { name: 'Server and database health' }).isVisible()).toBe(true);

    expect(refused).toEqual([]);
    await snap(page, 'api-docs-01-reference');
    await context.close();
  });
});
