// The answer_sheets table: the sheets a file's pages are cut into, each one student's answers to
// one lesson.
import type { Database } from '../db/database';

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
