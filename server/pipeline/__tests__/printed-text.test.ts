// OCR of the product's printed text on pages whose codes are covered (sticky notes), with the
// English model from npm: read in the page workers, only on pages where no code was read, and
// never fetched from anywhere.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../project-root';
import { coverCodes, coveredScanPdf, packetPagesPdf, type PacketPageSpec } from '../../../tests/fixtures/covered-codes';
import { createPrng } from '../../../tests/fixtures/prng';
import { renderPdfPage } from '../../../tests/fixtures/render-pdf';
import { fillRect } from '../../../tests/fixtures/scan-effects';
import { codeText } from '../../domain/codes';
import { ENGLISH_DATA_PATH, hasPrintedTextReader } from '../printed-text';
import { processPages, type ProcessedPage } from '../process-pages';

const PUBLIC_URL = 'https://portal.example.org';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printed-text-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const spec = (id: string, student: number, page: number): PacketPageSpec => ({
  code: { prefix: 'p', id },
  studentHumanId: student,
  lessonNumber: 2,
  lessonName: 'Prayer',
  congregationCode: 'WBS',
  pageNumber: page,
  pageCount: 2,
});

describe('the English model', () => {
  it('is the one installed from npm, read from its package folder', () => {
    const packageDir = path.join(PROJECT_ROOT, 'node_modules', '@tesseract.js-data', 'eng');
    expect(path.dirname(ENGLISH_DATA_PATH)).toBe(packageDir);
    expect(fs.statSync(path.join(ENGLISH_DATA_PATH, 'eng.traineddata.gz')).size).toBeGreaterThan(1_000_000);
  });

  // A process in a network namespace of its own has no network at all: any fetch would fail.
  const isolated = spawnSync('unshare', ['-rn', 'true']).status === 0;
  it.skipIf(!isolated)('reads a covered packet page in a process with no network', () => {
    const tsx = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
    const out = execFileSync('unshare', ['-rn', tsx, path.join(PROJECT_ROOT, 'tests', 'fixtures', 'read-printed-text.ts')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(JSON.parse(out)).toMatchObject({ student_human_id: 1049, lesson_number: 2, page_number: 2, page_count: 2, code: null });
    // Nothing written beside the process either (tesseract.js caches its model in the working folder by default).
    expect(fs.readdirSync(dir)).toEqual([]);
  }, 90_000);
});

describe('pages read by the page workers', () => {
  let pages: ProcessedPage[];

  beforeAll(async () => {
    const printed = await packetPagesPdf(
      [spec('AAAA2345', 1049, 1), spec('BBBB2345', 1049, 2), spec('CCCC2345', 1050, 1), spec('DDDD2345', 1050, 2), spec('EEEE2345', 1051, 1), spec('FFFF2345', 1051, 2)],
      PUBLIC_URL,
    );
    const prng = createPrng('printed-text');
    const rasters = [0, 1, 2, 3, 4, 5].map((index) => renderPdfPage(printed, index, 200));
    // 1-2: both codes and their short codes under notes; 3: upside down too; 4: only the QR
    // codes covered (the short code beside them reads); 5: nothing covered; 6: the top note also
    // hides the header.
    coverCodes(rasters[0]!, 200, prng, 'yellow');
    coverCodes(rasters[1]!, 200, prng, 'white');
    coverCodes(rasters[2]!, 200, prng, 'yellow');
    const mm = 200 / 25.4;
    for (const [x, y] of [[rasters[3]!.width - 46 * mm, 16 * mm], [16 * mm, rasters[3]!.height - 46 * mm]] as const)
      fillRect(rasters[3]!, { x, y, width: 30 * mm, height: 30 * mm }, 240);
    coverCodes(rasters[5]!, 200, prng, 'white');
    fillRect(rasters[5]!, { x: 0, y: 0, width: rasters[5]!.width, height: 65 * mm }, 245);
    const scan = await coveredScanPdf(
      rasters.map((raster, index) => ({ raster, orientation: index === 2 ? 180 : 0, tilt: [0.8, -1.2, 0.5, 1, -0.6, 0][index]! })),
      200,
      'jpeg_grey',
      prng,
    );
    const file = path.join(dir, 'covered.pdf');
    fs.writeFileSync(file, scan);
    pages = (await processPages(file, { workers: 1, expectedPrefixes: ['p'], pageImage: false })).pages;
  }, 120_000);

  it('reads student, lesson and page from the header of pages whose codes are covered, upside down too', () => {
    expect(pages.slice(0, 3).map((page) => [page.code, page.printed_text && { ...page.printed_text, text: '' }])).toEqual([
      [null, { student_human_id: 1049, lesson_number: 2, page_number: 1, page_count: 2, codes: [], conflicting: false, orientation: 0, text: '', code: null }],
      [null, { student_human_id: 1049, lesson_number: 2, page_number: 2, page_count: 2, codes: [], conflicting: false, orientation: 0, text: '', code: null }],
      [null, { student_human_id: 1050, lesson_number: 2, page_number: 1, page_count: 2, codes: [], conflicting: false, orientation: 180, text: '', code: null }],
    ]);
    // The upside-down page is turned upright by what was read.
    expect(pages[2]!.orientation).toBe(180);
    expect(pages[0]!.printed_text!.text).toContain('Student 1049');
  });

  it('takes a short code read with its right check character as the code, and says so', () => {
    expect(codeText({ prefix: 'p', id: 'DDDD2345' })).toMatch(/^P-DDDD2345-.$/);
    expect(pages[3]).toMatchObject({ code: { prefix: 'p', id: 'DDDD2345' }, reason: null, identified_by: 'printed_text' });
  });

  it('leaves pages whose code was read alone: no OCR, identified by the code', () => {
    expect(pages[4]).toMatchObject({ code: { prefix: 'p', id: 'EEEE2345' }, identified_by: 'code', printed_text: null });
  });

  it('reads no student from a page whose header is hidden too: only the sheet\'s footer', () => {
    expect(pages[5]).toMatchObject({ code: null, identified_by: null });
    expect(pages[5]!.printed_text).toMatchObject({ student_human_id: null, lesson_number: 2, page_number: 2, code: null });
  });

  it('read them in the page workers: this thread never started a reader', () => {
    expect(hasPrintedTextReader()).toBe(false);
  });
});
