// The graded_upload_pages table: the pages of a graded upload as staged while it is read, and
// each page's outcome for the upload's report.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

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
