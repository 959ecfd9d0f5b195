// Where grading stands, recomputed from the feedback rows whenever they change (graded uploads)
// or a packet is printed, always inside the caller's transaction:
//   - an answer sheet is graded when every page it keeps has feedback;
//   - a congregation's state of a file: unprinted → grading (printed, or a first graded scan)
//     → partially_graded (some of its sheets graded) → graded (all of them); returned stays;
//   - a sent file is grading_complete when every kept sheet is graded, and then its return file
//     is requested (again, when a newer scan arrives before the return file was downloaded);
//   - a withdrawn upload can make a complete file's sheets ungraded again before its return file
//     was downloaded: the file is back at Grading and its return file is dropped (reopenGrading).
import type { Database } from '../db/database';
import { keptSheetSql } from '../repositories/sql/file-steps';
import { JOB } from './job-progress';
import { startProgress } from '../repositories/job-progress';

/**
 * Recomputes `graded` of these sheets (their feedback changed) and the states of their files.
 * Returns the files whose return file is wanted now: grading just completed, or a newer scan
 * arrived for a file whose return file was not downloaded yet (it is made again).
 */
export async function refreshGrading(db: Database, sheetIds: readonly string[]): Promise<string[]> {
  if (sheetIds.length === 0) return [];
  await db.query(
    `UPDATE answer_sheets a SET graded = NOT EXISTS (
       SELECT 1 FROM pages p WHERE p.answer_sheet_id = a.id AND NOT p.ignored
         AND NOT EXISTS (SELECT 1 FROM feedback fb WHERE fb.page_id = p.id))
     WHERE a.id = ANY($1::uuid[])`,
    [sheetIds],
  );
  const files = await db.query<{ file_id: string }>('SELECT DISTINCT file_id FROM answer_sheets WHERE id = ANY($1::uuid[])', [sheetIds]);
  const completed: string[] = [];
  for (const { file_id: fileId } of files) {
    await refreshCongregationStates(db, fileId);
    if ((await markGradingComplete(db, fileId)) || (await returnFileOutdated(db, fileId))) completed.push(fileId);
  }
  return completed;
}

export async function refreshCongregationStates(db: Database, fileId: string): Promise<void> {
  await db.query(
    `WITH sheets AS (
       SELECT a.assigned_group, a.graded,
              EXISTS (SELECT 1 FROM pages p JOIN feedback fb ON fb.page_id = p.id WHERE p.answer_sheet_id = a.id) AS has_feedback
       FROM answer_sheets a WHERE a.file_id = $1 AND a.assigned_group IS NOT NULL AND ${keptSheetSql('a')}),
     states AS (
       SELECT fc.congregation_id,
              CASE WHEN fc.status = 'returned' THEN 'returned'
                   WHEN count(s.assigned_group) > 0 AND count(s.assigned_group) FILTER (WHERE s.graded) = count(s.assigned_group) THEN 'graded'
                   WHEN count(s.assigned_group) FILTER (WHERE s.graded) > 0 THEN 'partially_graded'
                   WHEN fc.printed_at IS NOT NULL OR coalesce(bool_or(s.has_feedback), false) THEN 'grading'
                   ELSE 'unprinted' END AS status
       FROM file_congregations fc LEFT JOIN sheets s ON s.assigned_group = fc.congregation_id
       WHERE fc.file_id = $1
       GROUP BY fc.congregation_id, fc.status, fc.printed_at)
     UPDATE file_congregations fc SET status = states.status
     FROM states WHERE fc.file_id = $1 AND fc.congregation_id = states.congregation_id AND fc.status <> states.status`,
    [fileId],
  );
}

/** Sets grading_complete (and requests the return file) when a sent file's kept sheets are all graded. */
async function markGradingComplete(db: Database, fileId: string): Promise<boolean> {
  const row = await db.maybeOne<{ id: string }>(
    `UPDATE files f SET grading_complete = true, return_requested_at = now(), return_prepped = false
     WHERE f.id = $1 AND f.sent_at IS NOT NULL AND NOT f.grading_complete
       AND EXISTS (SELECT 1 FROM answer_sheets a WHERE a.file_id = f.id AND ${keptSheetSql('a')})
       AND NOT EXISTS (SELECT 1 FROM answer_sheets a WHERE a.file_id = f.id AND NOT a.graded AND ${keptSheetSql('a')})
     RETURNING f.id`,
    [fileId],
  );
  if (row === null) return false;
  await startProgress(db, JOB.generateReturnFile, fileId, 0);
  return true;
}

/** A newer scan changed a completed file that was not downloaded yet: its return file is made again. */
async function returnFileOutdated(db: Database, fileId: string): Promise<boolean> {
  const row = await db.maybeOne<{ id: string }>(
    `UPDATE files SET return_requested_at = now(), return_prepped = false
     WHERE id = $1 AND grading_complete AND file_status = 'grading' RETURNING id`,
    [fileId],
  );
  if (row === null) return false;
  await startProgress(db, JOB.generateReturnFile, fileId, 0);
  return true;
}

/**
 * Files of these that were complete but have an ungraded kept sheet again (a graded upload was
 * withdrawn) go back to Grading: their return file, made from scans that are gone, is no longer
 * offered, and a run making one stores nothing (its request is dropped, as storeReturnFile
 * stores only for the request it served). Downloaded and archived
 * files are never reopened: their grading is closed. Returns the files reopened.
 */
export async function reopenGrading(db: Database, fileIds: readonly string[]): Promise<string[]> {
  if (fileIds.length === 0) return [];
  const reopened = await db.query<{ id: string }>(
    `UPDATE files f SET grading_complete = false, return_prepped = false, return_requested_at = NULL
     WHERE f.id = ANY($1::uuid[]) AND f.grading_complete AND f.file_status IS DISTINCT FROM 'downloaded'
       AND f.file_status IS DISTINCT FROM 'archived'
       AND EXISTS (SELECT 1 FROM answer_sheets a WHERE a.file_id = f.id AND NOT a.graded AND ${keptSheetSql('a')})
     RETURNING f.id`,
    [fileIds],
  );
  return reopened.map((row) => row.id);
}
