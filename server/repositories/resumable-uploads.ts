// The resumable_uploads table: a tus upload's record while its parts arrive.
import type { Database } from '../db/database';

/** Which of these upload ids have a record. */
export async function knownResumableUploads(db: Database, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>('SELECT id FROM resumable_uploads WHERE id = ANY($1::text[])', [ids]);
  return new Set(rows.map((row) => row.id));
}

/** Removes the records untouched since `cutoff` that are not being finished; their ids. */
export async function removeResumableUploadsUntouchedSince(db: Database, cutoff: Date): Promise<string[]> {
  const rows = await db.query<{ id: string }>(`DELETE FROM resumable_uploads WHERE touched_at < $1 AND state <> 'finishing' RETURNING id`, [cutoff]);
  return rows.map((row) => row.id);
}
