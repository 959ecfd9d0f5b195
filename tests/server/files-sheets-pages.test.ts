// Answer sheets and pages of a file (lists, paging, assigning, lesson and template changes,
// coordinator scoping), page images and thumbnails, the QR redirects, and the printed paper:
// masters and cover sheets that the scan pipeline reads back.
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { processPages } from '../../server/pipeline/process-pages';
import type { SignedIn } from '../helpers/sign-in';
import { usePipelineApp } from './pipeline-harness';
import { admin, coordinator, insertAnswerSheet, insertCongregation, insertCourse, insertFile, insertServiceCenter, insertStudent } from './support';

const t = usePipelineApp({ jobs: { work: false } });

async function get(who: SignedIn | null, url: string) {
  const response = await t.current.app.inject({ method: 'GET', url, headers: who?.headers ?? {} });
  const json = String(response.headers['content-type'] ?? '').includes('json');
  return { status: response.statusCode, body: json ? (response.json() as any) : undefined, raw: response }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function patch(who: SignedIn, url: string, payload: object) {
  const response = await t.current.app.inject({ method: 'PATCH', url, headers: who.headers, payload });
  return { status: response.statusCode, body: response.json() as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function addPage(db: Database, fileId: string, pageNumber: number, sheetId: string | null, options: { templateId?: string; reason?: string; image?: string } = {}) {
  return (
    await db.one<{ id: string }>(
      `INSERT INTO pages (file_id, page_number, answer_sheet_id, template_id, unrecognized_reason, flag, image_blob_key)
       VALUES ($1, $2, $3, $4, $5, $5, $6) RETURNING id`,
      [fileId, pageNumber, sheetId, options.templateId ?? null, options.reason ?? null, options.image ?? null],
    )
  ).id;
}

async function sheetsWorld() {
  const db = t.current.db;
  const a = await insertCongregation(db, 'GH 0001');
  const b = await insertCongregation(db, 'GH 0002');
  const { lessonIds } = await insertCourse(db, 'Good News', ['One', 'Two'], 2);
  const { lessonIds: actsLessons } = await insertCourse(db, 'Acts', ['Church'], 1);
  const templates = await db.query<{ id: string; lesson_id: string; page_number: number }>('SELECT id, lesson_id, page_number FROM page_templates');
  const template = (lessonId: string, page: number) => templates.find((row) => row.lesson_id === lessonId && row.page_number === page)!.id;
  const kofi = await insertStudent(db, { congregationId: a, attributes: { name: 'Kofi' } });
  const ama = await insertStudent(db, { congregationId: b, attributes: { name: 'Ama' } });
  const fileId = await insertFile(db, 'Sheets');
  const one = lessonIds[0]!;
  const two = lessonIds[1]!;
  const acts = actsLessons[0]!;
  const s1 = await insertAnswerSheet(db, fileId, { studentId: kofi.id, lessonId: one, assignedGroup: a });
  const s2 = await insertAnswerSheet(db, fileId, { studentId: ama.id, lessonId: acts, assignedGroup: b, graded: true });
  const s3 = await insertAnswerSheet(db, fileId, { lessonId: two });
  const p1 = await addPage(db, fileId, 1, s1, { templateId: template(one, 1) });
  const p2 = await addPage(db, fileId, 2, s1, { reason: 'unknown_code' });
  await addPage(db, fileId, 3, s2, { templateId: template(acts, 1) });
  await addPage(db, fileId, 4, s3, { templateId: template(two, 1) });
  return { a, b, fileId, s1, s2, s3, p1, p2, one, two, acts, kofi, ama, template };
}

describe('answer sheets', () => {
  it('lists a file’s sheets in order with their counts, sorted and paged', async () => {
    const w = await sheetsWorld();
    const who = await admin(t.current.app);
    const all = await get(who, `/api/answer-sheets?file=${w.fileId}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.items.map((sheet: { id: string }) => sheet.id)).toEqual([w.s1, w.s2, w.s3]);
    expect(all.body.items[0]).toMatchObject({
      id: w.s1,
      file_id: w.fileId,
      file: { name: 'Sheets' },
      student: { id: w.kofi.id, human_id: w.kofi.human_id, name: 'Kofi', study_helper: null },
      lesson: { id: w.one, name: 'One', number: 1 },
      course: { name: 'Good News' },
      congregation: { id: w.a, wbs_code: 'GH 0001' },
      graded: false,
      page_count: 2,
      unrecognized_count: 1,
      mismatched_count: 0,
      duplicate: false,
      duplicate_kept: false,
      first_feedback_at: null,
    });
    const ids = async (query: string) => (await get(who, `/api/answer-sheets?file=${w.fileId}&${query}`)).body.items.map((sheet: { id: string }) => sheet.id);
    expect(await ids('order_direction=desc')).toEqual([w.s3, w.s2, w.s1]);
    expect(await ids('order_by=course')).toEqual([w.s2, w.s1, w.s3]);
    expect(await ids('order_by=student&order_direction=asc')).toEqual([w.s1, w.s2, w.s3]);
    expect(await ids('graded=true')).toEqual([w.s2]);
    const paged = (await get(who, `/api/answer-sheets?file=${w.fileId}&skip=1&limit=1`)).body;
    expect([paged.total, paged.skip, paged.limit, paged.items[0].id]).toEqual([3, 1, 1, w.s2]);
    const unknown = await get(who, '/api/answer-sheets?file=3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b');
    expect([unknown.status, unknown.body]).toEqual([404, { detail: 'File not found' }]);
  });

  it("shows a coordinator only its congregation's sheets, once their file was sent to it", async () => {
    const w = await sheetsWorld();
    const a = await coordinator(t.current.app, w.a);
    expect((await get(a, `/api/answer-sheets?file=${w.fileId}`)).status).toBe(403);
    expect((await get(a, '/api/answer-sheets')).body.total).toBe(0);
    expect((await get(a, `/api/answer-sheets/${w.s1}`)).status).toBe(403);
    expect((await get(a, `/api/pages/${w.p2}`)).status).toBe(403);
    await t.current.db.query('INSERT INTO file_congregations (file_id, congregation_id) VALUES ($1, $2), ($1, $3)', [w.fileId, w.a, w.b]);
    expect((await get(a, `/api/answer-sheets?file=${w.fileId}`)).body.items.map((s: { id: string }) => s.id)).toEqual([w.s1]);
    expect((await get(a, '/api/answer-sheets')).body.total).toBe(1);
    expect((await get(a, `/api/answer-sheets/${w.s1}`)).status).toBe(200);
    expect((await get(a, `/api/answer-sheets/${w.s2}`)).status).toBe(403);
    expect((await get(a, `/api/answer-sheets/${w.s2}/pages`)).status).toBe(403);
    expect((await get(a, `/api/pages?response_id=${w.s3}`)).status).toBe(403);
    expect((await get(a, `/api/pages/${w.p2}`)).status).toBe(200);
    expect((await patch(a, `/api/answer-sheets/${w.s1}`, { assigned_group: w.b })).status).toBe(403);
  });

  it('PATCH assigns to an existing congregation and changes the lesson, re-checking duplicates', async () => {
    const w = await sheetsWorld();
    const db = t.current.db;
    const who = await admin(t.current.app);
    expect((await patch(who, `/api/answer-sheets/${w.s3}`, { assigned_group: w.b })).body).toMatchObject({ assigned_group: w.b, congregation: { id: w.b } });
    expect((await patch(who, `/api/answer-sheets/${w.s3}`, { assigned_group: '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b' })).body).toEqual({
      detail: { error_type: 'VALIDATION_ERROR', message: 'assigned_group: no such congregation' },
    });
    expect((await patch(who, `/api/answer-sheets/${w.s3}`, { assigned_group: null })).body.assigned_group).toBeNull();
    expect((await patch(who, `/api/answer-sheets/${w.s3}`, { lesson: '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b' })).status).toBe(400);
    // Kofi already sent lesson One in an earlier file: his sheet here, moved to One, is a duplicate.
    const earlier = await insertFile(db, 'Earlier');
    const first = await insertAnswerSheet(db, earlier, { studentId: w.kofi.id, lessonId: w.two, createdAt: new Date('2025-01-01') });
    const moved = await patch(who, `/api/answer-sheets/${w.s1}`, { lesson: w.two });
    expect(moved.body).toMatchObject({ lesson: { id: w.two }, duplicate: true, mismatched_count: 1 });
    expect((await db.one<{ duplicate_of: string }>('SELECT duplicate_of FROM answer_sheets WHERE id = $1', [w.s1])).duplicate_of).toBe(first);
    expect((await patch(who, `/api/answer-sheets/${w.s1}`, { lesson: w.one })).body).toMatchObject({ duplicate: false, mismatched_count: 0 });
    expect((await patch(who, '/api/answer-sheets/3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b', { lesson: null })).status).toBe(404);
  });

  it('assigns every kept sheet of a file at once', async () => {
    const w = await sheetsWorld();
    const who = await admin(t.current.app);
    await patch(who, `/api/pages/${(await t.current.db.one<{ id: string }>('SELECT id FROM pages WHERE answer_sheet_id = $1', [w.s3])).id}`, { ignored: true });
    const result = await t.current.app.inject({ method: 'PATCH', url: `/api/answer-sheets?file=${w.fileId}`, headers: who.headers, payload: { assigned_group: w.b } });
    expect(result.json()).toEqual({ updated: 1 });
    const groups = await t.current.db.query<{ assigned_group: string | null }>('SELECT assigned_group FROM answer_sheets WHERE file_id = $1 ORDER BY sequence', [w.fileId]);
    expect(groups.map((row) => row.assigned_group)).toEqual([w.b, w.b, null]);
    const missing = await t.current.app.inject({ method: 'PATCH', url: `/api/answer-sheets?file=${w.fileId}`, headers: who.headers, payload: { assigned_group: '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b' } });
    expect(missing.statusCode).toBe(400);
    const noFile = await t.current.app.inject({ method: 'PATCH', url: `/api/answer-sheets?file=3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b`, headers: who.headers, payload: { assigned_group: w.b } });
    expect(noFile.statusCode).toBe(404);
  });
});

describe('pages', () => {
  it('lists a sheet’s pages with template, sheet and review flags; PATCH ignores and sets templates', async () => {
    const w = await sheetsWorld();
    const who = await admin(t.current.app);
    const pages = (await get(who, `/api/pages?response_id=${w.s1}`)).body;
    expect(pages).toEqual((await get(who, `/api/answer-sheets/${w.s1}/pages`)).body);
    expect(pages.map((page: { page_number: number }) => page.page_number)).toEqual([1, 2]);
    expect(pages[0]).toMatchObject({
      id: w.p1,
      file_id: w.fileId,
      ignored: false,
      mismatched: false,
      unrecognized_reason: null,
      template: { page_number: 1, lesson: { id: w.one, name: 'One' } },
      answer_sheet: { id: w.s1, student: { id: w.kofi.id, name: 'Kofi' }, lesson: { id: w.one }, congregation: { id: w.a }, assigned_group: w.a },
      feedback_pages: [],
    });
    expect(pages[1]).toMatchObject({ id: w.p2, unrecognized_reason: 'unknown_code', template: null });

    const wrong = await patch(who, `/api/pages/${w.p2}`, { template: w.template(w.two, 2) });
    expect(wrong.body).toMatchObject({ unrecognized_reason: null, mismatched: true, template: { lesson: { id: w.two } } });
    expect((await get(who, `/api/file/${w.fileId}/stats`)).body).toMatchObject({ unrecognized: 0, mismatched: 1 });
    expect((await patch(who, `/api/pages/${w.p2}`, { ignored: true })).body).toMatchObject({ ignored: true });
    expect((await get(who, `/api/file/${w.fileId}/stats`)).body).toMatchObject({ mismatched: 0, ignored: 1 });
    expect((await patch(who, `/api/pages/${w.p2}`, { template: null, ignored: false })).body).toMatchObject({ ignored: false, template: null, unrecognized_reason: 'unknown_code' });
    expect((await patch(who, `/api/pages/${w.p2}`, { template: '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b' })).status).toBe(400);
    expect((await patch(who, '/api/pages/3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b', { ignored: true })).status).toBe(404);
    expect((await get(who, '/api/pages?response_id=3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b')).status).toBe(404);
    expect((await patch(await coordinator(t.current.app, w.a), `/api/pages/${w.p2}`, { ignored: true })).status).toBe(403);
  });

  it('serves the upright image and 500/1000 px thumbnails made once and cached', async () => {
    const w = await sheetsWorld();
    const { db, blobStore } = t.current;
    const jpeg = await sharp({ create: { width: 1700, height: 2200, channels: 3, background: '#f4f4f4' } }).jpeg().toBuffer();
    const image = await blobStore.put(jpeg);
    await db.query('UPDATE pages SET image_blob_key = $2 WHERE id = $1', [w.p1, image.key]);
    const who = await admin(t.current.app);
    const preview = await get(who, `/api/pages/${w.p1}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.raw.headers['content-type']).toBe('image/jpeg');
    expect(preview.raw.headers['cache-control']).toBe('private, max-age=86400');
    expect(preview.raw.headers.etag).toBe(`"${image.key}"`);
    expect(preview.raw.rawPayload.equals(jpeg)).toBe(true);
    for (const size of [500, 1000]) {
      const thumb = await get(who, `/api/pages/${w.p1}/thumbnail?size=${size}`);
      expect(thumb.status).toBe(200);
      expect((await sharp(thumb.raw.rawPayload).metadata()).width).toBe(size);
      const again = await get(who, `/api/pages/${w.p1}/thumbnail?size=${size}`);
      expect(again.raw.headers.etag).toBe(thumb.raw.headers.etag);
    }
    const keys = await db.one<{ k500: string; k1000: string }>('SELECT thumbnail_500_blob_key AS k500, thumbnail_1000_blob_key AS k1000 FROM pages WHERE id = $1', [w.p1]);
    expect(keys.k500).not.toBe(keys.k1000);
    expect((await get(who, `/api/pages/${w.p1}/thumbnail`)).raw.headers.etag).toBe(`"${keys.k500}"`);
    expect((await get(who, `/api/pages/${w.p1}/thumbnail?size=700`)).status).toBe(400);
    expect((await get(who, `/api/pages/${w.p2}/preview`)).status).toBe(404);
    expect((await get(await coordinator(t.current.app, w.b), `/api/pages/${w.p1}/thumbnail`)).status).toBe(403);
  });

  it('answers a repeated image request with 304 Not Modified', async () => {
    const { db, blobStore, app } = t.current;
    const fileId = await insertFile(db, 'Images');
    const image = await blobStore.put(await sharp({ create: { width: 600, height: 800, channels: 3, background: '#fff' } }).jpeg().toBuffer());
    const pageId = await addPage(db, fileId, 1, null, { image: image.key });
    const who = await admin(app);
    const first = await app.inject({ method: 'GET', url: `/api/pages/${pageId}/thumbnail`, headers: who.headers });
    const again = await app.inject({ method: 'GET', url: `/api/pages/${pageId}/thumbnail`, headers: { ...who.headers, 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(app.contractViolations).toEqual([]);
    app.contractViolations.length = 0;
  });
});

describe('QR codes lead a phone to the right screen', () => {
  it('redirects t, s, p and c codes, and answers 404 for unknown ones', async () => {
    const w = await sheetsWorld();
    const db = t.current.db;
    const center = await insertServiceCenter(db, 'Accra');
    const templateId = w.template(w.one, 2);
    await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id, student_id) VALUES ('SSSS2222', 's', $1, $2)`, [templateId, w.kofi.id]);
    await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id) VALUES ('PPPP3333', 'p', $1)`, [w.p1]);
    await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id) VALUES ('CCCC4444', 'c', $1)`, [center]);
    const course = (await db.one<{ course_id: string }>('SELECT course_id FROM lessons WHERE id = $1', [w.one])).course_id;
    const where = async (url: string) => {
      const response = await t.current.app.inject({ method: 'GET', url });
      return [response.statusCode, response.headers.location];
    };
    // A template's own code, and a t code recorded in printed_codes, both lead to the course.
    await db.query(`UPDATE page_templates SET code_id = 'TPAGE234' WHERE id = $1`, [w.template(w.one, 1)]);
    expect(await where('/api/qr-api/t/TPAGE234')).toEqual([302, `http://localhost:3000/api/courses/${course}/lessons/${w.one}/master.pdf#page=1`]);
    await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id) VALUES ('TTTT5555', 't', $1)`, [templateId]);
    expect(await where('/api/qr-api/t/TTTT5555')).toEqual([302, `http://localhost:3000/api/courses/${course}/lessons/${w.one}/master.pdf#page=2`]);
    expect(await where('/api/qr-api/s/SSSS2222')).toEqual([302, `http://localhost:3000/students/${w.kofi.id}`]);
    expect(await where('/api/qr-api/p/PPPP3333')).toEqual([302, `http://localhost:3000/admin/pages/${w.p1}`]);
    expect(await where('/api/qr-api/c/CCCC4444')).toEqual([302, `http://localhost:3000/admin/service-centers/${center}`]);
    expect((await where('/api/qr-api/c/SSSS2222'))[0]).toBe(404);
    expect((await where('/api/qr-api/p/ABCD2345'))[0]).toBe(404);
    expect((await where('/api/qr-api/x/ABCD2345'))[0]).toBe(400);
  });
});

describe('printed paper the pipeline reads back', () => {
  it('prints a lesson master whose pages carry their template codes', async () => {
    const db = t.current.db;
    const { courseId, lessonIds } = await insertCourse(db, 'Good News', ['One'], 2);
    // Give the templates codes of the printed alphabet, as the product issues them.
    await db.query(`UPDATE page_templates SET code_id = CASE page_number WHEN 1 THEN 'MASTER22' ELSE 'MASTER33' END WHERE lesson_id = $1`, [lessonIds[0]]);
    const who = await admin(t.current.app);
    const response = await get(who, `/api/courses/${courseId}/lessons/${lessonIds[0]}/master.pdf`);
    expect(response.status).toBe(200);
    expect(response.raw.headers['content-type']).toBe('application/pdf');
    expect(response.raw.headers['content-disposition']).toMatch(/^attachment; filename="Good News - Lesson 1 - answer sheet.pdf"/);
    const read = await readBack(response.raw.rawPayload);
    expect(read).toEqual(['t/MASTER22', 't/MASTER33']);
    expect((await get(who, `/api/courses/${courseId}/lessons/3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b/master.pdf`)).status).toBe(404);
    expect((await get(await coordinator(t.current.app, await insertCongregation(db, 'GH 0005')), `/api/courses/${courseId}/lessons/${lessonIds[0]}/master.pdf`)).status).toBe(403);
  });

  it('prints a service center cover sheet with its one c code, issued on first print', async () => {
    const db = t.current.db;
    const center = await insertServiceCenter(db, 'Accra Service Center');
    const who = await admin(t.current.app);
    const first = await get(who, `/api/service_centers/${center}/cover-sheet.pdf`);
    expect(first.status).toBe(200);
    const codes = await db.query<{ code_id: string }>(`SELECT code_id FROM printed_codes WHERE prefix = 'c' AND target_id = $1`, [center]);
    expect(codes.length).toBe(1);
    expect(await readBack(first.raw.rawPayload)).toEqual([`c/${codes[0]!.code_id}`]);
    const second = await get(who, `/api/service_centers/${center}/cover-sheet.pdf`);
    expect(await readBack(second.raw.rawPayload)).toEqual([`c/${codes[0]!.code_id}`]);
    expect((await get(who, '/api/service_centers/3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b/cover-sheet.pdf')).status).toBe(404);
  });
});

async function readBack(pdf: Buffer): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'printed-'));
  try {
    const file = path.join(dir, 'printed.pdf');
    await writeFile(file, pdf);
    const result = await processPages(file, { pageImage: false });
    return result.pages.map((page) => (page.code ? `${page.code.prefix}/${page.code.id}` : `none:${page.reason}`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
