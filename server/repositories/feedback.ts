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
