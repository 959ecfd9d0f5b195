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
import { deleteFeedbackOfPages, earlierFeedbackOfPages, insertUploadFeedback } from '../repositories/feedback';
import { markScansSuperseded, stagedImageInUse, stagedPageNumbers, upsertStagedPage } from '../repositories/graded-upload-pages';
import { lockPendingUpload } from '../repositories/graded-uploads';
import { pagesOfDownloadedFiles, sheetsOfPages } from '../repositories/pages';
import { packetPageTargets } from '../repositories/printed-codes';
import { fingerprintOf } from './file-pages';
import { identifyStagedPages } from './printed-text-pages';
import { refreshGrading } from './grading-state';
import { KEPT_OUTCOMES, matchGradedPages, type FeedbackToKeep, type GradedMatch, type GradedPageResult } from '../domain/match-graded-pages';
import { codeOf, finishUpload, stagedPages, writeOutcomes, type StagedPage, type UploadRow } from './upload-staging';

/** Graded packets carry `p` codes; intro files carry the lesson masters' `t` and `s` codes. */
export const GRADED_PREFIXES: readonly CodePrefix[] = ['p'];
export const INTRO_PREFIXES: readonly CodePrefix[] = ['t', 's'];

export async function stagePage(db: Database, blobStore: BlobStore, uploadId: string, page: ProcessedPage, intro = false): Promise<void> {
  // Blank pages are never kept: no need to store their images.
  const imageKey = page.image && !page.blank ? (await blobStore.put(page.image.jpeg)).key : null;
  // Intro sheets make students: their paper is known by sight too (paper-seen).
  const fingerprint = intro ? await fingerprintOf(page) : null;
  const printedHeader = !intro && !page.code && !page.blank && page.image ? await hasPrintedHeader(page.image.jpeg).catch(() => null) : null;
  (page as { image: ProcessedPage['image'] }).image = null;
  // A photographed page keeps the photo as taken, for a reviewer to compare.
  const photoKey = page.photo ? (await blobStore.put(page.photo.asTaken)).key : null;
  await upsertStagedPage(db, uploadId, {
    page_number: page.page_number,
    code_prefix: page.code?.prefix ?? null,
    code_id: page.code?.id ?? null,
    reason: page.code ? null : page.reason,
    blank: page.blank,
    read_error: page.error,
    image_blob_key: imageKey,
    fingerprint_hash: fingerprint?.hash ?? null,
    fingerprint: fingerprint?.print ?? null,
    printed_header: printedHeader,
    photo_blob_key: photoKey,
    printed_text: page.printed_text === null ? null : JSON.stringify(page.printed_text),
    identified_by: page.code ? page.identified_by : null,
  });
}

/** Pages are staged in order: one past the last staged page (or the first gap). */
export async function firstMissingStagedPage(db: Database, uploadId: string): Promise<number> {
  let expected = 1;
  for (const pageNumber of await stagedPageNumbers(db, uploadId)) {
    if (pageNumber !== expected) break;
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
    if (!(await lockPendingUpload(tx, upload.id))) return null;
    const staged = await stagedPages(tx, upload.id);
    // Codeless pages whose printed text confirms one packet page get its code first.
    const printedNotes = await identifyStagedPages(tx, upload.id, upload.congregation_id, staged);
    const match = await matchStagedPages(tx, upload, staged);
    const resultOf = new Map(match.pages.map((result) => [result.page_number, result]));
    for (const [pageNumber, note] of printedNotes) {
      const result = resultOf.get(pageNumber);
      if (result?.outcome === 'unrecognized') result.detail = note;
    }
    const imageOf = new Map(staged.map((page) => [page.page_number, page.image_blob_key]));
    const feedback = keepableFeedback(match, await refuseClosedFiles(tx, match), resultOf, imageOf);
    const pageIds = feedback.map((item) => item.page_id);
    const unusedBlobs = await replaceEarlierFeedback(tx, upload, feedback, resultOf);
    await insertUploadFeedback(
      tx,
      upload.id,
      feedback.map((item) => ({
        page_id: item.page_id,
        front_blob_key: imageOf.get(item.front_page_number)!,
        back_blob_key: item.back_page_number === null ? null : (imageOf.get(item.back_page_number) ?? null),
      })),
    );
    // Images of pages not kept stay with the upload: its report shows them.
    await writeOutcomes(tx, upload.id, match.pages);
    const completedFiles = await refreshGrading(tx, await sheetsOfPages(tx, pageIds));
    await finishUpload(tx, upload.id, staged.length);
    return { completedFiles, unusedBlobs, pageCount: staged.length };
  });
}

/** Each staged page's outcome, from the pages its packet codes name. */
async function matchStagedPages(tx: Database, upload: UploadRow, staged: readonly StagedPage[]): Promise<GradedMatch> {
  const codeIds = staged.filter((page) => page.code_prefix === 'p' && page.code_id !== null).map((page) => page.code_id!);
  const targetOf = new Map((await packetPageTargets(tx, codeIds)).map((target) => [target.code_id, target]));
  return matchGradedPages(
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
}

/**
 * Once a file's return file was downloaded its grading is closed: scans of its pages are
 * refused, with the reason in the report, never swapped for the scans already sent back.
 * Returns those pages (page id → the file's name).
 */
async function refuseClosedFiles(tx: Database, match: GradedMatch): Promise<Map<string, string>> {
  const closed = await pagesOfDownloadedFiles(tx, match.feedback.map((item) => item.page_id));
  const closedFile = new Map(closed.map((row) => [row.page_id, row.name]));
  for (const result of match.pages) {
    const fileName = result.page_id === null ? undefined : closedFile.get(result.page_id);
    if (fileName === undefined || result.outcome === 'blank_back') continue;
    result.outcome = 'return_downloaded';
    result.detail = `The return file of "${fileName}" was already downloaded: its grading is closed, so this scan was not taken.`;
  }
  return closedFile;
}

/** The feedback that can be kept: not of a closed file, and with a front whose image was stored. */
function keepableFeedback(
  match: GradedMatch,
  closedFile: ReadonlyMap<string, string>,
  resultOf: ReadonlyMap<number, GradedPageResult>,
  imageOf: ReadonlyMap<number, string | null>,
): FeedbackToKeep[] {
  return match.feedback.filter((item) => {
    if (closedFile.has(item.page_id)) return false;
    if (imageOf.get(item.front_page_number)) return true;
    // A front whose image could not be kept cannot become feedback.
    const result = resultOf.get(item.front_page_number)!;
    result.outcome = 'unreadable';
    result.detail = 'The page image could not be stored.';
    if (item.back_page_number !== null) Object.assign(resultOf.get(item.back_page_number)!, { outcome: 'unrecognized', detail: 'The page before it could not be kept.' });
    return false;
  });
}

/**
 * Keeps the newest scan of each page: earlier feedback from other uploads goes, and their
 * results say so. Returns the blobs of the feedback removed.
 */
async function replaceEarlierFeedback(
  tx: Database,
  upload: UploadRow,
  feedback: readonly FeedbackToKeep[],
  resultOf: ReadonlyMap<number, GradedPageResult>,
): Promise<string[]> {
  const pageIds = feedback.map((item) => item.page_id);
  const earlier = await earlierFeedbackOfPages(tx, pageIds);
  const unusedBlobs: string[] = [];
  for (const row of earlier) {
    unusedBlobs.push(row.front_blob_key, ...(row.back_blob_key === null ? [] : [row.back_blob_key]));
    const item = feedback.find((f) => f.page_id === row.page_id)!;
    const result = resultOf.get(item.front_page_number)!;
    result.outcome = 'replaced';
    result.detail = `Replaces the earlier scan from upload "${row.name}" (${new Date(row.created_at).toISOString().slice(0, 10)}).`;
  }
  if (earlier.length > 0) {
    await deleteFeedbackOfPages(tx, pageIds);
    // The older uploads' results say what became of their scans.
    await markScansSuperseded(tx, upload, earlier.map((row) => row.page_id), KEPT_OUTCOMES);
  }
  return unusedBlobs;
}

/** discardIfUnreferenced does not know the staging table: check it here first. */
export async function discardUnused(db: Database, blobStore: BlobStore, key: string): Promise<void> {
  if (!(await stagedImageInUse(db, key))) await discardIfUnreferenced(db, blobStore, key);
}
