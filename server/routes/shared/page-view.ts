// A scanned page as the contract shows it (Page): its template, its answer sheet with student,
// lesson and congregation, whether it is mismatched, and the graded scans (feedback) it has.
import type { FastifyRequest } from 'fastify';
import { congregationScope } from '../../auth/session';
import type { Schemas } from '../../contract/types';
import type { Database } from '../../db/database';
import { forbidden, notFound } from '../../http-error';
import type { PageFlag } from '../../domain/split';
import { codeText } from '../../domain/codes';
import type { StoredSuggestion } from '../../workflow/printed-text-pages';
import { sentToSql } from './file-view';

export const PAGE_NOT_FOUND = 'Page not found';

/** Select list over `pages p`; callers append WHERE/ORDER BY. */
export const PAGE_SELECT = `
  SELECT p.id, p.file_id, p.page_number, p.ignored, p.blank, p.unrecognized_reason, p.flag, a.duplicate_of,
         p.photo_blob_key IS NOT NULL AS has_photo,
         p.identified_by, p.printed_suggestion,
         p.flag_detail -> 'missing_pages' AS missing_pages,
         (SELECT json_agg(json_build_object('id', cs.id, 'number', cs.sequence + 1, 'student_id', cs.student_id,
                                            'human_id', cst.human_id) ORDER BY cs.sequence)
          FROM answer_sheets cs LEFT JOIN students cst ON cst.id = cs.student_id
          WHERE p.flag = 'ambiguous_position' AND cs.file_id = p.file_id
            AND cs.id::text IN (SELECT jsonb_array_elements_text(p.flag_detail -> 'candidate_sheets'))) AS candidate_sheets,
         (SELECT json_build_object('page_id', cp.id, 'page_number', cp.page_number, 'file_id', cf.id, 'file_name', cf.name,
                                   'student_taken', p.flag = 'already_uploaded' AND pf.answer_sheet_page_length > 0)
          FROM pages cp JOIN files cf ON cf.id = cp.file_id JOIN files pf ON pf.id = p.file_id
          WHERE p.flag IN ('scanned_twice', 'already_uploaded') AND cp.id = (p.flag_detail ->> 'copy_page_id')::uuid) AS copy_of,
         (SELECT json_build_object('action', m.action, 'by', m.user_email, 'at', m.created_at)
          FROM review_mends m WHERE m.page_id = p.id ORDER BY m.created_at DESC, m.id LIMIT 1) AS mended,
         (SELECT count(*) FROM review_mends m WHERE m.page_id = p.id AND m.action = 'turned') AS turns,
         p.template_id, pt.name AS template_name, pt.page_number AS template_page_number, pt.code_id AS template_code,
         pt.lesson_id AS template_lesson_id, tl.name AS template_lesson_name, tl.number AS template_lesson_number,
         tl.course_id AS template_course_id,
         p.answer_sheet_id, a.assigned_group, g.wbs_code AS group_wbs_code, g.display_name AS group_display_name,
         a.student_id, st.human_id AS student_human_id, st.attributes ->> 'name' AS student_name,
         a.lesson_id AS sheet_lesson_id, sl.name AS sheet_lesson_name, sl.number AS sheet_lesson_number,
         sl.course_id AS sheet_course_id,
         (SELECT coalesce(json_agg(json_build_object('id', fb.id, 'has_back', fb.back_blob_key IS NOT NULL,
                                                     'created_at', fb.created_at) ORDER BY fb.created_at), '[]'::json)
          FROM feedback fb WHERE fb.page_id = p.id) AS feedback
  FROM pages p
  LEFT JOIN page_templates pt ON pt.id = p.template_id
  LEFT JOIN lessons tl ON tl.id = pt.lesson_id
  LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id
  LEFT JOIN congregations g ON g.id = a.assigned_group
  LEFT JOIN students st ON st.id = a.student_id
  LEFT JOIN lessons sl ON sl.id = a.lesson_id`;

export interface PageRow {
  id: string;
  file_id: string;
  page_number: number;
  ignored: boolean;
  blank: boolean;
  unrecognized_reason: Schemas['UnrecognizedReason'] | null;
  flag: PageFlag | null;
  duplicate_of: string | null;
  identified_by: Schemas['IdentifiedBy'] | null;
  printed_suggestion: StoredSuggestion | null;
  missing_pages: number[] | null;
  candidate_sheets: { id: string; number: number; student_id: string | null; human_id: number | null }[] | null;
  copy_of: Schemas['ReviewDetail']['copy_of'] | null;
  mended: { action: Schemas['ReviewMendAction']; by: string; at: string } | null;
  turns: number;
  has_photo: boolean;
  template_id: string | null;
  template_name: string | null;
  template_page_number: number | null;
  template_code: string | null;
  template_lesson_id: string | null;
  template_lesson_name: string | null;
  template_lesson_number: number | null;
  template_course_id: string | null;
  answer_sheet_id: string | null;
  assigned_group: string | null;
  group_wbs_code: string | null;
  group_display_name: string | null;
  student_id: string | null;
  student_human_id: number | null;
  student_name: string | null;
  sheet_lesson_id: string | null;
  sheet_lesson_name: string | null;
  sheet_lesson_number: number | null;
  sheet_course_id: string | null;
  feedback: { id: string; has_back: boolean; created_at: string }[];
}

/** What Review shows for the page: its flag, else a blank back, else its sheet's duplicate. */
function reviewReason(row: PageRow): Schemas['ReviewReason'] | null {
  if (row.flag !== null) return row.flag;
  if (row.blank && row.ignored) return 'blank_back';
  if (row.duplicate_of !== null) return 'duplicate_sheet';
  return null;
}

/** What Review shows beside the page's flag, for the flag it has now (a mend clears both). */
function reviewDetail(row: PageRow): Schemas['ReviewDetail'] | null {
  if (row.flag === 'ambiguous_position' && row.candidate_sheets)
    return {
      candidate_sheets: row.candidate_sheets.map((sheet) => ({
        id: sheet.id,
        number: Number(sheet.number),
        student: sheet.student_id === null ? null : { id: sheet.student_id, human_id: Number(sheet.human_id) },
      })),
    };
  if ((row.flag === 'scanned_twice' || row.flag === 'already_uploaded') && row.copy_of) return { copy_of: row.copy_of };
  if (row.flag === 'page_missing' && row.missing_pages) return { missing_pages: row.missing_pages };
  // A page still without a code: what its printed text says, offered as a sheet page to take.
  if (row.printed_suggestion && (row.flag === 'no_code_found' || row.flag === 'unreadable' || row.flag === 'unknown_code'))
    return {
      printed_text_suggestion: {
        student_human_id: row.printed_suggestion.student_human_id,
        lesson_number: row.printed_suggestion.lesson_number,
        page_number: row.printed_suggestion.page_number,
        codes: row.printed_suggestion.codes.map(codeText),
      },
    };
  return null;
}

function lesson(id: string | null, name: string | null, number: number | null, courseId: string | null): Schemas['Lesson'] | null {
  if (id === null) return null;
  return { id, name: name ?? '', ...(number === null ? {} : { number }), ...(courseId === null ? {} : { course_id: courseId }) };
}

export function pageOf(row: PageRow): Schemas['Page'] {
  const templateLesson = lesson(row.template_lesson_id, row.template_lesson_name, row.template_lesson_number, row.template_course_id);
  return {
    id: row.id,
    file_id: row.file_id,
    page_number: row.page_number,
    ignored: row.ignored,
    blank: row.blank,
    mismatched:
      row.template_lesson_id !== null && row.sheet_lesson_id !== null && row.template_lesson_id !== row.sheet_lesson_id,
    // A page given its template by hand is recognised now, whatever the scan said.
    unrecognized_reason: row.template_id === null ? row.unrecognized_reason : null,
    review_reason: reviewReason(row),
    flagged: row.flag !== null && !row.ignored && row.answer_sheet_id !== null,
    review_detail: reviewDetail(row),
    identified_by: row.identified_by,
    mended: row.mended === null ? null : { action: row.mended.action, by: row.mended.by, at: new Date(row.mended.at).toISOString() },
    turns: Number(row.turns),
    has_photo: row.has_photo,
    template:
      row.template_id === null || templateLesson === null
        ? null
        : {
            id: row.template_id,
            name: row.template_name ?? '',
            page_number: row.template_page_number ?? 1,
            lesson: templateLesson,
            ...(row.template_code === null ? {} : { code: `T-${row.template_code}` }),
          },
    answer_sheet:
      row.answer_sheet_id === null
        ? null
        : {
            id: row.answer_sheet_id,
            student:
              row.student_id === null
                ? null
                : { id: row.student_id, human_id: Number(row.student_human_id), name: row.student_name ?? '' },
            lesson: lesson(row.sheet_lesson_id, row.sheet_lesson_name, row.sheet_lesson_number, row.sheet_course_id),
            congregation:
              row.assigned_group === null
                ? null
                : { id: row.assigned_group, wbs_code: row.group_wbs_code ?? '', display_name: row.group_display_name ?? '' },
            assigned_group: row.assigned_group,
          },
    feedback_pages: row.feedback.map((item) => ({
      id: item.id,
      has_back: item.has_back,
      feedback: { created_at: new Date(item.created_at).toISOString() },
    })),
  };
}

/**
 * Checks the caller may see a page: 404 when it does not exist, 403 for a coordinator unless the
 * page's answer sheet is assigned to its congregation and its file was sent there.
 */
export async function requirePageAccess(db: Database, request: FastifyRequest, pageId: string): Promise<void> {
  const scope = congregationScope(request);
  const row = await db.maybeOne<{ visible: boolean }>(
    `SELECT ($2::uuid IS NULL OR (a.assigned_group = $2::uuid AND ${sentToSql('p.file_id', '$2')})) AS visible
     FROM pages p LEFT JOIN answer_sheets a ON a.id = p.answer_sheet_id WHERE p.id = $1`,
    [pageId, scope],
  );
  if (row === null) throw notFound(PAGE_NOT_FOUND);
  if (row.visible !== true) throw forbidden();
}

/** Same for an answer sheet. */
export async function requireSheetAccess(db: Database, request: FastifyRequest, sheetId: string): Promise<void> {
  const scope = congregationScope(request);
  const row = await db.maybeOne<{ visible: boolean }>(
    `SELECT ($2::uuid IS NULL OR (a.assigned_group = $2::uuid AND ${sentToSql('a.file_id', '$2')})) AS visible
     FROM answer_sheets a WHERE a.id = $1`,
    [sheetId, scope],
  );
  if (row === null) throw notFound('Answer sheet not found');
  if (row.visible !== true) throw forbidden();
}

export async function loadPage(db: Database, pageId: string): Promise<Schemas['Page']> {
  const row = await db.maybeOne<PageRow>(`${PAGE_SELECT} WHERE p.id = $1`, [pageId]);
  if (row === null) throw notFound(PAGE_NOT_FOUND);
  return pageOf(row);
}

export async function loadSheetPages(db: Database, sheetId: string): Promise<Schemas['Page'][]> {
  const rows = await db.query<PageRow>(`${PAGE_SELECT} WHERE p.answer_sheet_id = $1 ORDER BY p.page_number`, [sheetId]);
  return rows.map(pageOf);
}
