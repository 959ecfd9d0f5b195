// Students: list filters, sorts and paging; one student; attribute, congregation and study
// helper changes; answer sheets; a study helper's students; coordinator scoping throughout.
import { describe, expect, it } from 'vitest';
import {
  admin,
  call,
  coordinator,
  daysAgo,
  getJson,
  insertAnswerSheet,
  insertCongregation,
  insertCourse,
  insertFile,
  insertPage,
  insertRecruiter,
  insertRecruitingPoint,
  insertServiceCenter,
  insertStudent,
  insertStudyHelper,
  planOf,
  useRouteTests,
} from './support';
import { humanIdPrefixCount } from '../../server/repositories/students';
import { Where } from '../../server/repositories/sql/where';

const t = useRouteTests();
const MISSING = '00000000-0000-4000-8000-000000000000';

interface Listed<T> {
  items: T[];
  total: number;
  skip: number;
  limit: number;
}
type Student = {
  id: string;
  human_id: number;
  name: string;
  congregation_id: string | null;
  study_helper: { id: string; name: string } | null;
  attributes: Record<string, unknown>;
  [key: string]: unknown;
};

/** Two congregations, a helper in each, and students spread over them (human ids 1001...). */
async function population() {
  const a = await insertCongregation(t.db, 'US 1111', 'A');
  const b = await insertCongregation(t.db, 'US 2222', 'B');
  const helperA = await insertStudyHelper(t.db, a, 'Helper A');
  const helperB = await insertStudyHelper(t.db, b, 'Helper B');
  const s = {
    s1001: await insertStudent(t.db, { humanId: 1001, congregationId: a, studyHelperId: helperA, country: 'GH', createdAt: daysAgo(10), attributes: { name: 'Ama' } }),
    s1002: await insertStudent(t.db, { humanId: 1002, congregationId: a, country: 'KE', createdAt: daysAgo(2) }),
    s1010: await insertStudent(t.db, { humanId: 1010, congregationId: b, studyHelperId: helperB, country: 'GH', createdAt: daysAgo(5) }),
    s2001: await insertStudent(t.db, { humanId: 2001, congregationId: null, country: 'PH', createdAt: daysAgo(1) }),
    s10001: await insertStudent(t.db, { humanId: 10001, congregationId: a, studyHelperId: helperA, country: 'GH', createdAt: daysAgo(7) }),
  };
  return { a, b, helperA, helperB, s };
}

async function humanIds(query: string, who?: Awaited<ReturnType<typeof admin>>) {
  const response = await getJson<Listed<Student>>(t.app, who ?? (await admin(t.app)), `/api/students?${query}`);
  expect(response.status).toBe(200);
  return { total: response.body.total, skip: response.body.skip, limit: response.body.limit, ids: response.body.items.map((s) => s.human_id) };
}

describe('GET /api/students', () => {
  it('lists by human id with total, skip and limit', async () => {
    await population();
    expect(await humanIds('')).toEqual({ total: 5, skip: 0, limit: 10, ids: [1001, 1002, 1010, 2001, 10001] });
    expect(await humanIds('skip=1&limit=2')).toEqual({ total: 5, skip: 1, limit: 2, ids: [1002, 1010] });
    expect(await humanIds('skip=5')).toEqual({ total: 5, skip: 5, limit: 10, ids: [] });
    expect(await humanIds('limit=0')).toEqual({ total: 5, skip: 0, limit: 0, ids: [] });
  });

  it('sorts by human_id or created_at in either direction', async () => {
    await population();
    expect((await humanIds('order_by=human_id&order_direction=desc')).ids).toEqual([10001, 2001, 1010, 1002, 1001]);
    expect((await humanIds('order_by=created_at')).ids).toEqual([2001, 1002, 1010, 10001, 1001]);
    expect((await humanIds('order_by=created_at&order_direction=desc')).ids).toEqual([2001, 1002, 1010, 10001, 1001]);
    expect((await humanIds('order_by=created_at&order_direction=asc&limit=2')).ids).toEqual([1001, 10001]);
    expect((await getJson(t.app, await admin(t.app), '/api/students?order_by=name')).status).toBe(400);
  });

  it('matches human ids by their first digits', async () => {
    await population();
    expect(await humanIds('human_id_prefix=100')).toMatchObject({ total: 3, ids: [1001, 1002, 10001] });
    expect(await humanIds('human_id_prefix=10')).toMatchObject({ total: 4, ids: [1001, 1002, 1010, 10001] });
    expect(await humanIds('human_id_prefix=2001')).toMatchObject({ total: 1, ids: [2001] });
    expect(await humanIds('human_id_prefix=3')).toMatchObject({ total: 0, ids: [] });
    expect(await humanIds('human_id_prefix=0')).toMatchObject({ total: 0, ids: [] });
    expect(await humanIds('human_id_prefix=010')).toMatchObject({ total: 0, ids: [] });
    // In either ID order and by creation, paged across IDs of different lengths.
    expect(await humanIds('human_id_prefix=10&order_direction=desc&skip=1&limit=2')).toEqual({ total: 4, skip: 1, limit: 2, ids: [1010, 1002] });
    expect(await humanIds('human_id_prefix=10&skip=2&limit=5')).toEqual({ total: 4, skip: 2, limit: 5, ids: [1010, 10001] });
    expect((await humanIds('human_id_prefix=10&order_by=created_at&order_direction=asc')).ids).toEqual([1001, 10001, 1010, 1002]);
    const bad = await getJson<{ detail: { error_type: string } }>(t.app, await admin(t.app), '/api/students?human_id_prefix=1%25');
    expect(bad.status).toBe(400);
    expect(bad.body.detail.error_type).toBe('VALIDATION_ERROR');
  });

  it('filters by country, congregation and study helper, alone and together', async () => {
    const { b, helperA } = await population();
    expect(await humanIds('country=GH')).toMatchObject({ total: 3, ids: [1001, 1010, 10001] });
    expect(await humanIds(`congregation=${b}`)).toMatchObject({ total: 1, ids: [1010] });
    expect(await humanIds(`study_helper=${helperA}`)).toMatchObject({ total: 2, ids: [1001, 10001] });
    expect(await humanIds(`study_helper=${helperA}&human_id_prefix=100&country=GH&limit=1&skip=1`)).toEqual({
      total: 2,
      skip: 1,
      limit: 1,
      ids: [10001],
    });
    expect((await getJson(t.app, await admin(t.app), '/api/students?country=gh')).status).toBe(400);
  });

  it("shows a coordinator only its congregation's students and refuses another congregation", async () => {
    const { a, b } = await population();
    const me = await coordinator(t.app, a);
    expect(await humanIds('', me)).toMatchObject({ total: 3, ids: [1001, 1002, 10001] });
    expect(await humanIds('country=GH', me)).toMatchObject({ total: 2, ids: [1001, 10001] });
    expect(await humanIds(`congregation=${a}`, me)).toMatchObject({ total: 3 });
    expect(await getJson(t.app, me, `/api/students?congregation=${b}`)).toEqual({ status: 403, body: { detail: 'Forbidden' } });
  });

  it('counts an ID prefix from the index on human_id alone', async () => {
    await population();
    // The count of a prefix reads its ranges of IDs in the index, never the table (the text
    // index could not answer alone: every match was read from the table).
    const count = humanIdPrefixCount('10', new Where());
    const plan = await planOf(t.db, count.sql, count.params, ['enable_seqscan', 'enable_bitmapscan']);
    expect(plan).toMatch(/Index Only Scan using students_human_id_(key|page_idx)/);
    expect(await t.db.one(count.sql, count.params)).toEqual({ total: 4 });
  });

  it('uses the human id text index for the prefix search', async () => {
    // With sequential scans priced out, a usable index must be picked for the prefix condition.
    const plan = await planOf(t.db, `SELECT id FROM students s WHERE (s.human_id::text) LIKE $1`, ['100%']);
    expect(plan).toContain('students_human_id_text_idx');
  });
});

describe('GET /api/students/{id}', () => {
  it('returns every field of the contract, references resolved', async () => {
    const a = await insertCongregation(t.db, 'US 1111', 'Springfield');
    const helper = await insertStudyHelper(t.db, a, 'Linda Carter');
    const center = await insertServiceCenter(t.db, 'Accra Center');
    const recruiter = await insertRecruiter(t.db, center, 'Ama Owusu');
    const point = await insertRecruitingPoint(t.db, center, 'Makola');
    const course = await insertCourse(t.db, 'Good News', ['GN 1', 'GN 2']);
    const student = await insertStudent(t.db, {
      humanId: 4242,
      congregationId: a,
      studyHelperId: helper,
      country: 'GH',
      serviceCenterId: center,
      recruiterId: recruiter,
      recruitingPointId: point,
      attributes: { name: 'Kofi Asante', phone: '+233 24', gender: 'his_Male' },
      createdAt: daysAgo(9),
    });
    const oldFile = await insertFile(t.db, 'old', { uploadedAt: daysAgo(8), sentAt: daysAgo(8) });
    const newFile = await insertFile(t.db, 'new', { serviceCenterId: center, recruiterId: recruiter, recruitingPointId: point, uploadedAt: daysAgo(3), sentAt: daysAgo(3) });
    // A newer file still in Review does not count: its sheet may yet go to another student.
    const reviewFile = await insertFile(t.db, 'in review', { uploadedAt: daysAgo(1) });
    await insertAnswerSheet(t.db, oldFile, { studentId: student.id, lessonId: course.lessonIds[0], createdAt: daysAgo(8) });
    await insertAnswerSheet(t.db, newFile, { studentId: student.id, lessonId: course.lessonIds[1], createdAt: daysAgo(3) });
    await insertAnswerSheet(t.db, reviewFile, { studentId: student.id, lessonId: course.lessonIds[0], createdAt: daysAgo(1) });

    const { status, body } = await getJson(t.app, await coordinator(t.app, a), `/api/students/${student.id}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      id: student.id,
      human_id: 4242,
      name: 'Kofi Asante',
      country: { iso_code: 'GH', display_name: 'Ghana' },
      congregation_id: a,
      congregation: { id: a, wbs_code: 'US 1111', display_name: 'Springfield' },
      study_helper: { id: helper, name: 'Linda Carter' },
      latest_answer_sheet: {
        file: {
          service_center: { id: center, name: 'Accra Center' },
          recruiting_point: { id: point, name: 'Makola' },
          recruiter: { id: recruiter, name: 'Ama Owusu' },
          uploaded_at: daysAgo(3).toISOString(),
        },
        lesson: { id: course.lessonIds[1], name: 'GN 2', number: 2, course_id: course.courseId },
      },
      recruiter: { id: recruiter, name: 'Ama Owusu' },
      recruiting_point: { id: point, name: 'Makola' },
      service_center: { id: center, name: 'Accra Center' },
      created_at: daysAgo(9).toISOString(),
      last_active_at: null,
      attributes: { name: 'Kofi Asante', phone: '+233 24', gender: 'his_Male' },
    });
  });

  it('gives null references, not missing ones, for a bare student', async () => {
    const student = await insertStudent(t.db, {});
    const { body } = await getJson<Student>(t.app, await admin(t.app), `/api/students/${student.id}`);
    expect(body).toMatchObject({
      name: '',
      country: null,
      congregation_id: null,
      congregation: null,
      study_helper: null,
      latest_answer_sheet: null,
      attributes: {},
    });
  });

  it("answers 404 Student not found for an unknown id and for another congregation's student", async () => {
    const { a, s } = await population();
    const notFound = { status: 404, body: { detail: 'Student not found' } };
    expect(await getJson(t.app, await admin(t.app), `/api/students/${MISSING}`)).toEqual(notFound);
    const me = await coordinator(t.app, a);
    expect(await getJson(t.app, me, `/api/students/${s.s1010.id}`)).toEqual(notFound);
    expect(await getJson(t.app, me, `/api/students/${s.s2001.id}`)).toEqual(notFound);
  });
});

describe('PATCH /api/students/{id}', () => {
  it('merges only the attributes sent, and null clears one', async () => {
    const a = await insertCongregation(t.db, 'US 1111');
    const student = await insertStudent(t.db, { congregationId: a, attributes: { name: 'Kofi', email: 'k@example.org', age: 30 } });
    const me = await coordinator(t.app, a);
    const response = await call(t.app, me, 'PATCH', `/api/students/${student.id}`, {
      attributes: { phone: '+233 24 000', email: null, gender: 'her_Female', has_bible: 'yes' },
    });
    expect(response.status).toBe(200);
    expect((response.body as Student).attributes).toEqual({ name: 'Kofi', age: 30, phone: '+233 24 000', gender: 'her_Female', has_bible: 'yes' });
    const stored = await t.db.one<{ attributes: unknown }>('SELECT attributes FROM students WHERE id = $1', [student.id]);
    expect(stored.attributes).toEqual({ name: 'Kofi', age: 30, phone: '+233 24 000', gender: 'her_Female', has_bible: 'yes' });
    const renamed = await call(t.app, me, 'PATCH', `/api/students/${student.id}`, { attributes: { name: 'Kofi Asante' } });
    expect(renamed.body).toMatchObject({ name: 'Kofi Asante', attributes: { name: 'Kofi Asante', age: 30 } });
  });

  it('refuses enum values, unknown fields and bodies that are not exactly one kind of change', async () => {
    const student = await insertStudent(t.db, { attributes: { name: 'Kofi' } });
    const me = await admin(t.app);
    const bodies = [
      { attributes: { gender: 'male' } },
      { attributes: { relationship_status: 'complicated' } },
      { attributes: { has_bible: 'maybe' } },
      { attributes: { shoe_size: 44 } },
      { attributes: { name: 'x' }, study_helper: null },
      {},
    ];
    for (const body of bodies) {
      const response = await call(t.app, me, 'PATCH', `/api/students/${student.id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((response.body as { detail: { error_type: string } }).detail.error_type).toBe('VALIDATION_ERROR');
    }
    const stored = await t.db.one<{ attributes: unknown }>('SELECT attributes FROM students WHERE id = $1', [student.id]);
    expect(stored.attributes).toEqual({ name: 'Kofi' });
  });

  it('lets an admin set or clear the congregation, which ends the study helper link', async () => {
    const { b, helperA, s } = await population();
    const me = await admin(t.app);
    const moved = await call(t.app, me, 'PATCH', `/api/students/${s.s1001.id}`, { congregation: b });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ congregation_id: b, congregation: { id: b, wbs_code: 'US 2222' }, study_helper: null });
    const cleared = await call(t.app, me, 'PATCH', `/api/students/${s.s10001.id}`, { congregation: null });
    expect(cleared.body).toMatchObject({ congregation_id: null, congregation: null, study_helper: null });
    // Same congregation again keeps the helper.
    const a = (await t.db.one<{ congregation_id: string }>('SELECT congregation_id FROM study_helpers WHERE id = $1', [helperA])).congregation_id;
    await t.db.query('UPDATE students SET congregation_id = $2, study_helper_id = $3 WHERE id = $1', [s.s1002.id, a, helperA]);
    const same = await call(t.app, me, 'PATCH', `/api/students/${s.s1002.id}`, { congregation: a });
    expect(same.body).toMatchObject({ congregation_id: a, study_helper: { id: helperA } });
  });

  it('refuses a congregation change to a coordinator (403) and an unknown congregation (400)', async () => {
    const { a, b, s } = await population();
    const forbidden = await call(t.app, await coordinator(t.app, a), 'PATCH', `/api/students/${s.s1001.id}`, { congregation: b });
    expect(forbidden).toMatchObject({ status: 403, body: { detail: 'Forbidden' } });
    const unknown = await call(t.app, await admin(t.app), 'PATCH', `/api/students/${s.s1001.id}`, { congregation: MISSING });
    expect(unknown).toMatchObject({ status: 400, body: { detail: { error_type: 'VALIDATION_ERROR', message: 'Unknown congregation.' } } });
    const row = await t.db.one<{ congregation_id: string }>('SELECT congregation_id FROM students WHERE id = $1', [s.s1001.id]);
    expect(row.congregation_id).toBe(a);
  });

  it("sets a study helper of the student's own congregation, or clears it", async () => {
    const { a, s } = await population();
    const other = await insertStudyHelper(t.db, a, 'Second Helper');
    const me = await coordinator(t.app, a);
    const set = await call(t.app, me, 'PATCH', `/api/students/${s.s1002.id}`, { study_helper: other });
    expect(set).toMatchObject({ status: 200, body: { study_helper: { id: other, name: 'Second Helper' } } });
    const cleared = await call(t.app, me, 'PATCH', `/api/students/${s.s1002.id}`, { study_helper: null });
    expect(cleared).toMatchObject({ status: 200, body: { study_helper: null } });
  });

  it("refuses a helper of another congregation, an unknown helper, and another congregation's student", async () => {
    const { a, helperA, helperB, s } = await population();
    const me = await coordinator(t.app, a);
    const wrongHelper = await call(t.app, me, 'PATCH', `/api/students/${s.s1002.id}`, { study_helper: helperB });
    expect(wrongHelper).toMatchObject({
      status: 400,
      body: { detail: { error_type: 'VALIDATION_ERROR', message: "The study helper must belong to the student's congregation." } },
    });
    const unknown = await call(t.app, me, 'PATCH', `/api/students/${s.s1002.id}`, { study_helper: MISSING });
    expect(unknown).toMatchObject({ status: 400, body: { detail: { message: 'Unknown study helper.' } } });
    const notMine = await call(t.app, me, 'PATCH', `/api/students/${s.s1010.id}`, { study_helper: helperA });
    expect(notMine).toMatchObject({ status: 404, body: { detail: 'Student not found' } });
    const attributes = await call(t.app, me, 'PATCH', `/api/students/${s.s1010.id}`, { attributes: { name: 'x' } });
    expect(attributes).toMatchObject({ status: 404, body: { detail: 'Student not found' } });
    // A student without a congregation can have no helper.
    const homeless = await call(t.app, await admin(t.app), 'PATCH', `/api/students/${s.s2001.id}`, { study_helper: helperA });
    expect(homeless.status).toBe(400);
    const rows = await t.db.query<{ study_helper_id: string | null }>(
      'SELECT study_helper_id FROM students WHERE id = ANY($1::uuid[]) ORDER BY human_id',
      [[s.s1002.id, s.s1010.id, s.s2001.id]],
    );
    expect(rows.map((row) => row.study_helper_id)).toEqual([null, expect.any(String), null]);
  });

  it('answers 404 for an unknown student', async () => {
    const response = await call(t.app, await admin(t.app), 'PATCH', `/api/students/${MISSING}`, { attributes: { name: 'x' } });
    expect(response).toMatchObject({ status: 404, body: { detail: 'Student not found' } });
  });
});

describe('GET /api/students/{id}/answer-sheets', () => {
  it("lists the student's answer sheets newest first in the AnswerSheet shape", async () => {
    const a = await insertCongregation(t.db, 'US 1111', 'Springfield');
    const helper = await insertStudyHelper(t.db, a, 'Linda');
    const student = await insertStudent(t.db, { humanId: 5000, congregationId: a, studyHelperId: helper, attributes: { name: 'Kofi' } });
    const someoneElse = await insertStudent(t.db, { congregationId: a });
    const course = await insertCourse(t.db, 'Good News', ['GN 1', 'GN 2']);
    const file = await insertFile(t.db, 'Accra batch', { uploadedAt: daysAgo(6) });
    const older = await insertAnswerSheet(t.db, file, { studentId: student.id, lessonId: course.lessonIds[0], createdAt: daysAgo(6) });
    const newer = await insertAnswerSheet(t.db, file, {
      studentId: student.id,
      lessonId: course.lessonIds[1],
      assignedGroup: a,
      graded: true,
      createdAt: daysAgo(2),
    });
    await insertAnswerSheet(t.db, file, { studentId: someoneElse.id });
    await insertPage(t.db, file, 1, newer);
    await insertPage(t.db, file, 2, newer);

    const { status, body } = await getJson<Array<Record<string, unknown>>>(
      t.app,
      await admin(t.app),
      `/api/students/${student.id}/answer-sheets`,
    );
    expect(status).toBe(200);
    expect(body.map((sheet) => sheet.id)).toEqual([newer, older]);
    // The coordinator sees its congregation's sheets once their file was sent to it.
    const seen = async () => (await getJson<Array<{ id: string }>>(t.app, await coordinator(t.app, a), `/api/students/${student.id}/answer-sheets`)).body.map((sheet) => sheet.id);
    expect(await seen()).toEqual([]);
    await t.db.query('INSERT INTO file_congregations (file_id, congregation_id) VALUES ($1, $2)', [file, a]);
    expect(await seen()).toEqual([newer]);
    expect(body[0]).toEqual({
      id: newer,
      file_id: file,
      file: { name: 'Accra batch', uploaded_at: daysAgo(6).toISOString() },
      student: { id: student.id, human_id: 5000, name: 'Kofi', study_helper: { id: helper, name: 'Linda' } },
      lesson: { id: course.lessonIds[1], name: 'GN 2', number: 2, course_id: course.courseId },
      course: { id: course.courseId, name: 'Good News' },
      congregation: { id: a, wbs_code: 'US 1111', display_name: 'Springfield' },
      graded: true,
      assigned_group: a,
      is_baptism_request: false,
      page_count: 2,
      unrecognized_count: 0,
      mismatched_count: 0,
      flagged_count: 0,
      duplicate: false,
      duplicate_kept: false,
      first_feedback_at: null,
      sent: false,
    });
    expect(body[1]).toMatchObject({ congregation: null, assigned_group: null, graded: false, page_count: 0 });
  });

  it("answers 404 for another congregation's student", async () => {
    const { a, s } = await population();
    expect(await getJson(t.app, await coordinator(t.app, a), `/api/students/${s.s1010.id}/answer-sheets`)).toEqual({
      status: 404,
      body: { detail: 'Student not found' },
    });
    expect((await getJson(t.app, await admin(t.app), `/api/students/${s.s1010.id}/answer-sheets`)).body).toEqual([]);
  });
});

describe('GET /api/study-helper/{id}/students', () => {
  it("pages a helper's students by human id", async () => {
    const { a, helperA } = await population();
    const me = await coordinator(t.app, a);
    const { status, body } = await getJson<Listed<Student>>(t.app, me, `/api/study-helper/${helperA}/students`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 2, skip: 0, limit: 10 });
    expect(body.items.map((s) => s.human_id)).toEqual([1001, 10001]);
    const page = await getJson<Listed<Student>>(t.app, me, `/api/study-helper/${helperA}/students?skip=1&limit=1`);
    expect(page.body).toMatchObject({ total: 2, skip: 1, limit: 1 });
    expect(page.body.items.map((s) => s.human_id)).toEqual([10001]);
  });

  it("answers 404 for an unknown helper or another congregation's helper", async () => {
    const { a, helperB } = await population();
    const notFound = { status: 404, body: { detail: 'Study helper not found' } };
    expect(await getJson(t.app, await coordinator(t.app, a), `/api/study-helper/${helperB}/students`)).toEqual(notFound);
    expect(await getJson(t.app, await admin(t.app), `/api/study-helper/${MISSING}/students`)).toEqual(notFound);
    expect((await getJson<Listed<Student>>(t.app, await admin(t.app), `/api/study-helper/${helperB}/students`)).body.total).toBe(1);
  });
});
