import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeScan,
  SERVICE_CENTER_PREFIXES,
  type MadeScan,
} from '../../../tests/fixtures/make-scans';
import { ScanPdfBuilder } from '../../../tests/fixtures/scan-pdf';
import { findCodes } from '../find-codes';
import {
  PagePool,
  pageWorkerScript,
  stopWaitingPageWorkers,
  warmPageWorkerCount,
  warmPageWorkers,
} from '../page-pool';
import {
  processPages,
  type ProcessedPage,
  type ProcessProgress,
} from '../process-pages';
import { UnreadablePdfError } from '../read-page';
import { splitIntoSheets } from '../../domain/split';
import { compiledZxing } from '../zxing-reader';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'process-pages-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const withoutImage = (page: ProcessedPage) => ({ ...page, image: null });
/** An image as its size and a hash of its bytes: vitest's deep equality over 60 JPEGs takes a minute. */
const imageOf = (page: ProcessedPage) =>
  page.image === null ? null : `${page.image.width}x${page.image.height} ${createHash('sha256').update(page.image.jpeg).digest('hex')}`;
function expectSamePages(actual: ProcessedPage[], expected: ProcessedPage[]) {
  expect(actual.map(withoutImage)).toEqual(expected.map(withoutImage));
  expect(actual.map(imageOf)).toEqual(expected.map(imageOf));
}

describe('a standard scan (60 pages: tilted, turned, noisy, faded, colour, black-and-white, blank backs, strangers)', () => {
  let scan: MadeScan;
  let pages: ProcessedPage[];
  const handed: number[] = [];
  const progress: ProcessProgress[] = [];

  beforeAll(async () => {
    scan = await makeScan({ pages: 60, seed: 11 });
    const result = await processPages(scan.path, {
      expectedPrefixes: SERVICE_CENTER_PREFIXES,
      onPage: (page) => {
        handed.push(page.page_number);
        pages ??= [];
        pages.push(page);
      },
      onProgress: (p) => {
        progress.push(p);
      },
    });
    expect(result.count).toBe(60);
    expect(result.failed).toBe(0);
    // The pages went to onPage: none are kept here (that would grow with the file).
    expect(result.pages).toEqual([]);
  }, 300_000);

  it('covers every kind of page', () => {
    expect(new Set(scan.pages.map((p) => p.kind))).toEqual(
      new Set([
        'cover',
        'sheet',
        'blank',
        'foreign_letter',
        'foreign_qr',
        'packet_page',
        'other_course',
      ]),
    );
    const effects = scan.pages.map((p) => p.effects);
    expect(new Set(effects.map((e) => e.orientation))).toEqual(new Set([0, 90, 180, 270]));
    expect(new Set(effects.map((e) => e.encoding))).toEqual(
      new Set(['jpeg_grey', 'jpeg_colour', 'bilevel_flate', 'bilevel_ccitt']),
    );
    expect(effects.some((e) => e.coveredCorner)).toBe(true);
    expect(effects.some((e) => e.viaPageRotate)).toBe(true);
  });

  it('reads every code, orientation, blank page and reason exactly', () => {
    const got = pages.map((p) => ({
      page: p.page_number,
      code: p.code,
      reason: p.reason,
      blank: p.blank,
      orientation: p.orientation,
    }));
    const want = scan.pages.map((t) => ({
      page: t.page_number,
      code: t.code,
      reason: t.reason,
      blank: t.blank,
      orientation: t.orientation,
    }));
    expect(got).toEqual(want);
    expect(
      pages.every(
        (p) => p.error === null && p.image_error === null && p.source === 'embedded_image',
      ),
    ).toBe(true);
  });

  it('hands pages over in order and reports progress from the start', () => {
    expect(handed).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(progress[0]).toEqual({ completed: 0, count: 60, failed: 0 });
    expect(progress.at(-1)).toEqual({ completed: 60, count: 60, failed: 0 });
    expect(progress.map((p) => p.completed)).toEqual(Array.from({ length: 61 }, (_, i) => i));
  });

  it('splits into the same sheets as the truth', () => {
    const fromScan = splitIntoSheets(pages, scan.resolve, 0);
    const fromTruth = splitIntoSheets(scan.pages, scan.resolve, 0);
    expect(fromScan).toEqual(fromTruth);
    expect(fromScan.cover).toEqual({ page_number: 1, service_center_id: 'service-center-1' });
    // Each printed sheet is one answer sheet (truth pages of one student/lesson run).
    const sheetStarts = scan.pages.filter(
      (t) => (t.kind === 'sheet' || t.kind === 'other_course') && t.lesson_page_number === 1,
    ).length;
    expect(fromScan.sheets.filter((s) => s.lesson_id !== null).length).toBe(sheetStarts);
  });

  it('stores JPEG page images shown upright (a turned page reads upright again as shown)', async () => {
    for (const page of pages) {
      expect(page.image).not.toBeNull();
      const meta = await sharp(page.image!.jpeg).metadata();
      expect(meta.format).toBe('jpeg');
      // As shown: a turned scan kept as it came is turned by its EXIF orientation.
      expect([meta.autoOrient.width, meta.autoOrient.height]).toEqual([page.image!.width, page.image!.height]);
      if (page.orientation !== null) expect(meta.autoOrient.height).toBeGreaterThan(meta.autoOrient.width);
    }
    for (const orientation of [90, 180, 270] as const) {
      const turned = pages.find((p) => p.orientation === orientation && p.code)!;
      const { data, info } = await sharp(turned.image!.jpeg)
        .autoOrient()
        .toColourspace('b-w')
        .raw()
        .toBuffer({ resolveWithObject: true });
      const again = await findCodes({
        width: info.width,
        height: info.height,
        data: new Uint8Array(data),
      });
      expect(again.code).toEqual(turned.code);
      expect(again.orientation).toBe(0);
    }
  });

  it('resumes from a given page with the same results', async () => {
    const progress2: ProcessProgress[] = [];
    const resumed = await processPages(scan.path, {
      expectedPrefixes: SERVICE_CENTER_PREFIXES,
      startAtPage: 41,
      pageImage: false,
      onProgress: (p) => void progress2.push(p),
    });
    expect(resumed.pages.map((p) => p.page_number)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 41),
    );
    expect(resumed.pages).toEqual(pages.slice(40).map(withoutImage));
    expect(progress2[0]).toEqual({ completed: 40, count: 60, failed: 0 });
    expect(progress2.at(-1)).toEqual({ completed: 60, count: 60, failed: 0 });
  }, 120_000);
  it('gives the same results on this thread as in worker threads', async () => {
    const here = await processPages(scan.path, {
      expectedPrefixes: SERVICE_CENTER_PREFIXES,
      workers: 0,
    });
    expectSamePages(here.pages, pages);
  }, 300_000);

  it('keeps pages waiting for a worker with room, and answers the ones still waiting when closed', async () => {
    const fd = fs.openSync(scan.path, 'r');
    const pool = new PagePool(2, { fileKey: fd, source: { fd }, colour: false, options: { pageImage: false } }, await pageWorkerScript());
    try {
      const order: number[] = [];
      // More pages than the workers take at once: the rest wait, and every one is answered.
      const asked = Array.from({ length: 10 }, (_, i) => i + 1);
      const answered = await Promise.all(
        asked.map((n) => pool.analyse(n).then((page) => (order.push(n), page))),
      );
      expect(answered.map((page) => page.page_number)).toEqual(asked);
      expect(answered.map(withoutImage)).toEqual(pages.slice(0, 10).map(withoutImage));
      expect(order).toHaveLength(10);
      // Closing lets the workers finish what they have and answers the pages still waiting.
      const late = [11, 12, 13, 14, 15, 16].map((n) => pool.analyse(n));
      await pool.close();
      const errors = (await Promise.all(late)).map((page) => page.error);
      expect(errors).toEqual([null, null, null, null, 'page pool closed', 'page pool closed']);
    } finally {
      await pool.close();
      fs.closeSync(fd);
    }
  }, 120_000);

  it('takes workers started ahead of the file, which analyse its pages the same', async () => {
    await warmPageWorkers(2);
    expect(warmPageWorkerCount()).toBe(2);
    // Settings come with the file, not with the worker: these pages have no image.
    const fd = fs.openSync(scan.path, 'r');
    const pool = new PagePool(
      2,
      { fileKey: fd, source: { fd }, colour: false, options: { expectedPrefixes: [...SERVICE_CENTER_PREFIXES], pageImage: false } },
      await pageWorkerScript(),
    );
    try {
      const asked = [1, 2, 3, 4, 5, 6];
      const answered = await Promise.all(asked.map((n) => pool.analyse(n)));
      expect(warmPageWorkerCount()).toBe(0);
      expect(answered.map((page) => page.image)).toEqual(asked.map(() => null));
      expect(answered.map(withoutImage)).toEqual(pages.slice(0, 6).map(withoutImage));
    } finally {
      await pool.close();
      fs.closeSync(fd);
    }
  }, 120_000);

  it("leaves a file's workers waiting for the next file, which takes them with its own settings", async () => {
    await stopWaitingPageWorkers();
    const first = await processPages(scan.path, {
      expectedPrefixes: SERVICE_CENTER_PREFIXES,
      startAtPage: 51,
      workers: 2,
      pageImage: false,
    });
    expect(warmPageWorkerCount()).toBe(2);
    const second = await processPages(scan.path, {
      expectedPrefixes: SERVICE_CENTER_PREFIXES,
      startAtPage: 51,
      workers: 2,
    });
    // The same two wait again: none more were started, none stopped.
    expect(warmPageWorkerCount()).toBe(2);
    expect(first.pages.map((page) => page.image)).toEqual(first.pages.map(() => null));
    expect(second.pages.map(withoutImage)).toEqual(first.pages);
    expect(second.pages.filter((page) => page.image !== null).length).toBeGreaterThan(0);
    expectSamePages(second.pages, pages.slice(50));
    await stopWaitingPageWorkers();
    expect(warmPageWorkerCount()).toBe(0);
  }, 120_000);

  it('stops workers started ahead that no file took', async () => {
    await stopWaitingPageWorkers();
    await warmPageWorkers(1, 100);
    expect(warmPageWorkerCount()).toBe(1);
    const until = Date.now() + 10_000;
    while (warmPageWorkerCount() > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(warmPageWorkerCount()).toBe(0);
  });

  it('runs its worker threads as bundled JavaScript, without the TypeScript loader, reading pages with mupdf', async () => {
    const script = await pageWorkerScript();
    expect(script.tsx).toBe(false);
    const bundle = fs.readFileSync(fileURLToPath(script.url), 'utf8');
    expect(bundle).toMatch(/from "sharp"/);
    // A worker reads its pages itself, where the pool can stop it: never on the calling thread.
    expect(bundle).toMatch(/from "mupdf"/);
  });

  it('starts its workers with zxing compiled once for the process', async () => {
    const script = await pageWorkerScript();
    expect(script.zxing).toBeInstanceOf(WebAssembly.Module);
    expect(script.zxing).toBe(await compiledZxing());
    // What the workers read codes with (the pages above): the module's exports are zxing's.
    expect(WebAssembly.Module.exports(script.zxing).length).toBeGreaterThan(10);
  });
});

describe('failures', () => {
  let brokenFile: string;

  beforeAll(async () => {
    // A blank page, a page that cannot be decoded, a blank page again.
    const builder = await ScanPdfBuilder.create();
    const blank = { width: 400, height: 566, data: new Uint8Array(400 * 566).fill(245) };
    await builder.addPage({ raster: blank, dpi: 48, encoding: 'jpeg_grey' });
    builder.addBrokenPage();
    await builder.addPage({ raster: blank, dpi: 48, encoding: 'jpeg_grey' });
    brokenFile = path.join(dir, 'broken.pdf');
    fs.writeFileSync(brokenFile, await builder.save());
  });

  it('turns a page that cannot be read into an unreadable page, never failing the file', async () => {
    const progress: ProcessProgress[] = [];
    const result = await processPages(brokenFile, { onProgress: (p) => void progress.push(p) });
    expect(result.count).toBe(3);
    expect(result.failed).toBe(1);
    expect(result.pages.map((p) => [p.page_number, p.reason, p.blank, p.error === null])).toEqual([
      [1, 'no_code_found', true, true],
      [2, 'unreadable', false, false],
      [3, 'no_code_found', true, true],
    ]);
    expect(result.pages[1]!.error).toMatch(/\w/);
    expect(result.pages[1]!.image).toBeNull();
    expect(progress.at(-1)).toEqual({ completed: 3, count: 3, failed: 1 });
  });

  it('stops when onPage fails, handing over nothing more', async () => {
    const handed: number[] = [];
    await expect(
      processPages(brokenFile, {
        onPage: (page) => {
          handed.push(page.page_number);
          if (page.page_number === 1) throw new Error('database down');
        },
      }),
    ).rejects.toThrow('database down');
    expect(handed).toEqual([1]);
  });

  it('stops when aborted, handing over nothing after the abort', async () => {
    const aborted = new AbortController();
    aborted.abort(new Error('lease lost'));
    await expect(processPages(brokenFile, { signal: aborted.signal })).rejects.toThrow(
      'lease lost',
    );

    const controller = new AbortController();
    const handed: number[] = [];
    let settled = false;
    const run = processPages(brokenFile, {
      signal: controller.signal,
      onPage: (page) => {
        handed.push(page.page_number);
        if (page.page_number === 1) controller.abort(new Error('lease lost'));
      },
    }).finally(() => (settled = true));
    await expect(run).rejects.toThrow('lease lost');
    expect(settled).toBe(true);
    expect(handed).toEqual([1]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(handed).toEqual([1]);
  });

  it('keeps page errors, order and stops the same in worker threads', async () => {
    const builder = await ScanPdfBuilder.create();
    const blank = { width: 400, height: 566, data: new Uint8Array(400 * 566).fill(245) };
    const count = 8;
    for (let i = 1; i <= count; i++) {
      if (i === 3) builder.addBrokenPage();
      else await builder.addPage({ raster: blank, dpi: 48, encoding: 'jpeg_grey' });
    }
    const file = path.join(dir, 'broken-long.pdf');
    fs.writeFileSync(file, await builder.save());

    const handed: ProcessedPage[] = [];
    const result = await processPages(file, {
      workers: 2,
      onPage: (page) => void handed.push(withoutImage(page)),
    });
    expect(handed.map((p) => p.page_number)).toEqual(
      Array.from({ length: count }, (_, i) => i + 1),
    );
    expect(result.failed).toBe(1);
    expect(handed[2]!.reason).toBe('unreadable');
    expect(handed[2]!.error).toMatch(/\w/);
    expect(handed.filter((p) => p.blank).length).toBe(count - 1);

    const resumed = await processPages(file, { workers: 2, startAtPage: 2, pageImage: false });
    expect(resumed.pages.map((p) => p.page_number)[0]).toBe(2);
    expect(resumed.pages).toEqual(handed.slice(1));

    const stopped: number[] = [];
    await expect(
      processPages(file, {
        workers: 2,
        onPage: (page) => {
          stopped.push(page.page_number);
          if (page.page_number === 2) throw new Error('database down');
        },
      }),
    ).rejects.toThrow('database down');
    expect(stopped).toEqual([1, 2]);
  }, 120_000);

  it('refuses a file that is not a PDF', async () => {
    const file = path.join(dir, 'text.pdf');
    fs.writeFileSync(file, 'not a pdf');
    await expect(processPages(file)).rejects.toBeInstanceOf(UnreadablePdfError);
  });
});

describe('a harsh scan (150 dpi, heavy noise and blur, JPEG q25-35, 3-6 degree tilt)', () => {
  it('never reads a wrong code, and reads most', async () => {
    const scan = await makeScan({ pages: 60, seed: 12, harsh: true });
    const started = performance.now();
    const result = await processPages(scan.path, {
      expectedPrefixes: SERVICE_CENTER_PREFIXES,
      pageImage: false,
    });
    const seconds = (performance.now() - started) / 1000;
    const expected = scan.pages.filter((t) => t.code);
    let read = 0;
    const passes = new Map<string, number>();
    for (const page of result.pages) {
      const truth = scan.pages[page.page_number - 1]!;
      // Whatever is read is right; what is not read says why.
      if (page.code) {
        expect(page.code).toEqual(truth.code);
        expect(page.orientation).toBe(truth.orientation);
        read++;
        const pass = page.codes.find((c) => c.code?.id === page.code!.id)!.pass;
        passes.set(pass, (passes.get(pass) ?? 0) + 1);
      } else if (truth.code) {
        expect(['unreadable', 'no_code_found']).toContain(page.reason);
      } else {
        expect(page.reason).toBe(truth.reason);
      }
      expect(page.blank).toBe(truth.blank);
    }
    console.log(
      `harsh scan: ${read}/${expected.length} codes read (${((100 * read) / expected.length).toFixed(0)}%), ${(result.pages.length / seconds).toFixed(1)} pages/s; passes ${JSON.stringify(Object.fromEntries(passes))}`,
    );
    expect(read / expected.length).toBeGreaterThanOrEqual(0.85);
  }, 300_000);
});
