// Graded uploads: the graded packets congregations send back. Their list (with the service
// centers' files for an admin), one upload's report, duplicates, recording a new one, its
// reading and its withdrawal.
import type { QueryOf, Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { fileUploadSummaryJoin } from './file-upload-reports';
import { uploadSummaryJoin } from './sql/upload-summary';
import { orderClause, type Direction, type Page, type SortColumn } from './sql/paging';
import { Where } from './sql/where';
import type { NotReadReport } from './files';

export type UploadOrder = NonNullable<QueryOf<'listUploads'>['order_by']>;

const UPLOAD_SORT: Record<UploadOrder, SortColumn> = {
  name: { sql: 'lower(u.name)', defaultDirection: 'asc' },
  created_at: { sql: 'u.created_at', defaultDirection: 'desc' },
};

export interface UploadHeadRow {
  id: string;
  name: string;
  created_at: Date;
  process_status: Schemas['ProcessStatus'];
  is_intro: boolean;
  kind: Schemas['UploadKind'];
}

/** An upload's counts (the columns of uploadSummaryJoin and fileUploadSummaryJoin). */
export type UploadSummaryRow = { id: string } & Schemas['UploadSummary'];

export type GradedUploadRow = Omit<UploadHeadRow, 'kind'> & UploadSummaryRow & { congregation_id: string; failure_reason: string | null };

export interface GradedUploadReportPageRow {
  page_number: number;
  outcome: string | null;
  detail: string | null;
  code_prefix: string | null;
  code_id: string | null;
  identified_by: Schemas['IdentifiedBy'] | null;
  has_image: boolean;
  file_id: string | null;
  file_name: string | null;
  sheet_id: string | null;
  student_human_id: number | null;
  lesson: string | null;
}

/**
 * A page of uploads: one congregation's graded uploads, or (congregation null) every graded
 * upload and the service centers' files (they belong to no congregation); with the total.
 */
export async function uploadListPage(
  db: Database,
  filter: { congregation: string | null; orderBy: UploadOrder; direction: Direction | undefined },
  page: Page,
): Promise<{ rows: UploadHeadRow[]; total: number }> {
  const where = new Where().addIf(filter.congregation, (p) => `u.congregation_id = ${p}`);
  const graded = `SELECT u.id, u.name, u.created_at, u.process_status, u.is_intro, 'graded' AS kind FROM graded_uploads u ${where.sql}`;
  const uploads =
    filter.congregation === null
      ? `${graded} UNION ALL SELECT f.id, f.name, f.created_at, f.process_status, false, 'service_center' FROM files f`
      : graded;
  const order = orderClause(UPLOAD_SORT, filter.orderBy, filter.direction, 'u.id');
  const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM (${uploads}) u`, where.params);
  const rows = await db.query<UploadHeadRow>(
    `SELECT u.* FROM (${uploads}) u ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
    where.params,
  );
  return { rows, total };
}

/** The counts of these uploads, each from its own kind's pages. */
export async function uploadSummaries(db: Database, gradedIds: readonly string[], fileIds: readonly string[]): Promise<UploadSummaryRow[]> {
  return [
    ...(await db.query<UploadSummaryRow>(`SELECT u.id, summary.* FROM graded_uploads u ${uploadSummaryJoin('u')} WHERE u.id = ANY($1::uuid[])`, [gradedIds])),
    ...(await db.query<UploadSummaryRow>(`SELECT f.id, summary.* FROM files f ${fileUploadSummaryJoin('f')} WHERE f.id = ANY($1::uuid[])`, [fileIds])),
  ];
}

export function gradedUploadWithSummary(db: Database, id: string): Promise<GradedUploadRow | null> {
  return db.maybeOne<GradedUploadRow>(
    `SELECT u.id, u.name, u.created_at, u.process_status, u.is_intro, u.congregation_id, u.failure_reason, summary.*
     FROM graded_uploads u ${uploadSummaryJoin('u')} WHERE u.id = $1`,
    [id],
  );
}

/** The upload's pages as its report shows them, with the sheet each was matched to. */
export function gradedUploadReportPages(db: Database, uploadId: string): Promise<GradedUploadReportPageRow[]> {
  return db.query<GradedUploadReportPageRow>(
    `SELECT s.page_number, s.outcome, s.detail, s.code_prefix, s.code_id, s.identified_by, s.image_blob_key IS NOT NULL AS has_image,
            f.id AS file_id, f.name AS file_name, a.id AS sheet_id, st.human_id AS student_human_id, l.name AS lesson
     FROM graded_upload_pages s
     LEFT JOIN pages p ON p.id = s.page_id
     LEFT JOIN files f ON f.id = p.file_id
     LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id
     LEFT JOIN students st ON st.id = a.student_id
     LEFT JOIN lessons l ON l.id = a.lesson_id
     WHERE s.upload_id = $1 ORDER BY s.page_number`,
    [uploadId],
  );
}

/** The scan of one page of a graded upload; null when it has none. */
export async function gradedUploadPageImageKey(db: Database, uploadId: string, pageNumber: number): Promise<string | null> {
  const row = await db.maybeOne<{ image_blob_key: string | null }>('SELECT image_blob_key FROM graded_upload_pages WHERE upload_id = $1 AND page_number = $2', [
    uploadId,
    pageNumber,
  ]);
  return row?.image_blob_key ?? null;
}

/** A graded upload is its congregation's own. */
export async function gradedUploadIsCongregations(db: Database, uploadId: string, congregationId: string): Promise<boolean> {
  return (await db.maybeOne(`SELECT 1 FROM graded_uploads WHERE id = $1 AND congregation_id = $2`, [uploadId, congregationId])) !== null;
}

/** Same bytes as an earlier graded upload (or, `orAnyFile`, as any service center file). */
export async function gradedUploadBytesSeen(db: Database, sha256: string, orAnyFile: boolean): Promise<boolean> {
  const duplicate = await db.maybeOne(
    `SELECT 1 FROM graded_uploads WHERE sha256 = $1 UNION ALL SELECT 1 FROM files WHERE sha256 = $1 AND $2::boolean LIMIT 1`,
    [sha256, orAnyFile],
  );
  return duplicate !== null;
}

export interface NewGradedUpload {
  name: string;
  congregationId: string;
  helperId: string | null;
  blob: { key: string; sha256: string; size: number };
  uploadedBy: string;
  pageCount: number;
}

/** Records a graded upload (an intro file when it names a study helper); returns its id. */
export async function insertGradedUpload(tx: Database, upload: NewGradedUpload): Promise<string> {
  const row = await tx.one<{ id: string }>(
    `INSERT INTO graded_uploads (name, congregation_id, study_helper_id, is_intro, blob_key, sha256, uploaded_by, size_bytes, page_count)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [upload.name, upload.congregationId, upload.helperId, upload.helperId !== null, upload.blob.key, upload.blob.sha256, upload.uploadedBy, upload.blob.size, upload.pageCount],
  );
  return row.id;
}

/** The upload as its job reads it. */
export interface UploadToRead {
  id: string;
  name: string;
  congregation_id: string;
  study_helper_id: string | null;
  is_intro: boolean;
  blob_key: string;
  sha256: string;
  size_bytes: number | null;
  uploaded_by: string | null;
}

/** The upload while it waits to be read; null once done, failed or deleted. */
export async function uploadWaitingToBeRead(db: Database, uploadId: string): Promise<UploadToRead | null> {
  return db.maybeOne<UploadToRead>(
    `SELECT id, name, congregation_id, study_helper_id, is_intro, blob_key, sha256, size_bytes, uploaded_by
     FROM graded_uploads WHERE id = $1 AND process_status = 'pending'`,
    [uploadId],
  );
}

/** Locks the upload for its last writes (in `tx`); false when it is not pending any more. */
export async function lockPendingUpload(tx: Database, uploadId: string): Promise<boolean> {
  return (await tx.maybeOne(`SELECT 1 FROM graded_uploads WHERE id = $1 AND process_status = 'pending' FOR UPDATE`, [uploadId])) !== null;
}

/** Marks a pending upload failed with its reason; false when it was not pending any more. */
export async function failPendingUpload(db: Database, uploadId: string, reason: string): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE graded_uploads SET process_status = 'failed', failure_reason = $2 WHERE id = $1 AND process_status = 'pending'`,
    [uploadId, reason],
  );
  return changed > 0;
}

/** An intro upload's pages became this file. */
export async function linkUploadToFile(db: Database, uploadId: string, fileId: string): Promise<void> {
  await db.query('UPDATE graded_uploads SET file_id = $2 WHERE id = $1', [uploadId, fileId]);
}

export interface UploadReportCounts {
  name: string;
  uploaded_by: string | null;
  matched: number;
  not_matched: number;
  blank_dropped: number;
}

/** The upload's report counts; `summaryJoin` is the trusted LATERAL join of its summary columns for alias `u`. */
export async function uploadReportCounts(db: Database, uploadId: string): Promise<UploadReportCounts | null> {
  return db.maybeOne<UploadReportCounts>(
    `SELECT u.name, u.uploaded_by, summary.matched, summary.not_matched, summary.blank_dropped
     FROM graded_uploads u ${uploadSummaryJoin('u')} WHERE u.id = $1`,
    [uploadId],
  );
}

export async function uploadNotReadReport(db: Database, uploadId: string): Promise<NotReadReport | null> {
  return db.maybeOne<NotReadReport>('SELECT name, uploaded_by, failure_reason FROM graded_uploads WHERE id = $1', [uploadId]);
}

/** The upload is read: every page has its outcome. */
export async function markGradedUploadDone(db: Database, uploadId: string, pageCount: number): Promise<void> {
  await db.query(`UPDATE graded_uploads SET process_status = 'success', page_count = $2, failure_reason = NULL WHERE id = $1`, [uploadId, pageCount]);
}

export interface WithdrawnUploadRow {
  blob_key: string;
  process_status: Schemas['ProcessStatus'];
  is_intro: boolean;
  file_id: string | null;
  congregation_id: string;
}

/** The upload locked to be withdrawn; null when there is no such upload. */
export async function lockGradedUploadForWithdraw(db: Database, uploadId: string): Promise<WithdrawnUploadRow | null> {
  return db.maybeOne<WithdrawnUploadRow>(
    'SELECT blob_key, process_status, is_intro, file_id, congregation_id FROM graded_uploads WHERE id = $1 FOR UPDATE',
    [uploadId],
  );
}

/** The sheets the upload's feedback graded. */
export async function sheetsGradedByUpload(db: Database, uploadId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT DISTINCT p.answer_sheet_id AS id FROM feedback fb JOIN pages p ON p.id = fb.page_id
     WHERE fb.upload_id = $1 AND p.answer_sheet_id IS NOT NULL`,
    [uploadId],
  );
  return rows.map((row) => row.id);
}

/** Every blob the upload brought: its feedback scans, its staged pages' images and its photos. */
export async function blobsOfGradedUpload(db: Database, uploadId: string): Promise<string[]> {
  const rows = await db.query<{ key: string }>(
    `SELECT front_blob_key AS key FROM feedback WHERE upload_id = $1
     UNION SELECT back_blob_key FROM feedback WHERE upload_id = $1 AND back_blob_key IS NOT NULL
     UNION SELECT image_blob_key FROM graded_upload_pages WHERE upload_id = $1 AND image_blob_key IS NOT NULL
     UNION SELECT photo_blob_key FROM graded_upload_pages WHERE upload_id = $1 AND photo_blob_key IS NOT NULL
     UNION SELECT blob_key FROM upload_photos WHERE upload_id = $1`,
    [uploadId],
  );
  return rows.map((row) => row.key);
}

/** Removes the upload; its feedback and report rows go with it (ON DELETE CASCADE). */
export async function deleteWithdrawnUpload(db: Database, uploadId: string): Promise<void> {
  await db.query('DELETE FROM graded_uploads WHERE id = $1', [uploadId]);
}
