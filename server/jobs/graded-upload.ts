// Job `process_graded_upload`: a congregation's graded upload (scans of graded packet
// pages), or an intro file of a study helper's own recruits (server/workflow/graded-upload.ts).
// Target: the upload, while it is pending.
import { processPages } from '../pipeline/process-pages';
import { UnreadablePdfError } from '../pipeline/read-page';
import { failPendingUpload, uploadWaitingToBeRead } from '../repositories/graded-uploads';
import { discardUnused, firstMissingStagedPage, GRADED_PREFIXES, INTRO_PREFIXES, matchUpload, stagePage } from '../workflow/graded-upload';
import { writeIntroSheets } from '../workflow/intro-sheets';
import { tellNotRead, tellUploadReport } from '../workflow/notifications';
import { JOB } from '../workflow/job-progress';
import { localCopy, type LocalCopy } from '../workflow/local-copy';
import { localPhotos, photosOf, type LocalPhotos } from '../workflow/upload-photos';
import type { UploadRow } from '../workflow/upload-staging';
import { FILES_AT_ONCE } from './job-types';
import { leasedJob, step, STOP, type RunningJob } from './leased-job';
import type { JobContext } from './queue';
import { buildReturnFile } from './return-file';
import { GRADED_UPLOADS_TO_READ } from '../repositories/job-leases';

export interface GradedUploadData {
  upload_id: string;
}

interface GradedUploadRun {
  upload: UploadRow;
  local: LocalCopy | null;
  /** An upload of photos of pages: those, instead of a PDF. */
  photos: LocalPhotos | null;
  /** Files whose grading this upload completed. */
  completedFiles: string[];
  /** Blobs nothing points at any more: replaced feedback, staged images of pages not kept. */
  unusedBlobs: string[];
}

export const processGradedUpload = leasedJob<GradedUploadData, GradedUploadRun>({
  name: JOB.processGradedUpload,
  targetOf: (data) => data.upload_id,
  dataOf: (uploadId) => ({ upload_id: uploadId }),
  wants: GRADED_UPLOADS_TO_READ,
  // As service-center files: a small upload is read beside a large one (taking turns on the page
  // workers) rather than waiting for it, so one coordinator's uploads cannot hold up the others'.
  concurrency: FILES_AT_ONCE,
  expireInSeconds: 23 * 3600,
  load: async (job) => {
    const upload = await uploadWaitingToBeRead(job.db, job.targetId);
    return upload === null ? null : { upload, local: null, photos: null, completedFiles: [], unusedBlobs: [] };
  },
  steps: [
    step('copy the PDF (or the photos) where the pipeline reads it', async (job, run) => {
      const photos = await photosOf(job.db, { uploadId: job.targetId });
      if (photos.length > 0) run.photos = await localPhotos(job.blobStore, photos);
      else run.local = await localCopy(job.blobStore, run.upload.blob_key);
    }),
    step('read every page not staged yet, staging each one', (job, run) => readPages(job, run)),
    step('intro file: write its sheets, each for a new student', async (job, run) => {
      if (!run.upload.is_intro) return;
      await job.commit(async (tx) => {
        const pages = await writeIntroSheets(tx, run.upload);
        if (pages !== null) await job.progress.succeed(tx, { completed: pages, count: pages });
        await tellUploadReport(tx, job.targetId, job.config.publicUrl);
      });
      return STOP;
    }),
    step('match every page, keep the feedback and move the grading states on', async (job, run) => {
      const result = await job.commit(async (tx) => {
        const matched = await matchUpload(tx, run.upload);
        if (matched === null) return null;
        await job.progress.succeed(tx, { completed: matched.pageCount, count: matched.pageCount });
        await tellUploadReport(tx, job.targetId, job.config.publicUrl);
        return matched;
      });
      if (result === null) return STOP;
      run.completedFiles = result.completedFiles;
      run.unusedBlobs = result.unusedBlobs;
    }),
    step('discard the blobs nothing uses any more', async (job, run) => {
      for (const key of run.unusedBlobs) await discardUnused(job.db, job.blobStore, key);
    }),
    step('build the return files of the files whose grading just completed', async (job, run) => {
      // Wanted now; if one fails, the recovery sweep builds it.
      for (const fileId of run.completedFiles) {
        try {
          await buildReturnFile(job.context, fileId);
        } catch (error) {
          job.logger.warn({ err: error, fileId }, 'return file not built yet; the recovery sweep retries');
        }
      }
    }),
  ],
  cleanup: async (run) => {
    await run.local?.dispose();
    await run.photos?.dispose();
  },
  giveUp: async (tx, uploadId, reason, job) => {
    const failed = await failPendingUpload(tx, uploadId, reason);
    if (failed) await tellNotRead(tx, 'upload', uploadId, job.config.publicUrl);
    return failed;
  },
  permanentFailure: (error) => (error instanceof UnreadablePdfError ? `The PDF cannot be read: ${error.message}` : null),
});

/** Runs the job now in this process (tests, tools). */
export function runGradedUpload(context: JobContext, uploadId: string): Promise<void> {
  return processGradedUpload.run(context, { upload_id: uploadId });
}

/** The scan pipeline from the first page not yet staged, reporting its progress as it goes. */
async function readPages(job: RunningJob, run: GradedUploadRun): Promise<void> {
  const { db, blobStore, targetId: uploadId } = job;
  await job.progress.start();
  await processPages(run.photos?.source ?? run.local!.path, {
    startAtPage: await firstMissingStagedPage(db, uploadId),
    expectedPrefixes: run.upload.is_intro ? INTRO_PREFIXES : GRADED_PREFIXES,
    signal: job.signal,
    ...(job.config.pipelineThreads === undefined ? {} : { workers: job.config.pipelineThreads }),
    onPage: async (page) => {
      job.signal.throwIfAborted();
      await stagePage(db, blobStore, uploadId, page, run.upload.is_intro);
    },
    // Shown short of its count while running: the last step (matching) is still to come.
    onProgress: (progress) => job.progress.report(progress),
  });
}
