// Review's mends (workflow/review-mends.ts, sheet-mends.ts): the reads and writes on a file's
// pages, sheets and students that a mend makes with the file locked, and the review_mends rows
// that record who made each one.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { keptSheetSql, sentOrSendingSql } from './sql/file-steps';

type MendAction = Schemas['ReviewMendAction'];

/** A sheet's duplicate_of: the earliest other sheet of the same student and lesson (SQL over `answer_sheets a`). */
const DUPLICATE_OF_SQL = `CASE WHEN a.student_id IS NULL OR a.lesson_id IS NULL THEN NULL ELSE (
    SELECT e.id FROM answer_sheets e
    WHERE e.student_id = a.student_id AND e.lesson_id = a.lesson_id AND e.id <> a.id
      AND (e.created_at, e.file_id, e.sequence) < (a.created_at, a.file_id, a.sequence)
    ORDER BY e.created_at, e.sequence LIMIT 1) END`;

export interface MendPageRow {
  id: string;
  file_id: string;
  page_number: number;
  answer_sheet_id: string | null;
  flag: Schemas['ReviewReason'] | null;
  ignored: boolean;
}

export interface MendSheetRow {
  id: string;
  file_id: string;
  sequence: number;
  student_id: string | null;
  lesson_id: string | null;
  assigned_group: string | null;
}

/** The file a page is in; null for no such page. */
export async function fileOfPageForMend(tx: Database, pageId: string): Promise<string | null> {
  return (await tx.maybeOne<{ file_id: string }>('SELECT file_id FROM pages WHERE id = $1', [pageId]))?.file_id ?? null;
}

/** The file a sheet is in; null for no such sheet. */
export async function fileOfSheetForMend(tx: Database, sheetId: string): Promise<string | null> {
  return (await tx.maybeOne<{ file_id: string }>('SELECT file_id FROM answer_sheets WHERE id = $1', [sheetId]))?.file_id ?? null;
}

export async function pageForMend(tx: Database, pageId: string): Promise<MendPageRow | null> {
  return tx.maybeOne<MendPageRow>('SELECT id, file_id, page_number, answer_sheet_id, flag, ignored FROM pages WHERE id = $1', [pageId]);
}

export async function sheetForMend(tx: Database, sheetId: string): Promise<MendSheetRow | null> {
  return tx.maybeOne<MendSheetRow>('SELECT id, file_id, sequence, student_id, lesson_id, assigned_group FROM answer_sheets WHERE id = $1', [sheetId]);
}

/** A sheet as the sheet mends check it (the sheet must exist). */
export async function sheetLinksForMend(tx: Database, sheetId: string): Promise<{ file_id: string; duplicate_of: string | null; student_id: string | null }> {
  return tx.one('SELECT file_id, duplicate_of, student_id FROM answer_sheets WHERE id = $1', [sheetId]);
}

/** Locks the file for a mend: whether it is sent or being sent, and its kind; null for no such file. */
export async function lockFileForMend(tx: Database, fileId: string): Promise<{ sent: boolean; answer_sheet_page_length: number } | null> {
  return tx.maybeOne<{ sent: boolean; answer_sheet_page_length: number }>(
    `SELECT ${sentOrSendingSql('f')} AS sent, answer_sheet_page_length FROM files f WHERE id = $1 FOR UPDATE`,
    [fileId],
  );
}

/** Locks the file of a sheet or page being mended (it exists): whether it is sent or being sent. */
export async function lockKnownFileForMend(tx: Database, fileId: string): Promise<{ sent: boolean }> {
  return tx.one<{ sent: boolean }>(`SELECT ${sentOrSendingSql('f')} AS sent FROM files f WHERE id = $1 FOR UPDATE`, [fileId]);
}

/** Records a mend on each of these pages. */
export async function recordMend(tx: Database, fileId: string, pageIds: readonly string[], action: MendAction, email: string): Promise<void> {
  await tx.query(
    `INSERT INTO review_mends (file_id, page_id, action, user_email) SELECT $1, page_id, $3, $4 FROM unnest($2::uuid[]) AS page_id`,
    [fileId, pageIds, action, email],
  );
}

/** Records a sheet mend on each of the sheet's pages (mends are shown per page). */
export async function recordMendOnSheetPages(tx: Database, fileId: string, sheetId: string, action: MendAction, email: string): Promise<void> {
  await tx.query(
    'INSERT INTO review_mends (file_id, page_id, action, user_email) SELECT $1, p.id, $3, $4 FROM pages p WHERE p.answer_sheet_id = $2',
    [fileId, sheetId, action, email],
  );
}

export async function countPagesOnSheet(tx: Database, sheetId: string): Promise<number> {
  return (await tx.one<{ pages: number }>('SELECT count(*)::int AS pages FROM pages WHERE answer_sheet_id = $1', [sheetId])).pages;
}

export async function deleteMendedSheet(tx: Database, sheetId: string): Promise<void> {
  await tx.query('DELETE FROM answer_sheets WHERE id = $1', [sheetId]);
}

/**
 * Whether a student this file made has nothing left to keep them: no kept page, no code printed
 * for them, no baptism request (students of earlier files always stay).
 */
export async function studentOfFileLeftEmpty(tx: Database, studentId: string, fileId: string): Promise<boolean> {
  const removable = await tx.maybeOne(
    `SELECT 1 FROM students s, files f
     WHERE s.id = $1 AND f.id = $2 AND s.created_at >= f.created_at
       AND NOT EXISTS (SELECT 1 FROM answer_sheets a JOIN pages p ON p.answer_sheet_id = a.id WHERE a.student_id = s.id AND NOT p.ignored)
       AND NOT EXISTS (SELECT 1 FROM printed_codes pc WHERE pc.student_id = s.id)
       AND NOT EXISTS (SELECT 1 FROM baptism_requests b WHERE b.student_id = s.id)`,
    [studentId, fileId],
  );
  return removable !== null;
}

/** Removes a student, first taking them off every sheet. */
export async function removeStudentFromSheets(tx: Database, studentId: string): Promise<void> {
  await tx.query('UPDATE answer_sheets SET student_id = NULL, duplicate_of = NULL WHERE student_id = $1', [studentId]);
  await tx.query('DELETE FROM students WHERE id = $1', [studentId]);
}

/** Whether the file made this student (the student came with it or after it). */
export async function studentMadeByFile(tx: Database, studentId: string | null, fileId: string): Promise<boolean> {
  return (await tx.maybeOne('SELECT 1 FROM students s, files f WHERE s.id = $1 AND f.id = $2 AND s.created_at >= f.created_at', [studentId, fileId])) !== null;
}

/** A new student for an intro sheet, from the file's service center and its country. */
export async function createIntroStudentOfFile(tx: Database, fileId: string): Promise<string> {
  const row = await tx.one<{ id: string }>(
    `INSERT INTO students (service_center_id, country_iso, last_active_at)
     SELECT f.service_center_id, sc.country_iso, now()
     FROM files f LEFT JOIN service_centers sc ON sc.id = f.service_center_id
     WHERE f.id = $1
     RETURNING id`,
    [fileId],
  );
  return row.id;
}

/**
 * A new sheet right after `sheet` in its file, taking the time of the sheet it comes from so "the
 * first sheet received" of a student and lesson still follows the file's order.
 */
export async function insertSheetAfter(tx: Database, sheet: MendSheetRow, studentId: string | null, lessonId: string | null): Promise<string> {
  // A unique constraint is checked row by row, so shifting in place would meet the next sheet
  // before it moves: lift the later sheets above every sequence of the file, then bring them
  // down to one past where they were. No step goes below 0 or onto a sequence in use.
  const { lift } = await tx.one<{ lift: number }>('SELECT coalesce(max(sequence), 0)::int + 2 AS lift FROM answer_sheets WHERE file_id = $1', [sheet.file_id]);
  await tx.query('UPDATE answer_sheets SET sequence = sequence + $3::int WHERE file_id = $1 AND sequence > $2::int', [sheet.file_id, sheet.sequence, lift]);
  await tx.query('UPDATE answer_sheets SET sequence = sequence - $3::int + 1 WHERE file_id = $1 AND sequence > $2::int + $3::int', [
    sheet.file_id,
    sheet.sequence,
    lift,
  ]);
  const created = await tx.one<{ id: string }>(
    `INSERT INTO answer_sheets (file_id, sequence, student_id, lesson_id, created_at)
     SELECT $1, $2, $3, $4, created_at FROM answer_sheets WHERE id = $5
     RETURNING id`,
    [sheet.file_id, sheet.sequence + 1, studentId, lessonId, sheet.id],
  );
  return created.id;
}

/** A sheet's lesson and congregation (the student's, when it has none); a sheet no longer short loses its flag. */
export async function settleMendedSheet(tx: Database, sheetId: string): Promise<void> {
  await tx.query(
    `UPDATE answer_sheets a SET
       lesson_id = coalesce(a.lesson_id, (SELECT pt.lesson_id FROM pages p JOIN page_templates pt ON pt.id = p.template_id
                                           WHERE p.answer_sheet_id = a.id AND NOT p.ignored ORDER BY p.page_number LIMIT 1)),
       assigned_group = coalesce(a.assigned_group, (SELECT s.congregation_id FROM students s WHERE s.id = a.student_id))
     WHERE a.id = $1`,
    [sheetId],
  );
  // A sheet that now holds as many kept pages as its lesson has is no longer short.
  await tx.query(
    `UPDATE pages p SET flag = NULL, flag_detail = p.flag_detail - 'missing_pages'
     WHERE p.answer_sheet_id = $1 AND p.flag = 'page_missing'
       AND (SELECT count(*) FROM pages k WHERE k.answer_sheet_id = $1 AND NOT k.ignored)
           >= (SELECT count(*) FROM answer_sheets a JOIN page_templates pt ON pt.lesson_id = a.lesson_id WHERE a.id = $1)`,
    [sheetId],
  );
}

/** Every sheet of the file points at the earliest sheet of its student and lesson; only changed links are written. */
export async function settleDuplicatesOfFile(tx: Database, fileId: string): Promise<void> {
  await tx.query(
    `UPDATE answer_sheets s SET duplicate_of = settled.duplicate_of
     FROM (SELECT a.id, ${DUPLICATE_OF_SQL} AS duplicate_of FROM answer_sheets a WHERE a.file_id = $1) settled
     WHERE s.id = settled.id AND s.duplicate_of IS DISTINCT FROM settled.duplicate_of`,
    [fileId],
  );
}

/** Kept sheets of the file without a student, in order. */
export async function keptSheetsWithoutStudent(tx: Database, fileId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `SELECT a.id FROM answer_sheets a WHERE a.file_id = $1 AND a.student_id IS NULL AND ${keptSheetSql('a')} ORDER BY a.sequence`,
    [fileId],
  );
  return rows.map((row) => row.id);
}

export async function setSheetStudentId(tx: Database, sheetId: string, studentId: string): Promise<void> {
  await tx.query('UPDATE answer_sheets SET student_id = $2 WHERE id = $1', [sheetId, studentId]);
}

/** The duplex back that travels with a page: the ignored blank page right after it on the same sheet. */
export async function blankBackOfPage(tx: Database, pageId: string): Promise<string | null> {
  const back = await tx.maybeOne<{ id: string }>(
    `SELECT b.id FROM pages b, pages p
     WHERE p.id = $1 AND NOT p.blank AND b.file_id = p.file_id AND b.page_number = p.page_number + 1
       AND b.answer_sheet_id = p.answer_sheet_id AND b.blank AND b.ignored`,
    [pageId],
  );
  return back?.id ?? null;
}

export async function clearPageFlag(tx: Database, pageId: string): Promise<void> {
  await tx.query('UPDATE pages SET flag = NULL WHERE id = $1', [pageId]);
}

export async function clearPageFlagAndDetail(tx: Database, pageId: string): Promise<void> {
  await tx.query('UPDATE pages SET flag = NULL, flag_detail = NULL WHERE id = $1', [pageId]);
}

export async function movePagesToSheet(tx: Database, pageIds: readonly string[], sheetId: string): Promise<void> {
  await tx.query('UPDATE pages SET answer_sheet_id = $2 WHERE id = ANY($1::uuid[])', [pageIds, sheetId]);
}

/** Kept pages of the sheet before this page number. */
export async function countKeptPagesBefore(tx: Database, sheetId: string, pageNumber: number): Promise<number> {
  const before = await tx.one<{ kept: number }>('SELECT count(*)::int AS kept FROM pages WHERE answer_sheet_id = $1 AND page_number < $2 AND NOT ignored', [
    sheetId,
    pageNumber,
  ]);
  return before.kept;
}

/** The sheet's pages from this page number on. */
export async function pagesOfSheetFrom(tx: Database, sheetId: string, pageNumber: number): Promise<{ id: string; ignored: boolean }[]> {
  return tx.query<{ id: string; ignored: boolean }>('SELECT id, ignored FROM pages WHERE answer_sheet_id = $1 AND page_number >= $2', [sheetId, pageNumber]);
}

/** The student an issued (S) code read on the page names, if any. */
export async function studentOfIssuedCodeOnPage(tx: Database, pageId: string): Promise<string | null> {
  const issued = await tx.maybeOne<{ student_id: string }>(
    `SELECT pc.student_id FROM pages p JOIN printed_codes pc ON pc.prefix = 's' AND pc.code_id = p.code_id
     WHERE p.id = $1 AND p.code_prefix = 's' AND pc.student_id IS NOT NULL`,
    [pageId],
  );
  return issued?.student_id ?? null;
}

/** The lesson of the page's template, if it has one. */
export async function lessonOfPageTemplate(tx: Database, pageId: string): Promise<string | null> {
  const lesson = await tx.maybeOne<{ lesson_id: string }>('SELECT pt.lesson_id FROM pages p JOIN page_templates pt ON pt.id = p.template_id WHERE p.id = $1', [pageId]);
  return lesson?.lesson_id ?? null;
}

/** The sheet takes a new student of its own, and so no congregation yet and no kept duplicate. */
export async function giveSheetNewStudent(tx: Database, sheetId: string, studentId: string): Promise<void> {
  await tx.query('UPDATE answer_sheets SET student_id = $2, assigned_group = NULL, duplicate_kept = false WHERE id = $1', [sheetId, studentId]);
}

/** The sheet before this one in its file, if any. */
export async function previousSheetInFile(tx: Database, fileId: string, sequence: number): Promise<string | null> {
  const previous = await tx.maybeOne<{ id: string }>('SELECT id FROM answer_sheets WHERE file_id = $1 AND sequence < $2 ORDER BY sequence DESC LIMIT 1', [
    fileId,
    sequence,
  ]);
  return previous?.id ?? null;
}

/** Moves every page of a sheet to another, clearing their flags; the pages moved. */
export async function moveAllPagesOfSheet(tx: Database, sheetId: string, targetSheetId: string): Promise<string[]> {
  const moved = await tx.query<{ id: string }>('UPDATE pages SET answer_sheet_id = $2, flag = NULL WHERE answer_sheet_id = $1 RETURNING id', [
    sheetId,
    targetSheetId,
  ]);
  return moved.map((row) => row.id);
}

export async function giveSheetStudentIfNone(tx: Database, sheetId: string, studentId: string): Promise<void> {
  await tx.query('UPDATE answer_sheets SET student_id = $2 WHERE id = $1 AND student_id IS NULL', [sheetId, studentId]);
}

/** A code a person typed for a page: its template, no flag, identified by a person. */
export async function setTypedCode(tx: Database, pageId: string, code: { prefix: string; id: string }, templateId: string | null): Promise<void> {
  await tx.query(
    `UPDATE pages SET code_prefix = $2, code_id = $3, template_id = $4, unrecognized_reason = NULL, flag = NULL,
            identified_by = 'person', printed_suggestion = NULL WHERE id = $1`,
    [pageId, code.prefix, code.id, templateId],
  );
}

/** Another sheet of this file of the student and lesson, the first one. */
export async function otherSheetOfStudentLesson(tx: Database, sheet: MendSheetRow, studentId: string, lessonId: string): Promise<string | null> {
  const theirs = await tx.maybeOne<{ id: string }>(
    'SELECT id FROM answer_sheets WHERE file_id = $1 AND student_id = $2 AND lesson_id = $3 AND id <> $4 ORDER BY sequence LIMIT 1',
    [sheet.file_id, studentId, lessonId, sheet.id],
  );
  return theirs?.id ?? null;
}

/** Kept pages of the sheet other than these. */
export async function countOtherKeptPages(tx: Database, sheetId: string, pageIds: readonly string[]): Promise<number> {
  const others = await tx.one<{ n: number }>('SELECT count(*)::int AS n FROM pages WHERE answer_sheet_id = $1 AND id <> ALL($2::uuid[]) AND NOT ignored', [
    sheetId,
    pageIds,
  ]);
  return others.n;
}

/** The sheet, and the congregation it goes to, become this student's, for this lesson. */
export async function makeSheetStudentsLesson(tx: Database, sheetId: string, studentId: string, lessonId: string): Promise<void> {
  await tx.query(
    'UPDATE answer_sheets SET student_id = $2, lesson_id = $3, assigned_group = (SELECT congregation_id FROM students WHERE id = $2) WHERE id = $1',
    [sheetId, studentId, lessonId],
  );
}

export async function setPageIgnored(tx: Database, pageId: string, ignored: boolean): Promise<void> {
  await tx.query('UPDATE pages SET ignored = $2 WHERE id = $1', [pageId, ignored]);
}

/** Chooses a page's template (or none): a template chosen clears any of the `noCodeFlags`. */
export async function setPageTemplate(tx: Database, pageId: string, templateId: string | null, noCodeFlags: readonly string[]): Promise<void> {
  await tx.query(
    `UPDATE pages SET template_id = $2,
            flag = CASE WHEN $2::uuid IS NOT NULL AND flag = ANY($3::text[]) THEN NULL ELSE flag END
     WHERE id = $1`,
    [pageId, templateId, noCodeFlags],
  );
}

export async function keepDuplicateSheet(tx: Database, sheetId: string): Promise<void> {
  await tx.query('UPDATE answer_sheets SET duplicate_kept = true WHERE id = $1', [sheetId]);
}

/**
 * Names a sheet's student: it takes the student's congregation when it has none, and is checked
 * again for repeating a lesson the student already sent.
 */
export async function nameSheetStudent(tx: Database, sheetId: string, studentId: string): Promise<void> {
  await tx.query(
    `UPDATE answer_sheets a SET student_id = $2,
       assigned_group = coalesce(a.assigned_group, (SELECT s.congregation_id FROM students s WHERE s.id = $2)),
       duplicate_kept = false
     WHERE a.id = $1`,
    [sheetId, studentId],
  );
  await tx.query(`UPDATE answer_sheets a SET duplicate_of = ${DUPLICATE_OF_SQL} WHERE a.id = $1`, [sheetId]);
}

/** The stored image of a page being turned (the page exists). */
export async function imageOfPageForTurn(tx: Database, pageId: string): Promise<string | null> {
  return (await tx.one<{ image_blob_key: string | null }>('SELECT image_blob_key FROM pages WHERE id = $1', [pageId])).image_blob_key;
}

/** A turned page's new image; its thumbnails are made again from it. */
export async function setTurnedPageImage(tx: Database, pageId: string, blobKey: string): Promise<void> {
  await tx.query('UPDATE pages SET image_blob_key = $2, thumbnail_500_blob_key = NULL, thumbnail_1000_blob_key = NULL WHERE id = $1', [pageId, blobKey]);
}
