// A file's return file (files.return_* columns) and what it is made of: the graded scans of its
// kept sheets and the templates of each student's next lesson.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { keptSheetSql } from './sql/file-steps';

/** The file locked for a return-file request; null when there is no such file. */
export async function lockFileForReturnRequest(
  db: Database,
  fileId: string,
): Promise<{ grading_complete: boolean; file_status: Schemas['FileStatus'] | null; return_requested_at: Date | null; return_prepped: boolean } | null> {
  return db.maybeOne(
    'SELECT grading_complete, file_status, return_requested_at, return_prepped FROM files WHERE id = $1 FOR UPDATE',
    [fileId],
  );
}

/** Asks for the return file to be made (again). */
export async function markReturnRequested(db: Database, fileId: string): Promise<void> {
  await db.query('UPDATE files SET return_requested_at = now(), return_prepped = false WHERE id = $1', [fileId]);
}

export interface ReturnSheetRow {
  id: string;
  student_id: string | null;
  student_human_id: number | null;
  student_name: string | null;
  next_lesson_id: string | null;
}

/** The file's kept sheets in order, with their student and the lesson that follows theirs. */
export async function returnSheetsOfFile(db: Database, fileId: string): Promise<ReturnSheetRow[]> {
  return db.query<ReturnSheetRow>(
    `SELECT a.id, a.student_id, st.human_id AS student_human_id, st.attributes ->> 'name' AS student_name,
            COALESCE(l.next_lesson_id,
                     (SELECT nl.id FROM lessons nl WHERE nl.course_id = l.course_id AND nl.number = l.number + 1),
                     (SELECT cl.id FROM courses c JOIN lessons cl ON cl.course_id = c.next_course_id
                      WHERE c.id = l.course_id ORDER BY cl.number LIMIT 1)) AS next_lesson_id
     FROM answer_sheets a
     LEFT JOIN students st ON st.id = a.student_id
     LEFT JOIN lessons l ON l.id = a.lesson_id
     WHERE a.file_id = $1 AND ${keptSheetSql('a')}
     ORDER BY a.sequence`,
    [fileId],
  );
}

export interface ReturnPageRow {
  answer_sheet_id: string;
  front_key: string | null;
  back_key: string | null;
}

/** The newest graded scan of each kept page; a page somehow left without one keeps its original scan. */
export async function returnPagesOfFile(db: Database, fileId: string): Promise<ReturnPageRow[]> {
  return db.query<ReturnPageRow>(
    `SELECT p.answer_sheet_id, COALESCE(fb.front_blob_key, p.image_blob_key) AS front_key, fb.back_blob_key AS back_key
     FROM pages p JOIN answer_sheets a ON a.id = p.answer_sheet_id
     LEFT JOIN LATERAL (SELECT f.front_blob_key, f.back_blob_key FROM feedback f WHERE f.page_id = p.id
                        ORDER BY f.created_at DESC, f.id LIMIT 1) fb ON true
     WHERE a.file_id = $1 AND NOT p.ignored
     ORDER BY a.sequence, p.page_number`,
    [fileId],
  );
}

export interface NextLessonTemplateRow {
  id: string;
  lesson_id: string;
  page_number: number;
  lesson_number: number;
  lesson_name: string;
  course_name: string;
}

/** The template pages of these lessons, by lesson and page. */
export async function nextLessonTemplates(db: Database, lessonIds: readonly string[]): Promise<NextLessonTemplateRow[]> {
  return db.query<NextLessonTemplateRow>(
    `SELECT pt.id, pt.lesson_id, pt.page_number, l.number AS lesson_number, l.name AS lesson_name, c.name AS course_name
     FROM page_templates pt JOIN lessons l ON l.id = pt.lesson_id JOIN courses c ON c.id = l.course_id
     WHERE pt.lesson_id = ANY($1::uuid[]) ORDER BY pt.lesson_id, pt.page_number`,
    [lessonIds],
  );
}

/** The file's return-file request as the job reads it. */
export interface ReturnRequest {
  /** As text: a JavaScript Date would drop its microseconds and never compare equal. */
  return_requested_at: string;
  return_blob_key: string | null;
  return_one_sided_blob_key: string | null;
}

/** The request to serve; null when there is none (not graded yet, made already, file deleted). */
export async function pendingReturnRequest(db: Database, fileId: string): Promise<ReturnRequest | null> {
  return db.maybeOne<ReturnRequest>(
    `SELECT return_requested_at::text AS return_requested_at, return_blob_key, return_one_sided_blob_key
     FROM files WHERE id = $1 AND grading_complete AND return_requested_at IS NOT NULL AND NOT return_prepped`,
    [fileId],
  );
}

/** Records the return file's blobs, only for the request made at `requestedAt`; whether it was. */
export async function storeReturnFileOfRequest(
  db: Database,
  fileId: string,
  requestedAt: string,
  blobs: { twoSidedKey: string; oneSidedKey: string; pageCount: number },
): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE files SET return_blob_key = $2, return_page_count = $3, return_one_sided_blob_key = $5, return_prepped = true
     WHERE id = $1 AND return_requested_at::text = $4 AND NOT return_prepped`,
    [fileId, blobs.twoSidedKey, blobs.pageCount, requestedAt, blobs.oneSidedKey],
  );
  return changed > 0;
}

/** Drops the return-file request; false when the file was made meanwhile. */
export async function cancelReturnRequest(db: Database, fileId: string): Promise<boolean> {
  return (await db.execute('UPDATE files SET return_requested_at = NULL WHERE id = $1 AND NOT return_prepped', [fileId])) > 0;
}
