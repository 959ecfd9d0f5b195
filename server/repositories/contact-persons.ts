// A service center's contact persons: listed, added and deleted through their center.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

export function contactPersonsOfServiceCenter(db: Database, serviceCenterId: string): Promise<Schemas['ContactPerson'][]> {
  return db.query<Schemas['ContactPerson']>('SELECT id, name FROM contact_persons WHERE service_center_id = $1 ORDER BY name, id', [serviceCenterId]);
}

export function insertContactPerson(tx: Database, serviceCenterId: string, name: string): Promise<Schemas['ContactPerson']> {
  return tx.one<Schemas['ContactPerson']>('INSERT INTO contact_persons (service_center_id, name) VALUES ($1, $2) RETURNING id, name', [serviceCenterId, name]);
}

/** Locks the center's contact person for its delete; false when the center has no such person. */
export async function lockContactPerson(tx: Database, serviceCenterId: string, id: string): Promise<boolean> {
  return (await tx.maybeOne('SELECT id FROM contact_persons WHERE id = $1 AND service_center_id = $2 FOR UPDATE', [id, serviceCenterId])) !== null;
}

/** What names a contact person, counted with $1 its id (routes/shared/in-use.ts). */
export const CONTACT_PERSON_USES = [{ name: ['file', 'files'], countSql: 'SELECT count(*) FROM files WHERE contact_person_id = $1' }] as const;

export async function deleteContactPerson(tx: Database, id: string): Promise<void> {
  await tx.query('DELETE FROM contact_persons WHERE id = $1', [id]);
}
