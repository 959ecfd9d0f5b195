// Every background job type a worker runs, each a leased job whose steps read top to bottom in
// its own module (leased-job.ts says how a job runs). Add a job type here (one import, one entry)
// and both the server's in-process worker and `server/jobs/worker-main.ts` run it.
import { processGradedUpload } from './graded-upload';
import type { JobDefinition } from './queue';
import { generateReturnFile } from './return-file';
import { sendMail } from './send-mail';
import { sendToStudyHelpers } from './send-packets';
import { refreshPagePrintsJob } from './refresh-page-prints';
import { removeAbandonedUploadsJob } from './remove-abandoned-uploads';
import { processServiceCenterUpload } from './service-center-upload';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const jobDefinitions: JobDefinition<any>[] = [
  processServiceCenterUpload,
  sendToStudyHelpers,
  processGradedUpload,
  generateReturnFile,
  sendMail,
  removeAbandonedUploadsJob,
  refreshPagePrintsJob,
];
