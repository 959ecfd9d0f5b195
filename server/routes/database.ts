// Database set-up for admins: init applies pending migrations and reloads the reference data
// (safe to repeat); delete empties all programme data, and only where the installation allows it
// (ALLOW_DATABASE_DELETE=true). Sign-in accounts survive a delete, without their congregation.
import type { FastifyInstance } from 'fastify';
import type { ReplyOf } from '../contract/types';
import type { Database } from '../db/database';
import { migrate } from '../db/migrate';
import { HttpError } from '../http-error';
import { loadReferenceData } from '../seed/countries';
import { removeAllProgress } from '../repositories/job-progress';

export const DATABASE_DELETE_DISABLED = 'Database delete is disabled';

/**
 * Programme data, children before parents (and the progress of its jobs, job-progress.ts). Kept: migrations, users, sessions, sign-ins in
 * flight, installation settings, and countries (reloaded below).
 */
const PROGRAMME_TABLES = [
  'job_leases',
  'graded_upload_pages',
  'baptism_requests',
  'feedback',
  'graded_uploads',
  'packets',
  'file_congregations',
  'file_groups',
  'printed_codes',
  'pages',
  'answer_sheets',
  'files',
  'students',
  'study_helpers',
  'congregations',
  'contact_persons',
  'recruiters',
  'recruiting_points',
  'service_centers',
  'page_templates',
  'lessons',
  'courses',
] as const;

/**
 * Every blob key held by the programme tables, found from the catalog (any column named
 * *blob_key), so blob columns added by later migrations are included. Content addressing
 * means no kept row can share them once these rows are gone.
 */
async function programmeBlobKeys(db: Database): Promise<string[]> {
  const columns = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND column_name LIKE '%blob\\_key' AND table_name = ANY($1::text[])`,
    [PROGRAMME_TABLES],
  );
  if (columns.length === 0) return [];
  const union = columns
    .map(({ table_name: table, column_name: column }) => `SELECT "${column}" AS key FROM "${table}" WHERE "${column}" IS NOT NULL`)
    .join(' UNION ');
  return (await db.query<{ key: string }>(union)).map((row) => row.key);
}

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
      for (const table of PROGRAMME_TABLES) await tx.execute(`DELETE FROM ${table}`);
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
