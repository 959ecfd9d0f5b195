// Job `generate_return_file_requested`: the return file of a file whose grading completed, in
// its two layouts (server/workflow/return-file.ts). Target: the file, while a return file is
// requested (grading completed, or regenerate) and not made yet.
import { JOB } from '../workflow/job-progress';
import {
  cancelReturnFile,
  layOutReturnFile,
  returnFileBlocks,
  returnRequest,
  storeReturnFile,
  writeReturnFile,
  type ReturnBlobs,
  type ReturnBlock,
} from '../workflow/return-file';
import type { ReturnRequest } from '../repositories/file-returns';
import { tellReturnFileReady } from '../workflow/notifications';
import { leasedJob, step } from './leased-job';
import type { JobContext } from './queue';
import { discardIfUnreferenced } from '../db/blob-references';
import { RETURN_FILES_TO_MAKE } from '../repositories/job-leases';

export interface ReturnData {
  file_id: string;
}

interface ReturnRun {
  request: ReturnRequest;
  blocks: ReturnBlock[];
  blobs: ReturnBlobs | null;
  /** Pages read (the one-sided layout's pages): what progress counts. */
  pages: number;
  unusedBlobs: string[];
}

export const generateReturnFile = leasedJob<ReturnData, ReturnRun>({
  name: JOB.generateReturnFile,
  targetOf: (data) => data.file_id,
  dataOf: (fileId) => ({ file_id: fileId }),
  wants: RETURN_FILES_TO_MAKE,
  expireInSeconds: 6 * 3600,
  load: async (job) => {
    const request = await returnRequest(job.db, job.targetId);
    return request === null ? null : { request, blocks: [], blobs: null, pages: 0, unusedBlobs: [] };
  },
  steps: [
    step('each student\'s graded pages and next lesson, in file order', async (job, run) => {
      run.blocks = await returnFileBlocks(job.db, job.targetId, job.config.publicUrl);
    }),
    step('write both layouts, page by page', async (job, run) => {
      run.pages = layOutReturnFile(run.blocks, 'one').length;
      let written = 0;
      await job.progress.start({ completed: written, count: run.pages });
      run.blobs = await writeReturnFile(job.blobStore, run.blocks, {
        signal: job.signal,
        afterPage: async () => {
          job.signal.throwIfAborted();
          await job.progress.report({ completed: ++written, count: run.pages });
        },
      });
    }),
    step('record the return file on the file', async (job, run) => {
      run.unusedBlobs = await job.commit(async (tx) => {
        const { stored, unusedBlobs } = await storeReturnFile(tx, job.targetId, run.request, run.blobs!);
        if (stored) await job.progress.succeed(tx, { completed: run.pages, count: run.pages });
        await tellReturnFileReady(tx, job.targetId, job.config.publicUrl);
        return unusedBlobs;
      });
    }),
    step('discard the blobs nothing uses any more', async (job, run) => {
      for (const key of run.unusedBlobs) await discardIfUnreferenced(job.db, job.blobStore, key).catch(() => undefined);
    }),
  ],
  giveUp: (tx, fileId) => cancelReturnFile(tx, fileId),
});

/** Runs the job now in this process (tests, tools, a graded upload that completed grading). */
export function buildReturnFile(context: JobContext, fileId: string): Promise<void> {
  return generateReturnFile.run(context, { file_id: fileId });
}
