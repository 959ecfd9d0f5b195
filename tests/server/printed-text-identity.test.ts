// Pages whose codes are destroyed (sticky notes over both QR codes and the short codes beside
// them) are read from their printed text, through the real pipeline and app: the product's own
// packets and next-lesson sheets, printed, covered and scanned. A page is placed only when its
// student ID, lesson and page fit exactly one sheet page; else it keeps its flag, with what was
// read offered in Review, or nothing when its header cannot be read.
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newCodeId } from '../../server/db/printed-codes';
import { makeAnswerSheetMaster } from '../../server/pdf/answer-sheet-master';
import { codeText, type Code } from '../../server/domain/codes';
import type { GreyRaster } from '../../server/pipeline/raster';
import type { Schemas } from '../../server/contract/types';
import { blankBack, coverCodes, coveredScanPdf, stainHeader, type CoveredScanPage } from '../fixtures/covered-codes';
import { createPrng } from '../fixtures/prng';
import { renderPdfPage } from '../fixtures/render-pdf';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createPipelineApp, type PipelineApp } from './pipeline-harness';
import { upload, waitForProcessing } from './pipeline-world';
import { coordinator, insertCongregation, insertFile, insertStudent } from './support';
import { api, codesOnPages, uploadGraded, uploadOutcomes, waitFor, waitForUpload } from './workflow-world';

type UploadReport = Schemas['UploadReport'];
type Page = Schemas['Page'];

const PUBLIC_URL = 'http://localhost:3000';
const DPI = 200;

let h: PipelineApp;
let admin: SignedIn;
let congregation: string;
let helper: SignedIn;
let courseId: string;
/** Lesson 1 "The Word" (1 page) and lesson 2 "Prayer" (2 pages), with real t codes. */
const lessons: { id: string; number: number; name: string; templates: { id: string; code: string }[] }[] = [];
const students: Record<'S1' | 'S2' | 'S3', { id: string; human_id: number }> = {} as never;
/** The original pages by "student/lesson/page", e.g. "S1/2/1", in file one; "S3/1/1 again" in file two. */
const pageIdOf = new Map<string, string>();
/** Each packet's pages as printed (p code per packet page), keyed like pageIdOf. */
const packetPage = new Map<string, { pdf: Uint8Array; index: number }>();

async function masterScan(lesson: (typeof lessons)[number], page: number): Promise<string> {
  const master = await makeAnswerSheetMaster({
    courseName: 'The Gospel of John',
    lessonName: lesson.name,
    lessonNumber: lesson.number,
    pages: lesson.templates.map((template, i) => ({ page_number: i + 1, code: { prefix: 't', id: template.code } })),
    publicUrl: PUBLIC_URL,
  });
  const printed = renderPdfPage(master, page - 1, 150);
  const jpeg = await sharp(Buffer.from(printed.data), { raw: { width: printed.width, height: printed.height, channels: 1 } }).jpeg({ quality: 80 }).toBuffer();
  return (await h.blobStore.put(jpeg)).key;
}

/** A processed file of these sheets, all assigned to the congregation, sent; its packet's pages recorded. */
async function sentFile(name: string, sheets: { student: keyof typeof students; lesson: 0 | 1 }[], suffix: string): Promise<void> {
  const fileId = await insertFile(h.db, name);
  let pageNumber = 1;
  for (const [sequence, sheet] of sheets.entries()) {
    const lesson = lessons[sheet.lesson]!;
    const row = await h.db.one<{ id: string }>(
      `INSERT INTO answer_sheets (file_id, sequence, student_id, lesson_id, assigned_group) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [fileId, sequence, students[sheet.student].id, lesson.id, congregation],
    );
    for (const [index, template] of lesson.templates.entries()) {
      const page = await h.db.one<{ id: string }>(
        `INSERT INTO pages (file_id, page_number, answer_sheet_id, template_id, code_prefix, code_id, image_blob_key)
         VALUES ($1, $2, $3, $4, 't', $5, $6) RETURNING id`,
        [fileId, pageNumber++, row.id, template.id, template.code, await masterScan(lesson, index + 1)],
      );
      pageIdOf.set(`${sheet.student}/${lesson.number}/${index + 1}${suffix}`, page.id);
    }
  }
  expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/send`)).status).toBe(202);
  await waitFor(`${name} to be sent`, async () => (await h.db.one<{ sent_at: Date | null }>('SELECT sent_at FROM files WHERE id = $1', [fileId])).sent_at);
  const list = (await api(h.app, admin, 'GET', `/api/file/${fileId}/congregations`)).json as unknown as { id: string; packet_id: string }[];
  const download = await api(h.app, helper, 'GET', `/api/study-helpers/distributed-files/${list.find((row) => row.id === congregation)!.packet_id}.pdf`);
  expect(download.status).toBe(200);
  const pdf = new Uint8Array(download.raw.rawPayload);
  // Which packet page is which original page: by the p code printed on it.
  const codes = await codesOnPages(pdf);
  const targets = await h.db.query<{ code_id: string; target_id: string }>(`SELECT code_id, target_id FROM printed_codes WHERE prefix = 'p'`);
  const keyOfPage = new Map([...pageIdOf].map(([key, id]) => [id, key]));
  codes.forEach((code, index) => {
    const pageId = targets.find((row) => row.code_id === code?.id)?.target_id;
    const key = pageId === undefined ? undefined : keyOfPage.get(pageId);
    if (key !== undefined) packetPage.set(key, { pdf, index });
  });
}

type Damage = 'notes' | 'notes_and_stain' | 'none';

/** A packet page printed, graded, covered as asked and put on the scanner. */
function printed(key: string, damage: Damage, seed: number, shade: 'white' | 'yellow' = 'yellow'): GreyRaster {
  const { pdf, index } = packetPage.get(key)!;
  const raster = renderPdfPage(pdf, index, DPI);
  const prng = createPrng(seed);
  if (damage !== 'none') coverCodes(raster, DPI, prng, shade);
  if (damage === 'notes_and_stain') stainHeader(raster, DPI, prng);
  return raster;
}

async function gradedUpload(pages: CoveredScanPage[], name: string, encoding: 'jpeg_grey' | 'jpeg_colour' = 'jpeg_grey'): Promise<string> {
  const pdf = await coveredScanPdf(pages, DPI, encoding, createPrng(name));
  const uploaded = await uploadGraded(h.app, helper, pdf, { name });
  expect(uploaded.status).toBe(201);
  expect(await waitForUpload(h.db, uploaded.body.id!)).toBe('success');
  return uploaded.body.id!;
}

async function feedbackCount(key: string): Promise<number> {
  return (await h.db.one<{ n: number }>('SELECT count(*)::int AS n FROM feedback WHERE page_id = $1', [pageIdOf.get(key)])).n;
}

beforeAll(async () => {
  h = await createPipelineApp();
  admin = await signIn(h.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
  congregation = await insertCongregation(h.db, 'NG 0001');
  helper = await coordinator(h.app, congregation);
  courseId = (await h.db.one<{ id: string }>(`INSERT INTO courses (name, version) VALUES ('The Gospel of John', 'printed-text') RETURNING id`)).id;
  for (const [number, name, pages] of [[1, 'The Word', 1], [2, 'Prayer', 2]] as const) {
    const lesson = await h.db.one<{ id: string }>('INSERT INTO lessons (course_id, number, name) VALUES ($1, $2, $3) RETURNING id', [courseId, number, name]);
    const templates = [];
    for (let page = 1; page <= pages; page++) {
      const code = newCodeId();
      const template = await h.db.one<{ id: string }>(
        `INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, $2, $3, $4) RETURNING id`,
        [lesson.id, page, `page ${page}`, code],
      );
      templates.push({ id: template.id, code });
    }
    lessons.push({ id: lesson.id, number, name, templates });
  }
  for (const label of ['S1', 'S2', 'S3'] as const)
    students[label] = await insertStudent(h.db, { congregationId: congregation, attributes: { name: `Student ${label}` } });
  // File one: S1 and S2 lesson 2, S3 lesson 1. File two: S3 lesson 1 again (sent before either was graded).
  await sentFile('Batch one', [{ student: 'S1', lesson: 1 }, { student: 'S2', lesson: 1 }, { student: 'S3', lesson: 0 }], '');
  await sentFile('Batch two', [{ student: 'S3', lesson: 0 }], ' again');
}, 240_000);
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  expect(h.app.contractViolations).toEqual([]);
});

describe('graded uploads with both codes under sticky notes', () => {
  it('matches one-sided pages by student, lesson and page; keeps ambiguous and illegible ones out', async () => {
    const uploadId = await gradedUpload(
      [
        { raster: printed('S1/2/1', 'notes', 1, 'yellow'), tilt: 0.7 },
        { raster: printed('S1/2/2', 'notes', 2, 'white'), tilt: -1.1 },
        { raster: printed('S2/2/1', 'notes', 3, 'yellow'), tilt: 0.4, orientation: 180 },
        { raster: printed('S2/2/2', 'notes_and_stain', 4), tilt: 0.9 },
        { raster: printed('S3/1/1', 'notes', 5), tilt: -0.5 },
      ],
      'Covered one-sided',
    );
    const outcomes = await uploadOutcomes(h.db, uploadId);
    expect(outcomes.map((row) => [row.outcome, row.page_id])).toEqual([
      ['matched', pageIdOf.get('S1/2/1')],
      ['matched', pageIdOf.get('S1/2/2')],
      ['matched', pageIdOf.get('S2/2/1')],
      // The header is under a stain: nothing says whose page it is.
      ['unrecognized', null],
      // S3's lesson 1 waits for grading in two files: the text fits both, so neither is taken.
      ['unrecognized', null],
    ]);
    expect(outcomes[3]!.detail).toMatch(/^Not matched: no code/);
    expect(outcomes[3]!.detail).not.toMatch(/printed text/);
    expect(outcomes[4]!.detail).toBe(
      `Not matched: no code. Its printed text reads "Student ${students.S3.human_id}, Lesson 1, page 1", which fits 2 pages waiting for grading: scan it again with its codes uncovered.`,
    );
    for (const key of ['S1/2/1', 'S1/2/2', 'S2/2/1']) expect(await feedbackCount(key)).toBe(1);
    for (const key of ['S2/2/2', 'S3/1/1', 'S3/1/1 again']) expect(await feedbackCount(key)).toBe(0);

    const report = (await api(h.app, helper, 'GET', `/api/uploads/${uploadId}`)).json as unknown as UploadReport;
    expect(report.pages.map((page) => [page.result, page.identified_by])).toEqual([
      ['matched', 'printed_text'],
      ['matched', 'printed_text'],
      ['matched', 'printed_text'],
      ['not_matched', null],
      ['not_matched', null],
    ]);
    expect(report.pages[0]!.answer_sheet).toMatchObject({ student_human_id: students.S1.human_id, lesson: 'Prayer' });
  }, 180_000);

  it('matches duplex colour scans: the covered front by its text, its blank back dropped', async () => {
    const front = printed('S2/2/2', 'notes', 6, 'yellow');
    const other = printed('S3/1/1 again', 'notes', 7, 'white');
    const uploadId = await gradedUpload(
      [
        { raster: front, tilt: -0.8 },
        { raster: blankBack(front, createPrng(8)) },
        { raster: other, tilt: 1.2 },
        { raster: blankBack(other, createPrng(9)) },
      ],
      'Covered duplex',
      'jpeg_colour',
    );
    const outcomes = await uploadOutcomes(h.db, uploadId);
    expect(outcomes.map((row) => [row.outcome, row.page_id])).toEqual([
      ['matched', pageIdOf.get('S2/2/2')],
      ['blank_back', pageIdOf.get('S2/2/2')],
      // Still two of S3's lesson 1 pages wait: not taken, and its back follows no front.
      ['unrecognized', null],
      ['blank', null],
    ]);
    const report = (await api(h.app, helper, 'GET', `/api/uploads/${uploadId}`)).json as unknown as UploadReport;
    expect(report.pages[0]).toMatchObject({ result: 'matched', identified_by: 'printed_text' });
  }, 180_000);

  it('takes the page once only one sheet page still fits: the other was graded meanwhile', async () => {
    // File one's S3 page comes back with its codes clear; then file two's, covered, fits only itself.
    const clear = await gradedUpload([{ raster: printed('S3/1/1', 'none', 10) }], 'S3 clear');
    expect((await uploadOutcomes(h.db, clear)).map((row) => row.outcome)).toEqual(['matched']);
    const covered = await gradedUpload([{ raster: printed('S3/1/1 again', 'notes', 11), tilt: 0.6 }], 'S3 covered');
    expect((await uploadOutcomes(h.db, covered)).map((row) => [row.outcome, row.page_id])).toEqual([['matched', pageIdOf.get('S3/1/1 again')]]);
    const report = (await api(h.app, helper, 'GET', `/api/uploads/${covered}`)).json as unknown as UploadReport;
    expect(report.pages[0]!.identified_by).toBe('printed_text');
  }, 180_000);
});

describe('a file split by codes, of next-lesson sheets with their codes under sticky notes', () => {
  let pages: Page[];
  const issued: Record<string, Code> = {};

  beforeAll(async () => {
    // Lesson 1 of a second course, so S2 holds two issued "Lesson 1, page 1" sheets.
    const acts = (await h.db.one<{ id: string }>(`INSERT INTO courses (name, version) VALUES ('Acts', 'printed-text') RETURNING id`)).id;
    const actsLesson = await h.db.one<{ id: string }>(`INSERT INTO lessons (course_id, number, name) VALUES ($1, 1, 'The Church') RETURNING id`, [acts]);
    const actsTemplate = await h.db.one<{ id: string }>(
      `INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, 1, 'page 1', $2) RETURNING id`,
      [actsLesson.id, newCodeId()],
    );
    const issue = async (key: string, student: keyof typeof students, templateId: string) => {
      const code: Code = { prefix: 's', id: newCodeId() };
      await h.db.query(`INSERT INTO printed_codes (code_id, prefix, target_id, student_id) VALUES ($1, 's', $2, $3)`, [code.id, templateId, students[student].id]);
      issued[key] = code;
      return code;
    };
    const sheet = async (key: string, student: keyof typeof students, templateId: string, course: string, lessonName: string) => {
      // As a return file prints a next-lesson sheet: the student's s code, name and ID.
      const pdf = await makeAnswerSheetMaster({
        courseName: course,
        lessonName,
        lessonNumber: 1,
        pages: [{ page_number: 1, code: await issue(key, student, templateId) }],
        publicUrl: PUBLIC_URL,
        studentName: `Student ${student} (ID ${students[student].human_id})`,
      });
      return renderPdfPage(pdf, 0, DPI);
    };
    const word = lessons[0]!.templates[0]!.id;
    const s1 = await sheet('S1', 'S1', word, 'The Gospel of John', 'The Word');
    const s2 = await sheet('S2 John', 'S2', word, 'The Gospel of John', 'The Word');
    await issue('S2 Acts', 'S2', actsTemplate.id);
    const s3 = await sheet('S3', 'S3', word, 'The Gospel of John', 'The Word');
    const prng = createPrng('by code');
    coverCodes(s1, DPI, prng, 'yellow');
    coverCodes(s2, DPI, prng, 'white');
    coverCodes(s3, DPI, prng, 'yellow');
    stainHeader(s3, DPI, prng);
    const scan = await coveredScanPdf([{ raster: s1, tilt: 0.8 }, { raster: s2, tilt: -0.6 }, { raster: s3, tilt: 0.3 }], DPI, 'jpeg_grey', prng);
    const uploaded = await upload(h.app, admin, scan, { name: 'Covered next-lesson sheets' });
    expect(uploaded.status).toBe(201);
    expect(await waitForProcessing(h.db, uploaded.body.id!)).toBe('success');
    const ids = await h.db.query<{ id: string }>('SELECT id FROM pages WHERE file_id = $1 ORDER BY page_number', [uploaded.body.id]);
    pages = [];
    for (const { id } of ids) pages.push((await api(h.app, admin, 'GET', `/api/pages/${id}`)).json as unknown as Page);
  }, 180_000);

  it('places the page whose ID, lesson and page fit one issued sheet, and says it was read from the printed text', () => {
    expect(pages[0]).toMatchObject({ identified_by: 'printed_text', flagged: false, review_reason: null });
    expect(pages[0]!.answer_sheet!.student).toMatchObject({ id: students.S1.id, human_id: students.S1.human_id });
  });

  it('keeps the page that fits two issued sheets flagged, offering both, and takes one in one click', async () => {
    expect(pages[1]).toMatchObject({ identified_by: null, flagged: true, review_reason: 'no_code_found' });
    expect(pages[1]!.review_detail).toEqual({
      printed_text_suggestion: {
        student_human_id: students.S2.human_id,
        lesson_number: 1,
        page_number: 1,
        codes: [issued['S2 John']!, issued['S2 Acts']!].map(codeText).sort(),
      },
    });
    const chosen = codeText(issued['S2 John']!);
    const taken = await api(h.app, admin, 'PATCH', `/api/pages/${pages[1]!.id}`, { code: chosen });
    expect(taken.status).toBe(200);
    expect(taken.json).toMatchObject({ identified_by: 'person', flagged: false, review_detail: null });
    expect((taken.json as unknown as Page).answer_sheet!.student).toMatchObject({ id: students.S2.id });
  });

  it('keeps the page with an illegible header flagged, with nothing suggested', () => {
    expect(pages[2]).toMatchObject({ identified_by: null, flagged: true, review_reason: 'no_code_found', review_detail: null });
  });

  it('says so in the upload report', async () => {
    const report = (await api(h.app, admin, 'GET', `/api/uploads/${pages[0]!.file_id}`)).json as unknown as UploadReport;
    expect(report.pages[0]).toMatchObject({ result: 'matched', identified_by: 'printed_text' });
  });
});
