// Feedback: the graded scans that came back for a file's pages.
import type { Database } from '../db/database';

/** Whether any graded scan came back for the file's pages (of `scope`'s sheets when given; null: all). */
export async function fileHasFeedbackInScope(db: Database, fileId: string, scope: string | null): Promise<boolean> {
  const row = await db.one<{ available: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM feedback fb JOIN pages p ON p.id = fb.page_id JOIN answer_sheets a ON a.id = p.answer_sheet_id
                    WHERE p.file_id = $1 AND ($2::uuid IS NULL OR a.assigned_group = $2::uuid)) AS available`,
    [fileId, scope],
  );
  return row.available;
}

/** The page's latest graded scan, front and back; null when none came back. */
export function latestGradedScanOfPage(db: Database, pageId: string): Promise<{ front_blob_key: string; back_blob_key: string | null } | null> {
  return db.maybeOne<{ front_blob_key: string; back_blob_key: string | null }>(
    'SELECT front_blob_key, back_blob_key FROM feedback WHERE page_id = $1 ORDER BY created_at DESC, id LIMIT 1',
    [pageId],
  );
}

export interface EarlierFeedback {
  page_id: string;
  front_blob_key: string;
  back_blob_key: string | null;
  /** The upload that brought it. */
  name: string;
  created_at: Date;
}

/** The feedback these pages have now, with the name of its upload. */
export async function earlierFeedbackOfPages(db: Database, pageIds: readonly string[]): Promise<EarlierFeedback[]> {
  return db.query<EarlierFeedback>(
    `SELECT fb.page_id, fb.front_blob_key, fb.back_blob_key, u.name, fb.created_at
     FROM feedback fb JOIN graded_uploads u ON u.id = fb.upload_id WHERE fb.page_id = ANY($1::uuid[])`,
    [pageIds],
  );
}

export async function deleteFeedbackOfPages(db: Database, pageIds: readonly string[]): Promise<void> {
  await db.query('DELETE FROM feedback WHERE page_id = ANY($1::uuid[])', [pageIds]);
}

/** One feedback row per page, from this upload. */
export async function insertUploadFeedback(
  db: Database,
  uploadId: string,
  scans: readonly { page_id: string; front_blob_key: string; back_blob_key: string | null }[],
): Promise<void> {
  await db.query(
    `INSERT INTO feedback (page_id, upload_id, front_blob_key, back_blob_key)
     SELECT v.page_id, $1, v.front_key, v.back_key FROM unnest($2::uuid[], $3::text[], $4::text[]) AS v(page_id, front_key, back_key)`,
    [uploadId, scans.map((scan) => scan.page_id), scans.map((scan) => scan.front_blob_key), scans.map((scan) => scan.back_blob_key)],
  );
}
