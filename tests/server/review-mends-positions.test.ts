// Every Review mend wherever its page is: on the file's first, a middle or its last response,
// across responses of the file, with the code of a student of the file or of the programme. A
// mend that cannot be made says why in a sentence (never "Invalid input"), and changes nothing.
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { newCodeId } from '../../server/domain/codes';
import type { SignedIn } from '../helpers/sign-in';
import { usePipelineApp } from './pipeline-harness';
import { admin, daysAgo, insertAnswerSheet, insertCongregation, insertCourse, insertFile, insertStudent } from './support';

const t = usePipelineApp({ jobs: { work: false } });

async function call(who: SignedIn, method: 'GET' | 'PATCH', url: string, payload?: object) {
  const response = await t.current.app.inject({ method, url, headers: who.headers, ...(payload && { payload }) });
  return { status: response.statusCode, body: response.json() as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const POSITIONS = [
  ['first', 0],
  ['middle', 1],
  ['last', 2],
] as const;

interface Template {
  id: string;
  lesson_id: string;
  page_number: number;
}

/**
 * A file split by codes, three students with lesson One (two pages, each with its duplex back):
 *   sheet 0: Ama   pages 1 (One p1), 2 (One p2), 3 blank back
 *   sheet 1: Kofi  pages 4 (One p1), 5 (One p2), 6 blank back
 *   sheet 2: Esi   pages 7 (One p1), 8 (One p2), 9 blank back
 * Each student belongs to a congregation of their own; each page carries the student's S code.
 * Yaw is a student of the programme with no sheet in this file.
 */
async function codeWorld() {
  const db = t.current.db;
  const { lessonIds } = await insertCourse(db, 'Good News', ['One', 'Two'], 2);
  const templates = await db.query<Template>(
    'SELECT pt.id, pt.lesson_id, pt.page_number FROM page_templates pt JOIN lessons l ON l.id = pt.lesson_id WHERE pt.lesson_id = ANY($1::uuid[]) ORDER BY l.number, pt.page_number',
    [lessonIds],
  );
  const fileId = await insertFile(db, 'Lesson batch');
  const names = ['Ama', 'Kofi', 'Esi', 'Yaw'];
  const students: { id: string; congregation: string; codes: string[] }[] = [];
  for (const [index, name] of names.entries()) {
    const congregation = await insertCongregation(db, `GH 000${index + 1}`);
    const student = await insertStudent(db, { attributes: { name }, congregationId: congregation, createdAt: daysAgo(30) });
    const codes: string[] = [];
    for (const template of templates) {
      const code = newCodeId();
      await db.query(`INSERT INTO printed_codes (code_id, prefix, target_id, student_id) VALUES ($1, 's', $2, $3)`, [code, template.id, student.id]);
      codes.push(code);
    }
    students.push({ id: student.id, congregation, codes });
  }
  const sheets: string[] = [];
  const pages: string[] = [];
  for (const index of [0, 1, 2]) {
    const student = students[index]!;
    const sheet = await insertAnswerSheet(db, fileId, { studentId: student.id, lessonId: lessonIds[0]!, assignedGroup: student.congregation });
    sheets.push(sheet);
    for (const [offset, template] of [templates[0], templates[1], null].entries()) {
      pages.push(
        (
          await db.one<{ id: string }>(
            `INSERT INTO pages (file_id, page_number, answer_sheet_id, template_id, code_prefix, code_id, blank, ignored)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`,
            [fileId, index * 3 + offset + 1, sheet, template?.id ?? null, template ? 's' : null, template ? student.codes[offset] : null, template === null],
          )
        ).id,
      );
    }
  }
  return { db, fileId, lessonIds, templates, students, sheets, pages };
}

const sheetsOf = (db: Database, fileId: string) =>
  db.query<{ id: string; sequence: number; student_id: string | null; lesson_id: string | null; assigned_group: string | null; pages: number[] }>(
    `SELECT a.id, a.sequence, a.student_id, a.lesson_id, a.assigned_group,
            coalesce((SELECT array_agg(p.page_number ORDER BY p.page_number) FROM pages p WHERE p.answer_sheet_id = a.id), '{}') AS pages
     FROM answer_sheets a WHERE a.file_id = $1 ORDER BY a.sequence`,
    [fileId],
  );
const layout = async (db: Database, fileId: string) => (await sheetsOf(db, fileId)).map((sheet) => sheet.pages);
/** Sheets by position, page numbers of the world's sheet `index` (0-based) shifted by three a sheet. */
const own = (index: number) => [index * 3 + 1, index * 3 + 2, index * 3 + 3];

/** A refusal in words: the spec's shape, a sentence, never the database's "Invalid input". */
function expectRefusedInWords(answer: { status: number; body: any }, status: 400 | 409) { // eslint-disable-line @typescript-eslint/no-explicit-any
  expect(answer.status).toBe(status);
  expect(answer.body.detail.error_type).toBe(status === 400 ? 'VALIDATION_ERROR' : 'CONFLICT');
  expect(answer.body.detail.message).toMatch(/\w+ \w+ \w+/);
  expect(JSON.stringify(answer.body)).not.toMatch(/Invalid input/);
}

describe('Review mends at every position of a file', () => {
  it.each(POSITIONS)('starts a new response at a page of the %s response, right after it, with what its code says', async (_where, index) => {
    const w = await codeWorld();
    const me = await admin(t.current.app);
    // Page 2 of the sheet is really Yaw's page 1 (his S code), and the back after it is its back.
    const yaw = w.students[3]!;
    await w.db.query('UPDATE pages SET code_id = $2, template_id = $3 WHERE id = $1', [w.pages[index * 3 + 1], yaw.codes[0], w.templates[0]!.id]);
    const started = await call(me, 'PATCH', `/api/pages/${w.pages[index * 3 + 1]}`, { new_sheet: true });
    expect(started.status).toBe(200);
    const sheets = await sheetsOf(w.db, w.fileId);
    const expected = [own(0), own(1), own(2)];
    expected.splice(index, 1, [index * 3 + 1], [index * 3 + 2, index * 3 + 3]);
    expect(sheets.map((sheet) => sheet.pages)).toEqual(expected);
    expect(sheets.map((sheet) => sheet.sequence)).toEqual([0, 1, 2, 3]);
    // The new response: Yaw, lesson One, Yaw's congregation; the one it came from is unchanged.
    expect(sheets[index + 1]).toMatchObject({ student_id: yaw.id, lesson_id: w.lessonIds[0], assigned_group: yaw.congregation });
    expect(sheets[index]).toMatchObject({ id: w.sheets[index], student_id: w.students[index]!.id, assigned_group: w.students[index]!.congregation });
    expect(started.body).toMatchObject({ answer_sheet: { id: sheets[index + 1]!.id, student: { id: yaw.id } }, mended: { action: 'new_sheet' } });
  });

  it.each(POSITIONS)('starts a new response at a codeless page of the %s response: no student, lesson or congregation is guessed', async (_where, index) => {
    const w = await codeWorld();
    const me = await admin(t.current.app);
    await w.db.query(`UPDATE pages SET code_id = NULL, code_prefix = NULL, template_id = NULL, flag = 'no_code_found' WHERE id = $1`, [w.pages[index * 3 + 1]]);
    const started = await call(me, 'PATCH', `/api/pages/${w.pages[index * 3 + 1]}`, { new_sheet: true });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ flagged: false, mended: { action: 'new_sheet' } });
    const sheets = await sheetsOf(w.db, w.fileId);
    expect(sheets).toHaveLength(4);
    expect(sheets[index + 1]).toMatchObject({ pages: [index * 3 + 2, index * 3 + 3], student_id: null, lesson_id: null, assigned_group: null });
  });

  it.each(POSITIONS)('moves a page of the %s response to another response, its blank back with it', async (_where, index) => {
    const w = await codeWorld();
    const me = await admin(t.current.app);
    const to = (index + 1) % 3;
    const moved = await call(me, 'PATCH', `/api/pages/${w.pages[index * 3 + 1]}`, { answer_sheet: w.sheets[to] });
    expect(moved.status).toBe(200);
    const expected = [own(0), own(1), own(2)];
    expected[index] = [index * 3 + 1];
    expected[to] = [...own(to), index * 3 + 2, index * 3 + 3].sort((a, b) => a - b);
    expect(await layout(w.db, w.fileId)).toEqual(expected);
    // A page that is a response's only kept page leaves nothing behind: the response goes.
    const again = await call(me, 'PATCH', `/api/pages/${w.pages[index * 3]}`, { answer_sheet: w.sheets[to] });
    expect(again.status).toBe(200);
    expect((await sheetsOf(w.db, w.fileId)).map((sheet) => sheet.id)).toEqual(w.sheets.filter((_, at) => at !== index));
    // The students of the programme stay: they exist for more than this file.
    expect(await w.db.maybeOne('SELECT 1 FROM students WHERE id = $1', [w.students[index]!.id])).not.toBeNull();
  });

  it.each(POSITIONS)('types the code of a student whose response is elsewhere in the file, on the %s response: the page joins it', async (_where, index) => {
    const w = await codeWorld();
    const me = await admin(t.current.app);
    const other = (index + 2) % 3;
    const typed = await call(me, 'PATCH', `/api/pages/${w.pages[index * 3 + 1]}`, { code: `S-${w.students[other]!.codes[1]}` });
    expect(typed.status).toBe(200);
    expect(typed.body).toMatchObject({ answer_sheet: { id: w.sheets[other], student: { id: w.students[other]!.id } }, mended: { action: 'code_typed' } });
    const expected = [own(0), own(1), own(2)];
    expected[index] = [index * 3 + 1];
    expected[other] = [...own(other), index * 3 + 2, index * 3 + 3].sort((a, b) => a - b);
    expect(await layout(w.db, w.fileId)).toEqual(expected);
  });

  const ELSEWHERE = POSITIONS.flatMap(([where, index]) => [
    [where, 'a student of the programme', index] as const,
    [where, 'a student of the file, of another lesson', index] as const,
  ]);
  it.each(ELSEWHERE)('types a code on a page of the %s response, of %s: a response of theirs starts right after', async (_where, whose, index) => {
    const w = await codeWorld();
    const me = await admin(t.current.app);
    // Yaw has no sheet in the file; the next sheet's student has one, but of lesson One, not Two.
    const [student, code] = whose === 'a student of the programme' ? [w.students[3]!, w.students[3]!.codes[1]!] : [w.students[(index + 1) % 3]!, w.students[(index + 1) % 3]!.codes[3]!];
    const typed = await call(me, 'PATCH', `/api/pages/${w.pages[index * 3 + 1]}`, { code: `S-${code}` });
    expect(typed.status).toBe(200);
    const sheets = await sheetsOf(w.db, w.fileId);
    expect(sheets.map((sheet) => sheet.sequence)).toEqual([0, 1, 2, 3]);
    expect(sheets[index]).toMatchObject({ id: w.sheets[index], student_id: w.students[index]!.id, pages: [index * 3 + 1] });
    expect(sheets[index + 1]).toMatchObject({ student_id: student.id, assigned_group: student.congregation, pages: [index * 3 + 2, index * 3 + 3] });
    expect(typed.body.answer_sheet.id).toBe(sheets[index + 1]!.id);
  });

  it.each(POSITIONS)('types a student’s code on the only page of the %s response: the response becomes theirs, with their congregation', async (_where, index) => {
    const w = await codeWorld();
    const me = await admin(t.current.app);
    await call(me, 'PATCH', `/api/pages/${w.pages[index * 3 + 1]}`, { new_sheet: true });
    const lone = (await sheetsOf(w.db, w.fileId))[index + 1]!;
    const yaw = w.students[3]!;
    const typed = await call(me, 'PATCH', `/api/pages/${w.pages[index * 3 + 1]}`, { code: `S-${yaw.codes[1]}` });
    expect(typed.status).toBe(200);
    expect(await sheetsOf(w.db, w.fileId)).toContainEqual({ ...lone, student_id: yaw.id, assigned_group: yaw.congregation });
  });

  it.each(POSITIONS)('joins the %s response to the one before it, or says why it cannot', async (_where, index) => {
    const w = await codeWorld();
    const me = await admin(t.current.app);
    const joined = await call(me, 'PATCH', `/api/answer-sheets/${w.sheets[index]}`, { join_previous: true });
    if (index === 0) {
      expectRefusedInWords(joined, 400);
      expect(await layout(w.db, w.fileId)).toEqual([own(0), own(1), own(2)]);
      return;
    }
    expect(joined.status).toBe(200);
    expect(joined.body.id).toBe(w.sheets[index - 1]);
    const expected = [own(0), own(1), own(2)];
    expected.splice(index - 1, 2, [...own(index - 1), ...own(index)]);
    expect(await layout(w.db, w.fileId)).toEqual(expected);
  });

  it.each(POSITIONS)('ignores, unignores and sets the template of a page of the %s response', async (_where, index) => {
    const w = await codeWorld();
    const me = await admin(t.current.app);
    const page = w.pages[index * 3 + 1];
    expect((await call(me, 'PATCH', `/api/pages/${page}`, { ignored: true })).body).toMatchObject({ ignored: true, mended: { action: 'ignored' } });
    expect((await call(me, 'PATCH', `/api/pages/${page}`, { ignored: false })).body).toMatchObject({ ignored: false, mended: { action: 'unignored' } });
    const set = await call(me, 'PATCH', `/api/pages/${page}`, { template: w.templates[2]!.id });
    expect(set.body).toMatchObject({ template: { id: w.templates[2]!.id }, mismatched: true, mended: { action: 'template_set' } });
    expect(await layout(w.db, w.fileId)).toEqual([own(0), own(1), own(2)]);
  });

  it('says in words why a mend cannot be made, and changes nothing', async () => {
    const w = await codeWorld();
    const me = await admin(t.current.app);
    const before = await sheetsOf(w.db, w.fileId);
    expectRefusedInWords(await call(me, 'PATCH', `/api/pages/${w.pages[3]}`, { new_sheet: true }), 400);
    expectRefusedInWords(await call(me, 'PATCH', `/api/pages/${w.pages[4]}`, { code: 'S-ZZZZ2345' }), 400);
    // A page set aside (on no response) cannot start one.
    await w.db.query('UPDATE pages SET answer_sheet_id = NULL WHERE id = $1', [w.pages[8]]);
    expectRefusedInWords(await call(me, 'PATCH', `/api/pages/${w.pages[8]}`, { new_sheet: true }), 400);
    await w.db.query('UPDATE pages SET answer_sheet_id = $2 WHERE id = $1', [w.pages[8], w.sheets[2]]);
    // A rule of the database refusing what a mend writes (here a test trigger) is a 409 in words.
    await w.db.exec(`CREATE FUNCTION refuse_mend() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused' USING ERRCODE = 'check_violation'; END $$;
      CREATE TRIGGER refuse_mend BEFORE INSERT ON answer_sheets FOR EACH ROW EXECUTE FUNCTION refuse_mend();`);
    try {
      expectRefusedInWords(await call(me, 'PATCH', `/api/pages/${w.pages[4]}`, { new_sheet: true }), 409);
    } finally {
      await w.db.exec('DROP TRIGGER refuse_mend ON answer_sheets; DROP FUNCTION refuse_mend();');
    }
    expect(await sheetsOf(w.db, w.fileId)).toEqual(before);
    expect(await w.db.maybeOne('SELECT 1 FROM review_mends')).toBeNull();
  });
});
