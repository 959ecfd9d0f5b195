// A scanned page as the contract shows it (Page): its template, its answer sheet with student,
// lesson and congregation, whether it is mismatched, and the graded scans (feedback) it has.
import type { FastifyRequest } from 'fastify';
import { congregationScope } from '../../auth/session';
import type { Schemas } from '../../contract/types';
import type { Database } from '../../db/database';
import { forbidden, notFound } from '../../http-error';
import { codeText, isCodePrefix } from '../../domain/codes';
import { pageForView, pagesOfSheetForView, pageVisibleInScope, type PageRow } from '../../repositories/pages';
import { sheetVisibleInScope } from '../../repositories/answer-sheets';

export const PAGE_NOT_FOUND = 'Page not found';

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
        // Stored codes always have a known prefix: the check only narrows the column's text.
        codes: row.printed_suggestion.codes.flatMap(({ prefix, id }) => (isCodePrefix(prefix) ? [codeText({ prefix, id })] : [])),
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
  const visible = await pageVisibleInScope(db, pageId, scope);
  if (visible === null) throw notFound(PAGE_NOT_FOUND);
  if (!visible) throw forbidden();
}

/** Same for an answer sheet. */
export async function requireSheetAccess(db: Database, request: FastifyRequest, sheetId: string): Promise<void> {
  const scope = congregationScope(request);
  const visible = await sheetVisibleInScope(db, sheetId, scope);
  if (visible === null) throw notFound('Answer sheet not found');
  if (!visible) throw forbidden();
}

export async function loadPage(db: Database, pageId: string): Promise<Schemas['Page']> {
  const row = await pageForView(db, pageId);
  if (row === null) throw notFound(PAGE_NOT_FOUND);
  return pageOf(row);
}

export async function loadSheetPages(db: Database, sheetId: string): Promise<Schemas['Page'][]> {
  const rows = await pagesOfSheetForView(db, sheetId);
  return rows.map(pageOf);
}
