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
import { filesOfSheets, recomputeSheetsGraded } from '../repositories/answer-sheets';
import { refreshCongregationStatesOfFile } from '../repositories/file-congregations';
import { markFileGradingComplete, reopenGradingOfFiles, requestReturnFileAgain } from '../repositories/files';
import { startProgress } from '../repositories/job-progress';
import { JOB } from './job-progress';

/**
 * Recomputes `graded` of these sheets (their feedback changed) and the states of their files.
 * Returns the files whose return file is wanted now: grading just completed, or a newer scan
 * arrived for a file whose return file was not downloaded yet (it is made again).
 */
export async function refreshGrading(db: Database, sheetIds: readonly string[]): Promise<string[]> {
  if (sheetIds.length === 0) return [];
  await recomputeSheetsGraded(db, sheetIds);
  const completed: string[] = [];
  for (const fileId of await filesOfSheets(db, sheetIds)) {
    await refreshCongregationStatesOfFile(db, fileId);
    if ((await markGradingComplete(db, fileId)) || (await returnFileOutdated(db, fileId))) completed.push(fileId);
  }
  return completed;
}

/** Sets grading_complete (and requests the return file) when a sent file's kept sheets are all graded. */
async function markGradingComplete(db: Database, fileId: string): Promise<boolean> {
  if (!(await markFileGradingComplete(db, fileId))) return false;
  await startProgress(db, JOB.generateReturnFile, fileId, 0);
  return true;
}

/** A newer scan changed a completed file that was not downloaded yet: its return file is made again. */
async function returnFileOutdated(db: Database, fileId: string): Promise<boolean> {
  if (!(await requestReturnFileAgain(db, fileId))) return false;
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
  return reopenGradingOfFiles(db, fileIds);
}
