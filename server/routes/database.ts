// Database set-up for admins: init applies pending migrations and reloads the reference data
// (safe to repeat); delete empties all programme data, and only where the installation allows it
// (ALLOW_DATABASE_DELETE=true). Sign-in accounts survive a delete, without their congregation.
import type { FastifyInstance } from 'fastify';
import type { ReplyOf } from '../contract/types';
import { migrate } from '../db/migrate';
import { HttpError } from '../http-error';
import { deleteProgrammeRows, programmeBlobKeys } from '../repositories/programme-data';
import { loadReferenceData } from '../seed/countries';
import { removeAllProgress } from '../repositories/job-progress';

export const DATABASE_DELETE_DISABLED = 'Database delete is disabled';

export async function databaseRoutes(app: FastifyInstance) {
  app.post('/api/database/init', async (): Promise<ReplyOf<'initDatabase'>> => {
    const result = await migrate(app.db);
    await loadReferenceData(app.db);
    return { status: 'ok', migrations_applied: result.applied.length };
  });

  app.post('/api/database/delete', async (request): Promise<ReplyOf<'deleteDatabase'>> => {
    if (!app.config.allowDatabaseDelete) throw new HttpError(403, DATABASE_DELETE_DISABLED);
    const blobKeys = await app.db.transaction(async (tx) => {
      const keys = await programmeBlobKeys(tx);
      await deleteProgrammeRows(tx);
      await removeAllProgress(tx);
      return keys;
    });
    await loadReferenceData(app.db);
    // After the commit: a failed blob removal leaves an unused file, never a row without its blob.
    for (const key of blobKeys) {
      try {
        await app.blobStore.delete(key);
      } catch (error) {
        request.log.warn({ err: error, key }, 'could not delete a blob of the deleted programme data');
      }
    }
    request.log.warn({ blobs: blobKeys.length }, 'all programme data deleted');
    return { status: 'ok' };
  });
}
