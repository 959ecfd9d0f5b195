// The files calls on data written straight into the database: every filter of the files list
// (the admin status filter follows the workflow step), sorting and paging, coordinator scoping
// (only files sent to its congregation),
// one file, PATCH rules, DELETE (only before grading; blobs no longer used go), the original PDF
// download, and the workflow steps as a file moves through review, assign, send and grading.
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import type { SignedIn } from '../helpers/sign-in';
import { usePipelineApp } from './pipeline-harness';
import {
  admin,
  coordinator,
  daysAgo,
  insertAnswerSheet,
  insertCongregation,
  insertCourse,
  insertFile,
  insertRecruiter,
  insertRecruitingPoint,
  insertServiceCenter,
  insertStudent,
  insertStudyHelper,
} from './support';

const t = usePipelineApp({ jobs: { work: false } });

interface Listed {
  items: { id: string; name: string; responses_count: number; congregation_file_status: string | null }[];
  total: number;
  skip: number;
  limit: number;
}

async function get(who: SignedIn | null, url: string) {
  const response = await t.current.app.inject({ method: 'GET', url, headers: who?.headers ?? {} });
  const json = String(response.headers['content-type'] ?? '').includes('json');
  return { status: response.statusCode, body: json ? (response.json() as Record<string, unknown>) : undefined, raw: response };
}

async function send(who: SignedIn, method: 'PATCH' | 'DELETE' | 'POST', url: string, payload?: unknown) {
  const response = await t.current.app.inject({ method, url, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: response.statusCode, body: response.body ? (response.json() as Record<string, unknown>) : undefined };
}

async function addPage(db: Database, fileId: string, pageNumber: number, sheetId: string | null, options: { templateId?: string; reason?: string; ignored?: boolean; image?: string } = {}) {
  const row = await db.one<{ id: string }>(
    `INSERT INTO pages (file_id, page_number, answer_sheet_id, template_id, unrecognized_reason, flag, ignored, image_blob_key)
     VALUES ($1, $2, $3, $4, $5, $5, $6, $7) RETURNING id`,
    [fileId, pageNumber, sheetId, options.templateId ?? null, options.reason ?? null, options.ignored ?? false, options.image ?? null],
  );
  return row.id;
}

async function templateOf(db: Database, lessonId: string, page = 1) {
  return (await db.one<{ id: string }>('SELECT id FROM page_templates WHERE lesson_id = $1 AND page_number = $2', [lessonId, page])).id;
}

/** Eight files, one per admin status, with sheets, service centers and a study helper. */
async function filesWorld() {
  const db = t.current.db;
  const a = await insertCongregation(db, 'GH 0001');
  const b = await insertCongregation(db, 'NG 0002');
  const ghana = await insertServiceCenter(db, 'Accra', { country: 'GH' });
  const nigeria = await insertServiceCenter(db, 'Lagos', { country: 'NG' });
  const { lessonIds } = await insertCourse(db, 'Good News', ['One', 'Two']);
  const lesson = lessonIds[0]!;
  const template = await templateOf(db, lesson);
  const helper = await insertStudyHelper(db, b, 'Sister Ruth');
  const student = await insertStudent(db, { congregationId: b, studyHelperId: helper });

  const file = async (name: string, days: number, serviceCenterId: string, state: string) => {
    const id = await insertFile(db, name, { serviceCenterId, uploadedAt: daysAgo(days) });
    await db.query('UPDATE files SET created_at = $2 WHERE id = $1', [id, daysAgo(days)]);
    await db.query(state, [id]);
    return id;
  };
  const ids = {
    processing: await file('Alpha', 8, ghana, `UPDATE files SET process_status = 'pending' WHERE id = $1`),
    failed: await file('bravo', 7, ghana, `UPDATE files SET process_status = 'failed', failure_reason = 'broken' WHERE id = $1`),
    review: await file('Charlie', 6, ghana, 'SELECT $1::uuid'),
    ready: await file('delta', 5, nigeria, 'SELECT $1::uuid'),
    grading: await file('echo', 4, nigeria, `UPDATE files SET sent_at = now(), file_status = 'grading' WHERE id = $1`),
    return: await file('foxtrot', 3, nigeria, `UPDATE files SET sent_at = now(), file_status = 'grading', grading_complete = true WHERE id = $1`),
    downloaded: await file('golf', 2, nigeria, `UPDATE files SET sent_at = now(), file_status = 'downloaded', grading_complete = true WHERE id = $1`),
    archived: await file('hotel', 1, nigeria, `UPDATE files SET sent_at = now(), file_status = 'archived', grading_complete = true WHERE id = $1`),
  };
  // review: a sheet of A with a page nobody could read.
  const reviewSheet = await insertAnswerSheet(db, ids.review, { lessonId: lesson, assignedGroup: a });
  await addPage(db, ids.review, 1, reviewSheet, { reason: 'no_code_found' });
  // ready to send: recognised, not assigned yet.
  const readySheet = await insertAnswerSheet(db, ids.ready, { lessonId: lesson });
  await addPage(db, ids.ready, 1, readySheet, { templateId: template });
  // grading: B's sheet of the helper's student.
  const gradingSheet = await insertAnswerSheet(db, ids.grading, { lessonId: lesson, assignedGroup: b, studentId: student.id });
  await addPage(db, ids.grading, 1, gradingSheet, { templateId: template });
  await db.query(`INSERT INTO file_congregations (file_id, congregation_id, status) VALUES ($1, $2, 'grading')`, [ids.grading, b]);
  for (const [id, status] of [[ids.return, 'graded'], [ids.downloaded, 'returned'], [ids.archived, 'returned']] as const) {
    const sheet = await insertAnswerSheet(db, id, { lessonId: lesson, assignedGroup: b, graded: true });
    await addPage(db, id, 1, sheet, { templateId: template });
    await db.query(`INSERT INTO file_congregations (file_id, congregation_id, status) VALUES ($1, $2, $3)`, [id, b, status]);
  }
  return { a, b, ghana, nigeria, helper, ids, lesson, lessonIds, template };
}

async function names(who: SignedIn, query = '') {
  const { status, body } = await get(who, `/api/files?limit=100&${query}`);
  expect(status).toBe(200);
  return (body as unknown as Listed).items.map((item) => item.name);
}

describe('GET /api/files', () => {
  it('filters by the admin status, following the workflow step', async () => {
    await filesWorld();
    const who = await admin(t.current.app);
    const expected: Record<string, string[]> = {
      processing: ['Alpha'],
      failed: ['bravo'],
      review: ['Charlie'],
      ready_to_send: ['delta'],
      grading: ['echo'],
      return: ['foxtrot'],
      downloaded: ['golf'],
      archived: ['hotel'],
    };
    for (const [state, wanted] of Object.entries(expected)) expect(await names(who, `file_state=${state}`)).toEqual(wanted);
  });

  it('filters by name, country, congregation, study helper, grading and congregation state', async () => {
    const world = await filesWorld();
    const who = await admin(t.current.app);
    expect(await names(who, 'query_name=ALP')).toEqual(['Alpha']);
    expect(await names(who, 'query_name=%25')).toEqual([]);
    expect(await names(who, 'country=GH')).toEqual(['Charlie', 'bravo', 'Alpha']);
    expect(await names(who, `group_id=${world.a}`)).toEqual(['Charlie']);
    expect(await names(who, `group_id=${world.b}`)).toEqual(['hotel', 'golf', 'foxtrot', 'echo']);
    expect(await names(who, `study_helper=${world.helper}`)).toEqual(['echo']);
    expect(await names(who, 'graded=true')).toEqual(['hotel', 'golf', 'foxtrot']);
    expect(await names(who, 'congregation_file_state=grading')).toEqual(['echo']);
    expect(await names(who, `congregation_file_state=grading&group_id=${world.a}`)).toEqual([]);
    expect((await get(who, '/api/files?country=gh')).status).toBe(400);
  });

  it('sorts newest first by default, by name or upload time, and pages with a total', async () => {
    await filesWorld();
    const who = await admin(t.current.app);
    expect(await names(who)).toEqual(['hotel', 'golf', 'foxtrot', 'echo', 'delta', 'Charlie', 'bravo', 'Alpha']);
    expect(await names(who, 'order_by=name&order_direction=asc')).toEqual(['Alpha', 'bravo', 'Charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel']);
    expect(await names(who, 'order_by=uploaded_at&order_direction=asc')).toEqual(['Alpha', 'bravo', 'Charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel']);
    const page = await get(who, '/api/files?skip=2&limit=3&order_by=name&order_direction=asc');
    const body = page.body as unknown as Listed;
    expect({ total: body.total, skip: body.skip, limit: body.limit, names: body.items.map((item) => item.name) }).toEqual({
      total: 8,
      skip: 2,
      limit: 3,
      names: ['Charlie', 'delta', 'echo'],
    });
    const defaults = (await get(who, '/api/files')).body as unknown as Listed;
    expect([defaults.skip, defaults.limit, defaults.items.length]).toEqual([0, 10, 8]);
  });

  it("shows a coordinator only the files sent to its congregation, with its own state and counts", async () => {
    const world = await filesWorld();
    const a = await coordinator(t.current.app, world.a);
    // A's only sheet is in a file still in Review: nothing of it reaches A, not even a count.
    expect(await names(a)).toEqual([]);
    expect((await get(a, `/api/congregations/${world.a}/stats`)).body).toEqual({ ready_to_print_count: 0, all_files_count: 0 });
    const b = await coordinator(t.current.app, world.b);
    const listed = (await get(b, '/api/files?limit=100')).body as unknown as Listed;
    expect(listed.items.map((item) => [item.name, item.congregation_file_status, item.responses_count])).toEqual([
      ['hotel', 'returned', 1],
      ['golf', 'returned', 1],
      ['foxtrot', 'graded', 1],
      ['echo', 'grading', 1],
    ]);
    expect((await get(b, `/api/congregations/${world.b}/stats`)).body).toEqual({ ready_to_print_count: 0, all_files_count: 4 });
    // Its own sorting and paging (a congregation's files come from its file_groups rows).
    expect(await names(b, 'order_by=created_at&order_direction=asc')).toEqual(['echo', 'foxtrot', 'golf', 'hotel']);
    expect(await names(b, 'order_by=name&order_direction=desc')).toEqual(['hotel', 'golf', 'foxtrot', 'echo']);
    const page = (await get(b, '/api/files?skip=1&limit=2')).body as unknown as Listed;
    expect([page.total, ...page.items.map((item) => item.name)]).toEqual([4, 'golf', 'foxtrot']);
    expect(await names(await admin(t.current.app), `group_id=${world.b}&order_by=uploaded_at&order_direction=asc`)).toEqual(['echo', 'foxtrot', 'golf', 'hotel']);
    expect((await get(a, `/api/files?group_id=${world.b}`)).status).toBe(403);
    expect(await names(a, `group_id=${world.a}`)).toEqual([]);
    // Sent, A sees it; taken back (its file_congregations rows go), A no longer does.
    await t.current.db.query(`INSERT INTO file_congregations (file_id, congregation_id) VALUES ($1, $2)`, [world.ids.review, world.a]);
    expect(await names(a)).toEqual(['Charlie']);
    expect((await get(a, `/api/files/${world.ids.review}`)).status).toBe(200);
    await t.current.db.query('DELETE FROM file_congregations WHERE file_id = $1', [world.ids.review]);
    expect(await names(a)).toEqual([]);
    expect((await get(a, `/api/files/${world.ids.review}`)).status).toBe(403);
    expect((await get(a, `/api/answer-sheets?limit=100`)).body).toMatchObject({ items: [], total: 0 });
    const nobody = await (await import('../helpers/sign-in')).signIn(t.current.app, 'nobody@test.local');
    expect((await get(nobody, '/api/files')).status).toBe(403);
    expect((await get(null, '/api/files')).status).toBe(401);
  });
});

describe('one file', () => {
  it('is found by both calls, 404 when unknown, 403 for a coordinator of another congregation', async () => {
    const world = await filesWorld();
    const who = await admin(t.current.app);
    const byId = await get(who, `/api/files/${world.ids.review}`);
    const detail = await get(who, `/api/file/${world.ids.review}`);
    expect(byId.body).toEqual(detail.body);
    expect(detail.body).toMatchObject({
      id: world.ids.review,
      name: 'Charlie',
      process_status: 'success',
      responses_count: 1,
      service_center: { id: world.ghana, name: 'Accra', country: { iso_code: 'GH' } },
      congregations: [{ id: world.a, wbs_code: 'GH 0001' }],
      courses: [{ name: 'Good News' }],
    });
    expect((await get(who, '/api/file/3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b')).status).toBe(404);
    expect((await get(who, '/api/file/not-a-uuid')).status).toBe(400);
    const b = await coordinator(t.current.app, world.b);
    expect((await get(b, `/api/file/${world.ids.review}`)).status).toBe(403);
    expect((await get(b, `/api/file/${world.ids.review}/stats`)).status).toBe(403);
    // Not sent yet: not even its own congregation's coordinator sees it.
    expect((await get(await coordinator(t.current.app, world.a), `/api/file/${world.ids.review}/steps`)).status).toBe(403);
  });

  it('lists the congregations with sheets in it by WBS code, and counts the sheets with a kept page', async () => {
    const world = await filesWorld();
    const db = t.current.db;
    const who = await admin(t.current.app);
    const id = world.ids.review;
    // Beside A's sheet (one unreadable page): a sheet of B with two pages, a sheet of B whose only
    // page is ignored, and a sheet of nobody.
    const bSheet = await insertAnswerSheet(db, id, { lessonId: world.lesson, assignedGroup: world.b });
    await addPage(db, id, 2, bSheet, { templateId: world.template });
    await addPage(db, id, 3, bSheet, { templateId: world.template });
    const ignoredSheet = await insertAnswerSheet(db, id, { lessonId: world.lesson, assignedGroup: world.b });
    await addPage(db, id, 4, ignoredSheet, { ignored: true });
    const unassigned = await insertAnswerSheet(db, id, { lessonId: world.lesson });
    await addPage(db, id, 5, unassigned, { templateId: world.template });
    const shown = async () => {
      const body = (await get(who, `/api/file/${id}`)).body as { congregations: { wbs_code: string }[]; responses_count: number };
      const listed = ((await get(who, `/api/files?query_name=Charlie`)).body as unknown as Listed).items[0] as unknown as typeof body;
      expect(listed.congregations).toEqual(body.congregations);
      expect(listed.responses_count).toBe(body.responses_count);
      return { congregations: body.congregations.map((congregation) => congregation.wbs_code), responses: body.responses_count };
    };
    expect(await shown()).toEqual({ congregations: ['GH 0001', 'NG 0002'], responses: 3 });

    // A's only sheet moves to B: A is no longer listed; B's sheets leave: nobody is.
    await db.query('UPDATE answer_sheets SET assigned_group = $2 WHERE file_id = $1 AND assigned_group = $3', [id, world.b, world.a]);
    expect(await shown()).toEqual({ congregations: ['NG 0002'], responses: 3 });
    await db.query('UPDATE answer_sheets SET assigned_group = NULL WHERE file_id = $1', [id]);
    expect(await shown()).toEqual({ congregations: [], responses: 3 });
  });

  it("gives a coordinator the counts and steps of its congregation's sheets alone", async () => {
    const world = await filesWorld();
    const db = t.current.db;
    const id = world.ids.review;
    // Beside A's sheet (page 1, no code found): B's sheet with a page out of order, a sheet
    // nobody was assigned with an unreadable page, and a page of no sheet.
    const bSheet = await insertAnswerSheet(db, id, { lessonId: world.lesson, assignedGroup: world.b });
    await addPage(db, id, 2, bSheet, { templateId: world.template });
    const outOfOrder = await addPage(db, id, 3, bSheet, { templateId: world.template });
    await db.query(`UPDATE pages SET flag = 'out_of_order' WHERE id = $1`, [outOfOrder]);
    const nobodys = await insertAnswerSheet(db, id, { lessonId: world.lesson });
    await addPage(db, id, 4, nobodys, { reason: 'unreadable' });
    await addPage(db, id, 5, null);
    await db.query('UPDATE answer_sheets SET graded = true WHERE id = $1', [bSheet]);
    // Sent to both (counting is what is tested here: a sent file has no flags left in practice).
    await db.query(`INSERT INTO file_congregations (file_id, congregation_id) VALUES ($1, $2), ($1, $3)`, [id, world.a, world.b]);
    const counts = async (who: SignedIn) => {
      const stats = (await get(who, `/api/file/${id}/stats`)).body as Record<string, unknown>;
      const steps = (await get(who, `/api/file/${id}/steps`)).body as Record<string, unknown>;
      return { pages: stats.pages, sheets: stats.sheets, unrecognized: stats.unrecognized, flagged: stats.flagged, unassigned: stats.unassigned, reasons: stats.reasons, graded: `${steps.complete} of ${steps.total}` };
    };
    const reasons = (found: Record<string, number>) => ({
      no_code_found: 0, unreadable: 0, unknown_code: 0, out_of_order: 0, stray_page: 0, another_course: 0, duplicate_sheet: 0, blank_back: 0,
      ambiguous_position: 0, page_missing: 0, scanned_twice: 0, already_uploaded: 0, too_complex: 0, no_sheet: 0, too_blurred: 0, ...found,
    });
    expect(await counts(await admin(t.current.app))).toEqual({
      pages: 5, sheets: 3, unrecognized: 2, flagged: 3, unassigned: 1,
      reasons: reasons({ no_code_found: 1, unreadable: 1, out_of_order: 1 }), graded: '1 of 3',
    });
    expect(await counts(await coordinator(t.current.app, world.a))).toEqual({
      pages: 1, sheets: 1, unrecognized: 1, flagged: 1, unassigned: 0, reasons: reasons({ no_code_found: 1 }), graded: '0 of 1',
    });
    expect(await counts(await coordinator(t.current.app, world.b))).toEqual({
      pages: 2, sheets: 1, unrecognized: 0, flagged: 1, unassigned: 0, reasons: reasons({ out_of_order: 1 }), graded: '1 of 1',
    });
  });

  it('PATCH renames and sets the service center and its people, refusing people of another center', async () => {
    const world = await filesWorld();
    const db = t.current.db;
    const who = await admin(t.current.app);
    const recruiter = await insertRecruiter(db, world.nigeria, 'Ama');
    const point = await insertRecruitingPoint(db, world.nigeria, 'Market');
    const contact = (await db.one<{ id: string }>(`INSERT INTO contact_persons (service_center_id, name) VALUES ($1, 'Yaw') RETURNING id`, [world.nigeria])).id;
    const foreign = await insertRecruiter(db, world.ghana, 'Kofi');
    const url = `/api/file/${world.ids.review}`;

    expect((await send(who, 'PATCH', url, { name: 'Renamed' })).body).toMatchObject({ name: 'Renamed', service_center: { id: world.ghana } });
    expect((await send(who, 'PATCH', url, { recruiter })).body).toEqual({
      detail: { error_type: 'VALIDATION_ERROR', message: "recruiter: the recruiter does not belong to the file's service center" },
    });
    const changed = await send(who, 'PATCH', url, { service_center: world.nigeria, recruiter, recruiting_point: point, contact_person: contact });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      service_center: { id: world.nigeria },
      recruiter: { id: recruiter, name: 'Ama' },
      recruiting_point: { id: point, name: 'Market' },
      service_center_contact_person: { id: contact, name: 'Yaw' },
    });
    // Back to the first center: the other center's people go with it.
    const back = await send(who, 'PATCH', url, { service_center: world.ghana, recruiter: foreign });
    expect(back.body).toMatchObject({ service_center: { id: world.ghana }, recruiter: { id: foreign }, recruiting_point: null, service_center_contact_person: null });
    expect((await send(who, 'PATCH', url, { service_center: null, recruiter: foreign })).status).toBe(400);
    expect((await send(who, 'PATCH', url, { service_center: '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b' })).status).toBe(400);
    expect((await send(who, 'PATCH', url, {})).status).toBe(400);
    expect((await send(who, 'PATCH', '/api/file/3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b', { name: 'x' })).status).toBe(404);
    expect((await send(await coordinator(t.current.app, world.a), 'PATCH', url, { name: 'x' })).status).toBe(403);
  });

  it('DELETE removes a file before grading, with sheets, pages and the blobs nobody else uses', async () => {
    const world = await filesWorld();
    const { db, blobStore } = t.current;
    const who = await admin(t.current.app);
    const original = await blobStore.put(Buffer.from('%PDF-1.7 the original'));
    const ownImage = await blobStore.put(Buffer.from('page image only this file has'));
    const sharedImage = await blobStore.put(Buffer.from('page image another file has too'));
    await db.query('UPDATE files SET blob_key = $2 WHERE id = $1', [world.ids.review, original.key]);
    await db.query('UPDATE pages SET image_blob_key = $2 WHERE file_id = $1', [world.ids.review, ownImage.key]);
    const sheet = await insertAnswerSheet(db, world.ids.review, { lessonId: world.lesson });
    await addPage(db, world.ids.review, 2, sheet, { image: sharedImage.key });
    await addPage(db, world.ids.ready, 2, null, { image: sharedImage.key });

    expect((await send(who, 'DELETE', `/api/file/${world.ids.review}`)).status).toBe(204);
    expect((await get(who, `/api/file/${world.ids.review}`)).status).toBe(404);
    const left = await db.one<{ sheets: number; pages: number }>(
      'SELECT (SELECT count(*) FROM answer_sheets WHERE file_id = $1) AS sheets, (SELECT count(*) FROM pages WHERE file_id = $1) AS pages',
      [world.ids.review],
    );
    expect(left).toEqual({ sheets: 0, pages: 0 });
    expect(await blobStore.stat(original.key)).toBeNull();
    expect(await blobStore.stat(ownImage.key)).toBeNull();
    expect(await blobStore.stat(sharedImage.key)).not.toBeNull();

    for (const id of [world.ids.processing, world.ids.failed, world.ids.ready]) expect((await send(who, 'DELETE', `/api/file/${id}`)).status).toBe(204);
    for (const id of [world.ids.grading, world.ids.return, world.ids.archived]) {
      expect(await send(who, 'DELETE', `/api/file/${id}`)).toEqual({
        status: 409,
        body: { detail: { error_type: 'CONFLICT', message: expect.stringMatching(/before grading/) } },
      });
    }
    expect((await send(who, 'DELETE', `/api/file/${world.ids.review}`)).status).toBe(404);
    expect((await send(await coordinator(t.current.app, world.b), 'DELETE', `/api/file/${world.ids.grading}`)).status).toBe(403);
  });

  it('streams the original PDF as an attachment named after the file', async () => {
    const world = await filesWorld();
    const { db, blobStore } = t.current;
    const bytes = Buffer.from('%PDF-1.7\n% the scan\n%%EOF\n');
    const blob = await blobStore.put(bytes);
    await db.query(`UPDATE files SET blob_key = $2, name = 'Accra – März' WHERE id = $1`, [world.ids.review, blob.key]);
    const who = await admin(t.current.app);
    const response = await get(who, `/api/file/${world.ids.review}.pdf`);
    expect(response.status).toBe(200);
    expect(response.raw.headers['content-type']).toBe('application/pdf');
    expect(response.raw.headers['content-disposition']).toBe(`attachment; filename="Accra _ M_rz.pdf"; filename*=UTF-8''Accra%20%E2%80%93%20M%C3%A4rz.pdf`);
    expect(response.raw.rawPayload.equals(bytes)).toBe(true);
    expect((await get(await coordinator(t.current.app, world.a), `/api/file/${world.ids.review}.pdf`)).status).toBe(403);
    expect((await get(who, '/api/file/3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b.pdf')).status).toBe(404);
    expect((await get(who, `/api/file/${world.ids.review}/cover`)).status).toBe(404);
  });
});

describe('the workflow steps of a file', () => {
  it('moves from robot through review, assign and send to grading and return as the work is done', async () => {
    const db = t.current.db;
    const who = await admin(t.current.app);
    const congregation = await insertCongregation(db, 'GH 0009');
    const { lessonIds } = await insertCourse(db, 'Good News', ['One', 'Two'], 2);
    const [one, two] = [lessonIds[0]!, lessonIds[1]!];
    const fileId = await insertFile(db, 'Steps');
    await db.query(`UPDATE files SET process_status = 'pending' WHERE id = $1`, [fileId]);
    const step = async () => ((await get(who, `/api/file/${fileId}/steps`)).body as { step: string; complete: number; total: number });
    expect((await step()).step).toBe('robot');

    await db.query(`UPDATE files SET process_status = 'success' WHERE id = $1`, [fileId]);
    const first = await insertAnswerSheet(db, fileId, { lessonId: one });
    const second = await insertAnswerSheet(db, fileId, {});
    const unreadable = await addPage(db, fileId, 1, first, { reason: 'unreadable' });
    await addPage(db, fileId, 2, first, { templateId: await templateOf(db, one, 2) });
    const wrongLesson = await addPage(db, fileId, 3, second, { templateId: await templateOf(db, two, 1) });
    const stats = async () => (await get(who, `/api/file/${fileId}/stats`)).body;
    expect(await stats()).toEqual({
      pages: 3,
      sheets: 2,
      unrecognized: 1,
      mismatched: 0,
      ignored: 0,
      unassigned: 2,
      duplicates: 0,
      missing_student: 2,
      missing_lesson: 1,
      flagged: 1,
      reasons: { no_code_found: 0, unreadable: 1, unknown_code: 0, out_of_order: 0, stray_page: 0, another_course: 0, duplicate_sheet: 0, blank_back: 0, ambiguous_position: 0, page_missing: 0, scanned_twice: 0, already_uploaded: 0, too_complex: 0, no_sheet: 0, too_blurred: 0 },
      repeat_of: null,
    });
    expect((await step()).step).toBe('review');

    // Review: the unreadable page gets its template, the second sheet its lesson (then its page is mismatched).
    await send(who, 'PATCH', `/api/pages/${unreadable}`, { template: await templateOf(db, one, 1) });
    await send(who, 'PATCH', `/api/answer-sheets/${second}`, { lesson: one });
    expect(await stats()).toMatchObject({ unrecognized: 0, mismatched: 1, missing_lesson: 0 });
    expect((await step()).step).toBe('review');
    await send(who, 'PATCH', `/api/pages/${wrongLesson}`, { ignored: true });
    expect(await stats()).toMatchObject({ mismatched: 0, ignored: 1, sheets: 1, unassigned: 1 });
    expect((await step()).step).toBe('assign');

    const assigned = await send(who, 'PATCH', `/api/answer-sheets?file=${fileId}`, { assigned_group: congregation });
    // Only kept sheets: the second one has no page left.
    expect(assigned.body).toEqual({ updated: 1 });
    expect((await step()).step).toBe('send');

    await db.query(`UPDATE files SET sent_at = now(), file_status = 'grading' WHERE id = $1`, [fileId]);
    expect(await step()).toEqual({ step: 'grading', complete: 0, total: 1, prepped: false, downloaded: false, file_status: 'grading' });
    await db.query('UPDATE answer_sheets SET graded = true WHERE id = $1', [first]);
    await db.query('UPDATE files SET grading_complete = true WHERE id = $1', [fileId]);
    expect(await step()).toMatchObject({ step: 'return', complete: 1, total: 1 });
    await db.query(`UPDATE files SET return_prepped = true, file_status = 'downloaded' WHERE id = $1`, [fileId]);
    expect(await step()).toMatchObject({ step: 'return', prepped: true, downloaded: true, file_status: 'downloaded' });
  });
});
