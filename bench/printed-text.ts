// Pages whose codes are destroyed, read from their printed text (server/pipeline/printed-text.ts,
// server/domain/printed-identity.ts): the product's own packet pages and next-lesson sheets,
// both QR codes and the short codes beside them under sticky notes, the rest legible, scanned at
// 200 and 150 dpi, grey and colour, tilted by up to 1.5 degrees. Every page goes through the
// real pipeline (processPages, one page worker) and its reading through the identity rules
// against a congregation's worth of sheet pages. Counts pages identified, wrong (never allowed)
// and left to a person; and the cost of a page read so against the same page with its codes clear.
//
//   npx tsx bench/printed-text.ts [--pages 24] [--students 60] [--seed 36]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeAnswerSheetMaster } from '../server/pdf/answer-sheet-master';
import type { Code } from '../server/domain/codes';
import { processPages } from '../server/pipeline/process-pages';
import type { GreyRaster } from '../server/pipeline/raster';
import { identifyByPrintedText, type PrintedCandidate } from '../server/domain/printed-identity';
import { coverCodes, coveredScanPdf, packetPagesPdf } from '../tests/fixtures/covered-codes';
import { createPrng, type Prng } from '../tests/fixtures/prng';
import { renderPdfPage } from '../tests/fixtures/render-pdf';
import type { ScanImageEncoding } from '../tests/fixtures/scan-pdf';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '24' },
    students: { type: 'string', default: '60' },
    seed: { type: 'string', default: '36' },
  },
});
const PAGES = Number(values.pages);
const STUDENTS = Number(values.students);
const PUBLIC_URL = 'https://portal.example.org';
const LESSONS = [
  { number: 1, name: 'The Word' },
  { number: 2, name: 'Prayer' },
  { number: 3, name: 'Faith: Hearing and Doing' },
];
const PAGES_PER_LESSON = 2;
const FIRST_HUMAN_ID = 1001;
const NAMES = ['Ada Mensah', 'Kwame Boateng', 'Grace Okafor', 'John Mwangi', 'Esther Banda', 'Samuel Tetteh', 'Ruth Achieng'];

/** CPU milliseconds of this process, its page worker and OCR threads included: the machine is shared. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// The sheet pages a congregation's files could hold: each student's lessons, packet pages (p)
// and issued next-lesson pages (s), one code each, made up but as the database would give them.
const codeFor = (kind: 'p' | 's', student: number, lesson: number, page: number): Code => {
  const alphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  const digits = [student, lesson, page, kind === 'p' ? 1 : 2].map((n) => alphabet[n % alphabet.length]).join('');
  return { prefix: kind, id: `${digits}${alphabet[Math.floor(student / alphabet.length) % alphabet.length]}XYZ` };
};
const candidates = (kind: 'p' | 's'): PrintedCandidate[] =>
  Array.from({ length: STUDENTS }, (_, s) => s).flatMap((s) =>
    LESSONS.flatMap((lesson) =>
      Array.from({ length: PAGES_PER_LESSON }, (_, i) => ({
        code: codeFor(kind, s, lesson.number, i + 1),
        identity: `${s}/${lesson.number}/${i + 1}`,
        student_human_id: FIRST_HUMAN_ID + s,
        lesson_number: lesson.number,
        page_number: i + 1,
        page_count: PAGES_PER_LESSON,
      })),
    ),
  );
const world = { p: candidates('p'), s: candidates('s') };

interface Truth {
  kind: 'p' | 's';
  identity: string;
  code: Code;
}

async function printedPage(kind: 'p' | 's', prng: Prng, dpi: number): Promise<{ raster: GreyRaster; truth: Truth }> {
  const s = prng.int(STUDENTS);
  const lesson = LESSONS[prng.int(LESSONS.length)]!;
  const page = 1 + prng.int(PAGES_PER_LESSON);
  const code = codeFor(kind, s, lesson.number, page);
  const truth = { kind, identity: `${s}/${lesson.number}/${page}`, code };
  if (kind === 'p') {
    const pdf = await packetPagesPdf(
      [{ code, studentHumanId: FIRST_HUMAN_ID + s, lessonNumber: lesson.number, lessonName: lesson.name, congregationCode: 'NG 0001', pageNumber: page, pageCount: PAGES_PER_LESSON }],
      PUBLIC_URL,
    );
    return { raster: renderPdfPage(pdf, 0, dpi), truth };
  }
  const pdf = await makeAnswerSheetMaster({
    courseName: 'The Gospel of John',
    lessonName: lesson.name,
    lessonNumber: lesson.number,
    pages: Array.from({ length: PAGES_PER_LESSON }, (_, i) => ({ page_number: i + 1, code: codeFor('s', s, lesson.number, i + 1) })),
    publicUrl: PUBLIC_URL,
    studentName: `${NAMES[s % NAMES.length]} (ID ${FIRST_HUMAN_ID + s})`,
  });
  return { raster: renderPdfPage(pdf, page - 1, dpi), truth };
}

interface ConditionResult {
  condition: string;
  pages: number;
  identified: number;
  wrong: number;
  left_for_a_person: number;
  ocr_pages: number;
  cpu_ms_per_page_codes_read: number;
  cpu_ms_per_page_codes_covered: number;
  ocr_calls_on_pages_with_codes_read: number;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-printed-text-'));
const results: ConditionResult[] = [];
try {
  for (const dpi of [200, 150]) {
    for (const encoding of ['jpeg_grey', 'jpeg_colour'] as ScanImageEncoding[]) {
      const condition = `${dpi} dpi ${encoding === 'jpeg_grey' ? 'grey' : 'colour'}`;
      const prng = createPrng(`${values.seed}/${condition}`);
      const made: { raster: GreyRaster; truth: Truth }[] = [];
      for (let i = 0; i < PAGES; i++) made.push(await printedPage(i % 2 === 0 ? 'p' : 's', prng, dpi));
      const tilts = made.map(() => Math.round(prng.range(-1.5, 1.5) * 10) / 10);
      const clearPdf = await coveredScanPdf(made.map((m, i) => ({ raster: { ...m.raster, data: m.raster.data.slice() }, tilt: tilts[i]! })), dpi, encoding, createPrng(1));
      for (const m of made) coverCodes(m.raster, dpi, prng, prng.int(2) === 0 ? 'white' : 'yellow');
      const coveredPdf = await coveredScanPdf(made.map((m, i) => ({ raster: m.raster, tilt: tilts[i]! })), dpi, encoding, createPrng(1));
      const run = async (pdf: Uint8Array, name: string) => {
        const file = join(dir, `${name}.pdf`);
        writeFileSync(file, pdf);
        const start = cpuMs();
        const { pages } = await processPages(file, { workers: 1, expectedPrefixes: ['p', 's', 't'], pageImage: false });
        return { pages, cpu: cpuMs() - start };
      };
      // Warm: the page worker's first OCR loads the model; a long-running worker pays that once.
      await run(coveredPdf.slice(0), 'warm');
      const clear = await run(clearPdf, 'clear');
      const covered = await run(coveredPdf, 'covered');
      let identified = 0;
      let wrong = 0;
      covered.pages.forEach((page, i) => {
        const truth = made[i]!.truth;
        const found = page.code ?? (() => {
          const result = identifyByPrintedText(page.printed_text, world[truth.kind]);
          return result.kind === 'identified' ? result.code : null;
        })();
        if (found === null) return;
        if (found.prefix === truth.code.prefix && found.id === truth.code.id) identified++;
        else wrong++;
      });
      const result: ConditionResult = {
        condition,
        pages: PAGES,
        identified,
        wrong,
        left_for_a_person: PAGES - identified - wrong,
        ocr_pages: covered.pages.filter((page) => page.printed_text !== null).length,
        cpu_ms_per_page_codes_read: Math.round(clear.cpu / PAGES),
        cpu_ms_per_page_codes_covered: Math.round(covered.cpu / PAGES),
        ocr_calls_on_pages_with_codes_read: clear.pages.filter((page) => page.printed_text !== null || page.code === null).length,
      };
      results.push(result);
      console.log(
        `${condition}: identified ${identified}/${PAGES}, wrong ${wrong}, left for a person ${result.left_for_a_person}; ` +
          `CPU ms/page ${result.cpu_ms_per_page_codes_read} with codes read, ${result.cpu_ms_per_page_codes_covered} covered ` +
          `(${(covered.cpu / clear.cpu).toFixed(1)}x); OCR on pages with codes read: ${result.ocr_calls_on_pages_with_codes_read}`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const total = results.reduce((sum, r) => sum + r.pages, 0);
const identified = results.reduce((sum, r) => sum + r.identified, 0);
const wrong = results.reduce((sum, r) => sum + r.wrong, 0);
const clearCpu = results.reduce((sum, r) => sum + r.cpu_ms_per_page_codes_read, 0) / results.length;
const coveredCpu = results.reduce((sum, r) => sum + r.cpu_ms_per_page_codes_covered, 0) / results.length;
const summary = {
  pages: total,
  identified_share: Math.round((identified / total) * 1000) / 10,
  wrong,
  cost_ratio_covered_to_codes_read: Math.round((coveredCpu / clearCpu) * 10) / 10,
  ocr_calls_on_pages_with_codes_read: results.reduce((sum, r) => sum + r.ocr_calls_on_pages_with_codes_read, 0),
  targets: { identified_share_at_least: 90, wrong: 0 },
};
console.log(
  `\nall: ${identified}/${total} identified (${summary.identified_share}%, target >= 90%), ${wrong} wrong (target 0); ` +
    `a covered page costs ${summary.cost_ratio_covered_to_codes_read}x a page whose code is read; ` +
    `OCR calls on pages with codes read: ${summary.ocr_calls_on_pages_with_codes_read}`,
);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'printed-text.json'), `${JSON.stringify({ summary, results }, null, 2)}\n`);
if (wrong > 0 || summary.identified_share < 90) process.exitCode = 1;
