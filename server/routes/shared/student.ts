// A student as the contract shows it: its references resolved (country, congregation, study
// helper, recruiter...) and its latest answer sheet with that sheet's file and lesson: of a file
// sent to study helpers, so a lesson still in Review (perhaps under the wrong student) counts not.
import type { Schemas } from '../../contract/types';
import type { StudentRow } from '../../repositories/students';
import { congregationRefOrNull, countryOrNull, lessonOrNull, namedRefOrNull, studentName } from './refs';

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
