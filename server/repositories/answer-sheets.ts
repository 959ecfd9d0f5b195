// Answer sheets (responses): the select list the response screens and tables read, and the
// questions asked of a file's sheets by its workflow and its access checks.
import type { Schemas, QueryOf } from '../contract/types';
import type { Database } from '../db/database';
import { flaggedPageSql, keptSheetSql, mismatchedPageSql, sentOrSendingSql, unrecognizedPageSql } from './sql/file-steps';
import { sentToSql } from './files';
import { NEWEST_ANSWER_SHEETS_FIRST } from './students';
import { orderClause, type Direction, type Page, type SortColumn } from './sql/paging';
import { Where } from './sql/where';

/** Select list over `answer_sheets a`; callers append WHERE/ORDER BY. */
export const SHEET_SELECT = `
  SELECT a.id, a.file_id, f.name AS file_name, f.uploaded_at AS file_uploaded_at, a.sequence,
         a.student_id, st.human_id AS student_human_id, st.attributes ->> 'name' AS student_name,
         st.study_helper_id, sh.name AS study_helper_name,
         a.lesson_id, l.name AS lesson_name, l.number AS lesson_number, l.course_id, c.name AS course_name,
         a.assigned_group, g.wbs_code AS group_wbs_code, g.display_name AS group_display_name,
         a.graded, a.is_baptism_request, a.duplicate_of, a.duplicate_kept, ${sentOrSendingSql('f')} AS sent,
         (SELECT count(*) FROM pages p WHERE p.answer_sheet_id = a.id) AS page_count,
         (SELECT count(*) FROM pages p WHERE p.answer_sheet_id = a.id AND ${unrecognizedPageSql('p')}) AS unrecognized_count,
         (SELECT count(*) FROM pages p WHERE p.answer_sheet_id = a.id AND ${mismatchedPageSql('p', 'a')}) AS mismatched_count,
         (SELECT count(*) FROM pages p WHERE p.answer_sheet_id = a.id AND ${flaggedPageSql('p')}) AS flagged_count,
         (SELECT min(fb.created_at) FROM feedback fb JOIN pages p ON p.id = fb.page_id WHERE p.answer_sheet_id = a.id) AS first_feedback_at
  FROM answer_sheets a
  JOIN files f ON f.id = a.file_id
  LEFT JOIN students st ON st.id = a.student_id
  LEFT JOIN study_helpers sh ON sh.id = st.study_helper_id
  LEFT JOIN lessons l ON l.id = a.lesson_id
  LEFT JOIN courses c ON c.id = l.course_id
  LEFT JOIN congregations g ON g.id = a.assigned_group`;

export interface SheetRow {
  id: string;
  file_id: string;
  file_name: string;
  file_uploaded_at: Date;
  sequence: number;
  student_id: string | null;
  student_human_id: number | null;
  student_name: string | null;
  study_helper_id: string | null;
  study_helper_name: string | null;
  lesson_id: string | null;
  lesson_name: string | null;
  lesson_number: number | null;
  course_id: string | null;
  course_name: string | null;
  assigned_group: string | null;
  group_wbs_code: string | null;
  group_display_name: string | null;
  graded: boolean;
  is_baptism_request: boolean;
  duplicate_of: string | null;
  duplicate_kept: boolean;
  sent: boolean;
  page_count: number;
  unrecognized_count: number;
  mismatched_count: number;
  flagged_count: number;
  first_feedback_at: Date | null;
}

/** Ids of the sheets with a page shown in Review for a reason (a text parameter), as the file's Action Items link to them. */
export function sheetsWithReasonSql(reason: string): string {
  return `SELECT rp.answer_sheet_id FROM pages rp JOIN answer_sheets ra ON ra.id = rp.answer_sheet_id
    WHERE CASE ${reason}::text WHEN 'blank_back' THEN rp.blank AND rp.ignored
                               WHEN 'duplicate_sheet' THEN NOT rp.ignored AND ra.duplicate_of IS NOT NULL AND NOT ra.duplicate_kept
                               ELSE NOT rp.ignored AND rp.flag = ${reason}::text END`;
}

/** Whether a caller limited to `scope` (null: an admin) may see the sheet; null when no such sheet. */
export async function sheetVisibleInScope(db: Database, sheetId: string, scope: string | null): Promise<boolean | null> {
  const row = await db.maybeOne<{ visible: boolean }>(
    `SELECT ($2::uuid IS NULL OR (a.assigned_group = $2::uuid AND ${sentToSql('a.file_id', '$2')})) AS visible
     FROM answer_sheets a WHERE a.id = $1`,
    [sheetId, scope],
  );
  return row === null ? null : row.visible === true;
}

export interface FileCongregationRow {
  id: string;
  wbs_code: string;
  display_name: string;
  status: Schemas['CongregationFileStatus'];
  sheets: number;
  packet_id: string | null;
}

/** The congregations with kept sheets in the file (only `scope`'s when given), with their packet. */
export async function congregationsOfFileWithSheets(db: Database, fileId: string, scope: string | null): Promise<FileCongregationRow[]> {
  return db.query<FileCongregationRow>(
    `SELECT g.id, g.wbs_code, g.display_name, COALESCE(fc.status, 'unprinted') AS status, count(a.id)::int AS sheets,
            d.id AS packet_id
     FROM answer_sheets a JOIN congregations g ON g.id = a.assigned_group
     LEFT JOIN file_congregations fc ON fc.file_id = a.file_id AND fc.congregation_id = g.id
     LEFT JOIN packets d ON d.file_id = a.file_id AND d.congregation_id = g.id
     WHERE a.file_id = $1 AND ${keptSheetSql('a')} AND ($2::uuid IS NULL OR g.id = $2::uuid)
     GROUP BY g.id, g.wbs_code, g.display_name, fc.status, d.id
     ORDER BY g.wbs_code`,
    [fileId, scope],
  );
}

export type AnswerSheetOrder = NonNullable<QueryOf<'listAnswerSheets'>['order_by']>;

const ANSWER_SHEET_SORT: Record<Exclude<AnswerSheetOrder, 'sequence'>, SortColumn> = {
  course: { sql: 'lower(c.name) NULLS LAST, l.number', defaultDirection: 'asc' },
  student: { sql: 'st.human_id', defaultDirection: 'asc' },
  graded_at: { sql: '(SELECT min(fb.created_at) FROM feedback fb JOIN pages fp ON fp.id = fb.page_id WHERE fp.answer_sheet_id = a.id)', defaultDirection: 'desc' },
};

export interface AnswerSheetListFilter {
  file?: string;
  /** A coordinator's congregation: only its sheets of files sent to it. */
  scope: string | null;
  graded?: boolean;
  reason?: Schemas['ReviewReason'];
  orderBy: AnswerSheetOrder;
  direction: Direction | undefined;
}

/** A page of answer sheets, with the total. */
export async function answerSheetListPage(db: Database, filter: AnswerSheetListFilter, page: Page): Promise<{ rows: SheetRow[]; total: number }> {
  const where = new Where();
  where.addIf(filter.file, (p) => `a.file_id = ${p}::uuid`);
  where.addIf(filter.scope, (p) => `a.assigned_group = ${p}::uuid AND ${sentToSql('a.file_id', p)}`);
  if (filter.graded !== undefined) where.add((p) => `a.graded = ${p}`, filter.graded);
  if (filter.reason !== undefined) where.add((p) => `a.id IN (${sheetsWithReasonSql(p)})`, filter.reason);
  // The sequence order's direction applies within a file; files stay newest first.
  const order =
    filter.orderBy === 'sequence'
      ? `ORDER BY f.created_at DESC, a.file_id, a.sequence ${filter.direction === 'desc' ? 'DESC' : 'ASC'}, a.id`
      : orderClause(ANSWER_SHEET_SORT, filter.orderBy, filter.direction, 'a.id');
  const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM answer_sheets a ${where.sql}`, where.params);
  const rows = await db.query<SheetRow>(
    `${SHEET_SELECT} ${where.sql} ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
    where.params,
  );
  return { rows, total: Number(total) };
}

export function answerSheetRowById(db: Database, sheetId: string): Promise<SheetRow | null> {
  return db.maybeOne<SheetRow>(`${SHEET_SELECT} WHERE a.id = $1`, [sheetId]);
}

/** Kept sheets of the file whose congregation is not `group` (the ones assigning it would change). */
const SHEETS_TO_REASSIGN = (sheet: string) => `${sheet}.file_id = $1 AND ${keptSheetSql(sheet)} AND ${sheet}.assigned_group IS DISTINCT FROM $2::uuid`;

export async function fileHasSheetsToReassign(tx: Database, fileId: string, group: string): Promise<boolean> {
  return (await tx.maybeOne(`SELECT 1 FROM answer_sheets a WHERE ${SHEETS_TO_REASSIGN('a')} LIMIT 1`, [fileId, group])) !== null;
}

/** Assigns every kept sheet of the file to `group`; returns how many changed. */
export function assignKeptSheetsOfFile(tx: Database, fileId: string, group: string): Promise<number> {
  return tx.execute(`UPDATE answer_sheets a SET assigned_group = $2 WHERE ${SHEETS_TO_REASSIGN('a')}`, [fileId, group]);
}

/** The students of the file's kept sheets assigned to `group`. */
export async function studentsOfFileSheetsAssignedTo(tx: Database, fileId: string, group: string): Promise<string[]> {
  const rows = await tx.query<{ student_id: string }>(
    `SELECT DISTINCT a.student_id FROM answer_sheets a
     WHERE a.file_id = $1 AND a.assigned_group = $2::uuid AND a.student_id IS NOT NULL AND ${keptSheetSql('a')}`,
    [fileId, group],
  );
  return rows.map((row) => row.student_id);
}

/** The sheet's congregation (null: none yet); the sheet must exist. */
export async function congregationOfSheet(db: Database, sheetId: string): Promise<string | null> {
  return (await db.one<{ assigned_group: string | null }>('SELECT assigned_group FROM answer_sheets WHERE id = $1', [sheetId])).assigned_group;
}

export interface SheetForChange {
  student_id: string | null;
  lesson_id: string | null;
  assigned_group: string | null;
  sent: boolean;
}

/** Locks the sheet, and its file's row shared: Send, which locks it, waits for this change or this one sees it sent. */
export function lockSheetForChange(tx: Database, sheetId: string): Promise<SheetForChange | null> {
  return tx.maybeOne<SheetForChange>(
    `SELECT a.student_id, a.lesson_id, a.assigned_group, ${sentOrSendingSql('f')} AS sent
     FROM answer_sheets a JOIN files f ON f.id = a.file_id WHERE a.id = $1 FOR UPDATE OF a FOR SHARE OF f`,
    [sheetId],
  );
}

export async function setSheetCongregation(tx: Database, sheetId: string, group: string | null): Promise<void> {
  await tx.query('UPDATE answer_sheets SET assigned_group = $2 WHERE id = $1', [sheetId, group]);
}

/** A new lesson may make the sheet a duplicate of an earlier one (same student and lesson), or stop it being one. */
export async function setSheetLesson(tx: Database, sheetId: string, lesson: string | null): Promise<void> {
  await tx.query(
    `UPDATE answer_sheets a SET lesson_id = $2, duplicate_kept = false,
       duplicate_of = CASE WHEN a.student_id IS NULL OR $2::uuid IS NULL THEN NULL ELSE (
         SELECT e.id FROM answer_sheets e
         WHERE e.student_id = a.student_id AND e.lesson_id = $2::uuid AND e.id <> a.id
           AND (e.created_at, e.file_id, e.sequence) < (a.created_at, a.file_id, a.sequence)
         ORDER BY e.created_at, e.sequence LIMIT 1) END
     WHERE a.id = $1`,
    [sheetId, lesson],
  );
}

/** The student's newest answer sheet, or null when it has none. */
export async function newestSheetOfStudent(db: Database, studentId: string): Promise<string | null> {
  const sheet = await db.maybeOne<{ id: string }>(
    `SELECT a.id FROM answer_sheets a WHERE a.student_id = $1 ORDER BY ${NEWEST_ANSWER_SHEETS_FIRST} LIMIT 1`,
    [studentId],
  );
  return sheet?.id ?? null;
}

/**
 * Locks a sheet a caller may flag: for a coordinator (`scope`), one assigned to its congregation
 * in a file sent to it. Null when there is none the caller sees.
 */
export function lockSheetForBaptismFlag(tx: Database, sheetId: string, scope: string | null): Promise<{ student_id: string | null } | null> {
  return tx.maybeOne<{ student_id: string | null }>(
    `SELECT a.student_id FROM answer_sheets a
     WHERE a.id = $1 AND ($2::uuid IS NULL OR (a.assigned_group = $2::uuid AND ${sentToSql('a.file_id', '$2')}))
     FOR UPDATE OF a`,
    [sheetId, scope],
  );
}

export async function flagSheetAsBaptismRequest(tx: Database, sheetId: string): Promise<void> {
  await tx.query('UPDATE answer_sheets SET is_baptism_request = true WHERE id = $1 AND NOT is_baptism_request', [sheetId]);
}

/** A flagged response stands for the request: with it gone, none of the student's stays flagged. */
export async function unflagBaptismSheetsOfStudent(tx: Database, studentId: string): Promise<void> {
  await tx.query('UPDATE answer_sheets SET is_baptism_request = false WHERE student_id = $1 AND is_baptism_request', [studentId]);
}

/**
 * The student's sheets, newest first. A coordinator (`scope`) sees those sent to its
 * congregation: not those of another congregation (the student's earlier one), nor those still in Review.
 */
export function answerSheetsOfStudentInScope(db: Database, studentId: string, scope: string | null): Promise<SheetRow[]> {
  return db.query<SheetRow>(
    `${SHEET_SELECT} WHERE a.student_id = $1 AND ($2::uuid IS NULL OR (a.assigned_group = $2::uuid AND ${sentToSql('a.file_id', '$2')}))
     ORDER BY ${NEWEST_ANSWER_SHEETS_FIRST}`,
    [studentId, scope],
  );
}

/**
 * The student's sheets in `fileIds` (files not sent) follow the student to `congregationId`:
 * those assigned elsewhere, and unassigned ones that are kept.
 */
export async function moveSheetsOfStudentToCongregation(tx: Database, studentId: string, congregationId: string, fileIds: readonly string[]): Promise<void> {
  await tx.query(
    `UPDATE answer_sheets a SET assigned_group = $2::uuid
     WHERE a.student_id = $1 AND a.file_id = ANY($3::uuid[]) AND a.assigned_group IS DISTINCT FROM $2::uuid
       AND (a.assigned_group IS NOT NULL OR ${keptSheetSql('a')})`,
    [studentId, congregationId, fileIds],
  );
}

/** Removes every sheet of the file (its pages are taken off them first). */
export async function deleteSheetsBeforeSplit(db: Database, fileId: string): Promise<void> {
  await db.query('DELETE FROM answer_sheets WHERE file_id = $1', [fileId]);
}

export interface StudentLesson {
  student_id: string;
  lesson_id: string;
}

/** The first sheet received of each of these students and lessons, as `student/lesson` → sheet id. */
export async function firstSheetsOfStudentLessons(db: Database, pairs: readonly StudentLesson[]): Promise<{ student_id: string; lesson_id: string; id: string }[]> {
  return db.query<{ student_id: string; lesson_id: string; id: string }>(
    `SELECT DISTINCT ON (a.student_id, a.lesson_id) a.student_id, a.lesson_id, a.id
     FROM answer_sheets a JOIN unnest($1::uuid[], $2::uuid[]) AS pair (student_id, lesson_id)
       ON a.student_id = pair.student_id AND a.lesson_id = pair.lesson_id
     ORDER BY a.student_id, a.lesson_id, a.created_at, a.sequence`,
    [pairs.map((pair) => pair.student_id), pairs.map((pair) => pair.lesson_id)],
  );
}

/** A sheet the split writes; its place in the list is its sequence in the file. */
export interface SplitSheetRow {
  id: string;
  student_id: string | null;
  lesson_id: string | null;
  assigned_group: string | null;
  duplicate_of: string | null;
}

/** Writes a file's sheets in one statement, numbered in order from 0. */
export async function insertSplitSheets(db: Database, fileId: string, sheets: readonly SplitSheetRow[]): Promise<void> {
  await db.query(
    `INSERT INTO answer_sheets (id, file_id, sequence, student_id, lesson_id, assigned_group, duplicate_of)
     SELECT sheet.id, $1, sheet.sequence - 1, sheet.student_id, sheet.lesson_id, sheet.assigned_group, sheet.duplicate_of
     FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[]) WITH ORDINALITY
       AS sheet (id, student_id, lesson_id, assigned_group, duplicate_of, sequence)`,
    [
      fileId,
      sheets.map((sheet) => sheet.id),
      sheets.map((sheet) => sheet.student_id),
      sheets.map((sheet) => sheet.lesson_id),
      sheets.map((sheet) => sheet.assigned_group),
      sheets.map((sheet) => sheet.duplicate_of),
    ],
  );
}

/** Sets `graded` of these sheets: every page they keep has feedback. */
export async function recomputeSheetsGraded(db: Database, sheetIds: readonly string[]): Promise<void> {
  await db.query(
    `UPDATE answer_sheets a SET graded = NOT EXISTS (
       SELECT 1 FROM pages p WHERE p.answer_sheet_id = a.id AND NOT p.ignored
         AND NOT EXISTS (SELECT 1 FROM feedback fb WHERE fb.page_id = p.id))
     WHERE a.id = ANY($1::uuid[])`,
    [sheetIds],
  );
}

/** The files these sheets are in, each once. */
export async function filesOfSheets(db: Database, sheetIds: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ file_id: string }>('SELECT DISTINCT file_id FROM answer_sheets WHERE id = ANY($1::uuid[])', [sheetIds]);
  return rows.map((row) => row.file_id);
}

export interface IntroAnswerSheet {
  id: string;
  file_id: string;
  sequence: number;
  student_id: string | null;
  lesson_id: string | null;
  assigned_group: string | null;
}

export async function insertIntroAnswerSheet(db: Database, sheet: IntroAnswerSheet): Promise<string> {
  const row = await db.one<{ id: string }>(
    `INSERT INTO answer_sheets (id, file_id, sequence, student_id, lesson_id, assigned_group) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [sheet.id, sheet.file_id, sheet.sequence, sheet.student_id, sheet.lesson_id, sheet.assigned_group],
  );
  return row.id;
}
