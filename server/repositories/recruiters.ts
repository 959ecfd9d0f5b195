// A service center's recruiters: listed, added and deleted through their center.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

export function recruitersOfServiceCenter(db: Database, serviceCenterId: string): Promise<Schemas['Recruiter'][]> {
  return db.query<Schemas['Recruiter']>('SELECT id, name, contact_info FROM recruiters WHERE service_center_id = $1 ORDER BY name, id', [serviceCenterId]);
}

export function insertRecruiter(tx: Database, serviceCenterId: string, name: string, contactInfo: string): Promise<Schemas['Recruiter']> {
  return tx.one<Schemas['Recruiter']>('INSERT INTO recruiters (service_center_id, name, contact_info) VALUES ($1, $2, $3) RETURNING id, name, contact_info', [
    serviceCenterId,
    name,
    contactInfo,
  ]);
}

/** Locks the center's recruiter for its delete; false when the center has no such recruiter. */
export async function lockRecruiter(tx: Database, serviceCenterId: string, id: string): Promise<boolean> {
  return (await tx.maybeOne('SELECT id FROM recruiters WHERE id = $1 AND service_center_id = $2 FOR UPDATE', [id, serviceCenterId])) !== null;
}

/** What names a recruiter, each counted with $1 its id (routes/shared/in-use.ts). */
export const RECRUITER_USES = [
  { name: ['file', 'files'], countSql: 'SELECT count(*) FROM files WHERE recruiter_id = $1' },
  { name: ['student', 'students'], countSql: 'SELECT count(*) FROM students WHERE recruiter_id = $1' },
] as const;

export async function deleteRecruiter(tx: Database, id: string): Promise<void> {
  await tx.query('DELETE FROM recruiters WHERE id = $1', [id]);
}
