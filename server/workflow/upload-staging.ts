// The pages of a graded upload as staged while it is read (graded_upload_pages), and
// the last writes of its processing: every page's outcome and the upload marked done.
import type { Database } from '../db/database';
import type { Code, CodePrefix } from '../domain/codes';
import type { PageReason } from '../domain/page-reasons';
import type { PrintedTextReading } from '../pipeline/printed-text';

/** A page's outcome as recorded (graded outcomes, or `intro` / `blank` for intro files). */
export interface PageOutcomeRow {
  page_number: number;
  outcome: string;
  page_id: string | null;
  detail: string | null;
}

export interface UploadRow {
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

export interface StagedPage {
  page_number: number;
  code_prefix: CodePrefix | null;
  code_id: string | null;
  reason: PageReason | null;
  blank: boolean;
  read_error: string | null;
  image_blob_key: string | null;
  fingerprint_hash: Uint8Array | null;
  fingerprint: Uint8Array | null;
  printed_header: boolean | null;
  /** What OCR read of a page where no code was read (printed-text). */
  printed_text: PrintedTextReading | null;
}

export async function stagedPages(db: Database, uploadId: string): Promise<StagedPage[]> {
  return db.query<StagedPage>(
    `SELECT page_number, code_prefix, code_id, reason, blank, read_error, image_blob_key, fingerprint_hash, fingerprint, printed_header, printed_text
     FROM graded_upload_pages WHERE upload_id = $1 ORDER BY page_number`,
    [uploadId],
  );
}

export function codeOf(page: StagedPage): Code | null {
  return page.code_prefix !== null && page.code_id !== null ? { prefix: page.code_prefix, id: page.code_id } : null;
}

/** Records every page's outcome; every page keeps its image, so the upload's report can show it. */
export async function writeOutcomes(db: Database, uploadId: string, results: readonly PageOutcomeRow[]): Promise<void> {
  await db.query(
    `UPDATE graded_upload_pages s SET outcome = v.outcome, page_id = v.page_id, detail = v.detail
     FROM unnest($2::int[], $3::text[], $4::uuid[], $5::text[]) AS v(page_number, outcome, page_id, detail)
     WHERE s.upload_id = $1 AND s.page_number = v.page_number`,
    [uploadId, results.map((r) => r.page_number), results.map((r) => r.outcome), results.map((r) => r.page_id), results.map((r) => r.detail)],
  );
}

export async function finishUpload(db: Database, uploadId: string, pageCount: number): Promise<void> {
  await db.query(`UPDATE graded_uploads SET process_status = 'success', page_count = $2, failure_reason = NULL WHERE id = $1`, [uploadId, pageCount]);
}

