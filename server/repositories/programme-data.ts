// Programme data: every table of the programme (files, sheets, students, congregations,
// reference data...), emptied together when an admin deletes the database's contents.
import type { Database } from '../db/database';

/**
 * Programme data, children before parents (the progress of its jobs goes too: job-progress.ts).
 * Kept: migrations, users, sessions, sign-ins in flight, installation settings, and countries
 * (reloaded after a delete).
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
export async function programmeBlobKeys(db: Database): Promise<string[]> {
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

/** Deletes every programme row, children before parents; the caller's transaction makes it all or nothing. */
export async function deleteProgrammeRows(tx: Database): Promise<void> {
  for (const table of PROGRAMME_TABLES) await tx.execute(`DELETE FROM ${table}`);
}
