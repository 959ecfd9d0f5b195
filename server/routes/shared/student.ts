// A student as the contract shows it: its references resolved (country, congregation, study
// helper, recruiter...) and its latest answer sheet with that sheet's file and lesson: of a file
// sent to study helpers, so a lesson still in Review (perhaps under the wrong student) counts not.
import type { Schemas } from '../../contract/types';
import { lookupSql } from '../../db/lookup-sql';
import { sentOrSendingSql } from '../../repositories/sql/file-steps';
import { congregationRefOrNull, countryOrNull, lessonOrNull, namedRefOrNull, studentName } from './refs';

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

export function studentOf(row: StudentRow): Schemas['Student'] {
  return {
    id: row.id,
    human_id: Number(row.human_id),
    name: studentName(row.attributes),
    country: countryOrNull(row.country_iso, row.country_name),
    congregation_id: row.congregation_id,
    congregation: congregationRefOrNull(row.congregation_id, row.congregation_wbs_code, row.congregation_display_name),
    study_helper: namedRefOrNull(row.study_helper_id, row.study_helper_name),
    latest_answer_sheet:
      row.latest_answer_sheet_id === null || row.latest_uploaded_at === null
        ? null
        : {
            file: {
              service_center: namedRefOrNull(row.latest_service_center_id, row.latest_service_center_name),
              recruiting_point: namedRefOrNull(row.latest_recruiting_point_id, row.latest_recruiting_point_name),
              recruiter: namedRefOrNull(row.latest_recruiter_id, row.latest_recruiter_name),
              uploaded_at: new Date(row.latest_uploaded_at).toISOString(),
            },
            lesson: lessonOrNull(row.latest_lesson_id, row.latest_lesson_name, row.latest_lesson_number, row.latest_course_id),
          },
    recruiter: namedRefOrNull(row.recruiter_id, row.recruiter_name),
    recruiting_point: namedRefOrNull(row.recruiting_point_id, row.recruiting_point_name),
    service_center: namedRefOrNull(row.service_center_id, row.service_center_name),
    created_at: new Date(row.created_at).toISOString(),
    last_active_at: row.last_active_at === null ? null : new Date(row.last_active_at).toISOString(),
    attributes: row.attributes,
  };
}

/**
 * Condition on students `s`: visible to a caller limited to the congregation in `placeholder`
 * (a null parameter means every congregation: an admin).
 */
export function studentVisible(placeholder: string): string {
  return `(${placeholder}::uuid IS NULL OR s.congregation_id = ${placeholder}::uuid)`;
}
