// Students: the select list every student screen reads (references resolved, the latest answer
// sheet of a file sent to study helpers), who may see one, and a student taking a congregation.
import type { Schemas, QueryOf } from '../contract/types';
import type { Database } from '../db/database';
import { lookupSql } from '../db/lookup-sql';
import { sentOrSendingSql } from './sql/file-steps';
import { rowsOfPage, type Statement } from './sql/rows-of-page';
import { cachedTotal } from './sql/count-cache';
import { orderClause, sortDirection, type Direction, type Page, type SortColumn } from './sql/paging';
import { Where, humanIdRanges, prefixPattern } from './sql/where';

/** "Newest first" for a student's answer sheets `a` (also what "latest answer sheet" means). */
export const NEWEST_ANSWER_SHEETS_FIRST = 'a.created_at DESC, a.id DESC';

// Names by lookupSql, not joins (see there why).
const name = (table: string, column: string, key: string, value: string) => lookupSql(table, column, value, key);

/**
 * Select list for students, aliased `s`. Callers append WHERE on `s` (by id: lists choose their
 * page's ids first, see rowsOfPage). Written once: a statement's text is looked up by value for
 * its prepared name (server/db/postgres.ts), and a text built anew each call is hashed anew.
 */
export const STUDENT_SELECT = `
  SELECT s.id, s.human_id, s.attributes, s.created_at, s.last_active_at,
         s.country_iso, ${name('countries', 'display_name', 'iso_code', 's.country_iso')} AS country_name,
         s.congregation_id, ${name('congregations', 'wbs_code', 'id', 's.congregation_id')} AS congregation_wbs_code,
         ${name('congregations', 'display_name', 'id', 's.congregation_id')} AS congregation_display_name,
         s.study_helper_id, ${name('study_helpers', 'name', 'id', 's.study_helper_id')} AS study_helper_name,
         s.recruiter_id, ${name('recruiters', 'name', 'id', 's.recruiter_id')} AS recruiter_name,
         s.recruiting_point_id, ${name('recruiting_points', 'name', 'id', 's.recruiting_point_id')} AS recruiting_point_name,
         s.service_center_id, ${name('service_centers', 'name', 'id', 's.service_center_id')} AS service_center_name,
         la.answer_sheet_id AS latest_answer_sheet_id, f.uploaded_at AS latest_uploaded_at,
         f.service_center_id AS latest_service_center_id,
         ${name('service_centers', 'name', 'id', 'f.service_center_id')} AS latest_service_center_name,
         f.recruiting_point_id AS latest_recruiting_point_id,
         ${name('recruiting_points', 'name', 'id', 'f.recruiting_point_id')} AS latest_recruiting_point_name,
         f.recruiter_id AS latest_recruiter_id, ${name('recruiters', 'name', 'id', 'f.recruiter_id')} AS latest_recruiter_name,
         la.lesson_id AS latest_lesson_id, l.name AS latest_lesson_name,
         l.number AS latest_lesson_number, l.course_id AS latest_course_id
  FROM students s
  LEFT JOIN LATERAL (
    SELECT a.id AS answer_sheet_id, a.file_id, a.lesson_id
    FROM answer_sheets a JOIN files af ON af.id = a.file_id
    WHERE a.student_id = s.id AND ${sentOrSendingSql('af')}
    ORDER BY ${NEWEST_ANSWER_SHEETS_FIRST}
    LIMIT 1
  ) la ON true
  LEFT JOIN files f ON f.id = la.file_id
  LEFT JOIN lessons l ON l.id = la.lesson_id`;

export interface StudentRow {
  id: string;
  human_id: number;
  attributes: Schemas['StudentAttributes'];
  created_at: Date;
  last_active_at: Date | null;
  country_iso: string | null;
  country_name: string | null;
  congregation_id: string | null;
  congregation_wbs_code: string | null;
  congregation_display_name: string | null;
  study_helper_id: string | null;
  study_helper_name: string | null;
  recruiter_id: string | null;
  recruiter_name: string | null;
  recruiting_point_id: string | null;
  recruiting_point_name: string | null;
  service_center_id: string | null;
  service_center_name: string | null;
  latest_answer_sheet_id: string | null;
  latest_uploaded_at: Date | null;
  latest_service_center_id: string | null;
  latest_service_center_name: string | null;
  latest_recruiting_point_id: string | null;
  latest_recruiting_point_name: string | null;
  latest_recruiter_id: string | null;
  latest_recruiter_name: string | null;
  latest_lesson_id: string | null;
  latest_lesson_name: string | null;
  latest_lesson_number: number | null;
  latest_course_id: string | null;
}

/**
 * Condition on students `s`: visible to a caller limited to the congregation in `placeholder`
 * (a null parameter means every congregation: an admin).
 */
export function studentVisible(placeholder: string): string {
  return `(${placeholder}::uuid IS NULL OR s.congregation_id = ${placeholder}::uuid)`;
}

// A student belongs to a congregation (DESIGN §4, "Identity"): assigning a sheet of a student who
// has none gives the student that congregation, so the student's later sheets are assigned on
// arrival and the congregation's coordinator sees the student.
/**
 * The students among `studentIds` without a congregation take `congregationId`. A student row
 * locked by a change under way is skipped rather than waited for: that change (an admin setting
 * the student's congregation) decides, and no two requests wait on each other's locks.
 */
export async function giveCongregationToStudents(tx: Database, studentIds: readonly string[], congregationId: string): Promise<void> {
  if (studentIds.length === 0) return;
  await tx.query(
    `UPDATE students s SET congregation_id = $2::uuid
     WHERE s.id IN (SELECT free.id FROM students free
                    WHERE free.id = ANY($1::uuid[]) AND free.congregation_id IS NULL
                    FOR UPDATE SKIP LOCKED)`,
    [[...new Set(studentIds)], congregationId],
  );
}

export type StudentOrder = NonNullable<QueryOf<'listStudents'>['order_by']>;

const STUDENT_SORT: Record<StudentOrder, SortColumn> = {
  human_id: { sql: 's.human_id', defaultDirection: 'asc' },
  created_at: { sql: 's.created_at', defaultDirection: 'desc' },
};

const STUDENTS_BY_IDS = `${STUDENT_SELECT} WHERE s.id = ANY($1::uuid[])`;
const VISIBLE_STUDENT_BY_ID = `${STUDENT_SELECT} WHERE s.id = $1 AND ${studentVisible('$2')}`;

/**
 * One page of students matching `where` (conditions on `s`), with the total count. `byPrefix`,
 * when given, selects the page's ids and counts them instead of `where` (see humanIdPrefixPage).
 */
async function pageOfStudents(
  db: Database,
  where: Where,
  order: string,
  page: Page,
  byPrefix?: { ids?: Statement; count: Statement },
): Promise<{ rows: StudentRow[]; total: number }> {
  const count = byPrefix?.count ?? { sql: `SELECT count(*) AS total FROM students s ${where.sql}`, params: where.params };
  const total = await cachedTotal(db, count.sql, count.params);
  const rows = await rowsOfPage<StudentRow>(
    db,
    byPrefix?.ids ?? { sql: `SELECT s.id FROM students s ${where.sql} ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`, params: where.params },
    STUDENTS_BY_IDS,
  );
  return { rows, total };
}

/**
 * The students whose ID starts with `prefix`, among those `others` (the list's other conditions)
 * select, as ranges of IDs (humanIdRanges) read in the index on human_id: `from` joins each
 * range with its students, under `conditions`.
 */
function inHumanIdRanges(prefix: string, others: Where): { from: string; conditions: string } {
  const ranges = humanIdRanges(prefix);
  const lo = others.param(ranges.map((range) => range.lo));
  const hi = others.param(ranges.map((range) => range.hi));
  const inRange = `s.human_id BETWEEN id_range.lo AND id_range.hi`;
  return {
    from: `unnest(${lo}::bigint[], ${hi}::bigint[]) AS id_range (lo, hi)`,
    conditions: others.sql === '' ? `WHERE ${inRange}` : `${others.sql} AND ${inRange}`,
  };
}

/**
 * The ids of a page of students whose ID starts with `prefix`, in ID order, each range of IDs
 * read in the order of the index on human_id, as far as the page reaches. Matching the digits as
 * text instead read the index from its start up to the page's last match: "45" found its 20th
 * student at 4508 of 100 000, and "4521" at 45 219.
 */
function humanIdPrefixPage(prefix: string, others: Where, direction: 'ASC' | 'DESC', page: Page): Statement {
  const { from, conditions } = inHumanIdRanges(prefix, others);
  const order = (table: string) => `ORDER BY ${table}.human_id ${direction}, ${table}.id ${direction}`;
  return {
    sql: `SELECT r.id FROM ${from}
          CROSS JOIN LATERAL (SELECT s.id, s.human_id FROM students s ${conditions} ${order('s')} LIMIT ${others.param(page.skip + page.limit)}) r
          ${order('r')} LIMIT ${others.param(page.limit)} OFFSET ${others.param(page.skip)}`,
    params: others.params,
  };
}

/**
 * How many students have an ID starting with `prefix`, counted in its ranges of IDs. Counted as
 * text, every match was read from the table (the text index cannot answer alone): 2.2 ms for the
 * 1100 students of "45" in 100 000, while the ranges are counted from the index on human_id.
 */
export function humanIdPrefixCount(prefix: string, others: Where): Statement {
  const { from, conditions } = inHumanIdRanges(prefix, others);
  return {
    sql: `SELECT count(*) AS total FROM ${from} CROSS JOIN LATERAL (SELECT FROM students s ${conditions}) matching`,
    params: others.params,
  };
}

export interface StudentListFilter {
  /** One congregation's students, or (null) every student. */
  congregation: string | null;
  humanIdPrefix?: string;
  country?: string;
  studyHelper?: string;
  orderBy: StudentOrder;
  direction: Direction | undefined;
}

/** A page of the students list, with the total. */
export function studentListPage(db: Database, filter: StudentListFilter, page: Page): Promise<{ rows: StudentRow[]; total: number }> {
  // The list's conditions, with or without the ID prefix's (humanIdPrefixPage reads it as ranges).
  const conditions = (withPrefix: boolean) =>
    new Where()
      .addIf(filter.congregation, (p) => `s.congregation_id = ${p}`)
      // Matches the expression index students_human_id_text_idx (text_pattern_ops).
      .addIf(withPrefix && filter.humanIdPrefix ? prefixPattern(filter.humanIdPrefix) : undefined, (p) => `(s.human_id::text) LIKE ${p}`)
      .addIf(filter.country, (p) => `s.country_iso = ${p}`)
      .addIf(filter.studyHelper, (p) => `s.study_helper_id = ${p}`);
  const order = orderClause(STUDENT_SORT, filter.orderBy, filter.direction, 's.id');
  const prefix = filter.humanIdPrefix;
  const byPrefix = prefix
    ? {
        ids: filter.orderBy === 'human_id' ? humanIdPrefixPage(prefix, conditions(false), sortDirection(STUDENT_SORT, filter.orderBy, filter.direction), page) : undefined,
        count: humanIdPrefixCount(prefix, conditions(false)),
      }
    : undefined;
  return pageOfStudents(db, conditions(true), order, page, byPrefix);
}

/** A page of a study helper's students (of `scope`'s congregation, when given), by ID. */
export function studentsOfStudyHelperPage(db: Database, helperId: string, scope: string | null, page: Page): Promise<{ rows: StudentRow[]; total: number }> {
  const where = new Where().add((p) => `s.study_helper_id = ${p}`, helperId).addIf(scope, (p) => `s.congregation_id = ${p}`);
  return pageOfStudents(db, where, orderClause(STUDENT_SORT, 'human_id', undefined, 's.id'), page);
}

/** The student, when a caller limited to `scope` (null: every congregation) sees it. */
export function studentRowInScope(db: Database, id: string, scope: string | null): Promise<StudentRow | null> {
  return db.maybeOne<StudentRow>(VISIBLE_STUDENT_BY_ID, [id, scope]);
}

export async function studentVisibleInScope(db: Database, id: string, scope: string | null): Promise<boolean> {
  return (await db.maybeOne(`SELECT s.id FROM students s WHERE s.id = $1 AND ${studentVisible('$2')}`, [id, scope])) !== null;
}

/** The id of the student with this student ID, when a caller limited to `scope` sees it. */
export async function studentIdByHumanIdInScope(db: Database, humanId: number, scope: string | null): Promise<string | null> {
  const student = await db.maybeOne<{ id: string }>(`SELECT s.id FROM students s WHERE s.human_id = $1 AND ${studentVisible('$2')}`, [humanId, scope]);
  return student?.id ?? null;
}

/** Locks the student for a change, when a caller limited to `scope` sees it. */
export function lockStudentInScope(tx: Database, id: string, scope: string | null): Promise<{ id: string; congregation_id: string | null } | null> {
  return tx.maybeOne<{ id: string; congregation_id: string | null }>(
    `SELECT s.id, s.congregation_id FROM students s WHERE s.id = $1 AND ${studentVisible('$2')} FOR UPDATE`,
    [id, scope],
  );
}

/** Sets the attributes in `set` and removes those in `clear`. */
export async function changeStudentAttributes(tx: Database, id: string, set: Readonly<Record<string, unknown>>, clear: readonly string[]): Promise<void> {
  await tx.query('UPDATE students SET attributes = (attributes || $2::jsonb) - $3::text[] WHERE id = $1', [id, JSON.stringify(set), clear]);
}

/** A study helper belongs to one congregation: moving the student ends that link. */
export async function moveStudentToCongregation(tx: Database, id: string, congregationId: string | null): Promise<void> {
  await tx.query(
    `UPDATE students SET congregation_id = $2::uuid,
            study_helper_id = CASE WHEN congregation_id IS NOT DISTINCT FROM $2::uuid THEN study_helper_id END
     WHERE id = $1`,
    [id, congregationId],
  );
}

export async function setStudentStudyHelper(tx: Database, id: string, helperId: string | null): Promise<void> {
  await tx.query('UPDATE students SET study_helper_id = $2 WHERE id = $1', [id, helperId]);
}

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

/** A new student recruited by a study helper of the congregation (an intro sheet); its id. */
export async function insertRecruitedStudent(db: Database, congregationId: string, studyHelperId: string | null): Promise<string> {
  const row = await db.one<{ id: string }>(
    `INSERT INTO students (congregation_id, study_helper_id, last_active_at) VALUES ($1, $2, now()) RETURNING id, human_id`,
    [congregationId, studyHelperId],
  );
  return row.id;
}
