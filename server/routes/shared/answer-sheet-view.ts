// An answer sheet (response) with its review counts, as the file's responses table and the
// response screens show it.
import type { Schemas } from '../../contract/types';
import type { SheetRow } from '../../repositories/answer-sheets';

export function sheetOf(row: SheetRow): Schemas['AnswerSheet'] {
  return {
    id: row.id,
    file_id: row.file_id,
    file: { name: row.file_name, uploaded_at: new Date(row.file_uploaded_at).toISOString() },
    student:
      row.student_id === null
        ? null
        : {
            id: row.student_id,
            human_id: Number(row.student_human_id),
            name: row.student_name ?? '',
            study_helper: row.study_helper_id === null ? null : { id: row.study_helper_id, name: row.study_helper_name ?? '' },
          },
    lesson:
      row.lesson_id === null
        ? null
        : {
            id: row.lesson_id,
            name: row.lesson_name ?? '',
            ...(row.lesson_number === null ? {} : { number: row.lesson_number }),
            ...(row.course_id === null ? {} : { course_id: row.course_id }),
          },
    course: row.course_id === null ? null : { id: row.course_id, name: row.course_name ?? '' },
    congregation:
      row.assigned_group === null
        ? null
        : { id: row.assigned_group, wbs_code: row.group_wbs_code ?? '', display_name: row.group_display_name ?? '' },
    graded: row.graded,
    assigned_group: row.assigned_group,
    is_baptism_request: row.is_baptism_request,
    page_count: Number(row.page_count),
    unrecognized_count: Number(row.unrecognized_count),
    mismatched_count: Number(row.mismatched_count),
    flagged_count: Number(row.flagged_count),
    duplicate: row.duplicate_of !== null,
    duplicate_kept: row.duplicate_of !== null && row.duplicate_kept,
    first_feedback_at: row.first_feedback_at === null ? null : new Date(row.first_feedback_at).toISOString(),
    sent: row.sent,
  };
}
