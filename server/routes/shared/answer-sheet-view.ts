// An answer sheet (response) with its review counts, as the file's responses table and the
// response screens show it.
import type { Schemas } from '../../contract/types';
import { flaggedPageSql, mismatchedPageSql, sentOrSendingSql, unrecognizedPageSql } from '../../repositories/sql/file-steps';

/** Select list over `answer_sheets a`; callers append WHERE/ORDER BY. */
export const SHEET_SELECT = `
  SELECT a.id, a.file_id, f.name AS file_name, f.uploaded_at AS file_uploaded_at, a.sequence,
         a.student_id, st.human_id AS student_human_id, st.attributes ->> 'name' AS student_name,
         st.study_helper_id, sh.name AS study_helper_name,
         a.lesson_id, l.name AS lesson_name, l.number AS lesson_number, l.course_id, c.name AS course_name,
         a.assigned_group, g.wbs_code AS group_wbs_code, g.display_name AS group_display_name,
         a.graded, a.is_baptism_request, a.duplicate_of, a.duplicate_kept, ${sentOrSendingSql('f')} AS sent,
         (SELECT count(*) FROM pages p WHERE p.answer_sheet_id = a.id) AS page_count,
         (SELECT count(*) FROM pages p WHERE p.answer_sheet_id = a.id AND ${unrecognizedPageSql('p')}) AS unrecognized_count,
         (SELECT count(*) FROM pages p WHERE p.answer_sheet_id = a.id AND ${mismatchedPageSql('p', 'a')}) AS mismatched_count,
         (SELECT count(*) FROM pages p WHERE p.answer_sheet_id = a.id AND ${flaggedPageSql('p')}) AS flagged_count,
         (SELECT min(fb.created_at) FROM feedback fb JOIN pages p ON p.id = fb.page_id WHERE p.answer_sheet_id = a.id) AS first_feedback_at
  FROM answer_sheets a
  JOIN files f ON f.id = a.file_id
  LEFT JOIN students st ON st.id = a.student_id
  LEFT JOIN study_helpers sh ON sh.id = st.study_helper_id
  LEFT JOIN lessons l ON l.id = a.lesson_id
  LEFT JOIN courses c ON c.id = l.course_id
  LEFT JOIN congregations g ON g.id = a.assigned_group`;

export interface SheetRow {
  id: string;
  file_id: string;
  file_name: string;
  file_uploaded_at: Date;
  sequence: number;
  student_id: string | null;
  student_human_id: number | null;
  student_name: string | null;
  study_helper_id: string | null;
  study_helper_name: string | null;
  lesson_id: string | null;
  lesson_name: string | null;
  lesson_number: number | null;
  course_id: string | null;
  course_name: string | null;
  assigned_group: string | null;
  group_wbs_code: string | null;
  group_display_name: string | null;
  graded: boolean;
  is_baptism_request: boolean;
  duplicate_of: string | null;
  duplicate_kept: boolean;
  sent: boolean;
  page_count: number;
  unrecognized_count: number;
  mismatched_count: number;
  flagged_count: number;
  first_feedback_at: Date | null;
}

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

/** Ids of the sheets with a page shown in Review for a reason (a text parameter), as the file's Action Items link to them. */
export function sheetsWithReasonSql(reason: string): string {
  return `SELECT rp.answer_sheet_id FROM pages rp JOIN answer_sheets ra ON ra.id = rp.answer_sheet_id
    WHERE CASE ${reason}::text WHEN 'blank_back' THEN rp.blank AND rp.ignored
                               WHEN 'duplicate_sheet' THEN NOT rp.ignored AND ra.duplicate_of IS NOT NULL AND NOT ra.duplicate_kept
                               ELSE NOT rp.ignored AND rp.flag = ${reason}::text END`;
}
