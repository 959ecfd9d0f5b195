// A study helper as the contract shows it, with how many students it has; used by the
// congregation's helper list and the study-helper calls.
import type { Schemas } from '../../contract/types';
import type { Database } from '../../db/database';
import { STUDY_HELPER_SELECT, type StudyHelperRow } from '../../repositories/study-helpers';
import { pageOf, paged } from './paging';
import { Where, containsPattern } from '../../repositories/sql/where';

export function studyHelperOf(row: StudyHelperRow): Schemas['StudyHelper'] {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    student_count: Number(row.student_count),
    created_at: new Date(row.created_at).toISOString(),
    last_active_at: row.last_active_at === null ? null : new Date(row.last_active_at).toISOString(),
    congregation: { id: row.congregation_id, wbs_code: row.wbs_code, display_name: row.display_name },
  };
}

/**
 * A page of study helpers by name, of one congregation or (null) of all: the study-helper list
 * and a congregation's helper list alike. `name` keeps helpers whose name contains it.
 */
export async function studyHelperPage(
  db: Database,
  congregation: string | null,
  query: { name?: string; skip?: number; limit?: number },
): Promise<Schemas['StudyHelperList']> {
  const page = pageOf(query);
  const where = new Where().addIf(congregation, (p) => `h.congregation_id = ${p}`);
  const name = query.name?.trim();
  if (name) where.add((p) => `lower(h.name) LIKE ${p}`, containsPattern(name));
  const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM study_helpers h ${where.sql}`, where.params);
  const rows = await db.query<StudyHelperRow>(
    `${STUDY_HELPER_SELECT} ${where.sql}
     ORDER BY lower(h.name), h.id LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
    where.params,
  );
  return paged(rows.map(studyHelperOf), total, page);
}
