// Job `process_study_helper_upload`: a congregation's scan of graded packet pages (or, with a
// study helper chosen, an intro file of that helper's own recruits).
//   1. take the upload's lease (one worker per upload; a crashed worker's lease runs out)
//   2. read every page with the scan pipeline, staging each one (code, blankness, upright image)
//      in feedback_upload_pages as it is read, so a restart resumes at the first page missing
//   3. in one transaction: decide every page's outcome (match-graded-pages), keep the feedback
//      (the newest scan of a page replaces older ones), mark sheets graded and move the
//      congregation and file states on (grading-state); intro files write their sheets instead
//   4. when a file's grading just completed, build its return file right away (the recovery
//      sweep builds it otherwise)
import type { BlobStore } from '../blob-store';
import type { Database } from '../db/database';
import { JOB } from '../jobs/job-types';
import { localCopy, type LocalCopy } from '../jobs/local-copy';
import { updateProgress } from '../jobs/progress';
import type { JobContext, JobDefinition } from '../jobs/queue';
import { discardIfUnreferenced } from '../db/blob-references';
import type { CodePrefix } from '../pipeline/codes';
import { processPages, type ProcessedPage } from '../pipeline/process-pages';
import { UnreadablePdfError } from '../pipeline/read-page';
import { refreshGrading } from './grading-state';
import { writeIntroSheets } from './intro-sheets';
import { codeOf, finishUpload, stagedPages, writeOutcomes, type UploadRow } from './upload-staging';
import { isCrashStop, MAX_WORKFLOW_ATTEMPTS, noLiveLeaseSql, takeLease } from './leases';
import { KEPT_OUTCOMES, matchGradedPages, type CodeTarget } from './match-graded-pages';
import { PROGRESS_WRITE_MS } from './progress-writer';
import { buildReturnFile } from './return-file';

export interface GradedUploadData {
  upload_id: string;
}

/** Graded packets carry `p` codes; intro files carry the lesson masters' `t` and `s` codes. */
const GRADED_PREFIXES: readonly CodePrefix[] = ['p'];
const INTRO_PREFIXES: readonly CodePrefix[] = ['t', 's'];

export const processStudyHelperUpload: JobDefinition<GradedUploadData> = {
  name: JOB.processStudyHelperUpload,
  concurrency: 1,
  retryLimit: 2,
  retryDelaySeconds: 5,
  expireInSeconds: 23 * 3600,
  handler: (data, context) => processGradedUpload(context, data.upload_id),
  async recover(context) {
    const rows = await context.db.query<{ id: string }>(
      `SELECT u.id FROM feedback_uploads u
       WHERE u.process_status = 'pending' AND ${noLiveLeaseSql(JOB.processStudyHelperUpload, 'u.id')}
       ORDER BY u.created_at LIMIT 100`,
    );
    return rows.map((row) => ({ data: { upload_id: row.id }, options: { singletonKey: row.id } }));
  },
};

export async function processGradedUpload(context: JobContext, uploadId: string): Promise<void> {
  const { db, blobStore } = context;
  const lease = await takeLease(db, JOB.processStudyHelperUpload, uploadId, {
    workerId: context.workerId,
    signal: context.signal,
    ...(context.leaseSeconds === undefined ? {} : { seconds: context.leaseSeconds }),
  });
  if (lease === null) return;
  let local: LocalCopy | null = null;
  let completedFiles: string[] = [];
  try {
    const upload = await db.maybeOne<UploadRow>(
      `SELECT id, name, congregation_id, study_helper_id, is_intro, blob_key, sha256, size_bytes, uploaded_by
       FROM feedback_uploads WHERE id = $1 AND process_status = 'pending'`,
      [uploadId],
    );
    if (upload === null) {
      await lease.finish();
      return;
    }
    if (lease.attempts > MAX_WORKFLOW_ATTEMPTS) {
      await failUpload(db, uploadId, `Processing stopped ${lease.attempts - 1} times before finishing`);
      await lease.finish();
      return;
    }

    local = await localCopy(blobStore, upload.blob_key);
    await updateProgress(db, JOB.processStudyHelperUpload, uploadId, { status: 'running' });
    let lastWrite = 0;
    await processPages(local.path, {
      startAtPage: await firstMissingPage(db, uploadId),
      expectedPrefixes: upload.is_intro ? INTRO_PREFIXES : GRADED_PREFIXES,
      signal: lease.signal,
      ...(context.config.pipelineThreads === undefined ? {} : { workers: context.config.pipelineThreads }),
      onPage: async (page) => {
        lease.signal.throwIfAborted();
        await stagePage(db, blobStore, uploadId, page);
      },
      onProgress: async (progress) => {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_WRITE_MS && progress.completed !== progress.count) return;
        lastWrite = now;
        await updateProgress(db, JOB.processStudyHelperUpload, uploadId, {
          status: 'running',
          // The last step (matching) is still to come: the run is done only when it is.
          completed: Math.min(progress.completed, Math.max(0, progress.count - 1)),
          count: progress.count,
          failed: progress.failed,
        });
      },
    });
    lease.signal.throwIfAborted();
    if (upload.is_intro) {
      await writeIntroSheets(db, upload);
    } else {
      const result = await matchUpload(db, upload);
      if (result !== null) {
        completedFiles = result.completedFiles;
        for (const key of result.unusedBlobs) await discardUnused(db, blobStore, key);
      }
    }
    await lease.finish();
  } catch (error) {
    if (lease.signal.aborted) {
      if (!isCrashStop(lease.signal)) await lease.release().catch(() => undefined);
      else lease.stop();
      return;
    }
    if (error instanceof UnreadablePdfError) {
      await failUpload(db, uploadId, `The PDF cannot be read: ${error.message}`);
      await lease.finish().catch(() => undefined);
      return;
    }
    await lease.release().catch(() => undefined);
    throw error;
  } finally {
    await local?.dispose();
  }
  // Grading of these files just completed: their return files are wanted now.
  for (const fileId of completedFiles) {
    try {
      await buildReturnFile(context, fileId);
    } catch (error) {
      context.logger.warn({ err: error, fileId }, 'return file not built yet; the recovery sweep retries');
    }
  }
}

async function stagePage(db: Database, blobStore: BlobStore, uploadId: string, page: ProcessedPage): Promise<void> {
  // Blank pages are never kept: no need to store their images.
  const imageKey = page.image && !page.blank ? (await blobStore.put(page.image.jpeg)).key : null;
  (page as { image: ProcessedPage['image'] }).image = null;
  await db.query(
    `INSERT INTO feedback_upload_pages (upload_id, page_number, code_prefix, code_id, reason, blank, read_error, image_blob_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (upload_id, page_number) DO UPDATE SET
       code_prefix = EXCLUDED.code_prefix, code_id = EXCLUDED.code_id, reason = EXCLUDED.reason, blank = EXCLUDED.blank,
       read_error = EXCLUDED.read_error, image_blob_key = EXCLUDED.image_blob_key`,
    [uploadId, page.page_number, page.code?.prefix ?? null, page.code?.id ?? null, page.code ? null : page.reason, page.blank, page.error, imageKey],
  );
}

/** Pages are staged in order: one past the last staged page (or the first gap). */
async function firstMissingPage(db: Database, uploadId: string): Promise<number> {
  const rows = await db.query<{ page_number: number }>('SELECT page_number FROM feedback_upload_pages WHERE upload_id = $1 ORDER BY page_number', [uploadId]);
  let expected = 1;
  for (const row of rows) {
    if (row.page_number !== expected) break;
    expected++;
  }
  return expected;
}

interface MatchResult {
  completedFiles: string[];
  /** Blobs nothing points at any more: replaced feedback, staged images of pages not kept. */
  unusedBlobs: string[];
}

/** Step 3 for graded packets, in one transaction; null when the upload was finished already. */
async function matchUpload(db: Database, upload: UploadRow): Promise<MatchResult | null> {
  return db.transaction(async (tx) => {
    const locked = await tx.maybeOne(`SELECT 1 FROM feedback_uploads WHERE id = $1 AND process_status = 'pending' FOR UPDATE`, [upload.id]);
    if (locked === null) return null;
    const staged = await stagedPages(tx, upload.id);
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
      staged.map((page) => ({ page_number: page.page_number, code: codeOf(page), reason: page.reason, blank: page.blank, read_error: page.read_error })),
      (code) => targetOf.get(code.id) ?? null,
      upload.congregation_id,
    );
    const resultOf = new Map(match.pages.map((result) => [result.page_number, result]));
    // A front whose image could not be kept cannot become feedback.
    const feedback = match.feedback.filter((item) => {
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
       FROM feedback fb JOIN feedback_uploads u ON u.id = fb.upload_id WHERE fb.page_id = ANY($1::uuid[])`,
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
        `UPDATE feedback_upload_pages SET outcome = 'superseded',
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
    return { completedFiles, unusedBlobs };
  });
}

async function failUpload(db: Database, uploadId: string, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    const changed = await tx.execute(
      `UPDATE feedback_uploads SET process_status = 'failed', failure_reason = $2 WHERE id = $1 AND process_status = 'pending'`,
      [uploadId, reason],
    );
    if (changed > 0) await updateProgress(tx, JOB.processStudyHelperUpload, uploadId, { status: 'failed' });
  });
}

/** discardIfUnreferenced does not know the staging table: check it here first. */
async function discardUnused(db: Database, blobStore: BlobStore, key: string): Promise<void> {
  const staged = await db.maybeOne('SELECT 1 FROM feedback_upload_pages WHERE image_blob_key = $1 LIMIT 1', [key]);
  if (staged === null) await discardIfUnreferenced(db, blobStore, key);
}
