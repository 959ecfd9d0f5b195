// pages: every page of a service center's file (or of an intro file made from an upload), as
// read by the scan pipeline and then placed on answer sheets.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

/** What the pipeline read of one page, as stored. */
export interface ReadPageValues {
  page_number: number;
  blank: boolean;
  rotation: number;
  code_prefix: string | null;
  code_id: string | null;
  unrecognized_reason: string | null;
  image_blob_key: string | null;
  read_error: string | null;
  fingerprint_hash: Uint8Array | null;
  fingerprint: Uint8Array | null;
  photo_blob_key: string | null;
  /** JSON text, or null. */
  printed_text: string | null;
  identified_by: Schemas['IdentifiedBy'] | null;
}

/** Stores a page as read (a blank page is ignored); reading the same page again replaces it. */
export async function upsertReadPage(db: Database, fileId: string, page: ReadPageValues): Promise<void> {
  await db.query(
    `INSERT INTO pages (file_id, page_number, blank, ignored, rotation, code_prefix, code_id, unrecognized_reason, image_blob_key, read_error,
                        fingerprint_hash, fingerprint, photo_blob_key, printed_text, identified_by)
     VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (file_id, page_number) DO UPDATE SET
       blank = EXCLUDED.blank, ignored = EXCLUDED.ignored, rotation = EXCLUDED.rotation,
       code_prefix = EXCLUDED.code_prefix, code_id = EXCLUDED.code_id,
       unrecognized_reason = EXCLUDED.unrecognized_reason, image_blob_key = EXCLUDED.image_blob_key,
       read_error = EXCLUDED.read_error, fingerprint_hash = EXCLUDED.fingerprint_hash, fingerprint = EXCLUDED.fingerprint,
       photo_blob_key = EXCLUDED.photo_blob_key, printed_text = EXCLUDED.printed_text, identified_by = EXCLUDED.identified_by`,
    [
      fileId,
      page.page_number,
      page.blank,
      page.rotation,
      page.code_prefix,
      page.code_id,
      page.unrecognized_reason,
      page.image_blob_key,
      page.read_error,
      page.fingerprint_hash,
      page.fingerprint,
      page.photo_blob_key,
      page.printed_text,
      page.identified_by,
    ],
  );
}

/** The numbers of the file's stored pages, in order. */
export async function storedPageNumbers(db: Database, fileId: string): Promise<number[]> {
  const rows = await db.query<{ page_number: number }>('SELECT page_number FROM pages WHERE file_id = $1 ORDER BY page_number', [fileId]);
  return rows.map((row) => row.page_number);
}

/** Pages of the file the pipeline could not process (read errors). */
export async function countPagesWithReadError(db: Database, fileId: string): Promise<number> {
  const row = await db.one<{ failed: number }>('SELECT count(*) AS failed FROM pages WHERE file_id = $1 AND read_error IS NOT NULL', [fileId]);
  return Number(row.failed);
}
