// Resumable uploads: one row per tus upload, from its creation through its bytes arriving to the
// outcome of handing the file on (accepted with the new id, or refused with the refusal).
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

export interface ResumableUploadRow {
  id: string;
  user_id: string;
  kind: Schemas['ResumableUpload']['kind'];
  fields: Record<string, string>;
  filename: string;
  length: string | number;
  created_at: Date;
  state: Schemas['ResumableUpload']['state'];
  result_id: string | null;
  refusal: { status: number; detail: unknown } | null;
}

export interface NewResumableUpload {
  id: string;
  userId: string;
  kind: Schemas['ResumableUpload']['kind'];
  fields: Record<string, string>;
  filename: string;
  length: number;
}

export async function insertResumableUpload(db: Database, upload: NewResumableUpload): Promise<void> {
  await db.query('INSERT INTO resumable_uploads (id, user_id, kind, fields, filename, length) VALUES ($1, $2, $3, $4, $5, $6)', [
    upload.id,
    upload.userId,
    upload.kind,
    JSON.stringify(upload.fields),
    upload.filename,
    upload.length,
  ]);
}

/** The user's upload with this id, or null (none, or another user's). */
export async function resumableUploadOfUser(db: Database, id: string, userId: string): Promise<ResumableUploadRow | null> {
  return db.maybeOne<ResumableUploadRow>('SELECT * FROM resumable_uploads WHERE id = $1 AND user_id = $2', [id, userId]);
}

export async function resumableUploadById(db: Database, id: string): Promise<ResumableUploadRow> {
  return db.one<ResumableUploadRow>('SELECT * FROM resumable_uploads WHERE id = $1', [id]);
}

/**
 * Claims the upload for this process to finish: one still receiving, or one whose finishing
 * process stopped `staleMinutes` ago or longer. Null when another process holds it or it has ended.
 */
export async function claimResumableUploadToFinish(db: Database, id: string, staleMinutes: number): Promise<ResumableUploadRow | null> {
  return db.maybeOne<ResumableUploadRow>(
    `UPDATE resumable_uploads SET state = 'finishing', finishing_since = now()
     WHERE id = $1 AND (state = 'receiving' OR (state = 'finishing' AND finishing_since < now() - make_interval(mins => $2)))
     RETURNING *`,
    [id, staleMinutes],
  );
}

export async function markResumableUploadAccepted(db: Database, id: string, resultId: string): Promise<ResumableUploadRow> {
  return db.one<ResumableUploadRow>(`UPDATE resumable_uploads SET state = 'accepted', result_id = $2, touched_at = now() WHERE id = $1 RETURNING *`, [
    id,
    resultId,
  ]);
}

export async function markResumableUploadRefused(
  db: Database,
  id: string,
  refusal: { status: number; detail: unknown },
): Promise<ResumableUploadRow> {
  return db.one<ResumableUploadRow>(`UPDATE resumable_uploads SET state = 'refused', refusal = $2, touched_at = now() WHERE id = $1 RETURNING *`, [
    id,
    JSON.stringify(refusal),
  ]);
}

/** Hands a claimed upload back as received, so the next HEAD or GET tries to finish it again. */
export async function reopenResumableUpload(db: Database, id: string): Promise<void> {
  await db.query(`UPDATE resumable_uploads SET state = 'receiving', finishing_since = NULL WHERE id = $1`, [id]);
}

/** Bytes are arriving: the upload is not abandoned. */
export async function touchResumableUpload(db: Database, id: string): Promise<void> {
  await db.query('UPDATE resumable_uploads SET touched_at = now() WHERE id = $1', [id]);
}

export async function deleteResumableUpload(db: Database, id: string): Promise<void> {
  await db.query('DELETE FROM resumable_uploads WHERE id = $1', [id]);
}

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
