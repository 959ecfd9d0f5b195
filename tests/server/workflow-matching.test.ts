// Graded uploads and packets beyond the happy path, on real PDFs: a page of another
// congregation's packet is refused and reported; a page scanned twice keeps the newest scan
// (across uploads and within one) until the return file was downloaded; who may see, print and
// upload what; refusals of the upload
// call; intro files of a study helper's recruits.
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newCodeId } from '../../server/db/printed-codes';
import { makeAnswerSheetMaster } from '../../server/pdf/answer-sheet-master';
import { jobsPlugin, createJobsPlugin } from '../../server/jobs/jobs-plugin';
import { apiPlugins } from '../../server/routes/index';
import { createStudyHelperRoutes, studyHelperRoutes } from '../../server/routes/study-helpers';
import { renderPdfPage } from '../fixtures/render-pdf';
import { signIn, type SignedIn } from '../helpers/sign-in';
import { createTestApp } from '../helpers/test-app';
import { createPipelineApp, type PipelineApp } from './pipeline-harness';
import { coordinator, insertCongregation, insertFile, insertStudent, insertStudyHelper } from './support';
import type { Schemas } from '../../server/contract/types';
import { api, codesOnPages, scanGradedPackets, uploadGraded, uploadOutcomes, waitFor, waitForUpload } from './workflow-world';

type UploadReport = Schemas['UploadReport'];

const PUBLIC_URL = 'http://localhost:3000';

let h: PipelineApp;
let admin: SignedIn;
let congregationA: string;
let congregationB: string;
let coordinatorA: SignedIn;
let coordinatorB: SignedIn;
let fileId: string;
/** Lesson 1 (1 page) and lesson 2 (1 page) with real t codes. */
let lessons: { id: string; templateId: string; code: string }[];
const sheetOf: Record<'A' | 'B', { sheetId: string; pageId: string }> = {} as never;
const packetOf: Record<'A' | 'B', { id: string; pdf: Uint8Array }> = {} as never;

async function masterPdf(lessonIndex: number): Promise<Uint8Array> {
  const lesson = lessons[lessonIndex]!;
  return makeAnswerSheetMaster({
    courseName: 'The Gospel of John',
    lessonName: `Lesson ${lessonIndex + 1}`,
    lessonNumber: lessonIndex + 1,
    pages: [{ page_number: 1, code: { prefix: 't', id: lesson.code } }],
    publicUrl: PUBLIC_URL,
  });
}

beforeAll(async () => {
  h = await createPipelineApp();
  admin = await signIn(h.app, 'admin@test.local', { role: 'scanning_admin', isAdmin: true });
  congregationA = await insertCongregation(h.db, 'NG 0001');
  congregationB = await insertCongregation(h.db, 'NG 0002');
  coordinatorA = await coordinator(h.app, congregationA);
  coordinatorB = await coordinator(h.app, congregationB);

  const course = await h.db.one<{ id: string }>(`INSERT INTO courses (name, version) VALUES ('The Gospel of John', 'matching') RETURNING id`);
  lessons = [];
  for (const number of [1, 2]) {
    const lesson = await h.db.one<{ id: string }>('INSERT INTO lessons (course_id, number, name) VALUES ($1, $2, $3) RETURNING id', [course.id, number, `Lesson ${number}`]);
    const code = newCodeId();
    const template = await h.db.one<{ id: string }>(
      `INSERT INTO page_templates (lesson_id, page_number, name, code_id) VALUES ($1, 1, 'page 1', $2) RETURNING id`,
      [lesson.id, code],
    );
    lessons.push({ id: lesson.id, templateId: template.id, code });
  }

  // A processed file with one sheet for each congregation; page images are real scans of the master.
  fileId = await insertFile(h.db, 'Matching batch');
  const printed = renderPdfPage(await masterPdf(0), 0, 150);
  const jpeg = await sharp(Buffer.from(printed.data), { raw: { width: printed.width, height: printed.height, channels: 1 } }).jpeg({ quality: 80 }).toBuffer();
  const image = await h.blobStore.put(jpeg);
  for (const [sequence, [label, congregationId]] of ([['A', congregationA], ['B', congregationB]] as const).entries()) {
    const student = await insertStudent(h.db, { congregationId, attributes: { name: `Student ${label}` } });
    const sheet = await h.db.one<{ id: string }>(
      `INSERT INTO answer_sheets (file_id, sequence, student_id, lesson_id, assigned_group) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [fileId, sequence, student.id, lessons[0]!.id, congregationId],
    );
    const page = await h.db.one<{ id: string }>(
      `INSERT INTO pages (file_id, page_number, answer_sheet_id, template_id, code_prefix, code_id, image_blob_key)
       VALUES ($1, $2, $3, $4, 't', $5, $6) RETURNING id`,
      [fileId, sequence + 1, sheet.id, lessons[0]!.templateId, lessons[0]!.code, image.key],
    );
    sheetOf[label] = { sheetId: sheet.id, pageId: page.id };
  }

  expect((await api(h.app, admin, 'POST', `/api/file/${fileId}/send`)).status).toBe(202);
  await waitFor('the file to be sent', async () => (await h.db.one<{ sent_at: Date | null }>('SELECT sent_at FROM files WHERE id = $1', [fileId])).sent_at);
  const list = (await api(h.app, admin, 'GET', `/api/file/${fileId}/congregations`)).json as unknown as { id: string; packet_id: string }[];
  for (const [label, congregationId, who] of [['A', congregationA, coordinatorA], ['B', congregationB, coordinatorB]] as const) {
    const id = list.find((row) => row.id === congregationId)!.packet_id;
    const download = await api(h.app, who, 'GET', `/api/study-helpers/distributed-files/${id}.pdf`);
    expect(download.status).toBe(200);
    packetOf[label] = { id, pdf: new Uint8Array(download.raw.rawPayload) };
  }
}, 120_000);
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  expect(h.app.contractViolations).toEqual([]);
});

async function feedbackOf(pageId: string) {
  return h.db.query<{ upload_id: string; front_blob_key: string; back_blob_key: string | null }>(
    'SELECT upload_id, front_blob_key, back_blob_key FROM feedback WHERE page_id = $1',
    [pageId],
  );
}

async function gradedUpload(who: SignedIn, pdf: Uint8Array, name: string) {
  const uploaded = await uploadGraded(h.app, who, pdf, { name });
  expect(uploaded.status).toBe(201);
  expect(await waitForUpload(h.db, uploaded.body.id!)).toBe('success');
  return uploaded.body.id!;
}

describe('graded uploads', () => {
  it("refuses a page of another congregation's packet and reports it, keeping the rest", async () => {
    // Congregation A scans its own page and, by mistake, B's page (with a written back).
    const own = await scanGradedPackets(packetOf.A.pdf, { seed: 1 });
    const foreign = await scanGradedPackets(packetOf.B.pdf, { seed: 2, back: () => 'comment' });
    const both = await joinPdfs([own, foreign]);
    const uploadId = await gradedUpload(coordinatorA, both, 'Mixed up');
    const outcomes = await uploadOutcomes(h.db, uploadId);
    expect(outcomes.map((row) => [row.page_number, row.outcome, row.page_id])).toEqual([
      [1, 'matched', sheetOf.A.pageId],
      [2, 'wrong_congregation', null],
      [3, 'unrecognized', null],
    ]);
    expect(outcomes[1]!.detail).toMatch(/another congregation/);
    expect(await feedbackOf(sheetOf.B.pageId)).toEqual([]);
    expect(await feedbackOf(sheetOf.A.pageId)).toHaveLength(1);
    const states = (await api(h.app, admin, 'GET', `/api/file/${fileId}/congregations`)).json as unknown as { id: string; status: string }[];
    expect(Object.fromEntries(states.map((row) => [row.id, row.status]))).toEqual({ [congregationA]: 'graded', [congregationB]: 'grading' });
    // Only the refused page's image is gone; the kept scan is still served.
    expect((await api(h.app, coordinatorA, 'GET', `/api/pages/${sheetOf.A.pageId}/graded-preview`)).status).toBe(200);
  });

  it('keeps the newest scan of a page scanned again, in a later upload or twice in one', async () => {
    const before = await feedbackOf(sheetOf.A.pageId);
    const again = await gradedUpload(coordinatorA, await scanGradedPackets(packetOf.A.pdf, { seed: 3, back: () => 'comment' }), 'Rescan');
    const outcomes = await uploadOutcomes(h.db, again);
    expect(outcomes.map((row) => row.outcome)).toEqual(['replaced', 'back']);
    expect(outcomes[0]!.detail).toMatch(/Replaces the earlier scan from upload "Mixed up"/);
    const after = await feedbackOf(sheetOf.A.pageId);
    expect(after).toHaveLength(1);
    expect(after[0]!.upload_id).toBe(again);
    expect(after[0]!.front_blob_key).not.toBe(before[0]!.front_blob_key);
    expect(after[0]!.back_blob_key).not.toBeNull();
    const preview = await api(h.app, coordinatorA, 'GET', `/api/pages/${sheetOf.A.pageId}/graded-preview`);
    expect(preview.raw.headers.etag).toBe(`"${after[0]!.front_blob_key}"`);
    // The replaced scan is no feedback any more; the earlier upload's report still shows it, not kept.
    expect(after.map((row) => row.front_blob_key)).not.toContain(before[0]!.front_blob_key);
    const earlier = (await api(h.app, coordinatorA, 'GET', `/api/uploads/${before[0]!.upload_id}`)).json as unknown as UploadReport;
    expect(earlier.pages[0]).toMatchObject({ result: 'not_matched', reason: 'already_graded', kept: false, has_image: true });

    const twice = await gradedUpload(coordinatorA, await scanGradedPackets(packetOf.A.pdf, { seed: 4, pages: [0, 0], back: (i) => (i === 0 ? 'comment' : 'none') }), 'Twice');
    const twiceOutcomes = await uploadOutcomes(h.db, twice);
    expect(twiceOutcomes.map((row) => row.outcome)).toEqual(['superseded', 'superseded', 'replaced']);
    expect(twiceOutcomes[2]!.detail).toMatch(/earlier scan from upload "Rescan"|page 1 of this upload/);
    const latest = await feedbackOf(sheetOf.A.pageId);
    expect(latest).toHaveLength(1);
    expect(latest[0]).toMatchObject({ upload_id: twice, back_blob_key: null });
  });

  it('refuses uploads that are not PDFs, duplicates, and callers without a congregation', async () => {
    const body = await scanGradedPackets(packetOf.B.pdf, { seed: 5 });
    const first = await uploadGraded(h.app, coordinatorB, body, { name: 'B graded' });
    expect(first.status).toBe(201);
    const duplicate = await uploadGraded(h.app, coordinatorB, body, { name: 'B graded again' });
    expect(duplicate).toMatchObject({ status: 409, body: { detail: { error_type: 'DUPLICATE_FILE' } } });
    const notPdf = await uploadGraded(h.app, coordinatorB, new TextEncoder().encode('not a pdf at all'), { name: 'Notes' });
    expect(notPdf).toMatchObject({ status: 400, body: { detail: { error_type: 'VALIDATION_ERROR' } } });
    expect((await uploadGraded(h.app, coordinatorB, body, { name: '' })).status).toBe(400);
    // An admin not acting as a congregation has nobody to upload for.
    expect((await uploadGraded(h.app, admin, body, { name: 'Admin' })).status).toBe(403);
    const reader = await signIn(h.app, 'reader@test.local', { role: 'standard_user', congregationId: congregationA });
    expect((await uploadGraded(h.app, reader, body, { name: 'Reader' })).status).toBe(403);
    expect(await waitForUpload(h.db, first.body.id!)).toBe('success');
  });

  it('makes the return file again when a newer scan arrives before it was downloaded', async () => {
    // B's scan (previous test) completed grading: the return file was made.
    const returnFile = async () => h.db.one<{ grading_complete: boolean; return_prepped: boolean; return_blob_key: string | null }>(
      'SELECT grading_complete, return_prepped, return_blob_key FROM files WHERE id = $1',
      [fileId],
    );
    const before = await waitFor('the return file', async () => ((await returnFile()).return_prepped ? returnFile() : null));
    expect(before.grading_complete).toBe(true);
    await gradedUpload(coordinatorA, await scanGradedPackets(packetOf.A.pdf, { seed: 8, back: () => 'comment' }), 'Late rescan');
    const after = await waitFor('the new return file', async () => {
      const now = await returnFile();
      return now.return_prepped && now.return_blob_key !== before.return_blob_key ? now : null;
    });
    expect(after.return_blob_key).not.toBeNull();
    // The old return file's bytes are deleted once the new one is recorded (after its commit, so
    // a failed commit never loses the only copy): wait for it rather than race it.
    await waitFor('the old return file to be deleted', async () => (await h.blobStore.stat(before.return_blob_key!)) === null);
  });

  it('refuses scans of a file whose return file was downloaded, leaving earlier uploads as they were', async () => {
    const status = (await h.db.one<{ file_status: string | null }>('SELECT file_status FROM files WHERE id = $1', [fileId])).file_status;
    // As the portal's download of the return file marks it.
    await h.db.query(`UPDATE files SET file_status = 'downloaded' WHERE id = $1`, [fileId]);
    const before = await feedbackOf(sheetOf.A.pageId);
    const earlierId = before[0]!.upload_id;
    const report = async (id: string) => (await api(h.app, coordinatorA, 'GET', `/api/uploads/${id}`)).json as unknown as UploadReport;
    const earlier = await report(earlierId);

    const late = await gradedUpload(coordinatorA, await scanGradedPackets(packetOf.A.pdf, { seed: 10, back: () => 'comment' }), 'After download');
    const outcomes = await uploadOutcomes(h.db, late);
    expect(outcomes.map((row) => row.outcome)).toEqual(['return_downloaded', 'return_downloaded']);
    expect(outcomes[0]!.detail).toMatch(/^The return file of ".+" was already downloaded: its grading is closed/);
    expect((await report(late)).pages[0]).toMatchObject({ result: 'not_matched', reason: 'return_downloaded', kept: false });
    // Nothing of the earlier upload changed: its scan stays the page's, its report reads the same.
    expect(await feedbackOf(sheetOf.A.pageId)).toEqual(before);
    expect(await report(earlierId)).toEqual(earlier);
    // And Withdraw follows the same rule.
    const withdraw = await api(h.app, coordinatorA, 'DELETE', `/api/uploads/${earlierId}`);
    expect(withdraw.status).toBe(409);
    expect(JSON.stringify(withdraw.json)).toMatch(/was downloaded/);
    await h.db.query('UPDATE files SET file_status = $2 WHERE id = $1', [fileId, status]);
  });

  it('takes a withdrawn scan of a completed file not yet downloaded back to Grading, and makes the return file again', async () => {
    const state = async () => h.db.one<{ grading_complete: boolean; return_prepped: boolean; return_requested_at: Date | null }>(
      'SELECT grading_complete, return_prepped, return_requested_at FROM files WHERE id = $1',
      [fileId],
    );
    await waitFor('the return file', async () => ((await state()).return_prepped ? true : null));
    const current = (await feedbackOf(sheetOf.A.pageId))[0]!.upload_id;
    expect((await api(h.app, coordinatorA, 'DELETE', `/api/uploads/${current}`)).status).toBe(204);
    expect(await state()).toEqual({ grading_complete: false, return_prepped: false, return_requested_at: null });
    expect((await api(h.app, admin, 'GET', `/api/file/${fileId}/steps`)).json).toMatchObject({ step: 'grading', prepped: false });
    expect((await api(h.app, admin, 'GET', `/api/file/${fileId}/graded_pdf`)).status).toBe(409);
    // A's pages scanned again: grading completes again and the return file is made from these scans.
    await gradedUpload(coordinatorA, await scanGradedPackets(packetOf.A.pdf, { seed: 11, back: () => 'comment' }), 'Scanned again');
    await waitFor('the return file made again', async () => ((await state()).return_prepped ? true : null));
    expect((await api(h.app, admin, 'GET', `/api/file/${fileId}/steps`)).json).toMatchObject({ step: 'return', prepped: true });
  });
});

describe('who sees which packet', () => {
  it('lets a coordinator see, download and reprint only its own congregation', async () => {
    expect((await api(h.app, coordinatorB, 'GET', `/api/study-helpers/distributed-files/${packetOf.A.id}/exists`)).status).toBe(403);
    expect((await api(h.app, coordinatorB, 'GET', `/api/study-helpers/distributed-files/${packetOf.A.id}.pdf`)).status).toBe(403);
    expect((await api(h.app, coordinatorA, 'GET', `/api/study-helpers/distributed-files/${packetOf.A.id}/exists`)).json).toEqual({ exists: true });
    expect((await api(h.app, null, 'GET', `/api/study-helpers/distributed-files/${packetOf.A.id}/exists`)).status).toBe(401);
    const reader = await signIn(h.app, 'reader2@test.local', { role: 'standard_user', congregationId: congregationA });
    expect((await api(h.app, reader, 'GET', `/api/study-helpers/distributed-files/${packetOf.A.id}.pdf`)).status).toBe(403);
    const unknown = '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b';
    expect((await api(h.app, admin, 'GET', `/api/study-helpers/distributed-files/${unknown}/exists`)).status).toBe(404);

    expect((await api(h.app, coordinatorB, 'GET', `/api/answer-sheets/${sheetOf.A.sheetId}/print.pdf`)).status).toBe(403);
    const reprint = await api(h.app, coordinatorA, 'GET', `/api/answer-sheets/${sheetOf.A.sheetId}/print.pdf`);
    expect(reprint.status).toBe(200);
    expect(reprint.raw.headers['content-type']).toBe('application/pdf');
    // A reprint carries the same code as the packet: either scan matches the page.
    const [code] = await codesOnPages(new Uint8Array(reprint.raw.rawPayload));
    const [packetCode] = await codesOnPages(packetOf.A.pdf);
    expect(code).toEqual(packetCode);
    expect(code?.prefix).toBe('p');
  });
});

describe('intro files', () => {
  it("creates a new student per sheet for the study helper, in the helper's congregation", async () => {
    const helper = await insertStudyHelper(h.db, congregationA, 'Sister Mary');
    const otherHelper = await insertStudyHelper(h.db, congregationB, 'Brother John');
    // Three recruits filled in lesson 2's one-page master; one sheet has a blank back.
    const intro = await scanGradedPackets(await masterPdf(1), { seed: 9, pages: [0, 0, 0], back: (i) => (i === 1 ? 'blank' : 'none') });
    expect((await uploadGraded(h.app, coordinatorA, intro, { name: 'Recruits', study_helper: otherHelper })).status).toBe(403);
    const uploaded = await uploadGraded(h.app, coordinatorA, intro, { name: 'Recruits', study_helper: helper });
    expect(uploaded.status).toBe(201);
    expect(await waitForUpload(h.db, uploaded.body.id!)).toBe('success');

    const upload = await h.db.one<{ file_id: string; is_intro: boolean }>('SELECT file_id, is_intro FROM graded_uploads WHERE id = $1', [uploaded.body.id]);
    expect(upload.is_intro).toBe(true);
    const sheets = await h.db.query<{ lesson_id: string; assigned_group: string; congregation_id: string; study_helper_id: string; pages: number }>(
      `SELECT a.lesson_id, a.assigned_group, s.congregation_id, s.study_helper_id,
              (SELECT count(*)::int FROM pages p WHERE p.answer_sheet_id = a.id AND NOT p.ignored) AS pages
       FROM answer_sheets a JOIN students s ON s.id = a.student_id WHERE a.file_id = $1 ORDER BY a.sequence`,
      [upload.file_id],
    );
    expect(sheets).toEqual(
      Array.from({ length: 3 }, () => ({ lesson_id: lessons[1]!.id, assigned_group: congregationA, congregation_id: congregationA, study_helper_id: helper, pages: 1 })),
    );
    const outcomes = await uploadOutcomes(h.db, uploaded.body.id!);
    expect(outcomes.map((row) => row.outcome)).toEqual(['intro', 'intro', 'blank', 'intro']);
    // The helper's new students are its congregation's, and the file waits to be sent like any other.
    const students = (await api(h.app, coordinatorA, 'GET', `/api/study-helper/${helper}/students`)).json as unknown as { total: number };
    expect(students.total).toBe(3);
    expect(((await api(h.app, admin, 'GET', `/api/file/${upload.file_id}/steps`)).json as unknown as { step: string }).step).toBe('send');
  });
});

describe('upload reports', () => {
  it('reports every page: matched to its file and sheet, not matched with its reason, blank backs dropped', async () => {
    // A's page (graded before) with a blank back; B's page with a written back; a packet code
    // never printed; a blank master's page (another kind of code).
    const neverPrinted = await makeAnswerSheetMaster({
      courseName: 'The Gospel of John',
      lessonName: 'Lesson 1',
      lessonNumber: 1,
      pages: [{ page_number: 1, code: { prefix: 'p', id: newCodeId() } }],
      publicUrl: PUBLIC_URL,
    });
    const upload = await joinPdfs([
      await scanGradedPackets(packetOf.A.pdf, { seed: 31, back: () => 'blank' }),
      await scanGradedPackets(packetOf.B.pdf, { seed: 32, back: () => 'comment' }),
      await scanGradedPackets(neverPrinted, { seed: 33 }),
      await scanGradedPackets(await masterPdf(0), { seed: 34 }),
    ]);
    const uploadId = await gradedUpload(coordinatorA, upload, 'Report check');
    const report = (await api(h.app, coordinatorA, 'GET', `/api/uploads/${uploadId}`)).json as unknown as UploadReport;
    expect(report).toMatchObject({ id: uploadId, name: 'Report check', process_status: 'success', is_intro: false, failure_reason: null });
    expect(report.summary).toEqual({ pages_read: 6, matched: 1, not_matched: 4, blank_dropped: 1 });
    expect(report.pages.map((page) => [page.page_number, page.result, page.reason, page.kept])).toEqual([
      [1, 'matched', 'already_graded', true],
      [2, 'blank_dropped', null, false],
      [3, 'not_matched', 'other_congregation', false],
      [4, 'not_matched', 'no_code', false],
      [5, 'not_matched', 'unknown_code', false],
      [6, 'not_matched', 'not_packet_page', false],
    ]);
    // The matched page names its file and answer sheet; a refused one names nothing of B's.
    expect(report.pages[0]).toMatchObject({ file: { id: fileId, name: 'Matching batch' }, answer_sheet: { id: sheetOf.A.sheetId, lesson: 'Lesson 1' } });
    expect(report.pages[0]!.code).toMatch(/^P-/);
    expect(report.pages[2]).toMatchObject({ file: null, answer_sheet: null });
    expect(report.pages[2]!.detail).toMatch(/another congregation/);
    // Every page not matched has its scan for the thumbnail; the blank back has none.
    for (const page of report.pages.filter((p) => p.result === 'not_matched')) {
      expect(page.has_image).toBe(true);
      const image = await api(h.app, coordinatorA, 'GET', `/api/uploads/${uploadId}/pages/${page.page_number}/image`);
      expect(image.status).toBe(200);
      expect(image.raw.headers['content-type']).toBe('image/jpeg');
    }
    expect(report.pages[1]!.has_image).toBe(false);
    expect((await api(h.app, coordinatorA, 'GET', `/api/uploads/${uploadId}/pages/2/image`)).status).toBe(404);
    // Another congregation sees neither the report nor its pages; the admin sees both.
    expect((await api(h.app, coordinatorB, 'GET', `/api/uploads/${uploadId}`)).status).toBe(403);
    expect((await api(h.app, coordinatorB, 'GET', `/api/uploads/${uploadId}/pages/3/image`)).status).toBe(403);
    expect((await api(h.app, admin, 'GET', `/api/uploads/${uploadId}`)).status).toBe(200);
    expect((await api(h.app, admin, 'GET', '/api/uploads/3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b')).status).toBe(404);
    // The list carries the same counts.
    const list = (await api(h.app, coordinatorA, 'GET', '/api/uploads/?order_by=created_at')).json as unknown as { items: { id: string; summary: unknown }[] };
    expect(list.items.find((item) => item.id === uploadId)!.summary).toEqual(report.summary);
  });

  it('refuses the pages of an archived file, saying so', async () => {
    await h.db.query(`UPDATE files SET file_status = 'archived' WHERE id = $1`, [fileId]);
    const uploadId = await gradedUpload(coordinatorA, await scanGradedPackets(packetOf.A.pdf, { seed: 35 }), 'After archiving');
    const report = (await api(h.app, coordinatorA, 'GET', `/api/uploads/${uploadId}`)).json as unknown as UploadReport;
    expect(report.summary).toEqual({ pages_read: 1, matched: 0, not_matched: 1, blank_dropped: 0 });
    expect(report.pages[0]).toMatchObject({ result: 'not_matched', reason: 'file_archived', kept: false, has_image: true, file: null });
    expect(report.pages[0]!.detail).toMatch(/archived/);
  });
});

describe('upload limits', () => {
  it('refuses a graded scan over the size limit while it streams, keeping nothing', async () => {
    const small = await createTestApp({
      plugins: apiPlugins({ validateResponses: true }).map((plugin) =>
        plugin === studyHelperRoutes ? createStudyHelperRoutes({ maxUploadBytes: 50_000 }) : plugin === jobsPlugin ? createJobsPlugin({ work: false }) : plugin,
      ),
    });
    try {
      const congregation = await insertCongregation(small.db, 'NG 0009');
      const who = await coordinator(small.app, congregation);
      const response = await uploadGraded(small.app, who, await scanGradedPackets(packetOf.A.pdf, { seed: 6 }), { name: 'Too big' });
      expect(response).toMatchObject({ status: 413, body: { detail: { error_type: 'FILE_TOO_LARGE' } } });
      expect(await small.db.query('SELECT id FROM graded_uploads')).toEqual([]);
      expect(small.app.contractViolations).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

/** Several PDFs as one (pages in order), as one scanner run would give them. */
async function joinPdfs(parts: Uint8Array[]): Promise<Uint8Array> {
  const { PDFDocument } = await import('pdf-lib');
  const out = await PDFDocument.create();
  for (const part of parts) {
    const doc = await PDFDocument.load(part);
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  }
  return out.save();
}

