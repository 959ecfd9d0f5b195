// feedback: the graded scan of a packet page (front, and back when it has one), from the upload
// that brought it; one per page, the newest.
import type { Database } from '../db/database';

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
