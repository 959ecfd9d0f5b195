// Review mends what the scan pipeline could not place with certainty: move a page to another
// sheet, start a new sheet at a page, join a sheet to the one before, type a page's code, ignore
// a stray intro sheet. Each mend is one PATCH, recorded (who, when), clears the flag, leaves no
// sheet or student half-changed, and is refused once the file is sent.
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import type { SignedIn } from '../helpers/sign-in';
import { usePipelineApp } from './pipeline-harness';
import { admin, coordinator, insertAnswerSheet, insertCongregation, insertCourse, insertFile, insertStudent } from './support';

const t = usePipelineApp({ jobs: { work: false } });

async function call(who: SignedIn, method: 'GET' | 'PATCH', url: string, payload?: object) {
  const response = await t.current.app.inject({ method, url, headers: who.headers, ...(payload && { payload }) });
  return { status: response.statusCode, body: response.json() as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function addPage(db: Database, fileId: string, pageNumber: number, sheetId: string | null, options: { templateId?: string; flag?: string; reason?: string; blank?: boolean } = {}) {
  return (
    await db.one<{ id: string }>(
      `INSERT INTO pages (file_id, page_number, answer_sheet_id, template_id, flag, unrecognized_reason, blank, ignored)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`,
      [fileId, pageNumber, sheetId, options.templateId ?? null, options.flag ?? null, options.reason ?? null, options.blank ?? false],
    )
  ).id;
}

/**
 * An intro file (two pages a sheet) as the pipeline leaves it when a student's page 2 came before
 * their page 1 and a letter lay between two students:
 *   sheet 0: Kofi  pages 1 (L1 p1), 2 (L1 p2), 3 blank back
 *   sheet 1: Yaw   page 4 (L1 p2, flagged out_of_order)   <- really Ama's page 2
 *   sheet 2: Ama   page 5 (L1 p1)
 *   sheet 3: Esi   page 6 (no code, flagged stray_page)   <- a letter
 *   sheet 4: Kwame pages 7 (L1 p1), 8 (L1 p2)
 */
async function introWorld() {
  const db = t.current.db;
  const { lessonIds } = await insertCourse(db, 'Good News', ['One', 'Two'], 2);
  const lesson = lessonIds[0]!;
  const templates = await db.query<{ id: string; page_number: number; code_id: string }>('SELECT id, page_number, code_id FROM page_templates WHERE lesson_id = $1 ORDER BY page_number', [lesson]);
  const [p1, p2] = templates.map((row) => row.id) as [string, string];
  const fileId = await insertFile(db, 'Intro batch');
  await db.query('UPDATE files SET answer_sheet_page_length = 2 WHERE id = $1', [fileId]);
  const names = ['Kofi', 'Yaw', 'Ama', 'Esi', 'Kwame'];
  const students: { id: string; human_id: number }[] = [];
  const sheets: string[] = [];
  for (const name of names) {
    const student = await insertStudent(db, { attributes: { name } });
    students.push(student);
    sheets.push(await insertAnswerSheet(db, fileId, { studentId: student.id, lessonId: name === 'Esi' ? null : lesson }));
  }
  const pages = [
    await addPage(db, fileId, 1, sheets[0]!, { templateId: p1 }),
    await addPage(db, fileId, 2, sheets[0]!, { templateId: p2 }),
    await addPage(db, fileId, 3, sheets[0]!, { blank: true }),
    await addPage(db, fileId, 4, sheets[1]!, { templateId: p2, flag: 'out_of_order' }),
    await addPage(db, fileId, 5, sheets[2]!, { templateId: p1 }),
    await addPage(db, fileId, 6, sheets[3]!, { flag: 'stray_page', reason: 'no_code_found' }),
    await addPage(db, fileId, 7, sheets[4]!, { templateId: p1 }),
    await addPage(db, fileId, 8, sheets[4]!, { templateId: p2 }),
  ];
  return { db, fileId, lesson, students, sheets, pages, templates };
}

const sheetsOf = (db: Database, fileId: string) =>
  db.query<{ id: string; sequence: number; student_id: string | null; pages: number[] }>(
    `SELECT a.id, a.sequence, a.student_id,
            coalesce((SELECT array_agg(p.page_number ORDER BY p.page_number) FROM pages p WHERE p.answer_sheet_id = a.id), '{}') AS pages
     FROM answer_sheets a WHERE a.file_id = $1 ORDER BY a.sequence`,
    [fileId],
  );
const studentExists = async (db: Database, id: string) => (await db.maybeOne('SELECT 1 FROM students WHERE id = $1', [id])) !== null;
const step = async (who: SignedIn, fileId: string) => (await call(who, 'GET', `/api/file/${fileId}/steps`)).body.step as string;

describe('Review mends', () => {
  it('shows each page’s reason, counts them by kind and lists the responses that have them', async () => {
    const w = await introWorld();
    const me = await admin(t.current.app);
    const page4 = await call(me, 'GET', `/api/pages/${w.pages[3]}`);
    expect(page4.body).toMatchObject({ review_reason: 'out_of_order', flagged: true, mended: null });
    expect((await call(me, 'GET', `/api/pages/${w.pages[2]}`)).body).toMatchObject({ review_reason: 'blank_back', flagged: false });
    expect((await call(me, 'GET', `/api/pages/${w.pages[0]}`)).body).toMatchObject({ review_reason: null, flagged: false });
    const stats = (await call(me, 'GET', `/api/file/${w.fileId}/stats`)).body;
    expect(stats.flagged).toBe(2);
    expect(stats.reasons).toEqual({ no_code_found: 0, unreadable: 0, unknown_code: 0, out_of_order: 1, stray_page: 1, another_course: 0, duplicate_sheet: 0, blank_back: 1, ambiguous_position: 0, page_missing: 0, scanned_twice: 0, already_uploaded: 0, too_complex: 0, no_sheet: 0, too_blurred: 0 });
    const listed = (await call(me, 'GET', `/api/answer-sheets?file=${w.fileId}&reason=stray_page`)).body;
    expect(listed.items.map((sheet: { id: string }) => sheet.id)).toEqual([w.sheets[3]]);
    expect(listed.items[0].flagged_count).toBe(1);
    expect(await step(me, w.fileId)).toBe('review');
  });

  it('moves a page to the sheet it belongs to; the sheet and the student made for it by mistake go', async () => {
    const w = await introWorld();
    const me = await admin(t.current.app);
    const moved = await call(me, 'PATCH', `/api/pages/${w.pages[3]}`, { answer_sheet: w.sheets[2] });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ flagged: false, answer_sheet: { id: w.sheets[2], student: { id: w.students[2]!.id } }, mended: { action: 'moved', by: 'admin@test.local' } });
    const sheets = await sheetsOf(w.db, w.fileId);
    expect(sheets.map((sheet) => sheet.pages)).toEqual([[1, 2, 3], [4, 5], [6], [7, 8]]);
    expect(await studentExists(w.db, w.students[1]!.id)).toBe(false);
    expect(await studentExists(w.db, w.students[2]!.id)).toBe(true);
    const recorded = await w.db.query<{ action: string; user_email: string }>('SELECT action, user_email FROM review_mends WHERE page_id = $1', [w.pages[3]]);
    expect(recorded).toEqual([{ action: 'moved', user_email: 'admin@test.local' }]);
  });

  it('keeps a student the file made while something outside Review names them; one nothing keeps goes with their sheet', async () => {
    const w = await introWorld();
    const me = await admin(t.current.app);
    // Yaw asked for baptism: when his only page turns out to be Ama's, he stays (with no sheet).
    await w.db.query('INSERT INTO baptism_requests (student_id) VALUES ($1)', [w.students[1]!.id]);
    expect((await call(me, 'PATCH', `/api/pages/${w.pages[3]}`, { answer_sheet: w.sheets[2] })).status).toBe(200);
    expect(await studentExists(w.db, w.students[1]!.id)).toBe(true);
    // Esi's sheet was a letter joined to the sheet before it: nothing keeps her.
    expect((await call(me, 'PATCH', `/api/answer-sheets/${w.sheets[3]}`, { join_previous: true })).status).toBe(200);
    expect(await studentExists(w.db, w.students[3]!.id)).toBe(false);
    // A student of an earlier file stays whatever happens to this file's sheets.
    await w.db.query(`UPDATE students SET created_at = now() - interval '1 day' WHERE id = $1`, [w.students[4]!.id]);
    for (const page of [w.pages[6], w.pages[7]]) expect((await call(me, 'PATCH', `/api/pages/${page}`, { ignored: true })).status).toBe(200);
    expect(await studentExists(w.db, w.students[4]!.id)).toBe(true);
  });

  it('removes a stray intro sheet by ignoring its page, leaving no empty student; the file then goes on', async () => {
    const w = await introWorld();
    const me = await admin(t.current.app);
    expect((await call(me, 'PATCH', `/api/pages/${w.pages[3]}`, { answer_sheet: w.sheets[2] })).status).toBe(200);
    expect(await step(me, w.fileId)).toBe('review');
    const ignored = await call(me, 'PATCH', `/api/pages/${w.pages[5]}`, { ignored: true });
    expect(ignored.body).toMatchObject({ ignored: true, flagged: false, mended: { action: 'ignored' } });
    expect(await studentExists(w.db, w.students[3]!.id)).toBe(false);
    expect((await sheetsOf(w.db, w.fileId))[2]).toMatchObject({ pages: [6], student_id: null });
    expect(await step(me, w.fileId)).toBe('assign');
    // Brought back, the page is a sheet again, with a student of its own, and waits in Review.
    await call(me, 'PATCH', `/api/pages/${w.pages[5]}`, { ignored: false });
    expect((await sheetsOf(w.db, w.fileId))[2]!.student_id).not.toBeNull();
    expect(await step(me, w.fileId)).toBe('review');
  });

  it('joins a sheet to the one before it', async () => {
    const w = await introWorld();
    const me = await admin(t.current.app);
    const joined = await call(me, 'PATCH', `/api/answer-sheets/${w.sheets[3]}`, { join_previous: true });
    expect(joined.status).toBe(200);
    expect(joined.body.id).toBe(w.sheets[2]);
    expect((await sheetsOf(w.db, w.fileId)).map((sheet) => sheet.pages)).toEqual([[1, 2, 3], [4], [5, 6], [7, 8]]);
    expect(await studentExists(w.db, w.students[3]!.id)).toBe(false);
    expect((await call(me, 'GET', `/api/pages/${w.pages[5]}`)).body).toMatchObject({ flagged: false, mended: { action: 'joined' } });
    const first = await call(me, 'PATCH', `/api/answer-sheets/${w.sheets[0]}`, { join_previous: true });
    expect(first.status).toBe(400);
    expect(first.body.detail.error_type).toBe('VALIDATION_ERROR');
  });

  it('starts a new sheet at a page: a new student, placed right after, later sheets kept in order', async () => {
    const w = await introWorld();
    const me = await admin(t.current.app);
    // Page 8 of Kwame's sheet really starts another student's sheet; Kwame's congregation is not theirs.
    const congregation = await insertCongregation(w.db, 'GH 0007');
    await w.db.query('UPDATE students SET congregation_id = $2 WHERE id = $1', [w.students[4]!.id, congregation]);
    const started = await call(me, 'PATCH', `/api/pages/${w.pages[7]}`, { new_sheet: true });
    expect(started.status).toBe(200);
    expect(started.body.answer_sheet.congregation ?? null).toBeNull();
    const sheets = await sheetsOf(w.db, w.fileId);
    expect(await w.db.one('SELECT congregation_id FROM students WHERE id = $1', [sheets[5]!.student_id])).toEqual({ congregation_id: null });
    expect(sheets.map((sheet) => sheet.pages)).toEqual([[1, 2, 3], [4], [5], [6], [7], [8]]);
    expect(sheets.map((sheet) => sheet.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(sheets.map((sheet) => sheet.student_id)).size).toBe(6);
    expect(started.body).toMatchObject({ mended: { action: 'new_sheet' }, answer_sheet: { id: sheets[5]!.id } });
    const again = await call(me, 'PATCH', `/api/pages/${w.pages[7]}`, { new_sheet: true });
    expect(again.status).toBe(400);
  });

  it('gives a page its student by the code typed from beside its QR code', async () => {
    const w = await introWorld();
    const me = await admin(t.current.app);
    const known = await insertStudent(w.db, { attributes: { name: 'Abena' } });
    const issued = 'ABCD2345';
    await w.db.query(`INSERT INTO printed_codes (code_id, prefix, target_id, student_id) VALUES ($1, 's', $2, $3)`, [issued, w.templates[0]!.id, known.id]);
    // The letter's page is Abena's page 1: alone in its sheet, the sheet becomes hers.
    const typed = await call(me, 'PATCH', `/api/pages/${w.pages[5]}`, { code: ' s-abcd2345 ' });
    expect(typed.status).toBe(200);
    expect(typed.body).toMatchObject({ flagged: false, unrecognized_reason: null, template: { id: w.templates[0]!.id }, answer_sheet: { student: { id: known.id } }, mended: { action: 'code_typed' } });
    expect(await studentExists(w.db, w.students[3]!.id)).toBe(false);
    // In a sheet with other pages, a page of another student joins their sheet of that lesson.
    const again = await call(me, 'PATCH', `/api/pages/${w.pages[6]}`, { code: 'S-ABCD2345' });
    expect(again.body.answer_sheet).toMatchObject({ id: w.sheets[3], student: { id: known.id } });
    expect((await sheetsOf(w.db, w.fileId)).map((sheet) => sheet.pages)).toEqual([[1, 2, 3], [4], [5], [6, 7], [8]]);
    for (const bad of ['P-ABCD2345', 'S-ZZZZ2345', 'hello']) {
      const refused = await call(me, 'PATCH', `/api/pages/${w.pages[0]}`, { code: bad });
      expect(refused.status).toBe(400);
      expect(refused.body.detail.error_type).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses a move to another file’s sheet, and every mend once the file is sent; a coordinator may not mend', async () => {
    const w = await introWorld();
    const me = await admin(t.current.app);
    const other = await insertFile(w.db, 'Other');
    const otherSheet = await insertAnswerSheet(w.db, other);
    expect((await call(me, 'PATCH', `/api/pages/${w.pages[3]}`, { answer_sheet: otherSheet })).status).toBe(400);
    expect((await call(me, 'PATCH', `/api/pages/${w.pages[3]}`, { answer_sheet: w.sheets[2], ignored: true })).status).toBe(400);
    const congregation = await insertCongregation(w.db, 'GH 0009');
    const theirs = await coordinator(t.current.app, congregation);
    expect((await call(theirs, 'PATCH', `/api/pages/${w.pages[3]}`, { answer_sheet: w.sheets[2] })).status).toBe(403);
    expect((await call(theirs, 'PATCH', `/api/answer-sheets/${w.sheets[3]}`, { join_previous: true })).status).toBe(403);

    await w.db.query('UPDATE files SET sent_at = now() WHERE id = $1', [w.fileId]);
    const before = await sheetsOf(w.db, w.fileId);
    for (const [url, body] of [
      [`/api/pages/${w.pages[3]}`, { answer_sheet: w.sheets[2] }],
      [`/api/pages/${w.pages[7]}`, { new_sheet: true }],
      [`/api/pages/${w.pages[5]}`, { code: 'T-ABCD2345' }],
      [`/api/pages/${w.pages[5]}`, { ignored: true }],
      [`/api/answer-sheets/${w.sheets[3]}`, { join_previous: true }],
    ] as const) {
      const refused = await call(me, 'PATCH', url, body);
      expect(refused.status).toBe(409);
      expect(refused.body.detail.error_type).toBe('SHEET_ALREADY_SENT');
    }
    expect(await sheetsOf(w.db, w.fileId)).toEqual(before);
  });
});
