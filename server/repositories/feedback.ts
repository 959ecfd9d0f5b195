// Feedback: the graded scans that came back for a page.
import type { Database } from '../db/database';

/** The page's latest graded scan, front and back; null when none came back. */
export function latestGradedScanOfPage(db: Database, pageId: string): Promise<{ front_blob_key: string; back_blob_key: string | null } | null> {
  return db.maybeOne<{ front_blob_key: string; back_blob_key: string | null }>(
    'SELECT front_blob_key, back_blob_key FROM feedback WHERE page_id = $1 ORDER BY created_at DESC, id LIMIT 1',
    [pageId],
  );
}
