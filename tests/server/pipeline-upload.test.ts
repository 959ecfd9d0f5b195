// Upload → job → answer sheets, on real scanner-like PDFs from tests/fixtures/make-scans.ts:
// exact sheets, pages, reasons, orientation, assignments, duplicates, cover and counts; the
// progress stream; and every refusal of POST /api/file (duplicate, not a readable PDF, too large)
// with nothing kept behind.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import * as mupdf from 'mupdf';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { makeScan, type MadeScan } from '../fixtures/make-scans';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createPipelineApp, type PipelineApp } from './pipeline-harness';
import { expectedSplit, seedScanWorld, sseMessages, upload, waitForProcessing, type ScanWorld } from './pipeline-world';
import { coordinator, insertAnswerSheet, insertCongregation, insertFile } from './support';

let h: PipelineApp;
let made: MadeScan;
let admin: SignedIn;

beforeAll(async () => {
  made = await makeScan({ pages: 30, seed: 7 });
  h = await createPipelineApp();
  admin = await signIn(h.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  expect(h.app.contractViolations).toEqual([]);
});

interface PageRow {
  page_number: number;
  blank: boolean;
  ignored: boolean;
  rotation: number;
  code_prefix: string | null;
  code_id: string | null;
  unrecognized_reason: string | null;
  read_error: string | null;
  answer_sheet_id: string | null;
  image_blob_key: string | null;
}

interface SheetRow {
  id: string;
  sequence: number;
  student_id: string | null;
  lesson_id: string | null;
  assigned_group: string | null;
  duplicate_of: string | null;
}

async function blobFiles(): Promise<string[]> {
  const root = path.join(h.config.dataDir, 'blobs');
  const found: string[] = [];
  const walk = async (dir: string) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) await walk(path.join(dir, entry.name));
      else found.push(entry.name);
    }
  };
  await walk(root);
  return found;
}

describe('processing an uploaded scan (split by codes)', () => {
  let world: ScanWorld;
  let fileId: string;
  let congregationA: string;
  let earlierSheet: string;

  beforeAll(async () => {
    congregationA = await insertCongregation(h.db, 'NG 0001');
    // Odd-numbered students belong to congregation A; the Acts course is unknown to the database.
    world = await seedScanWorld(h.db, made, {
      courses: ['The Gospel of John'],
      congregationOf: (student) => (Number(student.split('-')[1]) % 2 === 1 ? congregationA : null),
    });
    // An earlier file already brought a sheet of the first personalised student and lesson.
    const first = expectedSplit(made, world, 0).sheets.find((sheet) => sheet.student_id !== null && sheet.lesson_id !== null)!;
    const earlierFile = await insertFile(h.db, 'Earlier batch');
    earlierSheet = await insertAnswerSheet(h.db, earlierFile, { studentId: first.student_id, lessonId: first.lesson_id, createdAt: new Date('2025-01-01') });

    const response = await upload(h.app, admin, readFileSync(made.path), { name: 'Lagos batch 7' });
    expect(response.status).toBe(201);
    fileId = response.body.id!;
    expect(await waitForProcessing(h.db, fileId)).toBe('success');
  });

  it('stores every page once, with its code, reason, orientation and blankness', async () => {
    const pages = await h.db.query<PageRow>('SELECT * FROM pages WHERE file_id = $1 ORDER BY page_number', [fileId]);
    expect(pages.map((page) => page.page_number)).toEqual(made.pages.map((page) => page.page_number));
    for (const truth of made.pages) {
      const page = pages[truth.page_number - 1]!;
      expect({ n: page.page_number, blank: page.blank, prefix: page.code_prefix, id: page.code_id, error: page.read_error }).toEqual({
        n: truth.page_number,
        blank: truth.blank,
        prefix: truth.code?.prefix ?? null,
        id: truth.code?.id ?? null,
        error: null,
      });
      if (truth.code) expect(page.rotation).toBe(truth.orientation);
      expect(page.image_blob_key).not.toBeNull();
    }
  });

  it('splits into exactly the expected answer sheets, pages and reasons', async () => {
    const expected = expectedSplit(made, world, 0);
    const sheets = await h.db.query<SheetRow>('SELECT * FROM answer_sheets WHERE file_id = $1 ORDER BY sequence', [fileId]);
    const pages = await h.db.query<PageRow>('SELECT * FROM pages WHERE file_id = $1 ORDER BY page_number', [fileId]);
    expect(sheets.map((sheet) => ({ student: sheet.student_id, lesson: sheet.lesson_id }))).toEqual(
      expected.sheets.map((sheet) => ({ student: sheet.student_id, lesson: sheet.lesson_id })),
    );
    expected.sheets.forEach((sheet, index) => {
      for (const expectedPage of sheet.pages) {
        const page = pages[expectedPage.page_number - 1]!;
        expect({ n: page.page_number, sheet: page.answer_sheet_id, ignored: page.ignored, reason: page.unrecognized_reason }).toEqual({
          n: expectedPage.page_number,
          sheet: sheets[index]!.id,
          ignored: expectedPage.ignored,
          reason: expectedPage.unrecognized ? expectedPage.reason : null,
        });
      }
    });
    for (const ignored of expected.ignored_pages) expect(pages[ignored.page_number - 1]!.ignored).toBe(true);
    // The scan exercises every reason a page of a sheet can have.
    const reasons = new Set(pages.map((page) => page.unrecognized_reason).filter((reason) => reason !== null));
    expect(reasons).toEqual(new Set(['no_code_found', 'unknown_code', 'other_kind']));
  });

  it('assigns sheets of known students to their congregation and flags duplicates', async () => {
    const expected = expectedSplit(made, world, 0);
    const sheets = await h.db.query<SheetRow>('SELECT * FROM answer_sheets WHERE file_id = $1 ORDER BY sequence', [fileId]);
    const fixtureOf = new Map([...world.students].map(([fixture, id]) => [id, fixture]));
    const seen = new Map<string, string>();
    const first = expected.sheets.find((sheet) => sheet.student_id !== null && sheet.lesson_id !== null)!;
    seen.set(`${first.student_id}/${first.lesson_id}`, earlierSheet);
    sheets.forEach((sheet) => {
      const fixture = sheet.student_id === null ? null : fixtureOf.get(sheet.student_id)!;
      const group = fixture !== null && Number(fixture.split('-')[1]) % 2 === 1 ? congregationA : null;
      expect(sheet.assigned_group).toBe(group);
      const key = `${sheet.student_id}/${sheet.lesson_id}`;
      const earlier = sheet.student_id !== null && sheet.lesson_id !== null ? seen.get(key) : undefined;
      expect(sheet.duplicate_of).toBe(earlier ?? null);
      if (earlier === undefined && sheet.student_id !== null && sheet.lesson_id !== null) seen.set(key, sheet.id);
    });
    expect(sheets.filter((sheet) => sheet.duplicate_of !== null).length).toBeGreaterThan(0);
  });

  it('takes the service center and cover image from the c-coded cover page', async () => {
    const file = await h.db.one<{ service_center_id: string; cover_page_id: string; process_status: string }>(
      'SELECT service_center_id, cover_page_id, process_status FROM files WHERE id = $1',
      [fileId],
    );
    expect(file.service_center_id).toBe(world.serviceCenterId);
    const cover = await h.db.one<{ page_number: number }>('SELECT page_number FROM pages WHERE id = $1', [file.cover_page_id]);
    expect(cover.page_number).toBe(1);
    const response = await h.app.inject({ method: 'GET', url: `/api/file/${fileId}/cover`, headers: admin.headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(response.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.height!).toBeGreaterThan(meta.width!);
  });

  it('keeps page images upright, whatever way the page was scanned', async () => {
    const turned = made.pages.filter((page) => page.code && (page.orientation === 90 || page.orientation === 270));
    expect(turned.length).toBeGreaterThan(0);
    for (const truth of turned) {
      const page = await h.db.one<{ id: string }>('SELECT id FROM pages WHERE file_id = $1 AND page_number = $2', [fileId, truth.page_number]);
      const response = await h.app.inject({ method: 'GET', url: `/api/pages/${page.id}/preview`, headers: admin.headers });
      expect(response.statusCode).toBe(200);
      // As shown: a turned scan kept as it came is shown upright by its EXIF orientation.
      const meta = await sharp(response.rawPayload).metadata();
      expect(meta.autoOrient.height).toBeGreaterThan(meta.autoOrient.width);
      // Thumbnails are turned for real: upright pixels, no orientation to follow.
      const thumbnail = await h.app.inject({ method: 'GET', url: `/api/pages/${page.id}/thumbnail?size=500`, headers: admin.headers });
      const thumb = await sharp(thumbnail.rawPayload).metadata();
      expect([thumb.width, thumb.orientation]).toEqual([500, undefined]);
      expect(thumb.height).toBeGreaterThan(500);
    }
  });

  it('reports the counts of the review and the workflow step', async () => {
    const expected = expectedSplit(made, world, 0);
    const kept = expected.sheets.filter((sheet) => sheet.pages.some((page) => !page.ignored));
    const stats = await h.app.inject({ method: 'GET', url: `/api/file/${fileId}/stats`, headers: admin.headers });
    const sheets = await h.db.query<SheetRow>('SELECT * FROM answer_sheets WHERE file_id = $1 ORDER BY sequence', [fileId]);
    const flaggedPages = kept.flatMap((sheet) => sheet.pages).filter((page) => page.flag !== null && !page.ignored);
    const flagCount = (flag: string) => flaggedPages.filter((page) => page.flag === flag).length;
    expect(stats.json()).toEqual({
      flagged: flaggedPages.length,
      reasons: {
        no_code_found: flagCount('no_code_found'),
        unreadable: flagCount('unreadable'),
        unknown_code: flagCount('unknown_code'),
        out_of_order: flagCount('out_of_order'),
        stray_page: flagCount('stray_page'),
        another_course: flagCount('another_course'),
        duplicate_sheet: kept.flatMap((sheet, index) => (sheets[index]?.duplicate_of ? sheet.pages : [])).filter((page) => !page.ignored && page.flag === null).length,
        blank_back: expected.sheets.flatMap((sheet) => sheet.pages).filter((page) => page.ignored).length + expected.ignored_pages.filter((page) => page.reason === 'blank').length,
        // Reasons of graded uploads and of mends: none in a service center's first scan.
        ambiguous_position: 0,
        page_missing: 0,
        scanned_twice: 0,
        already_uploaded: 0,
        // No page of the standard scan is past a reading limit.
        too_complex: 0,
        no_sheet: 0,
        too_blurred: 0,
      },
      repeat_of: null,
      pages: 30,
      sheets: kept.length,
      unrecognized: kept.flatMap((sheet) => sheet.pages).filter((page) => page.unrecognized && !page.ignored).length,
      mismatched: 0,
      ignored:
        expected.sheets.flatMap((sheet) => sheet.pages).filter((page) => page.ignored).length + expected.ignored_pages.length,
      unassigned: sheets.filter((sheet) => sheet.assigned_group === null).length,
      duplicates: sheets.filter((sheet) => sheet.duplicate_of !== null).length,
      missing_student: kept.filter((sheet) => sheet.student_id === null).length,
      missing_lesson: kept.filter((sheet) => sheet.lesson_id === null).length,
    });
    const steps = await h.app.inject({ method: 'GET', url: `/api/file/${fileId}/steps`, headers: admin.headers });
    expect(steps.json()).toEqual({ step: 'review', complete: 0, total: kept.length, prepped: false, downloaded: false, file_status: null });
  });

  it('shows the file with its service center, congregations, courses and sheet count', async () => {
    const response = await h.app.inject({ method: 'GET', url: `/api/file/${fileId}`, headers: admin.headers });
    const file = response.json();
    expect(file).toMatchObject({
      id: fileId,
      name: 'Lagos batch 7',
      process_status: 'success',
      page_count: 30,
      answer_sheet_page_length: 0,
      scanned_at: '2026-01-30T10:00:00.000Z',
      service_center: { id: world.serviceCenterId, name: 'Lagos Service Center', country: { iso_code: 'NG', display_name: 'Nigeria' } },
      congregations: [{ id: congregationA, wbs_code: 'NG 0001' }],
      courses: [{ name: 'The Gospel of John' }],
      congregation_file_status: null,
    });
    const kept = expectedSplit(made, world, 0).sheets.filter((sheet) => sheet.pages.some((page) => !page.ignored));
    expect(file.responses_count).toBe(kept.length);
  });

  it('lets a coordinator see the file with its own sheets only', async () => {
    const who = await coordinator(h.app, congregationA);
    // In Review the file is the admins' alone; its congregations see it once it is sent to them
    // (its row of file_congregations, removed again for the tests after this one).
    expect((await h.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: who.headers })).statusCode).toBe(403);
    await h.db.query('INSERT INTO file_congregations (file_id, congregation_id) VALUES ($1, $2)', [fileId, congregationA]);
    onTestFinished(async () => {
      await h.db.query('DELETE FROM file_congregations WHERE file_id = $1', [fileId]);
    });
    const file = await h.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: who.headers });
    expect(file.statusCode).toBe(200);
    const own = await h.db.one<{ n: number }>('SELECT count(*) AS n FROM answer_sheets WHERE file_id = $1 AND assigned_group = $2', [
      fileId,
      congregationA,
    ]);
    expect(file.json().responses_count).toBe(Number(own.n));
    const sheets = await h.app.inject({ method: 'GET', url: `/api/answer-sheets?file=${fileId}&limit=100`, headers: who.headers });
    expect(sheets.json().total).toBe(Number(own.n));
    const other = await coordinator(h.app, await insertCongregation(h.db, 'NG 0002'));
    expect((await h.app.inject({ method: 'GET', url: `/api/files/${fileId}`, headers: other.headers })).statusCode).toBe(403);
    expect((await h.app.inject({ method: 'GET', url: `/api/files`, headers: other.headers })).json().total).toBe(0);
  });

  it('gives a late listener the final progress at once, under both progress calls', async () => {
    const byType = await h.app.inject({ method: 'GET', url: `/api/progress/process_service_center_upload/${fileId}`, headers: admin.headers });
    expect(byType.statusCode).toBe(200);
    expect(byType.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(sseMessages(byType.body)).toEqual([{ status: 'success', completed: 30, count: 30, failed: 0 }]);
    const byId = await h.app.inject({ method: 'GET', url: `/api/progress/${fileId}`, headers: admin.headers });
    expect(sseMessages(byId.body)).toEqual([{ status: 'success', completed: 30, count: 30, failed: 0 }]);
    const unknown = await h.app.inject({ method: 'GET', url: `/api/progress/process_service_center_upload/nope`, headers: admin.headers });
    expect(unknown.statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: `/api/progress/nope`, headers: admin.headers })).statusCode).toBe(404);
  });

  it('refuses the same bytes again with 409 DUPLICATE_FILE and keeps nothing new', async () => {
    const before = await blobFiles();
    const again = await upload(h.app, admin, readFileSync(made.path), { name: 'Same again' });
    expect(again).toEqual({ status: 409, body: { detail: { error_type: 'DUPLICATE_FILE', message: 'This file has already been uploaded.' } } });
    expect(await blobFiles()).toEqual(before);
    expect((await h.db.one<{ n: number }>(`SELECT count(*) AS n FROM files WHERE name = 'Same again'`)).n).toBe(0);
  });
});

describe('processing intro files (fixed-length sheets)', () => {
  it('makes one new student per sheet of answer_sheet_page_length pages, blank pages not counted; an issued page keeps its student', async () => {
    const intro = await makeScan({ pages: 14, seed: 11 });
    const congregation = await insertCongregation(h.db, 'NG 0003');
    const world = await seedScanWorld(h.db, intro, { courses: ['The Gospel of John'], congregationOf: () => congregation });
    const before = await h.db.one<{ max: number | null }>('SELECT max(human_id) AS max FROM students');
    const response = await upload(h.app, admin, readFileSync(intro.path), { name: 'Intro batch', answer_sheet_page_length: '2' });
    expect(response.status).toBe(201);
    const fileId = response.body.id!;
    expect(await waitForProcessing(h.db, fileId)).toBe('success');

    const expected = expectedSplit(intro, world, 2);
    const sheets = await h.db.query<SheetRow & { human_id: number; service_center_id: string; country_iso: string }>(
      `SELECT a.*, s.human_id, s.service_center_id, s.country_iso FROM answer_sheets a JOIN students s ON s.id = a.student_id
       WHERE a.file_id = $1 ORDER BY a.sequence`,
      [fileId],
    );
    expect(sheets.length).toBe(expected.sheets.length);
    const isNew = (index: number) => expected.sheets[index]!.new_student;
    const created = sheets.filter((_, index) => isNew(index));
    expect(created.length).toBeGreaterThan(0);
    expect(sheets.length - created.length).toBeGreaterThan(0);
    expect(created.map((sheet) => sheet.human_id)).toEqual(created.map((_, index) => Number(before.max) + index + 1));
    for (const [index, sheet] of sheets.entries()) {
      if (isNew(index)) {
        // New students belong to no congregation yet: the Assign step gives them one.
        expect(sheet).toMatchObject({ assigned_group: null, lesson_id: expected.sheets[index]!.lesson_id, service_center_id: world.serviceCenterId, country_iso: 'NG' });
      } else {
        // A page printed for a known student (an S code) stays that student's, in their congregation.
        expect(sheet).toMatchObject({ student_id: expected.sheets[index]!.student_id, assigned_group: congregation, lesson_id: expected.sheets[index]!.lesson_id });
      }
      const pages = await h.db.query<{ page_number: number; ignored: boolean }>(
        'SELECT page_number, ignored FROM pages WHERE answer_sheet_id = $1 ORDER BY page_number',
        [sheet.id],
      );
      expect(pages).toEqual(expected.sheets[index]!.pages.map((page) => ({ page_number: page.page_number, ignored: page.ignored })));
      expect(pages.filter((page) => !page.ignored).length).toBeLessThanOrEqual(2);
    }
  });
});

describe('a page that cannot be read', () => {
  it('is kept as unreadable with its error; the file still succeeds', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 3; i++) doc.addPage(i === 1 ? [1_000_000, 1_000_000] : [595, 842]).drawText('Hello', { x: 50, y: 50, size: 20 });
    const response = await upload(h.app, admin, Buffer.from(await doc.save()), { name: 'One bad page' });
    expect(response.status).toBe(201);
    const fileId = response.body.id!;
    expect(await waitForProcessing(h.db, fileId)).toBe('success');
    const pages = await h.db.query<PageRow>('SELECT * FROM pages WHERE file_id = $1 ORDER BY page_number', [fileId]);
    expect(pages.map((page) => [page.page_number, page.unrecognized_reason !== null || page.answer_sheet_id === null, page.read_error !== null])).toEqual([
      [1, true, false],
      [2, true, true],
      [3, true, false],
    ]);
    expect(pages[1]!.read_error).toMatch(/large/i);
    const progress = await h.app.inject({ method: 'GET', url: `/api/progress/${fileId}`, headers: admin.headers });
    expect(sseMessages(progress.body)).toEqual([{ status: 'success', completed: 3, count: 3, failed: 1 }]);
  });
});

describe('refused uploads keep nothing', () => {
  async function refused(content: Buffer | Uint8Array, message: RegExp) {
    const before = await blobFiles();
    const files = await h.db.one<{ n: number }>('SELECT count(*) AS n FROM files');
    const response = await upload(h.app, admin, content, { name: 'Refused' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: { error_type: 'VALIDATION_ERROR', message: expect.stringMatching(message) } });
    expect(await blobFiles()).toEqual(before);
    expect((await h.db.one<{ n: number }>('SELECT count(*) AS n FROM files')).n).toBe(files.n);
  }

  it('refuses a file that is not a PDF', async () => {
    await refused(Buffer.from('name,lesson\nKofi,3\n'), /not a PDF/);
  });

  it('refuses a truncated PDF', async () => {
    const bytes = readFileSync(made.path);
    await refused(bytes.subarray(0, Math.floor(bytes.length / 2)), /truncated/);
  });

  it('refuses an encrypted PDF', async () => {
    const doc = mupdf.Document.openDocument(readFileSync(made.path), 'application/pdf') as mupdf.PDFDocument;
    const encrypted = doc.saveToBuffer('encrypt=aes-256,user-password=secret,owner-password=owner').asUint8Array().slice();
    doc.destroy();
    await refused(encrypted, /encrypted/);
  });

  it('refuses a PDF without pages', async () => {
    const doc = await PDFDocument.create();
    await refused(Buffer.from(await doc.save({ addDefaultPage: false })), /no pages/);
  });

  it('refuses missing or wrong fields', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const bytes = Buffer.from(await doc.save());
    const bad = await upload(h.app, admin, bytes, { answer_sheet_page_length: '3' });
    expect(bad).toEqual({ status: 400, body: { detail: { error_type: 'VALIDATION_ERROR', message: 'answer_sheet_page_length must be 0, 1 or 2' } } });
    const noName = await upload(h.app, admin, bytes, { name: ' ' });
    expect(noName.status).toBe(400);
  });

  it('refuses callers who are not admins before reading the body', async () => {
    const who = await coordinator(h.app, await insertCongregation(h.db, 'NG 0004'));
    expect((await upload(h.app, who, Buffer.from('%PDF-'))).status).toBe(403);
  });
});

describe('the upload size limit', () => {
  let small: PipelineApp;
  beforeAll(async () => {
    small = await createPipelineApp({ maxUploadBytes: 1_000_000 });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('refuses a file over the limit with 413 FILE_TOO_LARGE and keeps nothing', async () => {
    const who = await signIn(small.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
    const response = await upload(small.app, who, readFileSync(made.path));
    expect(response).toEqual({ status: 413, body: { detail: { error_type: 'FILE_TOO_LARGE', message: 'File too large' } } });
    const root = path.join(small.config.dataDir, 'blobs');
    const left: string[] = [];
    const walk = async (dir: string) => {
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        if (entry.isDirectory()) await walk(path.join(dir, entry.name));
        else left.push(entry.name);
      }
    };
    await walk(root);
    expect(left).toEqual([]);
    expect((await small.db.one<{ n: number }>('SELECT count(*) AS n FROM files')).n).toBe(0);
    expect(small.app.contractViolations).toEqual([]);
  });
});
