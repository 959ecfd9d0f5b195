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
