// Files: the service centers' scanned PDFs, as the contract's File shows them (whole, or as one
// congregation sees them), who may see one, its counts, and the rows its upload, download and
// return make or change.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { lookupSql } from '../db/lookup-sql';
import { fileStepQuery, flaggedPageSql, keptSheetSql, mismatchedPageSql, undecidedDuplicateSql, unrecognizedPageSql, type FileStepRow, sentOrSendingSql, fileStepSql } from './sql/file-steps';

/**
 * Select list over `files f`, as seen by a congregation (`viewerParam` names the parameter that
 * holds its id: a coordinator, or an admin looking at one congregation) or by an admin looking
 * at whole files (null). Callers append WHERE (by id: lists choose their page's ids first, see
 * rowsOfPage).
 *
 * Two statements rather than one with `$viewer IS NULL` tests in it: with those, PostgreSQL
 * found every call's own plan cheaper than a reusable one (it leaves out the branch the
 * parameter rules out), so it planned the statement anew on every call, 0.4-0.5 ms of the ~1.6
 * ms a page of files cost it. Each of the two keeps its generic plan (planning ~0.03 ms).
 */
export function fileSelect(viewerParam: string | null): string {
  // Names by lookupSql, not joins (see there why).
  const name = (table: string, column: string, value: string) => lookupSql(table, column, value);
  return `
  SELECT f.id, f.name, f.process_status, f.failure_reason, f.file_status, f.grading_complete, f.printed,
         ${viewerParam === null ? 'f.page_count' : congregationPages(viewerParam)} AS page_count, f.answer_sheet_page_length, f.scanned_at, f.uploaded_at, f.created_at, f.sent_at,
         f.service_center_id, ${name('service_centers', 'name', 'f.service_center_id')} AS service_center_name,
         ${name('service_centers', 'country_iso', 'f.service_center_id')} AS service_center_country,
         (SELECT co.display_name FROM countries co
          WHERE co.iso_code = ${name('service_centers', 'country_iso', 'f.service_center_id')}) AS service_center_country_name,
         f.recruiting_point_id, ${name('recruiting_points', 'name', 'f.recruiting_point_id')} AS recruiting_point_name,
         f.recruiter_id, ${name('recruiters', 'name', 'f.recruiter_id')} AS recruiter_name,
         f.contact_person_id, ${name('contact_persons', 'name', 'f.contact_person_id')} AS contact_person_name,
         ${viewerParam === null ? wholeFileKeptSheets : congregationKeptSheets(viewerParam)} AS responses_count,
         -- The congregations with sheets in the file: its rows of file_groups (kept by a trigger on
         -- answer_sheets), not every sheet of the file. A congregation's view names only itself.
         (SELECT coalesce(json_agg(json_build_object('id', g.id, 'wbs_code', g.wbs_code, 'display_name', g.display_name) ORDER BY g.wbs_code), '[]'::json)
          FROM file_groups fg JOIN congregations g ON g.id = fg.congregation_id
          WHERE fg.file_id = f.id${viewerParam === null ? '' : ` AND fg.congregation_id = ${viewerParam}::uuid`}) AS congregations,
         (SELECT coalesce(json_agg(json_build_object('id', c.id, 'name', c.name) ORDER BY c.name), '[]'::json)
          FROM courses c
          WHERE c.id IN (SELECT l.course_id FROM answer_sheets a JOIN lessons l ON l.id = a.lesson_id
                         WHERE a.file_id = f.id${viewerParam === null ? '' : ` AND a.assigned_group = ${viewerParam}::uuid`})) AS courses,
         ${
           viewerParam === null
             ? 'NULL::text'
             : `(SELECT fc.status FROM file_congregations fc WHERE fc.file_id = f.id AND fc.congregation_id = ${viewerParam}::uuid)`
         } AS congregation_file_status
  FROM files f`;
}

/** A congregation's pages of the file: those of its sheets (other congregations' are not its to count). */
function congregationPages(viewerParam: string): string {
  return `(SELECT count(*)::int FROM pages vp JOIN answer_sheets va ON va.id = vp.answer_sheet_id
           WHERE vp.file_id = f.id AND va.assigned_group = ${viewerParam}::uuid)`;
}

// Kept sheets (see keptSheetSql), counted from their kept pages: one index range per file
// instead of one lookup per sheet. DISTINCT in a subquery reads in the index's order, with no
// sort (count(DISTINCT) sorts).
const wholeFileKeptSheets = `(SELECT count(*) FROM (SELECT DISTINCT kp.answer_sheet_id FROM pages kp
   WHERE kp.file_id = f.id AND NOT kp.ignored AND kp.answer_sheet_id IS NOT NULL) kept)`;

/** A congregation's kept sheets of the file: its sheets (one index range) with a kept page. */
function congregationKeptSheets(viewerParam: string): string {
  return `(SELECT count(*) FROM answer_sheets a
   WHERE a.assigned_group = ${viewerParam}::uuid AND a.file_id = f.id
     AND EXISTS (SELECT 1 FROM pages kp WHERE kp.file_id = f.id AND kp.answer_sheet_id = a.id AND NOT kp.ignored))`;
}

export interface FileRow {
  id: string;
  name: string;
  process_status: Schemas['ProcessStatus'];
  failure_reason: string | null;
  file_status: Schemas['FileStatus'] | null;
  grading_complete: boolean;
  printed: boolean;
  page_count: number | null;
  answer_sheet_page_length: number;
  scanned_at: Date | null;
  uploaded_at: Date;
  created_at: Date;
  sent_at: Date | null;
  service_center_id: string | null;
  service_center_name: string | null;
  service_center_country: string | null;
  service_center_country_name: string | null;
  recruiting_point_id: string | null;
  recruiting_point_name: string | null;
  recruiter_id: string | null;
  recruiter_name: string | null;
  contact_person_id: string | null;
  contact_person_name: string | null;
  responses_count: number;
  congregations: Schemas['CongregationRef'][];
  courses: Schemas['NamedRef'][];
  congregation_file_status: Schemas['CongregationFileStatus'] | null;
}

/** Visible to a coordinator of `congregationId` (null: an admin): the file was sent to it. */
export function fileVisibleSql(file: string, scopeParam: string): string {
  return `(${scopeParam}::uuid IS NULL OR ${sentToSql(`${file}.id`, scopeParam)})`;
}

/**
 * The file (its id in `fileId`) was sent to the congregation: Send made its row of
 * file_congregations, Take Back removes it. A file still in Review, or taken back, is the
 * admins' work: its congregations see nothing of it.
 */
export function sentToSql(fileId: string, congregationParam: string): string {
  return `EXISTS (SELECT 1 FROM file_congregations sent WHERE sent.file_id = ${fileId} AND sent.congregation_id = ${congregationParam}::uuid)`;
}

/** Whether a caller limited to `scope` (null: an admin) may see the file; null when no such file. */
export async function fileVisibleInScope(db: Database, fileId: string, scope: string | null): Promise<boolean | null> {
  const row = await db.maybeOne<{ visible: boolean }>(`SELECT ${fileVisibleSql('f', '$2')} AS visible FROM files f WHERE f.id = $1`, [
    fileId,
    scope,
  ]);
  return row === null ? null : row.visible;
}

/** The file as `scope` sees it (null: whole), or null when no such file. */
export async function fileForView(db: Database, fileId: string, scope: string | null): Promise<FileRow | null> {
  return db.maybeOne<FileRow>(`${fileSelect(scope === null ? null : '$2')} WHERE f.id = $1`, scope === null ? [fileId] : [fileId, scope]);
}

export type FileStatsCounts = Record<Exclude<keyof Schemas['FileStats'], 'reasons' | 'flagged' | 'repeat_of'>, number> & {
  flags: Record<string, number> | null;
  duplicate_sheet: number;
  blank_back: number;
  no_sheet: number;
  too_blurred: number;
};

/**
 * The file's counts; with a congregation (a coordinator's scope), those of its sheets and their
 * pages alone: pages of no sheet and unassigned sheets are the admins' work, not its.
 */
export async function fileStatsCounts(db: Database, fileId: string, scope: string | null): Promise<FileStatsCounts> {
  // `a` is a sheet, `p` a page: each count is narrowed to the congregation's when scoped.
  const sheetOf = scope === null ? '' : ' AND a.assigned_group = $2';
  const pageOf = scope === null ? '' : ' AND EXISTS (SELECT 1 FROM answer_sheets s WHERE s.id = p.answer_sheet_id AND s.assigned_group = $2)';
  return db.one<FileStatsCounts>(
    `SELECT
       (SELECT count(*) FROM pages p WHERE p.file_id = $1${pageOf}) AS pages,
       (SELECT count(*) FROM answer_sheets a WHERE a.file_id = $1 AND ${keptSheetSql('a')}${sheetOf}) AS sheets,
       (SELECT count(*) FROM pages p WHERE p.file_id = $1 AND ${unrecognizedPageSql('p')}${pageOf}) AS unrecognized,
       (SELECT count(*) FROM pages p JOIN answer_sheets a ON a.id = p.answer_sheet_id WHERE p.file_id = $1 AND ${mismatchedPageSql('p', 'a')}${sheetOf}) AS mismatched,
       (SELECT count(*) FROM pages p WHERE p.file_id = $1 AND p.ignored${pageOf}) AS ignored,
       (SELECT count(*) FROM answer_sheets a WHERE a.file_id = $1 AND a.assigned_group IS NULL AND ${keptSheetSql('a')}${sheetOf}) AS unassigned,
       (SELECT count(*) FROM answer_sheets a WHERE a.file_id = $1 AND ${undecidedDuplicateSql('a')}${sheetOf}) AS duplicates,
       (SELECT count(*) FROM answer_sheets a WHERE a.file_id = $1 AND a.student_id IS NULL AND ${keptSheetSql('a')}${sheetOf}) AS missing_student,
       (SELECT count(*) FROM answer_sheets a WHERE a.file_id = $1 AND a.lesson_id IS NULL AND ${keptSheetSql('a')}${sheetOf}) AS missing_lesson,
       (SELECT json_object_agg(flag, n) FROM (SELECT p.flag, count(*) AS n FROM pages p WHERE p.file_id = $1 AND ${flaggedPageSql('p')}${pageOf} GROUP BY p.flag) f) AS flags,
       (SELECT count(*) FROM pages p JOIN answer_sheets a ON a.id = p.answer_sheet_id
        WHERE p.file_id = $1 AND NOT p.ignored AND p.flag IS NULL AND a.duplicate_of IS NOT NULL AND NOT a.duplicate_kept${sheetOf}) AS duplicate_sheet,
       (SELECT count(*) FROM pages p WHERE p.file_id = $1 AND p.blank AND p.ignored${pageOf}) AS blank_back,
       -- Photos that could not be read are on no sheet: counted apart (they hold no file in Review).
       (SELECT count(*) FROM pages p WHERE p.file_id = $1 AND NOT p.ignored AND p.flag = 'no_sheet'${pageOf}) AS no_sheet,
       (SELECT count(*) FROM pages p WHERE p.file_id = $1 AND NOT p.ignored AND p.flag = 'too_blurred'${pageOf}) AS too_blurred`,
    scope === null ? [fileId] : [fileId, scope],
  );
}

/**
 * The earlier file most of this one's paper was seen in (a batch scanned again), with how many of
 * its pages were seen there and how many of its pages are not blank: pages keep the file their
 * paper was first seen in (flag_detail), whatever Review did with their flags since.
 */
export async function fileMostSeenBefore(
  db: Database,
  fileId: string,
): Promise<{ file_id: string; name: string; pages: number; content: number } | null> {
  return db.maybeOne<{ file_id: string; name: string; pages: number; content: number }>(
    `SELECT seen.file_id, f.name, seen.pages,
            (SELECT count(*)::int FROM pages c WHERE c.file_id = $1 AND NOT c.blank) AS content
     FROM (SELECT (p.flag_detail ->> 'copy_file_id')::uuid AS file_id, count(*)::int AS pages
           FROM pages p WHERE p.file_id = $1 AND p.flag_detail ? 'copy_file_id' AND p.flag_detail ->> 'copy_file_id' <> $1::text
           GROUP BY 1 ORDER BY 2 DESC LIMIT 1) seen
     JOIN files f ON f.id = seen.file_id`,
    [fileId],
  );
}

/** The file's workflow step as `scope` sees it (null: whole), or null when no such file. */
export async function fileStepForView(db: Database, fileId: string, scope: string | null): Promise<FileStepRow | null> {
  return db.maybeOne<FileStepRow>(fileStepQuery(scope !== null), scope === null ? [fileId] : [fileId, scope]);
}

/** The image of the file's cover sheet (its batch's first page), or null when it has none. */
export async function coverImageKeyOfFile(db: Database, fileId: string): Promise<string | null> {
  const row = await db.maybeOne<{ image_blob_key: string | null }>(
    'SELECT p.image_blob_key FROM files f JOIN pages p ON p.id = f.cover_page_id WHERE f.id = $1',
    [fileId],
  );
  return row?.image_blob_key ?? null;
}

/** The file's name and the blob of its original PDF, or null when no such file. */
export async function fileOriginalForDownload(db: Database, fileId: string): Promise<{ name: string; blob_key: string } | null> {
  return db.maybeOne<{ name: string; blob_key: string }>('SELECT name, blob_key FROM files WHERE id = $1', [fileId]);
}

/** Whether a file with these bytes (their SHA-256) was uploaded already. */
export async function fileWithSameBytesExists(db: Database, sha256: string): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM files WHERE sha256 = $1', [sha256])) !== null;
}

export interface NewServiceCenterFile {
  name: string;
  sha256: string;
  blobKey: string;
  sizeBytes: number;
  pageCount: number;
  answerSheetPageLength: number;
  scannedAt: Date | null;
  uploadedBy: string;
}

/** Records an accepted service-center file; returns its id. A same-bytes file violates sha256's unique index. */
export async function insertServiceCenterFile(tx: Database, file: NewServiceCenterFile): Promise<string> {
  const row = await tx.one<{ id: string }>(
    `INSERT INTO files (name, sha256, blob_key, size_bytes, page_count, answer_sheet_page_length, scanned_at, uploaded_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [file.name, file.sha256, file.blobKey, file.sizeBytes, file.pageCount, file.answerSheetPageLength, file.scannedAt, file.uploadedBy],
  );
  return row.id;
}

/** The file's return file (two-sided, or one-sided), or null when no such file. */
export async function returnFileOfFile(
  db: Database,
  fileId: string,
  oneSided: boolean,
): Promise<{ name: string; return_prepped: boolean; blob_key: string | null } | null> {
  return db.maybeOne<{ name: string; return_prepped: boolean; blob_key: string | null }>(
    oneSided
      ? 'SELECT name, return_prepped, return_one_sided_blob_key AS blob_key FROM files WHERE id = $1'
      : 'SELECT name, return_prepped, return_blob_key AS blob_key FROM files WHERE id = $1',
    [fileId],
  );
}

/** The return file was downloaded from the portal: Archive is allowed (an archived file stays so). */
export async function markReturnFileDownloaded(db: Database, fileId: string): Promise<void> {
  await db.query(`UPDATE files SET file_status = 'downloaded' WHERE id = $1 AND file_status IS DISTINCT FROM 'archived'`, [fileId]);
}

/** The file's status, its row locked until the transaction ends; null when no such file. */
export async function lockFileStatus(tx: Database, fileId: string): Promise<{ file_status: Schemas['FileStatus'] | null } | null> {
  return tx.maybeOne<{ file_status: Schemas['FileStatus'] | null }>('SELECT file_status FROM files WHERE id = $1 FOR UPDATE', [fileId]);
}

/** Archives the file: it and each congregation's copy of it are returned. */
export async function markFileArchived(tx: Database, fileId: string): Promise<void> {
  await tx.query(`UPDATE files SET file_status = 'archived' WHERE id = $1`, [fileId]);
  await tx.query(`UPDATE file_congregations SET status = 'returned' WHERE file_id = $1`, [fileId]);
}

/** Whether the file was sent to the congregation (Send made its row of file_congregations). */
export async function fileSentToCongregation(db: Database, fileId: string, congregationId: string): Promise<boolean> {
  return (await db.maybeOne(`SELECT 1 FROM files f WHERE f.id = $1 AND ${sentToSql('f.id', '$2')}`, [fileId, congregationId])) !== null;
}

/**
 * Locks the file's row (Send locks it too before it reads the sheets) and says whether it is
 * sent or being sent; null when there is no such file.
 */
export async function lockFileForSheetAssignment(tx: Database, fileId: string): Promise<boolean | null> {
  const file = await tx.maybeOne<{ sent: boolean }>(`SELECT ${sentOrSendingSql('f')} AS sent FROM files f WHERE f.id = $1 FOR UPDATE`, [fileId]);
  return file?.sent ?? null;
}

/**
 * The files of the student's sheets not sent yet, their rows locked shared (in id order), so a
 * Send under way is waited for and its file left alone.
 */
export async function lockUnsentFilesOfStudent(tx: Database, studentId: string): Promise<string[]> {
  const files = await tx.query<{ id: string }>(
    `SELECT f.id FROM files f
     WHERE f.id IN (SELECT a.file_id FROM answer_sheets a WHERE a.student_id = $1) AND NOT ${sentOrSendingSql('f')}
     ORDER BY f.id FOR SHARE`,
    [studentId],
  );
  return files.map((file) => file.id);
}

/** A file waiting for its split, locked for it; null when it is no longer pending. */
export async function lockPendingFileForSplit(
  db: Database,
  fileId: string,
): Promise<{ answer_sheet_page_length: Schemas['AnswerSheetPageLength']; service_center_id: string | null; page_count: number | null } | null> {
  return db.maybeOne(
    `SELECT answer_sheet_page_length, service_center_id, page_count FROM files
     WHERE id = $1 AND process_status = 'pending' FOR UPDATE`,
    [fileId],
  );
}

/** The split is written: the file is processed, with its cover page and the cover's service center. */
export async function markFileSplit(db: Database, fileId: string, coverPageId: string | null, coverServiceCenterId: string | null): Promise<void> {
  await db.query(
    `UPDATE files SET process_status = 'success', failure_reason = NULL,
            cover_page_id = $2, service_center_id = COALESCE(service_center_id, $3)
     WHERE id = $1`,
    [fileId, coverPageId, coverServiceCenterId],
  );
}

/** The files an upload's feedback graded, locked, by name. */
export async function lockFilesGradedByUpload(db: Database, uploadId: string): Promise<{ id: string; name: string; file_status: Schemas['FileStatus'] | null }[]> {
  return db.query<{ id: string; name: string; file_status: Schemas['FileStatus'] | null }>(
    `SELECT f.id, f.name, f.file_status FROM files f
     WHERE f.id IN (SELECT p.file_id FROM feedback fb JOIN pages p ON p.id = fb.page_id WHERE fb.upload_id = $1)
     ORDER BY f.name FOR UPDATE`,
    [uploadId],
  );
}

/** Whether a file still waits to be read (a job left over from before the server started). */
export async function anyFileWaitingToBeRead(db: Database): Promise<boolean> {
  return (await db.maybeOne(`SELECT 1 FROM files WHERE process_status = 'pending' LIMIT 1`)) !== null;
}

export interface FileToRead {
  blob_key: string;
}

/** The file while it waits to be read; null once done, failed or deleted. */
export async function fileWaitingToBeRead(db: Database, fileId: string): Promise<FileToRead | null> {
  return db.maybeOne<FileToRead>(`SELECT blob_key FROM files WHERE id = $1 AND process_status = 'pending'`, [fileId]);
}

/** Marks a pending file failed with its reason; false when it was not pending any more. */
export async function failPendingFile(db: Database, fileId: string, reason: string): Promise<boolean> {
  const changed = await db.execute(`UPDATE files SET process_status = 'failed', failure_reason = $2 WHERE id = $1 AND process_status = 'pending'`, [fileId, reason]);
  return changed > 0;
}

/** Sets grading_complete and requests the return file when a sent file's kept sheets are all graded; true when it did. */
export async function markFileGradingComplete(db: Database, fileId: string): Promise<boolean> {
  const row = await db.maybeOne<{ id: string }>(
    `UPDATE files f SET grading_complete = true, return_requested_at = now(), return_prepped = false
     WHERE f.id = $1 AND f.sent_at IS NOT NULL AND NOT f.grading_complete
       AND EXISTS (SELECT 1 FROM answer_sheets a WHERE a.file_id = f.id AND ${keptSheetSql('a')})
       AND NOT EXISTS (SELECT 1 FROM answer_sheets a WHERE a.file_id = f.id AND NOT a.graded AND ${keptSheetSql('a')})
     RETURNING f.id`,
    [fileId],
  );
  return row !== null;
}

/** Requests the return file of a completed file again, unless it was downloaded; true when it did. */
export async function requestReturnFileAgain(db: Database, fileId: string): Promise<boolean> {
  const row = await db.maybeOne<{ id: string }>(
    `UPDATE files SET return_requested_at = now(), return_prepped = false
     WHERE id = $1 AND grading_complete AND file_status = 'grading' RETURNING id`,
    [fileId],
  );
  return row !== null;
}

/**
 * Files of these that were complete but have an ungraded kept sheet again go back to Grading,
 * their return file dropped; downloaded and archived files never. Returns the files reopened.
 */
export async function reopenGradingOfFiles(db: Database, fileIds: readonly string[]): Promise<string[]> {
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

/** What a file's read report tells: its step and its counts of pages and answer sheets. */
export interface FileReadReport {
  name: string;
  uploaded_by: string | null;
  step: Schemas['WorkflowStep'];
  pages: number;
  sheets: number;
}

export async function fileReadReport(db: Database, fileId: string): Promise<FileReadReport | null> {
  return db.maybeOne<FileReadReport>(
    `SELECT f.name, f.uploaded_by, ${fileStepSql('f')} AS step,
            (SELECT count(*)::int FROM pages p WHERE p.file_id = f.id) AS pages,
            (SELECT count(*)::int FROM answer_sheets a WHERE a.file_id = f.id) AS sheets
     FROM files f WHERE f.id = $1`,
    [fileId],
  );
}

/** What "not read" tells of a file or an upload: its name, uploader and why it failed. */
export interface NotReadReport {
  name: string;
  uploaded_by: string | null;
  failure_reason: string | null;
}

export async function fileNotReadReport(db: Database, fileId: string): Promise<NotReadReport | null> {
  return db.maybeOne<NotReadReport>('SELECT name, uploaded_by, failure_reason FROM files WHERE id = $1', [fileId]);
}

/** The values of a new file made from an intro upload (already read, so `success`). */
export interface IntroFileValues {
  name: string;
  sha256: string;
  blob_key: string;
  size_bytes: number;
  page_count: number;
  answer_sheet_page_length: number;
  uploaded_by: string | null;
}

/** Inserts the file of an intro upload's sheets; its id. */
export async function insertIntroFile(db: Database, file: IntroFileValues): Promise<string> {
  const row = await db.one<{ id: string }>(
    `INSERT INTO files (name, sha256, blob_key, size_bytes, page_count, answer_sheet_page_length, process_status, uploaded_by)
     VALUES ($1, $2, $3, $4, $5, $6, 'success', $7) RETURNING id`,
    [file.name, file.sha256, file.blob_key, file.size_bytes, file.page_count, file.answer_sheet_page_length, file.uploaded_by],
  );
  return row.id;
}
