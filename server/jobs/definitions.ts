// Every background job type a worker runs. Add a job type here (one import, one entry) and both
// the server's in-process worker and `server/jobs/worker-main.ts` run it.
import { processServiceCenterUpload } from './process-upload';
import type { JobDefinition } from './queue';
// JOB-DEFINITION-IMPORTS
import { sendToStudyHelpers } from '../workflow/send-packets';
import { processStudyHelperUpload } from '../workflow/graded-upload';
import { generateReturnFile } from '../workflow/return-file';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const jobDefinitions: JobDefinition<any>[] = [
  processServiceCenterUpload,
  // JOB-DEFINITION-LIST
  sendToStudyHelpers,
  processStudyHelperUpload,
  generateReturnFile,
];
