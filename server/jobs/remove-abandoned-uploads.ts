// Job `remove_abandoned_uploads`: the parts of resumable uploads nobody touched for a day, and
// their records, are removed (server/workflow/resumable-parts.ts). Every worker's recovery sweep
// asks for it at most once an hour; the queue keeps one queued at a time.
import { JOB } from '../workflow/job-progress';
import { removeAbandonedUploads, resumableParts } from '../workflow/resumable-parts';
import type { JobDefinition } from './queue';

const EVERY_MS = 60 * 60 * 1000;
let askedAt = 0;

export const removeAbandonedUploadsJob: JobDefinition<Record<string, never>> = {
  name: JOB.removeAbandonedUploads,
  async handler(_data, context) {
    const removed = await removeAbandonedUploads(context.db, resumableParts(context.blobStore, context.config));
    if (removed > 0) context.logger.info({ removed }, 'abandoned resumable uploads removed');
  },
  async recover() {
    if (Date.now() - askedAt < EVERY_MS) return [];
    askedAt = Date.now();
    return [{ data: {}, options: { singletonKey: 'all' } }];
  },
  retryLimit: 0,
};
