// Study helpers: the select list with each helper's student count, and a page of helpers by name
// (of one congregation or of all) for the study-helper list and a congregation's helper list.
import type { Database } from '../db/database';
import type { Page } from './sql/paging';
import { Where, containsPattern } from './sql/where';

/** Select list over `study_helpers h JOIN congregations c`; add WHERE/ORDER BY after it. */
export const STUDY_HELPER_SELECT = `
  SELECT h.id, h.name, h.email, h.created_at, h.last_active_at,
         h.congregation_id, c.wbs_code, c.display_name,
         (SELECT count(*) FROM students s WHERE s.study_helper_id = h.id) AS student_count
  FROM study_helpers h
  JOIN congregations c ON c.id = h.congregation_id`;

export interface StudyHelperRow {
  id: string;
  name: string;
  email: string;
  created_at: Date;
  last_active_at: Date | null;
  congregation_id: string;
  wbs_code: string;
  display_name: string;
  student_count: number;
}

/**
 * A page of study helpers by lower-cased name, of one congregation or (null) of all, with how many
 * there are in all; `name` keeps helpers whose name contains it.
 */
export async function studyHelpersByName(
  db: Database,
  congregation: string | null,
  name: string | undefined,
  page: Page,
): Promise<{ total: number; rows: StudyHelperRow[] }> {
  const where = new Where().addIf(congregation, (p) => `h.congregation_id = ${p}`);
  if (name) where.add((p) => `lower(h.name) LIKE ${p}`, containsPattern(name));
  const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM study_helpers h ${where.sql}`, where.params);
  const rows = await db.query<StudyHelperRow>(
    `${STUDY_HELPER_SELECT} ${where.sql}
     ORDER BY lower(h.name), h.id LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
    where.params,
  );
  return { total, rows };
}

/** The helper, when it belongs to `scope` (null: any congregation). */
export function studyHelperInScope(db: Database, id: string, scope: string | null): Promise<StudyHelperRow | null> {
  return db.maybeOne<StudyHelperRow>(`${STUDY_HELPER_SELECT} WHERE h.id = $1 AND ($2::uuid IS NULL OR h.congregation_id = $2::uuid)`, [id, scope]);
}

/** Whether the helper exists and belongs to `scope` (null: any congregation). */
export async function studyHelperVisible(db: Database, id: string, scope: string | null): Promise<boolean> {
  const found = await db.maybeOne('SELECT id FROM study_helpers WHERE id = $1 AND ($2::uuid IS NULL OR congregation_id = $2::uuid)', [id, scope]);
  return found !== null;
}

/** The helper's congregation, or null when there is no such helper. */
export async function congregationOfStudyHelper(db: Database, id: string): Promise<string | null> {
  const helper = await db.maybeOne<{ congregation_id: string }>('SELECT congregation_id FROM study_helpers WHERE id = $1', [id]);
  return helper?.congregation_id ?? null;
}

export async function insertStudyHelper(db: Database, congregationId: string, name: string, email: string): Promise<StudyHelperRow> {
  const { id } = await db.one<{ id: string }>('INSERT INTO study_helpers (congregation_id, name, email) VALUES ($1, $2, $3) RETURNING id', [
    congregationId,
    name,
    email,
  ]);
  return db.one<StudyHelperRow>(`${STUDY_HELPER_SELECT} WHERE h.id = $1`, [id]);
}

/** Locks the helper's row for its delete; false when there is none. */
export async function lockStudyHelper(tx: Database, id: string): Promise<boolean> {
  return (await tx.maybeOne('SELECT id FROM study_helpers WHERE id = $1 FOR UPDATE', [id])) !== null;
}

/** What refers to a study helper, each counted with $1 its id (routes/shared/in-use.ts). */
export const STUDY_HELPER_USES = [
  { name: ['student', 'students'], countSql: 'SELECT count(*) FROM students WHERE study_helper_id = $1' },
  { name: ['graded upload', 'graded uploads'], countSql: 'SELECT count(*) FROM graded_uploads WHERE study_helper_id = $1' },
] as const;

export async function deleteStudyHelper(tx: Database, id: string): Promise<void> {
  await tx.query('DELETE FROM study_helpers WHERE id = $1', [id]);
}

/** The helper did something in the portal (their intro file was read). */
export async function markStudyHelperActiveAfterIntro(db: Database, studyHelperId: string): Promise<void> {
  await db.query('UPDATE study_helpers SET last_active_at = now() WHERE id = $1', [studyHelperId]);
}
