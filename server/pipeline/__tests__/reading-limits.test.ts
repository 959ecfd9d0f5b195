// The page workers' reading limits on real hostile pages: a page whose reading goes past the time
// limit (a flate bomb) or grows the process past the memory limit (a large vector page rendered
// within the pixel budget) is kept as too complex, its worker is stopped and replaced, and the
// pages after it are read as usual.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScan, SERVICE_CENTER_PREFIXES, type MadeScan } from '../../../tests/fixtures/make-scans';
import { photographTable } from '../../../tests/fixtures/phone-photos';
import { createPrng } from '../../../tests/fixtures/prng';
import { processPages } from '../process-pages';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reading-limits-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let made: MadeScan;
beforeAll(async () => {
  made = await makeScan({ pages: 5, seed: 3 });
}, 60_000);

/** The scan's pages with a page of `size` pt whose content is `operators` (deflated) put in as page `at`. */
async function withPage(at: number, size: [number, number], operators: Buffer): Promise<string> {
  const pdf = await PDFDocument.load(fs.readFileSync(made.path));
  const content = pdf.context.register(pdf.context.stream(deflateSync(operators), { Filter: 'FlateDecode' }));
  pdf.insertPage(at - 1, size).node.set(PDFName.of('Contents'), content);
  const file = path.join(dir, `with-page-${at}-${size.join('x')}.pdf`);
  fs.writeFileSync(file, await pdf.save());
  return file;
}

describe('a page past a reading limit', () => {
  it('is kept as too complex when reading it takes too much memory, and the pages after it are read', async () => {
    // An A0 page of 200 strokes: rendered within the pixel budget, some 40 MB and seconds of work.
    // First in this file and first in its file: the process's growth is what is limited, and
    // memory a stopped worker gave back, or that reading the pages before it took, would be taken
    // again without growing it.
    const strokes = Array.from({ length: 200 }, (_, i) => `${(i * 7) % 2384} 0 m ${(i * 13) % 2384} 3370 l S`).join('\n');
    const file = await withPage(1, [2384, 3370], Buffer.from(strokes));
    const { pages } = await processPages(file, {
      workers: 1,
      pageImage: false,
      expectedPrefixes: SERVICE_CENTER_PREFIXES,
      readingLimits: { pageTimeMs: 60_000, pageMemoryMb: 16 },
    });
    expect(pages[0]).toMatchObject({ reason: 'too_complex', error: 'too large or too complex to read: reading it took over 16 MB of memory' });
    const others = pages.filter((page) => page.page_number !== 1);
    expect(others.map((page) => page.error)).toEqual([null, null, null, null, null]);
    expect(others.map((page) => page.code)).toEqual(made.pages.map((page) => page.code));
  }, 60_000);

  it('is kept as too complex when reading it takes too long, and the pages after it are read', async () => {
    // 20 MB of operators: some ten seconds of mupdf's time here, against a limit of one.
    const file = await withPage(2, [595, 842], Buffer.from('q Q\n'.repeat(5 * 1024 * 1024)));
    const started = Date.now();
    const { pages } = await processPages(file, {
      workers: 1,
      pageImage: false,
      expectedPrefixes: SERVICE_CENTER_PREFIXES,
      readingLimits: { pageTimeMs: 1_000, pageMemoryMb: 512 },
    });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(pages.map((page) => page.page_number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pages[1]).toMatchObject({ reason: 'too_complex', error: 'too large or too complex to read: reading it took over 1 s', code: null });
    // The pages before and after it, read by the worker stopped and by its replacement.
    const others = pages.filter((page) => page.page_number !== 2);
    expect(others.map((page) => page.error)).toEqual([null, null, null, null, null]);
    expect(others.map((page) => page.code)).toEqual(made.pages.map((page) => page.code));
  }, 60_000);

  it('after three such pages, takes the file for hostile: its other pages get a second each', async () => {
    // Five bomb pages sharing one content stream of 20 MB of operators, then the scan's pages.
    const pdf = await PDFDocument.load(fs.readFileSync(made.path));
    const bomb = pdf.context.register(pdf.context.stream(deflateSync(Buffer.from('q Q\n'.repeat(5 * 1024 * 1024))), { Filter: 'FlateDecode' }));
    for (let i = 0; i < 5; i++) pdf.insertPage(i, [595, 842]).node.set(PDFName.of('Contents'), bomb);
    const file = path.join(dir, 'five-bombs.pdf');
    fs.writeFileSync(file, await pdf.save());
    const { pages } = await processPages(file, {
      workers: 1,
      pageImage: false,
      expectedPrefixes: SERVICE_CENTER_PREFIXES,
      readingLimits: { pageTimeMs: 2_000, pageMemoryMb: 512 },
    });
    expect(pages.slice(0, 5).map((page) => [page.reason, page.error])).toEqual([
      ['too_complex', 'too large or too complex to read: reading it took over 2 s'],
      ['too_complex', 'too large or too complex to read: reading it took over 2 s'],
      ['too_complex', 'too large or too complex to read: reading it took over 2 s'],
      ['too_complex', 'too large or too complex to read: reading it took over 1 s'],
      ['too_complex', 'too large or too complex to read: reading it took over 1 s'],
    ]);
    expect(pages.slice(5).map((page) => page.code)).toEqual(made.pages.map((page) => page.code));
  }, 90_000);

  it('is kept as too complex when it is too large to render at a readable resolution', async () => {
    // 14,400 pt square: 3 GB of pixels at 150 dpi, refused before any is drawn.
    const file = await withPage(1, [14_400, 14_400], Buffer.from('0 0 m 14400 14400 l S\n'));
    const { pages } = await processPages(file, { workers: 1, pageImage: false, expectedPrefixes: SERVICE_CENTER_PREFIXES });
    expect(pages[0]).toMatchObject({ reason: 'too_complex', error: 'too large or too complex to read: a 14400 x 14400 pt page' });
    expect(pages.slice(1).map((page) => page.code)).toEqual(made.pages.map((page) => page.code));
  }, 60_000);
});

describe('photos of pages', () => {
  it('are read in the page workers, held to the same limits', async () => {
    // A 12 MP phone photo of a table: decoding and looking for a sheet in it takes far more than 50 ms.
    const table = path.join(dir, 'table.jpg');
    fs.writeFileSync(table, await photographTable(createPrng('reading-limits-photo')));
    const photos = [{ path: table, mediaType: 'image/jpeg' as const }];
    const held = await processPages({ photos }, { workers: 1, pageImage: false, readingLimits: { pageTimeMs: 50, pageMemoryMb: 512 } });
    expect(held.pages.map((page) => [page.reason, page.error])).toEqual([['too_complex', 'too large or too complex to read: reading it took over 0.05 s']]);
    // Within the usual limits the same photo is read: no sheet in it.
    const read = await processPages({ photos }, { workers: 1, pageImage: false });
    expect(read.pages.map((page) => [page.reason, page.error])).toEqual([['no_sheet', null]]);
  }, 60_000);
});
