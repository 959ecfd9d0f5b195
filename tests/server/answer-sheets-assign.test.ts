// Students belong to congregations (issue 21, items 4-6): assigning a sheet gives its student a
// congregation when it has none; the admin moves a student on its card and its sheets not sent
// follow; once a file is sent (or being sent) its sheets' congregations are fixed (409
// SHEET_ALREADY_SENT); a coordinator's answers name only its own congregation. Migration 012
// gives existing students the congregation of their latest assigned sheet.
import { describe, expect, it } from 'vitest';
import { readMigrations } from '../../server/db/migrate';
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
  insertStudent,
  insertStudyHelper,
  useRouteTests,
} from './support';

const t = useRouteTests();

const SENT_ERROR = 'SHEET_ALREADY_SENT';

async function congregationOf(studentId: string): Promise<string | null> {
  return (await t.db.one<{ congregation_id: string | null }>('SELECT congregation_id FROM students WHERE id = $1', [studentId])).congregation_id;
}

async function groupOf(sheetId: string): Promise<string | null> {
  return (await t.db.one<{ assigned_group: string | null }>('SELECT assigned_group FROM answer_sheets WHERE id = $1', [sheetId])).assigned_group;
}

/** A file with one kept sheet per student given (page n for the n-th), not sent. */
async function fileWith(name: string, students: (string | null)[], options: { sentAt?: Date; assignedGroup?: string } = {}) {
  const file = await insertFile(t.db, name, { sentAt: options.sentAt ?? null });
  const sheets: string[] = [];
  for (const [index, studentId] of students.entries()) {
    const sheet = await insertAnswerSheet(t.db, file, { studentId, assignedGroup: options.assignedGroup ?? null });
    await insertPage(t.db, file, index + 1, sheet);
    sheets.push(sheet);
  }
  return { file, sheets };
}

/** Send made the file's rows of file_congregations: only then do its congregations see it. */
async function sendTo(fileId: string, ...congregations: string[]) {
  await t.db.query('UPDATE files SET sent_at = coalesce(sent_at, now()) WHERE id = $1', [fileId]);
  for (const congregation of congregations) {
    await t.db.query('INSERT INTO file_congregations (file_id, congregation_id) VALUES ($1, $2)', [fileId, congregation]);
  }
}

describe('assigning gives a student without a congregation that congregation', () => {
  it('one sheet at a time: only a student who has none takes it; unassigning leaves the student as it is', async () => {
    const a = await insertCongregation(t.db, 'GH 0001');
    const b = await insertCongregation(t.db, 'GH 0002');
    const newcomer = await insertStudent(t.db);
    const member = await insertStudent(t.db, { congregationId: b });
    const { sheets } = await fileWith('Intro', [newcomer.id, member.id, null]);
    const me = await admin(t.app);

    const first = await call(t.app, me, 'PATCH', `/api/answer-sheets/${sheets[0]}`, { assigned_group: a });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ assigned_group: a, sent: false });
    expect(await congregationOf(newcomer.id)).toBe(a);

    // A student who has a congregation keeps it, whatever its sheet is assigned to.
    expect((await call(t.app, me, 'PATCH', `/api/answer-sheets/${sheets[1]}`, { assigned_group: a })).status).toBe(200);
    expect(await congregationOf(member.id)).toBe(b);
    // A sheet without a student is assigned all the same.
    expect((await call(t.app, me, 'PATCH', `/api/answer-sheets/${sheets[2]}`, { assigned_group: a })).status).toBe(200);
    expect(await groupOf(sheets[2]!)).toBe(a);

    expect((await call(t.app, me, 'PATCH', `/api/answer-sheets/${sheets[0]}`, { assigned_group: null })).status).toBe(200);
    expect(await groupOf(sheets[0]!)).toBeNull();
    expect(await congregationOf(newcomer.id)).toBe(a);
  });

  it('a whole file: the students of its kept sheets take it, then its coordinator lists and opens them', async () => {
    const a = await insertCongregation(t.db, 'GH 0001');
    const b = await insertCongregation(t.db, 'GH 0002');
    const first = await insertStudent(t.db, { humanId: 7001 });
    const second = await insertStudent(t.db, { humanId: 7002 });
    const member = await insertStudent(t.db, { humanId: 7003, congregationId: b });
    const ignored = await insertStudent(t.db, { humanId: 7004 });
    const { file } = await fileWith('Intro', [first.id, second.id, member.id]);
    // A sheet whose only page is ignored is not assigned, nor is its student given a congregation.
    const dropped = await insertAnswerSheet(t.db, file, { studentId: ignored.id });
    await t.db.query('INSERT INTO pages (file_id, page_number, answer_sheet_id, ignored) VALUES ($1, 9, $2, true)', [file, dropped]);

    const assigned = await call(t.app, await admin(t.app), 'PATCH', `/api/answer-sheets?file=${file}`, { assigned_group: a });
    expect(assigned).toMatchObject({ status: 200, body: { updated: 3 } });
    expect(await congregationOf(first.id)).toBe(a);
    expect(await congregationOf(second.id)).toBe(a);
    expect(await congregationOf(member.id)).toBe(b);
    expect(await congregationOf(ignored.id)).toBeNull();
    expect(await groupOf(dropped)).toBeNull();

    const coordinatorA = await coordinator(t.app, a);
    const listed = await getJson<{ items: { human_id: number }[]; total: number }>(t.app, coordinatorA, '/api/students');
    expect(listed.body.items.map((student) => student.human_id)).toEqual([7001, 7002]);
    const opened = await getJson(t.app, coordinatorA, `/api/students/${first.id}`);
    expect(opened).toMatchObject({ status: 200, body: { id: first.id, congregation_id: a, congregation: { id: a, wbs_code: 'GH 0001' } } });
    expect((await getJson(t.app, coordinatorA, `/api/students/${member.id}`)).status).toBe(404);
  });
});

describe('after Send, assignments are fixed', () => {
  it('refuses to change a sent sheet congregation, one sheet or the whole file, with 409 SHEET_ALREADY_SENT', async () => {
    const a = await insertCongregation(t.db, 'GH 0001');
    const b = await insertCongregation(t.db, 'GH 0002');
    const student = await insertStudent(t.db, { congregationId: a });
    const { lessonIds } = await insertCourse(t.db, 'Good News', ['One', 'Two']);
    const { file, sheets } = await fileWith('Sent', [student.id, null], { sentAt: daysAgo(1), assignedGroup: a });
    const me = await admin(t.app);

    expect((await getJson(t.app, me, `/api/answer-sheets/${sheets[0]}`)).body).toMatchObject({ sent: true });
    const one = await call(t.app, me, 'PATCH', `/api/answer-sheets/${sheets[0]}`, { assigned_group: b });
    expect(one.status).toBe(409);
    expect(one.body).toEqual({ detail: { error_type: SENT_ERROR, message: 'This response was sent to its congregation; its congregation can no longer change.' } });
    expect((await call(t.app, me, 'PATCH', `/api/answer-sheets/${sheets[0]}`, { assigned_group: null })).status).toBe(409);
    const all = await call(t.app, me, 'PATCH', `/api/answer-sheets?file=${file}`, { assigned_group: b });
    expect(all.status).toBe(409);
    expect(all.body).toMatchObject({ detail: { error_type: SENT_ERROR } });
    expect([await groupOf(sheets[0]!), await groupOf(sheets[1]!)]).toEqual([a, a]);

    // Nothing to change is no change: the same congregation again.
    expect((await call(t.app, me, 'PATCH', `/api/answer-sheets/${sheets[0]}`, { assigned_group: a })).status).toBe(200);
    expect((await call(t.app, me, 'PATCH', `/api/answer-sheets?file=${file}`, { assigned_group: a })).body).toEqual({ updated: 0 });
    // The lesson is fixed too: the packet was printed with it.
    const lesson = await call(t.app, me, 'PATCH', `/api/answer-sheets/${sheets[0]}`, { lesson: lessonIds[1] });
    expect(lesson).toMatchObject({ status: 409, body: { detail: { error_type: SENT_ERROR, message: 'This response was sent to its congregation; its lesson can no longer change.' } } });
    expect((await t.db.one<{ lesson_id: string | null }>('SELECT lesson_id FROM answer_sheets WHERE id = $1', [sheets[0]])).lesson_id).not.toBe(lessonIds[1]);
  });

  it('counts a file being sent (send requested, packets under way) as sent', async () => {
    const a = await insertCongregation(t.db, 'GH 0001');
    const b = await insertCongregation(t.db, 'GH 0002');
    const { file, sheets } = await fileWith('Sending', [null], { assignedGroup: a });
    await t.db.query('UPDATE files SET send_requested_at = now() WHERE id = $1', [file]);
    const me = await admin(t.app);
    expect((await getJson(t.app, me, `/api/answer-sheets/${sheets[0]}`)).body).toMatchObject({ sent: true });
    expect((await call(t.app, me, 'PATCH', `/api/answer-sheets/${sheets[0]}`, { assigned_group: b })).status).toBe(409);
    expect((await call(t.app, me, 'PATCH', `/api/answer-sheets?file=${file}`, { assigned_group: b })).status).toBe(409);
    expect(await groupOf(sheets[0]!)).toBe(a);
  });
});

describe("the admin moves a student on the student card", () => {
  it("takes the student's sheets not sent yet along; sent ones keep their congregation", async () => {
    const a = await insertCongregation(t.db, 'GH 0001');
    const b = await insertCongregation(t.db, 'GH 0002');
    const helper = await insertStudyHelper(t.db, a, 'Linda');
    const student = await insertStudent(t.db, { congregationId: a, studyHelperId: helper });
    const other = await insertStudent(t.db, { congregationId: a });
    const sent = await fileWith('Sent', [student.id], { sentAt: daysAgo(3), assignedGroup: a });
    const waiting = await fileWith('Waiting', [student.id, other.id], { assignedGroup: a });
    const unassigned = await fileWith('Unassigned', [student.id]);
    const me = await admin(t.app);

    const moved = await call(t.app, me, 'PATCH', `/api/students/${student.id}`, { congregation: b });
    expect(moved).toMatchObject({ status: 200, body: { congregation_id: b, study_helper: null } });
    expect(await groupOf(sent.sheets[0]!)).toBe(a);
    expect(await groupOf(waiting.sheets[0]!)).toBe(b);
    expect(await groupOf(waiting.sheets[1]!)).toBe(a);
    expect(await groupOf(unassigned.sheets[0]!)).toBe(b);

    // No congregation: the sheets stay where they are.
    expect((await call(t.app, me, 'PATCH', `/api/students/${student.id}`, { congregation: null })).status).toBe(200);
    expect(await groupOf(waiting.sheets[0]!)).toBe(b);
    expect(await congregationOf(student.id)).toBeNull();
  });

  it("shows the new congregation's coordinator the student but not the sheets sent to the old one", async () => {
    const a = await insertCongregation(t.db, 'GH 0001');
    const b = await insertCongregation(t.db, 'GH 0002', 'Second congregation');
    const student = await insertStudent(t.db, { congregationId: a });
    const sent = await fileWith('Sent', [student.id], { sentAt: daysAgo(3), assignedGroup: a });
    await sendTo(sent.file, a);
    const waiting = await fileWith('Waiting', [student.id], { assignedGroup: a });
    expect((await call(t.app, await admin(t.app), 'PATCH', `/api/students/${student.id}`, { congregation: b })).status).toBe(200);
    expect(await groupOf(waiting.sheets[0]!)).toBe(b);

    const coordinatorB = await coordinator(t.app, b);
    const sheetsOfB = () => getJson<{ id: string; assigned_group: string | null }[]>(t.app, coordinatorB, `/api/students/${student.id}/answer-sheets`);
    // The sheet that followed the student is B's once its file is sent to B (in Review it is the admins').
    expect(await sheetsOfB()).toMatchObject({ status: 200, body: [] });
    await sendTo(waiting.file, b);
    const sheets = await sheetsOfB();
    expect(sheets.status).toBe(200);
    expect(sheets.body.map((sheet) => sheet.id)).toEqual([waiting.sheets[0]]);
    expect(JSON.stringify(sheets.body)).not.toContain(a);
    // The old congregation's coordinator no longer finds the student, yet keeps the sheet it was sent.
    const coordinatorA = await coordinator(t.app, a);
    expect((await getJson(t.app, coordinatorA, `/api/students/${student.id}`)).status).toBe(404);
    expect((await getJson(t.app, coordinatorA, `/api/answer-sheets/${sent.sheets[0]}`)).status).toBe(200);
    // Nor can B flag the sheet sent to A as a baptism request (the answer would name A).
    expect((await call(t.app, coordinatorB, 'POST', `/api/responses/${sent.sheets[0]}/baptism-request`)).status).toBe(404);
    expect((await call(t.app, coordinatorB, 'POST', `/api/responses/${waiting.sheets[0]}/baptism-request`)).status).toBe(200);
  });
});

describe("a coordinator's answers name only its own congregation", () => {
  it('file detail, file summary and the files list list only its congregation; the admin sees every one', async () => {
    const a = await insertCongregation(t.db, 'GH 0001', 'First');
    const b = await insertCongregation(t.db, 'GH 0002', 'Second');
    const file = await insertFile(t.db, 'Shared');
    for (const [index, group] of [a, b, b].entries()) {
      const sheet = await insertAnswerSheet(t.db, file, { assignedGroup: group });
      await insertPage(t.db, file, index + 1, sheet);
    }
    const coordinatorA = await coordinator(t.app, a);
    // Not sent yet: the file is the admins' alone.
    expect((await getJson(t.app, coordinatorA, `/api/file/${file}`)).status).toBe(403);
    expect((await getJson<{ items: unknown[] }>(t.app, coordinatorA, '/api/files')).body.items).toEqual([]);
    await sendTo(file, a, b);
    // Its own sheet's page alone (B's two are not A's to count).
    expect((await getJson<{ page_count?: number }>(t.app, coordinatorA, `/api/file/${file}`)).body.page_count).toBe(1);
    for (const url of [`/api/file/${file}`, `/api/files/${file}`]) {
      const seen = await getJson<{ congregations: unknown[]; responses_count: number }>(t.app, coordinatorA, url);
      expect(seen.status, url).toBe(200);
      expect(seen.body.congregations, url).toEqual([{ id: a, wbs_code: 'GH 0001', display_name: 'First' }]);
      expect(seen.body.responses_count, url).toBe(1);
      expect(JSON.stringify(seen.body), url).not.toContain(b);
      expect(JSON.stringify(seen.body), url).not.toContain('Second');
    }
    const listed = await getJson<{ items: { congregations: unknown[] }[] }>(t.app, coordinatorA, '/api/files');
    expect(listed.body.items.map((item) => item.congregations)).toEqual([[{ id: a, wbs_code: 'GH 0001', display_name: 'First' }]]);

    const whole = await getJson<{ congregations: { id: string }[] }>(t.app, await admin(t.app), `/api/file/${file}`);
    expect(whole.body.congregations.map((congregation) => congregation.id)).toEqual([a, b]);
  });
});

describe('migration 012', () => {
  it('gives students with assigned sheets and no congregation the congregation of their latest assigned sheet', async () => {
    const migration = readMigrations().find((m) => m.name.startsWith('012_'));
    expect(migration?.name).toBe('012_students_take_congregations.sql');
    const a = await insertCongregation(t.db, 'GH 0001');
    const b = await insertCongregation(t.db, 'GH 0002');
    const c = await insertCongregation(t.db, 'GH 0003');
    const file = await insertFile(t.db, 'Before');
    const moved = await insertStudent(t.db);
    const never = await insertStudent(t.db);
    const member = await insertStudent(t.db, { congregationId: c });
    await insertAnswerSheet(t.db, file, { studentId: moved.id, assignedGroup: a, createdAt: daysAgo(5) });
    await insertAnswerSheet(t.db, file, { studentId: moved.id, assignedGroup: b, createdAt: daysAgo(3) });
    // A newer sheet not assigned yet does not count.
    await insertAnswerSheet(t.db, file, { studentId: moved.id, createdAt: daysAgo(1) });
    await insertAnswerSheet(t.db, file, { studentId: never.id, createdAt: daysAgo(1) });
    await insertAnswerSheet(t.db, file, { studentId: member.id, assignedGroup: a, createdAt: daysAgo(1) });

    await t.db.exec(migration!.sql);
    expect(await congregationOf(moved.id)).toBe(b);
    expect(await congregationOf(never.id)).toBeNull();
    expect(await congregationOf(member.id)).toBe(c);
  });
});
