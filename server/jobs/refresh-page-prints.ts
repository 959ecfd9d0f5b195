// Job `refresh_page_prints`: page prints of an older version are made again from their page
// images (server/workflow/refresh-page-prints.ts). Asked for once when a worker starts (after an
// upgrade) and then at most once an hour; the queue keeps one queued at a time.
import { refreshPagePrints } from '../workflow/refresh-page-prints';
import { REFRESH_PAGE_PRINTS_JOB, type JobDefinition } from './queue';

const EVERY_MS = 60 * 60 * 1000;
let askedAt = 0;

export const refreshPagePrintsJob: JobDefinition<Record<string, never>> = {
  name: REFRESH_PAGE_PRINTS_JOB,
  async handler(_data, context) {
    const refreshed = await refreshPagePrints(context.db, context.blobStore);
    if (refreshed > 0) context.logger.info({ refreshed }, 'page prints refreshed');
  },
  async recover() {
    if (Date.now() - askedAt < EVERY_MS) return [];
    askedAt = Date.now();
    return [{ data: {}, options: { singletonKey: 'all' } }];
  },
  retryLimit: 0,
  expireInSeconds: 6 * 3600,
};
