// A programme over two cycles, on paper the product printed and an outside scanner "scanned":
// cycle 1 is an intro file (two pages a student) with a stray letter between two students, one
// student's pages in reverse order, a page whose two codes are covered, a student of another
// course and duplex backs. Review mends it through the API, the admin assigns it (students take
// their congregation; two are moved to the second congregation on their cards), sends it, the
// coordinators grade and scan the packets back, and the return file goes out. Cycle 2 is the
// return file's next-lesson sheets filled in and scanned back (turned, duplex): every sheet finds
// its student and congregation by itself and the file waits at Send without a manual Assign.
// At every point no page is under another student's sheet without a flag saying so.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GreyRaster } from '../../server/pipeline/raster';
import { newCodeId } from '../../server/domain/codes';
import { CODE_STAMP, mm } from '../../server/pdf/printed-page';
import { createPrng } from '../fixtures/prng';
import { renderPdfPage } from '../fixtures/render-pdf';
import { addNoise, addSpecks, fillRect, scanLook, writeAnswers, writeLine } from '../fixtures/scan-effects';
import { ScanPdfBuilder } from '../fixtures/scan-pdf';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createPipelineApp, type PipelineApp } from './pipeline-harness';
import { upload, waitForProcessing } from './pipeline-world';
import { coordinator, insertCongregation } from './support';
import { api, codesOnPages, scanGradedPackets, SCAN_DPI, uploadGraded, waitFor, waitForUpload } from './workflow-world';

let h: PipelineApp;
let admin: SignedIn;
let congregationA: string;
let congregationB: string;
const coordinators = new Map<string, SignedIn>();
let cycle1: string;
let returnPdf: Uint8Array;

/** What each page of the cycle 1 scan really is. */
interface Truth {
  student: string | null;
  kind: 'sheet' | 'blank' | 'letter';
}
const truth: Truth[] = [];

interface Lesson {
  id: string;
  courseId: string;
}
const lessons = new Map<string, Lesson>();

async function insertLesson(courseId: string, number: number, name: string): Promise<Lesson> {
  const lesson = await h.db.one<{ id: string }>('INSERT INTO lessons (course_id, number, name) VALUES ($1, $2, $3) RETURNING id', [courseId, number, name]);
  for (const page of [1, 2]) {
    await h.db.query('INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, $2, $3, $4)', [lesson.id, page, `${name}, page ${page}`, newCodeId()]);
  }
  return { id: lesson.id, courseId };
}

/** Prints a lesson's master through the product (GET .../master.pdf), as a programme does. */
async function master(lesson: Lesson): Promise<Uint8Array> {
  const response = await api(h.app, admin, 'GET', `/api/courses/${lesson.courseId}/lessons/${lesson.id}/master.pdf`);
  expect(response.status).toBe(200);
  return new Uint8Array(response.raw.rawPayload);
}

const prng = createPrng(2026);

function paper(like: GreyRaster): GreyRaster {
  return { width: like.width, height: like.height, data: new Uint8Array(like.width * like.height).fill(246) };
}

/** A printed page filled in by hand and scanned, optionally with both code corners under sticky notes. */
async function filledIn(printed: GreyRaster, options: { covered?: boolean; turned?: boolean } = {}): Promise<GreyRaster> {
  const page = { ...printed, data: printed.data.slice() };
  writeAnswers(page, prng, SCAN_DPI, 4);
  if (options.covered) {
    const side = Math.round(mm(CODE_STAMP.qrSizeMm + CODE_STAMP.edgeMarginMm + 30) * (SCAN_DPI / 72));
    fillRect(page, { x: page.width - side, y: 0, width: side, height: side }, 235);
    fillRect(page, { x: 0, y: page.height - side, width: side, height: side }, 235);
  }
  const scanned = await scanLook(page, { orientation: options.turned ? 180 : 0, tilt: Math.round(prng.range(-1.2, 1.2) * 10) / 10, blur: 0, contrast: 1, brightness: 0, background: 250 });
  addNoise(scanned, prng, 3);
  return scanned;
}

function blankBack(like: GreyRaster): GreyRaster {
  const back = paper(like);
  addSpecks(back, prng, SCAN_DPI, 3, 1);
  addNoise(back, prng, 3);
  return back;
}

function letter(like: GreyRaster): GreyRaster {
  const page = paper(like);
  for (let line = 0; line < 9; line++) writeLine(page, prng, 25 * (SCAN_DPI / 25.4), page.height * (0.15 + line * 0.07), page.width * 0.7, SCAN_DPI);
  addNoise(page, prng, 3);
  return page;
}

/** Kept pages of a file's sheets: page number, sheet, flag, student. */
async function placement(fileId: string) {
  return h.db.query<{ page_number: number; sheet_id: string; student_id: string | null; flag: string | null; sequence: number }>(
    `SELECT p.page_number, a.id AS sheet_id, a.student_id, p.flag, a.sequence
     FROM pages p JOIN answer_sheets a ON a.id = p.answer_sheet_id
     WHERE p.file_id = $1 AND NOT p.ignored ORDER BY a.sequence, p.page_number`,
    [fileId],
  );
}

/**
 * The rule the product must never break: in a sheet, the pages placed without a flag are all of
 * one real student. Returns the sheets that break it.
 */
async function wrongIdentities(fileId: string): Promise<string[]> {
  const bySheet = new Map<string, Set<string>>();
  for (const page of await placement(fileId)) {
    const real = truth[page.page_number - 1]!;
    if (page.flag !== null || real.kind !== 'sheet') continue;
    bySheet.set(page.sheet_id, (bySheet.get(page.sheet_id) ?? new Set()).add(real.student!));
  }
  return [...bySheet.entries()].filter(([, students]) => students.size > 1).map(([sheet]) => sheet);
}

const flagOf = async (pageNumber: number) =>
  (await h.db.one<{ flag: string | null; unrecognized_reason: string | null; id: string; answer_sheet_id: string | null }>(
    'SELECT id, flag, unrecognized_reason, answer_sheet_id FROM pages WHERE file_id = $1 AND page_number = $2',
    [cycle1, pageNumber],
  ));
const step = async (fileId: string) => ((await api(h.app, admin, 'GET', `/api/file/${fileId}/steps`)).json as unknown as { step: string }).step;

beforeAll(async () => {
  h = await createPipelineApp();
  admin = await signIn(h.app, 'admin@programme.local', { role: 'scanning_admin', isAdmin: true });
  congregationA = await insertCongregation(h.db, 'GH 0101');
  congregationB = await insertCongregation(h.db, 'GH 0102');
  coordinators.set(congregationA, await coordinator(h.app, congregationA));
  coordinators.set(congregationB, await coordinator(h.app, congregationB));
  const goodNews = await h.db.one<{ id: string }>(`INSERT INTO courses (name, version) VALUES ('Good News', '1') RETURNING id`);
  const acts = await h.db.one<{ id: string }>(`INSERT INTO courses (name, version) VALUES ('Acts', '1') RETURNING id`);
  lessons.set('GN1', await insertLesson(goodNews.id, 1, 'The Word'));
  lessons.set('GN2', await insertLesson(goodNews.id, 2, 'The Light'));
  lessons.set('AC1', await insertLesson(acts.id, 1, 'The Church'));
  lessons.set('AC2', await insertLesson(acts.id, 2, 'The Spirit'));

  const gn = await master(lessons.get('GN1')!);
  const ac = await master(lessons.get('AC1')!);
  const [gn1, gn2] = [renderPdfPage(gn, 0, SCAN_DPI), renderPdfPage(gn, 1, SCAN_DPI)];
  const [ac1, ac2] = [renderPdfPage(ac, 0, SCAN_DPI), renderPdfPage(ac, 1, SCAN_DPI)];
  const builder = await ScanPdfBuilder.create();
  const add = async (raster: GreyRaster, page: Truth) => {
    truth.push(page);
    await builder.addPage({ raster, dpi: SCAN_DPI, encoding: 'jpeg_grey', quality: 75 });
  };
  const sheet = (student: string) => ({ student, kind: 'sheet' as const });
  await add(await filledIn(gn1), sheet('A')); // 1
  await add(await filledIn(gn2), sheet('A')); // 2
  await add(blankBack(gn1), { student: null, kind: 'blank' }); // 3
  await add(await filledIn(gn1, { turned: true }), sheet('B')); // 4
  await add(await filledIn(gn2), sheet('B')); // 5
  await add(letter(gn1), { student: null, kind: 'letter' }); // 6: a letter between two students
  await add(await filledIn(gn1), sheet('C')); // 7
  await add(await filledIn(gn2), sheet('C')); // 8
  await add(await filledIn(gn2), sheet('D')); // 9: D's pages in reverse order
  await add(await filledIn(gn1), sheet('D')); // 10
  await add(await filledIn(gn1), sheet('E')); // 11
  await add(await filledIn(gn2, { covered: true }), sheet('E')); // 12: both codes under sticky notes
  await add(await filledIn(ac1), sheet('F')); // 13: another course
  await add(await filledIn(ac2), sheet('F')); // 14
  await add(await filledIn(gn1), sheet('G')); // 15
  await add(blankBack(gn1), { student: null, kind: 'blank' }); // 16
  await add(await filledIn(gn2), sheet('G')); // 17
  await add(blankBack(gn1), { student: null, kind: 'blank' }); // 18
  const uploaded = await upload(h.app, admin, await builder.save(), { name: 'Accra intro November', answer_sheet_page_length: '2' });
  expect(uploaded.status).toBe(201);
  cycle1 = uploaded.body.id!;
  expect(await waitForProcessing(h.db, cycle1, 120_000)).toBe('success');
}, 300_000);
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  expect(h.app.contractViolations).toEqual([]);
});

describe('a programme, two cycles', () => {
  it('cycle 1: reads the messy intro file without a silent wrong identity, every surprise flagged with its reason', async () => {
    expect(await wrongIdentities(cycle1)).toEqual([]);
    expect((await flagOf(6)).flag).toBe('stray_page');
    // After the letter (it may be a page 1 whose codes are covered) every page 2 is a guess.
    for (const n of [8, 9, 14, 17]) expect((await flagOf(n)).flag).toBe('ambiguous_position');
    expect(await flagOf(12)).toMatchObject({ flag: 'no_code_found', unrecognized_reason: 'no_code_found' });
    expect((await flagOf(13)).flag).toBe('another_course');
    // D's page 1 came after its page 2: its response says it is short.
    expect((await flagOf(10)).flag).toBe('page_missing');
    // The covered page stays with its student's page 1, flagged; the letter shifted nobody.
    const placed = await placement(cycle1);
    const sheetOf = (n: number) => placed.find((page) => page.page_number === n)!.sheet_id;
    expect(sheetOf(12)).toBe(sheetOf(11));
    expect(sheetOf(8)).toBe(sheetOf(7));
    expect(sheetOf(10)).not.toBe(sheetOf(9));
    for (const n of [1, 2, 4, 5, 7, 11, 15]) expect((await flagOf(n)).flag).toBeNull();
    const stats = (await api(h.app, admin, 'GET', `/api/file/${cycle1}/stats`)).json as unknown as { flagged: number; reasons: Record<string, number> };
    expect(stats.flagged).toBe(8);
    expect(stats.reasons).toMatchObject({ stray_page: 1, ambiguous_position: 4, page_missing: 1, no_code_found: 1, another_course: 1, blank_back: 3 });
    // Review names the responses a guessed page could belong to.
    const page8 = (await api(h.app, admin, 'GET', `/api/pages/${(await flagOf(8)).id}`)).json as unknown as {
      review_detail: { candidate_sheets: { id: string }[] };
    };
    expect(page8.review_detail.candidate_sheets.map((sheet) => sheet.id)).toContain(sheetOf(8));
    expect(page8.review_detail.candidate_sheets.length).toBeGreaterThan(1);
    const page3 = (await api(h.app, admin, 'GET', `/api/pages/${(await flagOf(3)).id}`)).json as unknown as { review_reason: string; flagged: boolean };
    expect(page3).toMatchObject({ review_reason: 'blank_back', flagged: false });
    expect(await step(cycle1)).toBe('review');
  });

  it('cycle 1: Review mends each surprise through the API, and the file goes on to Assign', async () => {
    const patch = async (n: number, body: object) => {
      const response = await api(h.app, admin, 'PATCH', `/api/pages/${(await flagOf(n)).id}`, body);
      expect(response.status).toBe(200);
      return response.json as unknown as { flagged: boolean; mended: { by: string } | null };
    };
    // D's page 2 goes to its page 1, then the letter is ignored: its sheet and student go.
    await patch(9, { answer_sheet: (await flagOf(10)).answer_sheet_id });
    const strayStudent = (await h.db.one<{ student_id: string }>('SELECT student_id FROM answer_sheets WHERE id = $1', [(await flagOf(6)).answer_sheet_id])).student_id;
    expect(await patch(6, { ignored: true })).toMatchObject({ flagged: false, mended: { by: 'admin@programme.local' } });
    expect(await h.db.maybeOne('SELECT 1 FROM students WHERE id = $1', [strayStudent])).toBeNull();
    // Each guessed page is looked at and kept where it is.
    for (const n of [8, 10, 12, 13, 14, 17]) if ((await flagOf(n)).flag !== null) await patch(n, { answer_sheet: (await flagOf(n)).answer_sheet_id });
    expect(await step(cycle1)).toBe('assign');

    // Each real student is one sheet of their own pages, with a student of its own.
    const placed = await placement(cycle1);
    const sheetsOf = new Map<string, Set<string>>();
    for (const page of placed) {
      const real = truth[page.page_number - 1]!;
      expect(page.flag).toBeNull();
      if (real.kind === 'sheet') sheetsOf.set(real.student!, (sheetsOf.get(real.student!) ?? new Set()).add(page.sheet_id));
    }
    expect([...sheetsOf.keys()].sort()).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    for (const sheets of sheetsOf.values()) expect(sheets.size).toBe(1);
    const students = new Set(placed.map((page) => page.student_id));
    expect(students.size).toBe(7);
    expect(students.has(null)).toBe(false);
  });

  it('cycle 1: Assign gives students their congregation; two students move to the second one on their cards', async () => {
    expect((await api(h.app, admin, 'PATCH', `/api/answer-sheets?file=${cycle1}`, { assigned_group: congregationA })).status).toBe(200);
    const sheetOfStudent = async (label: string) => {
      const pageNumber = truth.findIndex((page) => page.student === label) + 1;
      return h.db.one<{ id: string; student_id: string }>('SELECT a.id, a.student_id FROM pages p JOIN answer_sheets a ON a.id = p.answer_sheet_id WHERE p.file_id = $1 AND p.page_number = $2', [cycle1, pageNumber]);
    };
    for (const label of ['F', 'G']) {
      const sheet = await sheetOfStudent(label);
      expect((await api(h.app, admin, 'PATCH', `/api/students/${sheet.student_id}`, { congregation: congregationB })).status).toBe(200);
      expect((await h.db.one<{ assigned_group: string }>('SELECT assigned_group FROM answer_sheets WHERE id = $1', [sheet.id])).assigned_group).toBe(congregationB);
    }
    const students = await h.db.query<{ congregation_id: string | null }>(
      'SELECT s.congregation_id FROM students s WHERE s.id IN (SELECT student_id FROM answer_sheets WHERE file_id = $1)',
      [cycle1],
    );
    expect(students.filter((s) => s.congregation_id === congregationA)).toHaveLength(5);
    expect(students.filter((s) => s.congregation_id === congregationB)).toHaveLength(2);
    expect(await step(cycle1)).toBe('send');
  });

  it('cycle 1: sends, the coordinators grade and scan back their packets, and the return file goes out', async () => {
    expect((await api(h.app, admin, 'POST', `/api/file/${cycle1}/send`)).status).toBe(202);
    await waitFor('packets', async () => (await step(cycle1)) === 'grading', 120_000);
    // A mend after Send is refused.
    const late = await api(h.app, admin, 'PATCH', `/api/pages/${(await flagOf(1)).id}`, { new_sheet: true });
    expect(late.status).toBe(409);
    const list = (await api(h.app, admin, 'GET', `/api/file/${cycle1}/congregations`)).json as unknown as { id: string; packet_id: string }[];
    for (const row of list) {
      const who = coordinators.get(row.id)!;
      const packet = await api(h.app, who, 'GET', `/api/study-helpers/distributed-files/${row.packet_id}.pdf`);
      expect(packet.status).toBe(200);
      const graded = await scanGradedPackets(new Uint8Array(packet.raw.rawPayload), { seed: 5, back: (index) => (index % 2 === 0 ? 'blank' : 'none') });
      const uploaded = await uploadGraded(h.app, who, graded);
      expect(uploaded.status).toBe(201);
      expect(await waitForUpload(h.db, uploaded.body.id!)).toBe('success');
    }
    await waitFor('the return file', async () => ((await api(h.app, admin, 'GET', `/api/file/${cycle1}/steps`)).json as unknown as { prepped: boolean }).prepped, 120_000);
    const download = await api(h.app, admin, 'GET', `/api/file/${cycle1}/graded_pdf`);
    expect(download.status).toBe(200);
    returnPdf = new Uint8Array(download.raw.rawPayload);
    expect((await api(h.app, admin, 'POST', `/api/file/${cycle1}/archive`)).status).toBe(200);
  });

  it('cycle 2: the next-lesson sheets come back filled in, turned and duplex, and find their students and congregations by themselves', async () => {
    const read = await codesOnPages(returnPdf);
    const nextLesson = read.flatMap((code, index) => (code?.prefix === 's' ? [index] : []));
    // Two pages of the next lesson for each of the 7 students.
    expect(nextLesson).toHaveLength(14);
    const issuedTo = new Map(
      (await h.db.query<{ code_id: string; student_id: string }>(`SELECT code_id, student_id FROM printed_codes WHERE prefix = 's'`)).map((row) => [row.code_id, row.student_id]),
    );
    const scan = await scanGradedPackets(returnPdf, { seed: 77, pages: nextLesson, back: (index) => (index % 3 === 0 ? 'blank' : 'none'), upsideDown: (index) => index % 4 === 1 });
    const uploaded = await upload(h.app, admin, scan, { name: 'Accra lesson 2 December', answer_sheet_page_length: '0' });
    expect(uploaded.status).toBe(201);
    const cycle2 = uploaded.body.id!;
    expect(await waitForProcessing(h.db, cycle2, 120_000)).toBe('success');

    const sheets = await h.db.query<{ student_id: string | null; assigned_group: string | null; congregation_id: string | null; pages: string[]; lesson_id: string | null }>(
      `SELECT a.student_id, a.assigned_group, s.congregation_id, a.lesson_id,
              (SELECT array_agg(p.code_id ORDER BY p.page_number) FROM pages p WHERE p.answer_sheet_id = a.id AND NOT p.ignored) AS pages
       FROM answer_sheets a LEFT JOIN students s ON s.id = a.student_id WHERE a.file_id = $1 ORDER BY a.sequence`,
      [cycle2],
    );
    expect(sheets).toHaveLength(7);
    const studentF = (await h.db.one<{ student_id: string }>('SELECT student_id FROM answer_sheets WHERE id = $1', [(await flagOf(13)).answer_sheet_id])).student_id;
    for (const sheet of sheets) {
      // Every page of the sheet was printed for the sheet's student; the sheet is in their congregation.
      expect(sheet.pages).toHaveLength(2);
      for (const code of sheet.pages) expect(issuedTo.get(code)).toBe(sheet.student_id);
      expect(sheet.assigned_group).toBe(sheet.congregation_id);
      // The next lesson of the course each student studies: Acts for F, Good News for the others.
      expect(sheet.lesson_id).toBe(lessons.get(sheet.student_id === studentF ? 'AC2' : 'GN2')!.id);
    }
    expect(new Set(sheets.map((sheet) => sheet.assigned_group))).toEqual(new Set([congregationA, congregationB]));
    const flagged = await h.db.one<{ n: number }>('SELECT count(*)::int AS n FROM pages WHERE file_id = $1 AND flag IS NOT NULL AND NOT ignored', [cycle2]);
    expect(flagged.n).toBe(0);
    expect(await step(cycle2)).toBe('send');
  });
});
