// Undoing what was made by mistake (admin only): deleting a service center, recruiter, contact
// person, congregation, study helper or baptism request; withdrawing a graded upload; taking a
// sent file back to the Send step. Each is refused (409 in the spec's shape, nothing changed)
// while the record is in use or it is too late, and answers 403 to a coordinator, 404 for an
// unknown id and 400 for an id that is not one.
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import {
  admin,
  call,
  coordinator,
  getJson,
  insertAnswerSheet,
  insertCourse,
  insertCongregation,
  insertFile,
  insertRecruiter,
  insertRecruitingPoint,
  insertServiceCenter,
  insertStudent,
  insertStudyHelper,
  useRouteTests,
} from './support';

const t = useRouteTests();
const MISSING = '00000000-0000-4000-8000-000000000000';

const count = async (db: Database, sql: string, params: unknown[] = []) => (await db.one<{ n: number }>(`SELECT (${sql})::int AS n`, params)).n;

/** 409 with {"detail": {"error_type": "CONFLICT", "message": <message>}}. */
function expectRefused(answer: { status: number; body: unknown }, message: string | RegExp) {
  expect(answer.status).toBe(409);
  const detail = (answer.body as { detail: { error_type: string; message: string } }).detail;
  expect(detail.error_type).toBe('CONFLICT');
  expect(detail.message).toMatch(message);
}

/** The refusals every one of these operations shares: coordinator 403, unknown 404, bad id 400. */
async function expectGuarded(urlOf: (id: string) => string, realId: string, method: 'DELETE' = 'DELETE') {
  const congregation = await insertCongregation(t.db, `ZZ ${realId.slice(0, 4)}`);
  const them = await coordinator(t.app, congregation);
  expect((await call(t.app, them, method, urlOf(realId))).status).toBe(403);
  const me = await admin(t.app);
  const unknown = await call(t.app, me, method, urlOf(MISSING));
  expect(unknown.status).toBe(404);
  expect(typeof (unknown.body as { detail: unknown }).detail).toBe('string');
  const bad = await call(t.app, me, method, urlOf('not-a-uuid'));
  expect(bad.status).toBe(400);
  expect((bad.body as { detail: { error_type: string } }).detail.error_type).toBe('VALIDATION_ERROR');
}

describe('DELETE /api/service_centers/{id}', () => {
  it('deletes a service center nothing refers to', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Made by mistake');
    expect((await call(t.app, me, 'DELETE', `/api/service_centers/${center}`)).status).toBe(204);
    expect((await getJson(t.app, me, `/api/service_centers/${center}`)).status).toBe(404);
  });

  it('refuses while files, students or its people refer to it, naming them', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Busy');
    await insertFile(t.db, 'Batch 1', { serviceCenterId: center });
    await insertFile(t.db, 'Batch 2', { serviceCenterId: center });
    await insertRecruiter(t.db, center, 'Ama');
    expectRefused(await call(t.app, me, 'DELETE', `/api/service_centers/${center}`), 'This service center cannot be deleted: it has 2 files and 1 recruiter.');
    expect(await count(t.db, 'SELECT count(*) FROM recruiters WHERE service_center_id = $1', [center])).toBe(1);
    expect((await getJson(t.app, me, `/api/service_centers/${center}`)).status).toBe(200);
  });

  it('is the admin’s only, and refuses unknown and malformed ids', async () => {
    await expectGuarded((id) => `/api/service_centers/${id}`, await insertServiceCenter(t.db, 'Guarded'));
  });
});

describe('DELETE recruiter and contact person', () => {
  it('deletes them when no file or student names them', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Center');
    const recruiter = await insertRecruiter(t.db, center, 'Ama');
    const person = (await t.db.one<{ id: string }>(`INSERT INTO contact_persons (service_center_id, name) VALUES ($1, 'Yaw') RETURNING id`, [center])).id;
    expect((await call(t.app, me, 'DELETE', `/api/service-centers/${center}/recruiters/${recruiter}`)).status).toBe(204);
    expect((await call(t.app, me, 'DELETE', `/api/service-centers/${center}/contact-persons/${person}`)).status).toBe(204);
    expect((await getJson<unknown[]>(t.app, me, `/api/service-centers/${center}/recruiters`)).body).toEqual([]);
    expect((await getJson<unknown[]>(t.app, me, `/api/service-centers/${center}/contact-persons`)).body).toEqual([]);
  });

  it('refuses while files or students name them', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Center');
    const recruiter = await insertRecruiter(t.db, center, 'Ama');
    await insertStudent(t.db, { recruiterId: recruiter });
    const file = await insertFile(t.db, 'Batch', { serviceCenterId: center, recruiterId: recruiter });
    const person = (await t.db.one<{ id: string }>(`INSERT INTO contact_persons (service_center_id, name) VALUES ($1, 'Yaw') RETURNING id`, [center])).id;
    await t.db.query('UPDATE files SET contact_person_id = $2 WHERE id = $1', [file, person]);
    expectRefused(
      await call(t.app, me, 'DELETE', `/api/service-centers/${center}/recruiters/${recruiter}`),
      'This recruiter cannot be deleted: it is named by 1 file and 1 student.',
    );
    expectRefused(await call(t.app, me, 'DELETE', `/api/service-centers/${center}/contact-persons/${person}`), 'This contact person cannot be deleted: it is named by 1 file.');
    expect(await count(t.db, 'SELECT count(*) FROM recruiters')).toBe(1);
    expect(await count(t.db, 'SELECT count(*) FROM contact_persons')).toBe(1);
  });

  it('refuses a recruiting point while files or students name it, as a recruiter', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Center');
    const point = await insertRecruitingPoint(t.db, center, 'Makola');
    const student = await insertStudent(t.db, { recruitingPointId: point });
    const file = await insertFile(t.db, 'Batch', { serviceCenterId: center, recruitingPointId: point });
    const url = `/api/service_centers/${center}/recruiting-points/${point}`;
    expectRefused(await call(t.app, me, 'DELETE', url), 'This recruiting point cannot be deleted: it is named by 1 file and 1 student.');
    expect(await count(t.db, 'SELECT count(*) FROM students WHERE recruiting_point_id IS NOT NULL')).toBe(1);
    await t.db.query('UPDATE files SET recruiting_point_id = NULL WHERE id = $1', [file]);
    expectRefused(await call(t.app, me, 'DELETE', url), 'This recruiting point cannot be deleted: it is named by 1 student.');
    await t.db.query('UPDATE students SET recruiting_point_id = NULL WHERE id = $1', [student.id]);
    expect((await call(t.app, me, 'DELETE', url)).status).toBe(204);
    expect(await count(t.db, 'SELECT count(*) FROM recruiting_points')).toBe(0);
  });

  it('finds a recruiter only through its own service center', async () => {
    const me = await admin(t.app);
    const center = await insertServiceCenter(t.db, 'Center');
    const other = await insertServiceCenter(t.db, 'Other');
    const recruiter = await insertRecruiter(t.db, center, 'Ama');
    expect((await call(t.app, me, 'DELETE', `/api/service-centers/${other}/recruiters/${recruiter}`)).status).toBe(404);
    expect(await count(t.db, 'SELECT count(*) FROM recruiters')).toBe(1);
  });

  it('are the admin’s only, and refuse unknown and malformed ids', async () => {
    const center = await insertServiceCenter(t.db, 'Center');
    const recruiter = await insertRecruiter(t.db, center, 'Ama');
    await expectGuarded((id) => `/api/service-centers/${center}/recruiters/${id}`, recruiter);
    const person = (await t.db.one<{ id: string }>(`INSERT INTO contact_persons (service_center_id, name) VALUES ($1, 'Yaw') RETURNING id`, [center])).id;
    await expectGuarded((id) => `/api/service-centers/${center}/contact-persons/${id}`, person);
  });
});

describe('DELETE /api/congregations/{id}', () => {
  it('deletes a congregation nothing refers to', async () => {
    const me = await admin(t.app);
    const congregation = await insertCongregation(t.db, 'US 9999');
    expect((await call(t.app, me, 'DELETE', `/api/congregations/${congregation}`)).status).toBe(204);
    expect((await getJson(t.app, me, `/api/congregations/${congregation}`)).status).toBe(404);
  });

  it('refuses while it has students, study helpers or answer sheets assigned to it', async () => {
    const me = await admin(t.app);
    const congregation = await insertCongregation(t.db, 'US 1234');
    await insertStudent(t.db, { congregationId: congregation });
    await insertStudent(t.db, { congregationId: congregation });
    await insertStudyHelper(t.db, congregation, 'Sister Mary');
    await insertAnswerSheet(t.db, await insertFile(t.db, 'Batch'), { assignedGroup: congregation });
    expectRefused(
      await call(t.app, me, 'DELETE', `/api/congregations/${congregation}`),
      'This congregation cannot be deleted: it has 2 students, 1 study helper and 1 answer sheet assigned to it.',
    );
    expect(await count(t.db, 'SELECT count(*) FROM study_helpers')).toBe(1);
  });

  it('is the admin’s only, and refuses unknown and malformed ids', async () => {
    await expectGuarded((id) => `/api/congregations/${id}`, await insertCongregation(t.db, 'US 0001'));
  });
});

describe('DELETE /api/study-helpers/{id}', () => {
  it('deletes a helper without students', async () => {
    const me = await admin(t.app);
    const helper = await insertStudyHelper(t.db, await insertCongregation(t.db, 'US 1234'), 'Sister Mary');
    expect((await call(t.app, me, 'DELETE', `/api/study-helpers/${helper}`)).status).toBe(204);
    expect((await getJson(t.app, me, `/api/study-helpers/${helper}`)).status).toBe(404);
  });

  it('refuses while students (and their sheets) are with the helper', async () => {
    const me = await admin(t.app);
    const congregation = await insertCongregation(t.db, 'US 1234');
    const helper = await insertStudyHelper(t.db, congregation, 'Sister Mary');
    const student = await insertStudent(t.db, { congregationId: congregation, studyHelperId: helper });
    await insertAnswerSheet(t.db, await insertFile(t.db, 'Batch'), { studentId: student.id });
    expectRefused(await call(t.app, me, 'DELETE', `/api/study-helpers/${helper}`), 'This study helper cannot be deleted: it has 1 student.');
    expect((await getJson(t.app, me, `/api/study-helpers/${helper}`)).status).toBe(200);
  });

  it('is the admin’s only (a coordinator adds helpers, it does not delete them)', async () => {
    const congregation = await insertCongregation(t.db, 'US 1234');
    const helper = await insertStudyHelper(t.db, congregation, 'Sister Mary');
    expect((await call(t.app, await coordinator(t.app, congregation), 'DELETE', `/api/study-helpers/${helper}`)).status).toBe(403);
    await expectGuarded((id) => `/api/study-helpers/${id}`, helper);
  });
});

describe('DELETE /api/baptism-requests/{id}', () => {
  async function flagged() {
    const me = await admin(t.app);
    const student = await insertStudent(t.db, { attributes: { name: 'Kofi' } });
    const sheet = await insertAnswerSheet(t.db, await insertFile(t.db, 'Batch'), { studentId: student.id });
    const flag = await call(t.app, me, 'POST', `/api/responses/${sheet}/baptism-request`);
    expect(flag.status).toBe(200);
    const request = (await t.db.one<{ id: string }>('SELECT id FROM baptism_requests WHERE student_id = $1', [student.id])).id;
    return { me, sheet, request };
  }

  it('undoes a flag: the request goes and the response is not flagged', async () => {
    const { me, sheet, request } = await flagged();
    expect((await call(t.app, me, 'DELETE', `/api/baptism-requests/${request}`)).status).toBe(204);
    expect((await getJson<{ total: number }>(t.app, me, '/api/baptism-requests')).body.total).toBe(0);
    expect((await getJson<{ is_baptism_request: boolean }>(t.app, me, `/api/answer-sheets/${sheet}`)).body.is_baptism_request).toBe(false);
  });

  it('refuses once the request is being handled', async () => {
    const { me, sheet, request } = await flagged();
    await t.db.query(`UPDATE baptism_requests SET status = 'waiting_on_recruiter' WHERE id = $1`, [request]);
    expectRefused(await call(t.app, me, 'DELETE', `/api/baptism-requests/${request}`), 'This baptism request is already being handled, so it cannot be deleted.');
    expect((await getJson<{ is_baptism_request: boolean }>(t.app, me, `/api/answer-sheets/${sheet}`)).body.is_baptism_request).toBe(true);
  });

  it('is the admin’s only, and refuses unknown and malformed ids', async () => {
    const { request } = await flagged();
    await expectGuarded((id) => `/api/baptism-requests/${id}`, request);
  });
});

/** A sent file with one sheet of two pages for a congregation, its packet stored but not printed. */
async function sentFile() {
  const congregation = await insertCongregation(t.db, 'GH 0001');
  const file = await insertFile(t.db, 'Sent batch', { sentAt: new Date() });
  await t.db.query(`UPDATE files SET file_status = 'grading' WHERE id = $1`, [file]);
  const { lessonIds } = await insertCourse(t.db, 'The Gospel of John', ['Lesson 1'], 2);
  const student = await insertStudent(t.db, { congregationId: congregation });
  const sheet = await insertAnswerSheet(t.db, file, { assignedGroup: congregation, studentId: student.id, lessonId: lessonIds[0]! });
  const pages: string[] = [];
  for (const number of [1, 2]) {
    pages.push((await t.db.one<{ id: string }>('INSERT INTO pages (file_id, page_number, answer_sheet_id) VALUES ($1, $2, $3) RETURNING id', [file, number, sheet])).id);
  }
  const packetBlob = await t.testApp.blobStore.put(Buffer.from('%PDF-1.7 packet'));
  await t.db.query(`INSERT INTO packets (file_id, congregation_id, blob_key, page_count) VALUES ($1, $2, $3, 2)`, [file, congregation, packetBlob.key]);
  await t.db.query(`INSERT INTO file_congregations (file_id, congregation_id, status) VALUES ($1, $2, 'unprinted')`, [file, congregation]);
  return { congregation, file, sheet, pages, packetBlob: packetBlob.key };
}

/** A finished graded upload whose scan graded the first page of the sent file. */
async function gradedUpload(sent: Awaited<ReturnType<typeof sentFile>>) {
  const scan = await t.testApp.blobStore.put(Buffer.from('%PDF-1.7 graded scan'));
  const image = await t.testApp.blobStore.put(Buffer.from('jpeg of the graded page'));
  const upload = (
    await t.db.one<{ id: string }>(
      `INSERT INTO graded_uploads (name, congregation_id, blob_key, sha256, process_status, page_count)
       VALUES ('Graded', $1, $2, $3, 'success', 1) RETURNING id`,
      [sent.congregation, scan.key, 'a'.repeat(64)],
    )
  ).id;
  await t.db.query(
    `INSERT INTO graded_upload_pages (upload_id, page_number, code_prefix, code_id, outcome, page_id, image_blob_key)
     VALUES ($1, 1, 'p', 'ABCD1234', 'matched', $2, $3)`,
    [upload, sent.pages[0], image.key],
  );
  await t.db.query('INSERT INTO feedback (page_id, upload_id, front_blob_key) VALUES ($1, $2, $3)', [sent.pages[0], upload, image.key]);
  await t.db.query(`UPDATE file_congregations SET status = 'grading' WHERE file_id = $1`, [sent.file]);
  return { upload, image: image.key, scan: scan.key };
}

describe('DELETE /api/uploads/{id} (withdraw a graded upload)', () => {
  it('removes its scans: the pages it graded are ungraded again, the congregation back to unprinted', async () => {
    const me = await admin(t.app);
    const sent = await sentFile();
    // Both pages graded: the sheet was graded, the file not complete (an admin flag says so).
    const { upload, image, scan } = await gradedUpload(sent);
    await t.db.query(`UPDATE answer_sheets SET graded = true WHERE id = $1`, [sent.sheet]);
    expect((await call(t.app, me, 'DELETE', `/api/uploads/${upload}`)).status).toBe(204);
    expect((await getJson(t.app, me, `/api/uploads/${upload}`)).status).toBe(404);
    expect(await count(t.db, 'SELECT count(*) FROM feedback')).toBe(0);
    expect(await count(t.db, 'SELECT count(*) FROM graded_upload_pages')).toBe(0);
    expect((await t.db.one<{ graded: boolean }>('SELECT graded FROM answer_sheets WHERE id = $1', [sent.sheet])).graded).toBe(false);
    expect((await t.db.one<{ status: string }>('SELECT status FROM file_congregations WHERE file_id = $1', [sent.file])).status).toBe('unprinted');
    expect(await t.testApp.blobStore.stat(image)).toBeNull();
    expect(await t.testApp.blobStore.stat(scan)).toBeNull();
  });

  it('takes a fully graded file not yet downloaded back to Grading: its return file is no longer offered', async () => {
    const me = await admin(t.app);
    const sent = await sentFile();
    const { upload } = await gradedUpload(sent);
    // Its return file was made (both pages graded); nobody downloaded it yet.
    await t.db.query('INSERT INTO feedback (page_id, upload_id, front_blob_key) SELECT $1, upload_id, front_blob_key FROM feedback WHERE page_id = $2', [sent.pages[1], sent.pages[0]]);
    await t.db.query(`UPDATE answer_sheets SET graded = true WHERE id = $1`, [sent.sheet]);
    await t.db.query(`UPDATE file_congregations SET status = 'graded' WHERE file_id = $1`, [sent.file]);
    await t.db.query(`UPDATE files SET grading_complete = true, return_prepped = true, return_requested_at = now() WHERE id = $1`, [sent.file]);
    expect((await getJson<{ step: string }>(t.app, me, `/api/file/${sent.file}/steps`)).body.step).toBe('return');

    expect((await call(t.app, me, 'DELETE', `/api/uploads/${upload}`)).status).toBe(204);
    expect((await getJson<{ step: string; prepped: boolean }>(t.app, me, `/api/file/${sent.file}/steps`)).body).toMatchObject({ step: 'grading', prepped: false });
    const file = await t.db.one<{ grading_complete: boolean; return_requested_at: Date | null }>('SELECT grading_complete, return_requested_at FROM files WHERE id = $1', [sent.file]);
    expect(file).toEqual({ grading_complete: false, return_requested_at: null });
    expect((await t.db.one<{ graded: boolean }>('SELECT graded FROM answer_sheets WHERE id = $1', [sent.sheet])).graded).toBe(false);
    // Its packet was never printed and no scan of it is left.
    expect((await t.db.one<{ status: string }>('SELECT status FROM file_congregations WHERE file_id = $1', [sent.file])).status).toBe('unprinted');
    expectRefused(await call(t.app, me, 'GET', `/api/file/${sent.file}/graded_pdf`), 'The return file is not ready yet.');
  });

  it('refuses once the return file of a file it graded was downloaded or the file archived, and while it is read', async () => {
    const me = await admin(t.app);
    const sent = await sentFile();
    const { upload } = await gradedUpload(sent);
    await t.db.query(`UPDATE files SET grading_complete = true, file_status = 'downloaded' WHERE id = $1`, [sent.file]);
    expectRefused(await call(t.app, me, 'DELETE', `/api/uploads/${upload}`), 'This upload cannot be withdrawn: the return file of "Sent batch" was downloaded.');
    await t.db.query(`UPDATE files SET file_status = 'archived' WHERE id = $1`, [sent.file]);
    expectRefused(await call(t.app, me, 'DELETE', `/api/uploads/${upload}`), 'This upload cannot be withdrawn: the file "Sent batch" is archived.');
    await t.db.query(`UPDATE graded_uploads SET process_status = 'pending' WHERE id = $1`, [upload]);
    expectRefused(await call(t.app, me, 'DELETE', `/api/uploads/${upload}`), /still being read/);
    expect(await count(t.db, 'SELECT count(*) FROM feedback')).toBe(1);
    expect((await t.db.one<{ grading_complete: boolean }>('SELECT grading_complete FROM files WHERE id = $1', [sent.file])).grading_complete).toBe(true);
  });

  it('is an admin’s or its own coordinator’s, with the same refusals, and refuses unknown and malformed ids', async () => {
    const sent = await sentFile();
    const { upload } = await gradedUpload(sent);
    // Another congregation's coordinator is refused (403), unknown and malformed ids too.
    await expectGuarded((id) => `/api/uploads/${id}`, upload);
    const own = await coordinator(t.app, sent.congregation);
    await t.db.query(`UPDATE files SET file_status = 'downloaded' WHERE id = $1`, [sent.file]);
    expectRefused(await call(t.app, own, 'DELETE', `/api/uploads/${upload}`), /"Sent batch" was downloaded/);
    await t.db.query(`UPDATE files SET file_status = 'grading' WHERE id = $1`, [sent.file]);
    expect((await call(t.app, own, 'DELETE', `/api/uploads/${upload}`)).status).toBe(204);
    expect(await count(t.db, 'SELECT count(*) FROM feedback')).toBe(0);
  });
});

describe('DELETE /api/file/{file_id}/send (take a sent file back)', () => {
  it('puts the file back at the Send step: packets and congregation rows go', async () => {
    const me = await admin(t.app);
    const sent = await sentFile();
    const answer = await call(t.app, me, 'DELETE', `/api/file/${sent.file}/send`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: sent.file, sent_at: null, file_status: null });
    expect((await getJson<{ step: string }>(t.app, me, `/api/file/${sent.file}/steps`)).body.step).toBe('send');
    expect(await count(t.db, 'SELECT count(*) FROM packets')).toBe(0);
    expect(await count(t.db, 'SELECT count(*) FROM file_congregations')).toBe(0);
    expect(await t.testApp.blobStore.stat(sent.packetBlob)).toBeNull();
    expectRefused(await call(t.app, me, 'DELETE', `/api/file/${sent.file}/send`), 'This file was not sent.');
  });

  it('refuses once a packet was printed or a graded scan came back', async () => {
    const me = await admin(t.app);
    const sent = await sentFile();
    await t.db.query('UPDATE packets SET downloaded_at = now() WHERE file_id = $1', [sent.file]);
    expectRefused(await call(t.app, me, 'DELETE', `/api/file/${sent.file}/send`), 'A packet of this file was printed already, so the file cannot be taken back.');
    await t.db.query('UPDATE packets SET downloaded_at = NULL WHERE file_id = $1', [sent.file]);
    await gradedUpload(sent);
    expectRefused(await call(t.app, me, 'DELETE', `/api/file/${sent.file}/send`), 'Graded scans of this file came back already, so the file cannot be taken back.');
    expect(await count(t.db, 'SELECT count(*) FROM packets')).toBe(1);
    expect((await t.db.one<{ sent: boolean }>('SELECT sent_at IS NOT NULL AS sent FROM files WHERE id = $1', [sent.file])).sent).toBe(true);
  });

  it('is the admin’s only, and refuses unknown and malformed ids', async () => {
    const sent = await sentFile();
    expect((await call(t.app, await coordinator(t.app, sent.congregation), 'DELETE', `/api/file/${sent.file}/send`)).status).toBe(403);
    await expectGuarded((id) => `/api/file/${id}/send`, sent.file);
  });
});
