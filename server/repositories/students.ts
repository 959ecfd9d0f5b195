// The students table: the people answering the lessons, as the workflow makes and updates them.
import type { Database } from '../db/database';

/** A student an intro sheet brings, in the file's service center and its country. */
export async function createSplitStudent(db: Database, serviceCenterId: string | null, countryIso: string | null): Promise<string> {
  const created = await db.one<{ id: string }>(
    `INSERT INTO students (service_center_id, country_iso, last_active_at) VALUES ($1, $2, now()) RETURNING id`,
    [serviceCenterId, countryIso],
  );
  return created.id;
}

/** The congregation of each of these students that exists (a student gone is not in the map). */
export async function congregationsOfSplitStudents(db: Database, studentIds: readonly string[]): Promise<Map<string, string | null>> {
  const rows = await db.query<{ id: string; congregation_id: string | null }>('SELECT id, congregation_id FROM students WHERE id = ANY($1::uuid[])', [
    studentIds,
  ]);
  return new Map(rows.map((row) => [row.id, row.congregation_id]));
}

/** These students sent something just now. */
export async function markSplitStudentsActive(db: Database, studentIds: readonly string[]): Promise<void> {
  await db.query('UPDATE students SET last_active_at = now() WHERE id = ANY($1::uuid[])', [studentIds]);
}

/** Whether the student exists. */
export async function studentExistsForSheet(db: Database, studentId: string): Promise<boolean> {
  return (await db.maybeOne('SELECT 1 FROM students WHERE id = $1', [studentId])) !== null;
}
