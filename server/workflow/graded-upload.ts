// A congregation's scan of graded packet pages (or, with a study helper chosen, an intro file
// of that helper's own recruits), as its job (server/jobs/graded-upload.ts) works through it:
// each page is staged (code, blankness, upright image) in graded_upload_pages as it is read,
// so a restart resumes at the first page missing; then, in one transaction, every page's outcome
// is decided (match-graded-pages), the feedback kept (the newest scan of a page replaces older
// ones, until the file's return file was downloaded), sheets marked graded and the congregation
// and file states moved on (grading-state).
import type { BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import type { CodePrefix } from '../domain/codes';
import { discardIfUnreferenced } from '../db/blob-references';
import { hasPrintedHeader } from '../pipeline/printed-header';
import type { ProcessedPage } from '../pipeline/process-pages';
import { fingerprintOf } from './file-pages';
import { identifyStagedPages } from './printed-text-pages';
import { refreshGrading } from './grading-state';
import { KEPT_OUTCOMES, matchGradedPages, type CodeTarget } from '../domain/match-graded-pages';
import { codeOf, finishUpload, stagedPages, writeOutcomes, type UploadRow } from './upload-staging';

/** Graded packets carry `p` codes; intro files carry the lesson masters' `t` and `s` codes. */
export const GRADED_PREFIXES: readonly CodePrefix[] = ['p'];
export const INTRO_PREFIXES: readonly CodePrefix[] = ['t', 's'];

/** The upload while it waits to be processed; null once done, failed or deleted. */
export async function pendingUpload(db: Database, uploadId: string): Promise<UploadRow | null> {
  return db.maybeOne<UploadRow>(
    `SELECT id, name, congregation_id, study_helper_id, is_intro, blob_key, sha256, size_bytes, uploaded_by
     FROM graded_uploads WHERE id = $1 AND process_status = 'pending'`,
    [uploadId],
  );
}

export async function stagePage(db: Database, blobStore: BlobStore, uploadId: string, page: ProcessedPage, intro = false): Promise<void> {
  // Blank pages are never kept: no need to store their images.
  const imageKey = page.image && !page.blank ? (await blobStore.put(page.image.jpeg)).key : null;
  // Intro sheets make students: their paper is known by sight too (paper-seen).
  const fingerprint = intro ? await fingerprintOf(page) : null;
  const printedHeader = !intro && !page.code && !page.blank && page.image ? await hasPrintedHeader(page.image.jpeg).catch(() => null) : null;
  (page as { image: ProcessedPage['image'] }).image = null;
  // A photographed page keeps the photo as taken, for a reviewer to compare.
  const photoKey = page.photo ? (await blobStore.put(page.photo.asTaken)).key : null;
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
      page.code?.prefix ?? null,
      page.code?.id ?? null,
      page.code ? null : page.reason,
      page.blank,
      page.error,
      imageKey,
      fingerprint?.hash ?? null,
      fingerprint?.print ?? null,
      printedHeader,
      photoKey,
      page.printed_text === null ? null : JSON.stringify(page.printed_text),
      page.code ? page.identified_by : null,
    ],
  );
}

/** Pages are staged in order: one past the last staged page (or the first gap). */
export async function firstMissingStagedPage(db: Database, uploadId: string): Promise<number> {
  const rows = await db.query<{ page_number: number }>('SELECT page_number FROM graded_upload_pages WHERE upload_id = $1 ORDER BY page_number', [uploadId]);
  let expected = 1;
  for (const row of rows) {
    if (row.page_number !== expected) break;
    expected++;
  }
  return expected;
}

export interface MatchResult {
  completedFiles: string[];
  /** Blobs nothing points at any more: replaced feedback, staged images of pages not kept. */
  unusedBlobs: string[];
  /** Pages of the upload, all read: what its progress counts. */
  pageCount: number;
}

/** The last writes for graded packets, in one transaction; null when the upload was finished already. */
export async function matchUpload(db: Database, upload: UploadRow): Promise<MatchResult | null> {
  return db.transaction(async (tx) => {
    const locked = await tx.maybeOne(`SELECT 1 FROM graded_uploads WHERE id = $1 AND process_status = 'pending' FOR UPDATE`, [upload.id]);
    if (locked === null) return null;
    const staged = await stagedPages(tx, upload.id);
    // Codeless pages whose printed text confirms one packet page get its code first.
    const printedNotes = await identifyStagedPages(tx, upload.id, upload.congregation_id, staged);
    const codeIds = staged.filter((page) => page.code_prefix === 'p' && page.code_id !== null).map((page) => page.code_id!);
    const targets = await tx.query<CodeTarget & { code_id: string }>(
      `SELECT pc.code_id, p.id AS page_id, a.assigned_group AS congregation_id,
              (f.sent_at IS NOT NULL AND f.file_status IS DISTINCT FROM 'archived' AND NOT p.ignored AND a.id IS NOT NULL) AS open_for_grading,
              f.file_status IS NOT DISTINCT FROM 'archived' AS archived
       FROM printed_codes pc JOIN pages p ON p.id = pc.target_id JOIN files f ON f.id = p.file_id
       LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id
       WHERE pc.prefix = 'p' AND pc.code_id = ANY($1::text[])`,
      [codeIds],
    );
    const targetOf = new Map(targets.map((target) => [target.code_id, target]));
    const imageOf = new Map(staged.map((page) => [page.page_number, page.image_blob_key]));
    const match = matchGradedPages(
      staged.map((page) => ({
        page_number: page.page_number,
        code: codeOf(page),
        reason: page.reason,
        blank: page.blank,
        read_error: page.read_error,
        printed_header: page.printed_header,
      })),
      (code) => targetOf.get(code.id) ?? null,
      upload.congregation_id,
    );
    const resultOf = new Map(match.pages.map((result) => [result.page_number, result]));
    for (const [pageNumber, note] of printedNotes) {
      const result = resultOf.get(pageNumber);
      if (result?.outcome === 'unrecognized') result.detail = note;
    }
    // Once a file's return file was downloaded its grading is closed: scans of its pages are
    // refused, with the reason in the report, never swapped for the scans already sent back.
    const closed = await tx.query<{ page_id: string; name: string }>(
      `SELECT p.id AS page_id, f.name FROM pages p JOIN files f ON f.id = p.file_id
       WHERE p.id = ANY($1::uuid[]) AND f.file_status = 'downloaded'`,
      [match.feedback.map((item) => item.page_id)],
    );
    const closedFile = new Map(closed.map((row) => [row.page_id, row.name]));
    for (const result of match.pages) {
      const fileName = result.page_id === null ? undefined : closedFile.get(result.page_id);
      if (fileName === undefined || result.outcome === 'blank_back') continue;
      result.outcome = 'return_downloaded';
      result.detail = `The return file of "${fileName}" was already downloaded: its grading is closed, so this scan was not taken.`;
    }
    // A front whose image could not be kept cannot become feedback.
    const feedback = match.feedback.filter((item) => {
      if (closedFile.has(item.page_id)) return false;
      if (imageOf.get(item.front_page_number)) return true;
      const result = resultOf.get(item.front_page_number)!;
      result.outcome = 'unreadable';
      result.detail = 'The page image could not be stored.';
      if (item.back_page_number !== null) Object.assign(resultOf.get(item.back_page_number)!, { outcome: 'unrecognized', detail: 'The page before it could not be kept.' });
      return false;
    });

    // Keep the newest scan of each page: earlier feedback from other uploads goes.
    const pageIds = feedback.map((item) => item.page_id);
    const earlier = await tx.query<{ page_id: string; front_blob_key: string; back_blob_key: string | null; name: string; created_at: Date }>(
      `SELECT fb.page_id, fb.front_blob_key, fb.back_blob_key, u.name, fb.created_at
       FROM feedback fb JOIN graded_uploads u ON u.id = fb.upload_id WHERE fb.page_id = ANY($1::uuid[])`,
      [pageIds],
    );
    const unusedBlobs: string[] = [];
    for (const row of earlier) {
      unusedBlobs.push(row.front_blob_key, ...(row.back_blob_key === null ? [] : [row.back_blob_key]));
      const item = feedback.find((f) => f.page_id === row.page_id)!;
      const result = resultOf.get(item.front_page_number)!;
      result.outcome = 'replaced';
      result.detail = `Replaces the earlier scan from upload "${row.name}" (${new Date(row.created_at).toISOString().slice(0, 10)}).`;
    }
    if (earlier.length > 0) {
      await tx.query('DELETE FROM feedback WHERE page_id = ANY($1::uuid[])', [pageIds]);
      // The older uploads' results say what became of their scans.
      await tx.query(
        `UPDATE graded_upload_pages SET outcome = 'superseded',
                detail = 'A newer scan of this page (upload "' || $3 || '") replaced this one.'
         WHERE upload_id <> $1 AND page_id = ANY($2::uuid[]) AND outcome = ANY($4::text[])`,
        [upload.id, earlier.map((row) => row.page_id), upload.name, KEPT_OUTCOMES],
      );
    }
    await tx.query(
      `INSERT INTO feedback (page_id, upload_id, front_blob_key, back_blob_key)
       SELECT v.page_id, $1, v.front_key, v.back_key FROM unnest($2::uuid[], $3::text[], $4::text[]) AS v(page_id, front_key, back_key)`,
      [
        upload.id,
        pageIds,
        feedback.map((item) => imageOf.get(item.front_page_number)!),
        feedback.map((item) => (item.back_page_number === null ? null : (imageOf.get(item.back_page_number) ?? null))),
      ],
    );
    // Images of pages not kept stay with the upload: its report shows them.
    await writeOutcomes(tx, upload.id, match.pages);

    const sheets = await tx.query<{ id: string }>(
      'SELECT DISTINCT answer_sheet_id AS id FROM pages WHERE id = ANY($1::uuid[]) AND answer_sheet_id IS NOT NULL',
      [pageIds],
    );
    const completedFiles = await refreshGrading(tx, sheets.map((sheet) => sheet.id));
    await finishUpload(tx, upload.id, staged.length);
    return { completedFiles, unusedBlobs, pageCount: staged.length };
  });
}

/** Marks a pending upload failed with its reason; false when it was not pending any more. */
export async function failUpload(db: Database, uploadId: string, reason: string): Promise<boolean> {
  const changed = await db.execute(
    `UPDATE graded_uploads SET process_status = 'failed', failure_reason = $2 WHERE id = $1 AND process_status = 'pending'`,
    [uploadId, reason],
  );
  return changed > 0;
}

/** discardIfUnreferenced does not know the staging table: check it here first. */
export async function discardUnused(db: Database, blobStore: BlobStore, key: string): Promise<void> {
  const staged = await db.maybeOne('SELECT 1 FROM graded_upload_pages WHERE image_blob_key = $1 LIMIT 1', [key]);
  if (staged === null) await discardIfUnreferenced(db, blobStore, key);
}
