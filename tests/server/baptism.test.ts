// Baptism requests: list (newest first, coordinator-scoped), creation by human student id with
// the spec's error texts, and flagging a response (one way).
import { describe, expect, it } from 'vitest';
import {
  admin,
  call,
  coordinator,
  daysAgo,
  getJson,
  insertAnswerSheet,
  insertCongregation,
  insertFile,
  insertRecruiter,
  insertServiceCenter,
  insertStudent,
  useRouteTests,
} from './support';

const t = useRouteTests();
const MISSING = '00000000-0000-4000-8000-000000000000';

interface Listed<T> {
  items: T[];
  total: number;
  skip: number;
  limit: number;
}
type BaptismRequest = {
  id: string;
  student: { id: string; human_id: number; name: string };
  service_center: { name: string } | null;
  recruiter: { name: string } | null;
  latest_status: { status: string };
  requested_at: string;
};

async function insertRequest(studentId: string, requestedAt: Date, status = 'pending') {
  const row = await t.db.one<{ id: string }>(
    'INSERT INTO baptism_requests (student_id, status, requested_at) VALUES ($1, $2, $3) RETURNING id',
    [studentId, status, requestedAt],
  );
  return row.id;
}

describe('GET /api/baptism-requests', () => {
  it('lists newest first with student, service center, recruiter and status, paged', async () => {
    const a = await insertCongregation(t.db, 'US 1111');
    const center = await insertServiceCenter(t.db, 'Accra Center');
    const recruiter = await insertRecruiter(t.db, center, 'Ama Owusu');
    const kofi = await insertStudent(t.db, { humanId: 3001, congregationId: a, serviceCenterId: center, recruiterId: recruiter, attributes: { name: 'Kofi' } });
    const esi = await insertStudent(t.db, { humanId: 3002, congregationId: a, attributes: { name: 'Esi' } });
    const yaw = await insertStudent(t.db, { humanId: 3003 });
    const kofiRequest = await insertRequest(kofi.id, daysAgo(1), 'waiting_on_recruiter');
    await insertRequest(esi.id, daysAgo(3));
    await insertRequest(yaw.id, daysAgo(2), 'completed');

    const { status, body } = await getJson<Listed<BaptismRequest>>(t.app, await admin(t.app), '/api/baptism-requests');
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 3, skip: 0, limit: 10 });
    expect(body.items.map((r) => r.student.human_id)).toEqual([3001, 3003, 3002]);
    expect(body.items[0]).toEqual({
      id: kofiRequest,
      student: { id: kofi.id, human_id: 3001, name: 'Kofi' },
      service_center: { name: 'Accra Center' },
      recruiter: { name: 'Ama Owusu' },
      latest_status: { status: 'waiting_on_recruiter' },
      requested_at: daysAgo(1).toISOString(),
    });
    expect(body.items[1]).toMatchObject({ service_center: null, recruiter: null, latest_status: { status: 'completed' } });

    const page = await getJson<Listed<BaptismRequest>>(t.app, await admin(t.app), '/api/baptism-requests?skip=1&limit=1');
    expect(page.body).toMatchObject({ total: 3, skip: 1, limit: 1 });
    expect(page.body.items.map((r) => r.student.human_id)).toEqual([3003]);
  });

  it("shows a coordinator only its congregation's students' requests", async () => {
    const a = await insertCongregation(t.db, 'US 1111');
    const b = await insertCongregation(t.db, 'US 2222');
    const mine = await insertStudent(t.db, { humanId: 3001, congregationId: a });
    const theirs = await insertStudent(t.db, { humanId: 3002, congregationId: b });
    await insertRequest(mine.id, daysAgo(2));
    await insertRequest(theirs.id, daysAgo(1));
    const { body } = await getJson<Listed<BaptismRequest>>(t.app, await coordinator(t.app, a), '/api/baptism-requests');
    expect(body.total).toBe(1);
    expect(body.items.map((r) => r.student.human_id)).toEqual([3001]);
  });

  it('uses the file of the request when the student has no service center or recruiter', async () => {
    const center = await insertServiceCenter(t.db, 'Nairobi Center');
    const recruiter = await insertRecruiter(t.db, center, 'Wanjiru');
    const student = await insertStudent(t.db, { humanId: 3001 });
    const file = await insertFile(t.db, 'batch', { serviceCenterId: center, recruiterId: recruiter });
    await insertAnswerSheet(t.db, file, { studentId: student.id });
    const created = await call(t.app, await admin(t.app), 'POST', '/api/baptism-request', { student_id: 3001 });
    expect(created.body).toMatchObject({ service_center: { name: 'Nairobi Center' }, recruiter: { name: 'Wanjiru' } });
  });
});

describe('POST /api/baptism-request', () => {
  it('creates a pending request for the student with that human id (201)', async () => {
    const a = await insertCongregation(t.db, 'US 1111');
    const student = await insertStudent(t.db, { humanId: 4001, congregationId: a, attributes: { name: 'Kofi' } });
    const file = await insertFile(t.db, 'batch');
    await insertAnswerSheet(t.db, file, { studentId: student.id, createdAt: daysAgo(5) });
    const latest = await insertAnswerSheet(t.db, file, { studentId: student.id, createdAt: daysAgo(1) });

    const response = await call(t.app, await coordinator(t.app, a), 'POST', '/api/baptism-request', { student_id: 4001 });
    expect(response.status).toBe(201);
    const created = response.body as BaptismRequest;
    expect(created).toMatchObject({ student: { id: student.id, human_id: 4001, name: 'Kofi' }, latest_status: { status: 'pending' } });
    const row = await t.db.one<{ answer_sheet_id: string; status: string }>(
      'SELECT answer_sheet_id, status FROM baptism_requests WHERE id = $1',
      [created.id],
    );
    expect(row).toEqual({ answer_sheet_id: latest, status: 'pending' });
  });

  it('answers the spec texts: not found (404), no answer sheet (400), already exists (409)', async () => {
    const student = await insertStudent(t.db, { humanId: 4001 });
    const me = await admin(t.app);
    expect(await call(t.app, me, 'POST', '/api/baptism-request', { student_id: 9999 })).toMatchObject({
      status: 404,
      body: { detail: 'Student not found' },
    });
    expect(await call(t.app, me, 'POST', '/api/baptism-request', { student_id: 4001 })).toMatchObject({
      status: 400,
      body: { detail: 'No answer sheet found for this student.' },
    });
    await insertAnswerSheet(t.db, await insertFile(t.db, 'batch'), { studentId: student.id });
    expect((await call(t.app, me, 'POST', '/api/baptism-request', { student_id: 4001 })).status).toBe(201);
    expect(await call(t.app, me, 'POST', '/api/baptism-request', { student_id: 4001 })).toMatchObject({
      status: 409,
      body: { detail: 'A baptism request already exists for this student.' },
    });
    const { total } = await t.db.one<{ total: number }>('SELECT count(*) AS total FROM baptism_requests');
    expect(total).toBe(1);
  });

  it('refuses a malformed student id with VALIDATION_ERROR', async () => {
    const me = await admin(t.app);
    for (const body of [{ student_id: 0 }, { student_id: 'abc' }, { student_id: 1.5 }, {}]) {
      const response = await call(t.app, me, 'POST', '/api/baptism-request', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((response.body as { detail: { error_type: string } }).detail.error_type).toBe('VALIDATION_ERROR');
    }
  });

  it("treats another congregation's student as not found for a coordinator", async () => {
    const a = await insertCongregation(t.db, 'US 1111');
    const b = await insertCongregation(t.db, 'US 2222');
    const theirs = await insertStudent(t.db, { humanId: 4002, congregationId: b });
    await insertAnswerSheet(t.db, await insertFile(t.db, 'batch'), { studentId: theirs.id });
    expect(await call(t.app, await coordinator(t.app, a), 'POST', '/api/baptism-request', { student_id: 4002 })).toMatchObject({
      status: 404,
      body: { detail: 'Student not found' },
    });
    const { total } = await t.db.one<{ total: number }>('SELECT count(*) AS total FROM baptism_requests');
    expect(total).toBe(0);
  });
});

describe('POST /api/responses/{response_id}/baptism-request', () => {
  it('flags the sheet, creates the request once, and a second call returns the same sheet', async () => {
    const a = await insertCongregation(t.db, 'US 1111');
    const student = await insertStudent(t.db, { humanId: 5001, congregationId: a, attributes: { name: 'Kofi' } });
    const file = await insertFile(t.db, 'Accra batch');
    const sheet = await insertAnswerSheet(t.db, file, { studentId: student.id, assignedGroup: a });
    const me = await coordinator(t.app, a);
    // Not sent to the congregation yet: the coordinator does not see the response.
    expect(await call(t.app, me, 'POST', `/api/responses/${sheet}/baptism-request`)).toMatchObject({ status: 404, body: { detail: 'Answer sheet not found' } });
    await t.db.query(`INSERT INTO file_congregations (file_id, congregation_id, status) VALUES ($1, $2, 'unprinted')`, [file, a]);

    const first = await call(t.app, me, 'POST', `/api/responses/${sheet}/baptism-request`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      id: sheet,
      file_id: file,
      student: { id: student.id, human_id: 5001, name: 'Kofi' },
      is_baptism_request: true,
    });
    const second = await call(t.app, me, 'POST', `/api/responses/${sheet}/baptism-request`);
    expect(second).toMatchObject({ status: 200, body: first.body as object });
    const requests = await t.db.query<{ student_id: string; answer_sheet_id: string; status: string }>(
      'SELECT student_id, answer_sheet_id, status FROM baptism_requests',
    );
    expect(requests).toEqual([{ student_id: student.id, answer_sheet_id: sheet, status: 'pending' }]);
  });

  it("keeps the student's existing request", async () => {
    const student = await insertStudent(t.db, { humanId: 5001 });
    const existing = await insertRequest(student.id, daysAgo(9), 'missing_info');
    const sheet = await insertAnswerSheet(t.db, await insertFile(t.db, 'batch'), { studentId: student.id });
    const response = await call(t.app, await admin(t.app), 'POST', `/api/responses/${sheet}/baptism-request`);
    expect(response.body).toMatchObject({ is_baptism_request: true });
    const requests = await t.db.query<{ id: string; status: string }>('SELECT id, status FROM baptism_requests');
    expect(requests).toEqual([{ id: existing, status: 'missing_info' }]);
  });

  it('answers 409 for a sheet without a student and 404 for unknown or hidden sheets', async () => {
    const a = await insertCongregation(t.db, 'US 1111');
    const b = await insertCongregation(t.db, 'US 2222');
    const file = await insertFile(t.db, 'batch');
    const anonymous = await insertAnswerSheet(t.db, file, {});
    const response = await call(t.app, await admin(t.app), 'POST', `/api/responses/${anonymous}/baptism-request`);
    expect(response).toMatchObject({ status: 409, body: { detail: { error_type: 'CONFLICT' } } });
    expect(await call(t.app, await admin(t.app), 'POST', `/api/responses/${MISSING}/baptism-request`)).toMatchObject({
      status: 404,
      body: { detail: 'Answer sheet not found' },
    });
    const theirStudent = await insertStudent(t.db, { congregationId: b });
    const theirs = await insertAnswerSheet(t.db, file, { studentId: theirStudent.id, assignedGroup: b });
    expect(await call(t.app, await coordinator(t.app, a), 'POST', `/api/responses/${theirs}/baptism-request`)).toMatchObject({
      status: 404,
      body: { detail: 'Answer sheet not found' },
    });
    const flags = await t.db.query<{ is_baptism_request: boolean }>('SELECT is_baptism_request FROM answer_sheets');
    expect(flags.every((row) => !row.is_baptism_request)).toBe(true);
  });
});
