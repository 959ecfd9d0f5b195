// Answer sheets (responses): the select list the response screens and tables read, and the
// questions asked of a file's sheets by its workflow and its access checks.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { flaggedPageSql, keptSheetSql, mismatchedPageSql, sentOrSendingSql, unrecognizedPageSql } from './sql/file-steps';
import { sentToSql } from './files';

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

/** Ids of the sheets with a page shown in Review for a reason (a text parameter), as the file's Action Items link to them. */
export function sheetsWithReasonSql(reason: string): string {
  return `SELECT rp.answer_sheet_id FROM pages rp JOIN answer_sheets ra ON ra.id = rp.answer_sheet_id
    WHERE CASE ${reason}::text WHEN 'blank_back' THEN rp.blank AND rp.ignored
                               WHEN 'duplicate_sheet' THEN NOT rp.ignored AND ra.duplicate_of IS NOT NULL AND NOT ra.duplicate_kept
                               ELSE NOT rp.ignored AND rp.flag = ${reason}::text END`;
}

/** Whether a caller limited to `scope` (null: an admin) may see the sheet; null when no such sheet. */
export async function sheetVisibleInScope(db: Database, sheetId: string, scope: string | null): Promise<boolean | null> {
  const row = await db.maybeOne<{ visible: boolean }>(
    `SELECT ($2::uuid IS NULL OR (a.assigned_group = $2::uuid AND ${sentToSql('a.file_id', '$2')})) AS visible
     FROM answer_sheets a WHERE a.id = $1`,
    [sheetId, scope],
  );
  return row === null ? null : row.visible === true;
}

export interface FileCongregationRow {
  id: string;
  wbs_code: string;
  display_name: string;
  status: Schemas['CongregationFileStatus'];
  sheets: number;
  packet_id: string | null;
}

/** The congregations with kept sheets in the file (only `scope`'s when given), with their packet. */
export async function congregationsOfFileWithSheets(db: Database, fileId: string, scope: string | null): Promise<FileCongregationRow[]> {
  return db.query<FileCongregationRow>(
    `SELECT g.id, g.wbs_code, g.display_name, COALESCE(fc.status, 'unprinted') AS status, count(a.id)::int AS sheets,
            d.id AS packet_id
     FROM answer_sheets a JOIN congregations g ON g.id = a.assigned_group
     LEFT JOIN file_congregations fc ON fc.file_id = a.file_id AND fc.congregation_id = g.id
     LEFT JOIN packets d ON d.file_id = a.file_id AND d.congregation_id = g.id
     WHERE a.file_id = $1 AND ${keptSheetSql('a')} AND ($2::uuid IS NULL OR g.id = $2::uuid)
     GROUP BY g.id, g.wbs_code, g.display_name, fc.status, d.id
     ORDER BY g.wbs_code`,
    [fileId, scope],
  );
}
