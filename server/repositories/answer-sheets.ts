// answer_sheets: one student's answers to one lesson in a file, made by splitting its pages.
import type { Database } from '../db/database';

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
