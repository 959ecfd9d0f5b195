// Messy paper through the whole pipeline: generated stacks of intro sheets the product printed,
// filled in by hand, then mishandled as service centers do (two stacks interleaved, a page fed
// twice, a page 2 lost, a sheet reversed, codes under sticky notes, a letter slipped in, duplex
// backs) and sometimes the whole batch scanned again as a second file. Each scanned page carries
// the truth (whose paper it is), so the test can say what must never happen, whatever the
// pipeline decided: a page placed without a flag under another person's student.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GreyRaster } from '../../server/pipeline/raster';
import { newCodeId } from '../../server/domain/codes';
import { CODE_STAMP, mm } from '../../server/pdf/printed-page';
import { refreshPagePrints } from '../../server/workflow/refresh-page-prints';
import { createPrng, type Prng } from '../fixtures/prng';
import { renderPdfPage } from '../fixtures/render-pdf';
import { addNoise, addSpecks, fillRect, scanLook, writeAnswers, writeLine } from '../fixtures/scan-effects';
import { ScanPdfBuilder } from '../fixtures/scan-pdf';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createPipelineApp, type PipelineApp } from './pipeline-harness';
import { upload, waitForProcessing } from './pipeline-world';
import { api, SCAN_DPI } from './workflow-world';

const CASES = 20;
const STUDENTS_PER_CASE = 3;
type Mishap = 'interleave' | 'double_feed' | 'drop' | 'reverse' | 'cover' | 'letter' | 'duplex' | 'rescan';
const MISHAPS: readonly Mishap[] = ['interleave', 'double_feed', 'drop', 'reverse', 'cover', 'letter', 'duplex', 'rescan'];

/** A sheet of paper as it lies in the stack: what is printed and written on it, and whose it is. */
interface Paper {
  image: GreyRaster;
  /** The person whose answers it holds; null for a letter or a blank back. */
  owner: string | null;
  covered: boolean;
}

let h: PipelineApp;
let admin: SignedIn;
let printed: [GreyRaster, GreyRaster];

async function introMaster(): Promise<Uint8Array> {
  const course = await h.db.one<{ id: string }>(`INSERT INTO courses (name, version) VALUES ('Good News', '1') RETURNING id`);
  const lesson = await h.db.one<{ id: string }>(`INSERT INTO lessons (course_id, number, name) VALUES ($1, 1, 'The Word') RETURNING id`, [course.id]);
  // Codes of a seeded draw: what shows of them beside a sticky note is the same paper every run.
  const codes = createPrng('intro-master-codes');
  for (const page of [1, 2])
    await h.db.query('INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, $2, $3, $4)', [
      lesson.id,
      page,
      `The Word, page ${page}`,
      newCodeId((n) => codes.int(n)),
    ]);
  const response = await api(h.app, admin, 'GET', `/api/courses/${course.id}/lessons/${lesson.id}/master.pdf`);
  expect(response.status).toBe(200);
  return new Uint8Array(response.raw.rawPayload);
}

function filledIn(prng: Prng, page: GreyRaster, owner: string): Paper {
  const image = { ...page, data: page.data.slice() };
  writeAnswers(image, prng, SCAN_DPI, 3 + prng.int(4));
  return { image, owner, covered: false };
}

function blankPaper(prng: Prng, like: GreyRaster): Paper {
  const image = { width: like.width, height: like.height, data: new Uint8Array(like.width * like.height).fill(246) };
  addSpecks(image, prng, SCAN_DPI, 3, 1);
  return { image, owner: null, covered: false };
}

function letterPaper(prng: Prng, like: GreyRaster): Paper {
  const paper = blankPaper(prng, like);
  for (let line = 0; line < 8; line++) writeLine(paper.image, prng, 25 * (SCAN_DPI / 25.4), like.height * (0.15 + line * 0.07), like.width * 0.7, SCAN_DPI);
  return paper;
}

/** Sticky notes over both code corners (the QR code and the short code beside it). */
function coverCodes(paper: Paper): Paper {
  const image = { ...paper.image, data: paper.image.data.slice() };
  const side = Math.round(mm(CODE_STAMP.qrSizeMm + CODE_STAMP.edgeMarginMm + 30) * (SCAN_DPI / 72));
  fillRect(image, { x: image.width - side, y: 0, width: side, height: side }, 235);
  fillRect(image, { x: 0, y: image.height - side, width: side, height: side }, 235);
  return { ...paper, image, covered: true };
}

/** One pass of the stack through the scanner: each sheet a little tilted, with its own noise. */
async function scan(prng: Prng, stack: readonly Paper[]): Promise<Uint8Array> {
  const builder = await ScanPdfBuilder.create();
  for (const paper of stack) {
    const raster = await scanLook(paper.image, { orientation: 0, tilt: Math.round(prng.range(-1, 1) * 10) / 10, blur: 0, contrast: 1, brightness: 0, background: 250 });
    addNoise(raster, prng, 3);
    await builder.addPage({ raster, dpi: SCAN_DPI, encoding: 'jpeg_grey', quality: 75 });
  }
  return builder.save();
}

interface Case {
  name: string;
  mishaps: Mishap[];
  stack: Paper[];
}

/** A stack of intro sheets (two pages a student) and the mishaps that befell it. */
function makeCase(index: number): Case {
  const prng = createPrng(`mishap-case-${index}`);
  const mishaps = [...new Set(Array.from({ length: 1 + prng.int(3) }, () => prng.pick(MISHAPS)))];
  const sheets = Array.from({ length: STUDENTS_PER_CASE }, (_, k) => {
    const owner = `case${index}-student${k + 1}`;
    return [filledIn(prng, printed[0], owner), filledIn(prng, printed[1], owner)];
  });
  // Mishaps to single sheets pick different sheets, so each stays recognisable in the truth.
  const victims = [0, 1, 2].sort(() => prng.next() - 0.5);
  if (mishaps.includes('reverse')) sheets[victims[0]!]!.reverse();
  if (mishaps.includes('drop')) sheets[victims[1]!]!.pop();
  if (mishaps.includes('cover')) {
    const sheet = sheets[victims[2]!]!;
    const at = prng.int(sheet.length);
    sheet[at] = coverCodes(sheet[at]!);
  }
  let stack: Paper[];
  if (mishaps.includes('interleave')) {
    // A stack knocked over and picked up: two neighbours' pages alternate.
    const [a, b] = [sheets[0]!, sheets[1]!];
    const mixed: Paper[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) mixed.push(...[a[i], b[i]].filter((paper): paper is Paper => paper !== undefined));
    stack = [...mixed, ...sheets.slice(2).flat()];
  } else stack = sheets.flat();
  if (mishaps.includes('letter')) stack.splice(1 + prng.int(stack.length - 1), 0, letterPaper(prng, printed[0]));
  if (mishaps.includes('double_feed')) {
    const at = prng.int(stack.length);
    stack.splice(at + 1, 0, stack[at]!);
  }
  if (mishaps.includes('duplex')) stack = stack.flatMap((paper) => [paper, blankPaper(prng, printed[0])]);
  return { name: `case ${index} (${mishaps.join(', ')})`, mishaps, stack };
}

interface Placed {
  page_number: number;
  sheet_id: string;
  student_id: string | null;
  flag: string | null;
}

async function placement(fileId: string): Promise<Placed[]> {
  return h.db.query<Placed>(
    `SELECT p.page_number, a.id AS sheet_id, a.student_id, p.flag
     FROM pages p JOIN answer_sheets a ON a.id = p.answer_sheet_id
     WHERE p.file_id = $1 AND NOT p.ignored ORDER BY a.sequence, p.page_number`,
    [fileId],
  );
}

/** Every product student, with the people whose paper sits under it without a flag, over all files. */
const peopleOfStudent = new Map<string, Set<string>>();

async function uploadScan(name: string, stack: readonly Paper[], pdf: Uint8Array, pageLength: '1' | '2' = '2'): Promise<{ fileId: string; placed: Placed[] }> {
  const uploaded = await upload(h.app, admin, pdf, { name, answer_sheet_page_length: pageLength });
  expect(uploaded.status, name).toBe(201);
  const fileId = uploaded.body.id!;
  expect(await waitForProcessing(h.db, fileId, 120_000)).toBe('success');
  const placed = await placement(fileId);
  for (const page of placed) {
    const owner = stack[page.page_number - 1]!.owner;
    if (page.flag !== null || owner === null || page.student_id === null) continue;
    peopleOfStudent.set(page.student_id, (peopleOfStudent.get(page.student_id) ?? new Set()).add(owner));
  }
  return { fileId, placed };
}

/** Sheets whose pages placed without a flag are not all one person's paper. */
function mixedSheets(stack: readonly Paper[], placed: readonly Placed[]): string[] {
  const people = new Map<string, Set<string | null>>();
  for (const page of placed) {
    if (page.flag !== null) continue;
    people.set(page.sheet_id, (people.get(page.sheet_id) ?? new Set()).add(stack[page.page_number - 1]!.owner));
  }
  return [...people].filter(([, owners]) => owners.size > 1).map(([sheet, owners]) => `${sheet}: ${[...owners].join(' + ')}`);
}

/** People with more than one sheet in the file that no flag questions (a phantom second student). */
function peopleOnTwoSheets(stack: readonly Paper[], placed: readonly Placed[]): string[] {
  const flaggedSheets = new Set(placed.filter((page) => page.flag !== null).map((page) => page.sheet_id));
  const sheetsOf = new Map<string, Set<string>>();
  for (const page of placed) {
    const owner = stack[page.page_number - 1]!.owner;
    if (owner === null || flaggedSheets.has(page.sheet_id)) continue;
    sheetsOf.set(owner, (sheetsOf.get(owner) ?? new Set()).add(page.sheet_id));
  }
  return [...sheetsOf].filter(([, sheets]) => sheets.size > 1).map(([owner]) => owner);
}

beforeAll(async () => {
  h = await createPipelineApp();
  admin = await signIn(h.app, 'admin@mishaps.local', { role: 'scanning_admin', isAdmin: true });
  const master = await introMaster();
  printed = [renderPdfPage(master, 0, SCAN_DPI), renderPdfPage(master, 1, SCAN_DPI)];
}, 120_000);
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  expect(h.app.contractViolations).toEqual([]);
});

describe(`${CASES} generated stacks of mishandled intro sheets, through the whole pipeline`, () => {
  const cases = Array.from({ length: CASES }, (_, index) => index + 1);
  it.each(cases)('stack %i: no page under the wrong student without a flag, and every mishap but duplex backs flagged', async (index) => {
    const made = makeCase(index);
    const prng = createPrng(`mishap-scan-${index}`);
    const first = await uploadScan(made.name, made.stack, await scan(prng, made.stack));
    expect(mixedSheets(made.stack, first.placed), made.name).toEqual([]);
    expect(peopleOnTwoSheets(made.stack, first.placed), made.name).toEqual([]);
    const flagged = first.placed.filter((page) => page.flag !== null).length;
    if (made.mishaps.some((mishap) => mishap !== 'duplex' && mishap !== 'rescan')) expect(flagged, made.name).toBeGreaterThan(0);

    if (made.mishaps.includes('rescan')) {
      // The same paper, through the scanner again: other bytes, the same sheets.
      const again = await uploadScan(`${made.name}, scanned again`, made.stack, await scan(prng, made.stack));
      expect(mixedSheets(made.stack, again.placed), made.name).toEqual([]);
      const newStudents = await h.db.one<{ count: number }>(
        `SELECT count(DISTINCT a.student_id)::int AS count FROM answer_sheets a
         WHERE a.file_id = $1 AND a.student_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM answer_sheets b WHERE b.student_id = a.student_id AND b.file_id = $2)
           AND NOT EXISTS (SELECT 1 FROM pages p WHERE p.answer_sheet_id = a.id AND p.flag IS NOT NULL)`,
        [again.fileId, first.fileId],
      );
      // Paper seen before makes no new student unless a flag asks a person to look.
      expect(newStudents.count, made.name).toBe(0);
      expect(again.placed.some((page) => page.flag === 'already_uploaded'), made.name).toBe(true);
    }
    // Over every file so far, no student holds two people's paper without a flag.
    const shared = [...peopleOfStudent].filter(([, people]) => people.size > 1).map(([student, people]) => `${student}: ${[...people].join(' + ')}`);
    expect(shared, made.name).toEqual([]);
  }, 180_000);
});

describe('a page taken for a rescan that is other paper', () => {
  it('gets a new student with New Student, the earlier student untouched; any other page is refused', async () => {
    const prng = createPrng('rescan-mend');
    const stack = ['first', 'second'].flatMap((who) => [filledIn(prng, printed[0], `mend-${who}`), filledIn(prng, printed[1], `mend-${who}`)]);
    const first = await uploadScan('Mend: first scan', stack, await scan(prng, stack));
    const again = await uploadScan('Mend: scanned again', stack, await scan(prng, stack));
    const sheetStudent = async (sheetId: string) => (await h.db.one<{ student_id: string }>('SELECT student_id FROM answer_sheets WHERE id = $1', [sheetId])).student_id;
    const pageId = async (fileId: string, pageNumber: number) =>
      (await h.db.one<{ id: string }>('SELECT id FROM pages WHERE file_id = $1 AND page_number = $2', [fileId, pageNumber])).id;

    // Page 1 of the rescan took the first scan's student, flagged.
    const rescanned = again.placed.find((page) => page.page_number === 1)!;
    expect(rescanned.flag).toBe('already_uploaded');
    const earlier = first.placed.find((page) => page.page_number === 1)!.student_id!;
    expect(rescanned.student_id).toBe(earlier);

    const mended = await api(h.app, admin, 'PATCH', `/api/pages/${await pageId(again.fileId, 1)}`, { new_student: true });
    expect(mended.status).toBe(200);
    expect(mended.json).toMatchObject({ flagged: false, mended: { action: 'new_student', by: 'admin@mishaps.local' } });
    const own = await sheetStudent(rescanned.sheet_id);
    expect(own).not.toBe(earlier);
    expect(await h.db.maybeOne('SELECT 1 FROM students WHERE id = $1', [earlier])).not.toBeNull();

    // Its page 2, flagged too, only loses its flag: the response keeps the student it now has.
    const second = again.placed.find((page) => page.page_number === 2)!;
    expect(second).toMatchObject({ sheet_id: rescanned.sheet_id, flag: 'already_uploaded' });
    expect((await api(h.app, admin, 'PATCH', `/api/pages/${await pageId(again.fileId, 2)}`, { new_student: true })).status).toBe(200);
    expect(await sheetStudent(rescanned.sheet_id)).toBe(own);

    // A page of the first scan was never taken for a rescan: nothing to mend.
    const refused = await api(h.app, admin, 'PATCH', `/api/pages/${await pageId(first.fileId, 1)}`, { new_student: true });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ detail: { error_type: 'VALIDATION_ERROR' } });
    const mixed = await api(h.app, admin, 'PATCH', `/api/pages/${await pageId(again.fileId, 3)}`, { new_student: true, ignored: true });
    expect(mixed.status).toBe(400);
  }, 180_000);
});

describe('a batch of codeless forms scanned again', () => {
  it('makes no new student: every page of the rescan is flagged as already uploaded', async () => {
    const prng = createPrng('codeless-rescan');
    // A service center's own one-page form: printed lines and handwriting, no code of ours.
    const stack = [1, 2, 3].map((n) => coverCodes(filledIn(prng, printed[0], `codeless-${n}`)));
    const first = await uploadScan('Codeless forms', stack, await scan(prng, stack), '1');
    expect(new Set(first.placed.map((page) => page.student_id)).size).toBe(3);
    expect(first.placed.every((page) => page.flag === null || page.flag === 'no_code_found')).toBe(true);

    const again = await uploadScan('Codeless forms, scanned again', stack, await scan(prng, stack), '1');
    expect(again.placed.map((page) => page.flag)).toEqual(['already_uploaded', 'already_uploaded', 'already_uploaded']);
    // Each takes the student its paper made the first time, flagged for a person to confirm.
    for (const page of again.placed) expect(page.student_id).toBe(first.placed.find((earlier) => earlier.page_number === page.page_number)!.student_id);
  }, 180_000);
});

describe('paper uploaded before the page prints changed', () => {
  it('is found again in a rescan once its prints are made again from its page images', async () => {
    const prng = createPrng('prints-refreshed');
    const stack = [1, 2].map((n) => coverCodes(filledIn(prng, printed[0], `refreshed-${n}`)));
    const first = await uploadScan('Forms stored before', stack, await scan(prng, stack), '1');
    // As a server before the upgrade stored them: version 2 (the version is the print's first byte).
    await h.db.query('UPDATE pages SET fingerprint = set_byte(fingerprint, 0, 2) WHERE file_id = $1', [first.fileId]);
    // A page whose image is gone is left uncompared rather than kept with a print of another kind.
    const [gone] = await h.db.query<{ id: string }>(
      `INSERT INTO pages (file_id, page_number, blank, ignored, rotation, fingerprint_hash, fingerprint)
       SELECT file_id, 99, false, true, 0, fingerprint_hash, fingerprint FROM pages WHERE file_id = $1 AND page_number = 1 RETURNING id`,
      [first.fileId],
    );

    expect(await refreshPagePrints(h.db, h.blobStore)).toBe(3);
    const versions = await h.db.query<{ page_number: number; version: number | null }>(
      'SELECT page_number, get_byte(fingerprint, 0) AS version FROM pages WHERE file_id = $1 ORDER BY page_number',
      [first.fileId],
    );
    expect(versions).toEqual([
      { page_number: 1, version: 3 },
      { page_number: 2, version: 3 },
      { page_number: 99, version: null },
    ]);
    await h.db.query('DELETE FROM pages WHERE id = $1', [gone!.id]);
    expect(await refreshPagePrints(h.db, h.blobStore)).toBe(0);

    const again = await uploadScan('Forms scanned again after', stack, await scan(prng, stack), '1');
    expect(again.placed.map((page) => page.flag)).toEqual(['already_uploaded', 'already_uploaded']);
  }, 180_000);
});
