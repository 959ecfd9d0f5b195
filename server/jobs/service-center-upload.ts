// Job `process_service_center_upload`: an uploaded file from stored PDF to answer sheets.
// Target: the file, while it is pending. One bad page never fails the file; the file fails only
// when it cannot be read at all or keeps crashing its workers (leased-job.ts).
import { processPages, type PhotosSource } from '../pipeline/process-pages';
import { failPendingFile, fileWaitingToBeRead, type FileToRead } from '../repositories/files';
import { countPagesWithReadError } from '../repositories/pages';
import { firstMissingPage, storePage, unreadableReason } from '../workflow/file-pages';
import { JOB } from '../workflow/job-progress';
import { tellFileRead, tellNotRead } from '../workflow/notifications';
import { localCopy, type LocalCopy } from '../workflow/local-copy';
import { localPhotos, photosOf, type LocalPhotos } from '../workflow/upload-photos';
import { writeSheets } from '../workflow/write-sheets';
import { FILES_AT_ONCE, SERVICE_CENTER_CODE_PREFIXES } from './job-types';
import { leasedJob, step, type RunningJob } from './leased-job';
import { FILES_TO_READ } from '../repositories/job-leases';

export interface ProcessUploadData {
  file_id: string;
}

interface UploadRun {
  file: FileToRead;
  local: LocalCopy | null;
  /** A file uploaded as photos of pages: those, instead of a PDF. */
  photos: LocalPhotos | null;
}

export const processServiceCenterUpload = leasedJob<ProcessUploadData, UploadRun>({
  name: JOB.processServiceCenterUpload,
  targetOf: (data) => data.file_id,
  dataOf: (fileId) => ({ file_id: fileId }),
  wants: FILES_TO_READ,
  concurrency: FILES_AT_ONCE,
  expireInSeconds: 23 * 3600,
  load: async (job) => {
    const file = await fileWaitingToBeRead(job.db, job.targetId);
    return file === null ? null : { file, local: null, photos: null };
  },
  steps: [
    step('copy the PDF (or the photos) where the pipeline reads it', async (job, run) => {
      const photos = await photosOf(job.db, { fileId: job.targetId });
      if (photos.length > 0) run.photos = await localPhotos(job.blobStore, photos);
      else run.local = await localCopy(job.blobStore, run.file.blob_key);
    }),
    step('read every page not stored yet, storing each one', (job, run) => readPages(job, run.photos?.source ?? run.local!.path)),
    step('split into answer sheets and mark the file processed', async (job) => {
      await job.commit(async (tx) => {
        if ((await writeSheets(tx, job.targetId)) === null) return;
        await job.progress.succeed(tx, { failed: await countPagesWithReadError(tx, job.targetId) });
        await tellFileRead(tx, job.targetId, job.config.publicUrl);
      });
    }),
  ],
  cleanup: async (run) => {
    await run.local?.dispose();
    await run.photos?.dispose();
  },
  giveUp: async (tx, fileId, reason, job) => {
    const failed = await failPendingFile(tx, fileId, reason);
    if (failed) await tellNotRead(tx, 'file', fileId, job.config.publicUrl);
    return failed;
  },
  permanentFailure: unreadableReason,
});

/** Queues processing of an uploaded file (at most one queued job per file). */
export function processUploadJob(fileId: string): { name: typeof JOB.processServiceCenterUpload; data: ProcessUploadData; options: { singletonKey: string } } {
  return { name: JOB.processServiceCenterUpload, data: { file_id: fileId }, options: { singletonKey: fileId } };
}

/** The scan pipeline from the first page not yet stored, reporting its progress as it goes. */
async function readPages(job: RunningJob, path: string | PhotosSource): Promise<void> {
  const { db, blobStore, targetId: fileId } = job;
  await job.progress.start();
  await processPages(path, {
    startAtPage: await firstMissingPage(db, fileId),
    expectedPrefixes: SERVICE_CENTER_CODE_PREFIXES,
    signal: job.signal,
    ...(job.config.pipelineThreads === undefined ? {} : { workers: job.config.pipelineThreads }),
    onPage: async (page) => {
      // A crashed worker writes nothing more (the pipeline reads one page ahead).
      job.signal.throwIfAborted();
      await storePage(db, blobStore, fileId, page);
      await job.hooks.afterPageStored?.(fileId, page.page_number);
    },
    // Failed pages of earlier attempts count too: they are counted in the database.
    onProgress: (progress) =>
      job.progress.report({ completed: progress.completed, count: progress.count, failed: () => countPagesWithReadError(db, fileId) }),
  });
}
