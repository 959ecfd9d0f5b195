// A file's service center and people (recruiter, contact person, recruiting point), as an admin
// sets them on the file: each person must belong to the file's service center.
import type { Database } from '../db/database';

export interface FilePeople {
  service_center_id: string | null;
  recruiter_id: string | null;
  contact_person_id: string | null;
  recruiting_point_id: string | null;
}

/** The people a file names. */
export type FilePerson = 'recruiter_id' | 'contact_person_id' | 'recruiting_point_id';

/** The file's service center and people, its row locked until the transaction ends; null when no such file. */
export async function lockFilePeople(tx: Database, fileId: string): Promise<FilePeople | null> {
  return tx.maybeOne<FilePeople>(
    'SELECT service_center_id, recruiter_id, contact_person_id, recruiting_point_id FROM files WHERE id = $1 FOR UPDATE',
    [fileId],
  );
}

/** Whether a service center with this id exists (one a file may name). */
export async function serviceCenterExistsForFile(db: Database, serviceCenterId: string): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM service_centers WHERE id = $1', [serviceCenterId])) !== null;
}

const SERVICE_CENTER_OF: Record<FilePerson, string> = {
  recruiter_id: 'SELECT service_center_id FROM recruiters WHERE id = $1',
  contact_person_id: 'SELECT service_center_id FROM contact_persons WHERE id = $1',
  recruiting_point_id: 'SELECT service_center_id FROM recruiting_points WHERE id = $1',
};

/** The service center a file's person (of that kind) belongs to; undefined when no such person. */
export async function serviceCenterOfFilePerson(db: Database, person: FilePerson, id: string): Promise<string | undefined> {
  const owner = await db.maybeOne<{ service_center_id: string }>(SERVICE_CENTER_OF[person], [id]);
  return owner?.service_center_id;
}

/** Saves the file's name (null: unchanged) and its service center and people. */
export async function saveFileNameAndPeople(tx: Database, fileId: string, name: string | null, people: FilePeople): Promise<void> {
  await tx.query(
    `UPDATE files SET name = COALESCE($2, name), service_center_id = $3, recruiter_id = $4, contact_person_id = $5, recruiting_point_id = $6
     WHERE id = $1`,
    [fileId, name, people.service_center_id, people.recruiter_id, people.contact_person_id, people.recruiting_point_id],
  );
}
