// A service center's recruiting points: listed, added, renamed and deleted through their center.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';

export function recruitingPointsOfServiceCenter(db: Database, serviceCenterId: string): Promise<Schemas['RecruitingPoint'][]> {
  return db.query<Schemas['RecruitingPoint']>('SELECT id, name, location FROM recruiting_points WHERE service_center_id = $1 ORDER BY name, id', [serviceCenterId]);
}

export function insertRecruitingPoint(tx: Database, serviceCenterId: string, name: string, location: string): Promise<Schemas['RecruitingPoint']> {
  return tx.one<Schemas['RecruitingPoint']>('INSERT INTO recruiting_points (service_center_id, name, location) VALUES ($1, $2, $3) RETURNING id, name, location', [
    serviceCenterId,
    name,
    location,
  ]);
}

/** The renamed point; null when the center has no such point. */
export function renameRecruitingPoint(tx: Database, serviceCenterId: string, id: string, name: string): Promise<Schemas['RecruitingPoint'] | null> {
  return tx.maybeOne<Schemas['RecruitingPoint']>(
    'UPDATE recruiting_points SET name = $3 WHERE id = $2 AND service_center_id = $1 RETURNING id, name, location',
    [serviceCenterId, id, name],
  );
}

/** Locks the center's point for its delete; false when the center has no such point. */
export async function lockRecruitingPoint(tx: Database, serviceCenterId: string, id: string): Promise<boolean> {
  return (await tx.maybeOne('SELECT id FROM recruiting_points WHERE id = $1 AND service_center_id = $2 FOR UPDATE', [id, serviceCenterId])) !== null;
}

/** What names a recruiting point, each counted with $1 its id (routes/shared/in-use.ts). */
export const RECRUITING_POINT_USES = [
  { name: ['file', 'files'], countSql: 'SELECT count(*) FROM files WHERE recruiting_point_id = $1' },
  { name: ['student', 'students'], countSql: 'SELECT count(*) FROM students WHERE recruiting_point_id = $1' },
] as const;

export async function deleteRecruitingPoint(tx: Database, id: string): Promise<void> {
  await tx.query('DELETE FROM recruiting_points WHERE id = $1', [id]);
}
