// graded_upload_pages: each page of a graded upload (or intro file) staged as it is read, then
// given its outcome (matched, replaced, not matched...) for the upload's report.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

/** What the pipeline read of one staged page. */
export interface StagedPageValues {
  page_number: number;
  code_prefix: string | null;
  code_id: string | null;
  reason: string | null;
  blank: boolean;
  read_error: string | null;
  image_blob_key: string | null;
  fingerprint_hash: Uint8Array | null;
  fingerprint: Uint8Array | null;
  printed_header: boolean | null;
  photo_blob_key: string | null;
  /** JSON text, or null. */
  printed_text: string | null;
  identified_by: Schemas['IdentifiedBy'] | null;
}

/** Stages a page as read; reading the same page again replaces it. */
export async function upsertStagedPage(db: Database, uploadId: string, page: StagedPageValues): Promise<void> {
  await db.query(
    `INSERT INTO graded_upload_pages (upload_id, page_number, code_prefix, code_id, reason, blank, read_error, image_blob_key,
                                      fingerprint_hash, fingerprint, printed_header, photo_blob_key, printed_text, identified_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (upload_id, page_number) DO UPDATE SET
       code_prefix = EXCLUDED.code_prefix, code_id = EXCLUDED.code_id, reason = EXCLUDED.reason, blank = EXCLUDED.blank,
       read_error = EXCLUDED.read_error, image_blob_key = EXCLUDED.image_blob_key,
       fingerprint_hash = EXCLUDED.fingerprint_hash, fingerprint = EXCLUDED.fingerprint, printed_header = EXCLUDED.printed_header,
       photo_blob_key = EXCLUDED.photo_blob_key, printed_text = EXCLUDED.printed_text, identified_by = EXCLUDED.identified_by`,
    [
      uploadId,
      page.page_number,
      page.code_prefix,
      page.code_id,
      page.reason,
      page.blank,
      page.read_error,
      page.image_blob_key,
      page.fingerprint_hash,
      page.fingerprint,
      page.printed_header,
      page.photo_blob_key,
      page.printed_text,
      page.identified_by,
    ],
  );
}

/** The numbers of the upload's staged pages, in order. */
export async function stagedPageNumbers(db: Database, uploadId: string): Promise<number[]> {
  const rows = await db.query<{ page_number: number }>('SELECT page_number FROM graded_upload_pages WHERE upload_id = $1 ORDER BY page_number', [uploadId]);
  return rows.map((row) => row.page_number);
}

/** Whether a staged page still shows this image (discardIfUnreferenced does not know this table). */
export async function stagedImageInUse(db: Database, blobKey: string): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM graded_upload_pages WHERE image_blob_key = $1 LIMIT 1', [blobKey])) !== null;
}

/**
 * Other uploads' kept scans of these pages were replaced by upload `uploadName`'s: their
 * results say so. `keptOutcomes` are the outcomes of a kept scan.
 */
export async function markScansSuperseded(
  db: Database,
  upload: { id: string; name: string },
  pageIds: readonly string[],
  keptOutcomes: readonly string[],
): Promise<void> {
  await db.query(
    `UPDATE graded_upload_pages SET outcome = 'superseded',
            detail = 'A newer scan of this page (upload "' || $3 || '") replaced this one.'
     WHERE upload_id <> $1 AND page_id = ANY($2::uuid[]) AND outcome = ANY($4::text[])`,
    [upload.id, pageIds, upload.name, keptOutcomes],
  );
}

/** A staged page; the caller narrows the code prefix and the printed-text reading to its types. */
export interface StagedPageRow<Prefix extends string = string, Reading = unknown> {
  page_number: number;
  code_prefix: Prefix | null;
  code_id: string | null;
  reason: Schemas['UnrecognizedReason'] | null;
  blank: boolean;
  read_error: string | null;
  image_blob_key: string | null;
  fingerprint_hash: Uint8Array | null;
  fingerprint: Uint8Array | null;
  printed_header: boolean | null;
  /** What OCR read of a page where no code was read. */
  printed_text: Reading | null;
}

/** An upload's staged pages in order. */
export async function stagedPagesOfUpload<Prefix extends string, Reading>(db: Database, uploadId: string): Promise<StagedPageRow<Prefix, Reading>[]> {
  return db.query<StagedPageRow<Prefix, Reading>>(
    `SELECT page_number, code_prefix, code_id, reason, blank, read_error, image_blob_key, fingerprint_hash, fingerprint, printed_header, printed_text
     FROM graded_upload_pages WHERE upload_id = $1 ORDER BY page_number`,
    [uploadId],
  );
}

/** A page's outcome as recorded (graded outcomes, or `intro` / `blank` for intro files). */
export interface PageOutcomeRow {
  page_number: number;
  outcome: string;
  page_id: string | null;
  detail: string | null;
}

/** Records every page's outcome in one statement. */
export async function writeStagedOutcomes(db: Database, uploadId: string, results: readonly PageOutcomeRow[]): Promise<void> {
  await db.query(
    `UPDATE graded_upload_pages s SET outcome = v.outcome, page_id = v.page_id, detail = v.detail
     FROM unnest($2::int[], $3::text[], $4::uuid[], $5::text[]) AS v(page_number, outcome, page_id, detail)
     WHERE s.upload_id = $1 AND s.page_number = v.page_number`,
    [uploadId, results.map((r) => r.page_number), results.map((r) => r.outcome), results.map((r) => r.page_id), results.map((r) => r.detail)],
  );
}

/** A staged page identified by its printed text takes the code of the packet page it is. */
export async function identifyStagedPageByPrintedText(db: Database, uploadId: string, pageNumber: number, code: { prefix: string; id: string }): Promise<void> {
  await db.query(
    `UPDATE graded_upload_pages SET code_prefix = $3, code_id = $4, reason = NULL, identified_by = 'printed_text'
     WHERE upload_id = $1 AND page_number = $2`,
    [uploadId, pageNumber, code.prefix, code.id],
  );
}
