// Where a file stands in its workflow (spec §4): the one place that decides a file's step, as SQL
// fragments, so the files list can filter on it and /steps reads the same answer (the step's
// names and the deletable steps are in server/workflow/file-steps.ts).
//
//   robot   processing is not done (pending) or failed
//   review  warnings nobody has dealt with yet: a flagged page of a sheet (placed without
//           certainty: no usable code, out of order, stray, another course) that is not ignored
//           and whose flag no mend has cleared; a page whose template
//           belongs to another lesson than its sheet (mismatched) and is not ignored; a kept sheet
//           without a lesson; a kept duplicate sheet nobody has decided about yet (keep it, or
//           ignore its pages). Sheets without a student are shown as warnings but hold nothing.
//   assign  a kept sheet (one with a page not ignored) has no congregation
//   send    everything is assigned; not sent yet (sent_at)
//   grading sent; not every kept sheet graded and no return file yet
//   return  every kept sheet graded (grading_complete), or the return file exists or was
//           downloaded/archived
// The grading/return people extend the last two branches here, and nowhere else.
import type { Schemas } from '../../contract/types';

type FileStepName = Schemas['WorkflowStep'];
type FileStateFilter = Schemas['FileStateFilter'];

/**
 * The file was sent to its study helpers or is being sent (its packets may be under way): its
 * sheets' congregations are fixed from then on.
 */
export function sentOrSendingSql(file: string): string {
  return `(${file}.sent_at IS NOT NULL OR ${file}.send_requested_at IS NOT NULL)`;
}

/** A sheet of file `f` that keeps at least one page (sheets whose pages are all ignored are dropped). */
export function keptSheetSql(sheet: string): string {
  return `EXISTS (SELECT 1 FROM pages kp WHERE kp.answer_sheet_id = ${sheet}.id AND NOT kp.ignored)`;
}

/** Flag reasons of a page without a usable code (the unrecognized pages); too_complex: not read at all. */
export const NO_CODE_FLAGS = ['no_code_found', 'unreadable', 'unknown_code', 'too_complex'] as const satisfies readonly Schemas['UnrecognizedReason'][];

/** Flagged pages still waiting for a person (a mend, or Ignore Page). */
export function flaggedPageSql(page: string): string {
  return `(${page}.answer_sheet_id IS NOT NULL AND NOT ${page}.ignored AND ${page}.flag IS NOT NULL)`;
}

/** Unrecognized pages still waiting for a decision (ignore, choose the template, or another mend). */
export function unrecognizedPageSql(page: string): string {
  return `(${flaggedPageSql(page)} AND ${page}.flag IN (${NO_CODE_FLAGS.map((flag) => `'${flag}'`).join(', ')}))`;
}

/** Pages whose template names another lesson than their sheet's; needs the sheet aliased too. */
export function mismatchedPageSql(page: string, sheet: string): string {
  return `(NOT ${page}.ignored AND ${page}.template_id IS NOT NULL AND ${sheet}.lesson_id IS NOT NULL
           AND (SELECT mt.lesson_id FROM page_templates mt WHERE mt.id = ${page}.template_id) <> ${sheet}.lesson_id)`;
}

/** A kept sheet that repeats a student's lesson and that nobody has decided to keep yet. */
export function undecidedDuplicateSql(sheet: string): string {
  return `(${sheet}.duplicate_of IS NOT NULL AND NOT ${sheet}.duplicate_kept AND ${keptSheetSql(sheet)})`;
}

/** True while the file has review warnings (see the header). */
export function reviewPendingSql(file: string): string {
  return `(EXISTS (SELECT 1 FROM pages rp WHERE rp.file_id = ${file}.id AND ${flaggedPageSql('rp')})
        OR EXISTS (SELECT 1 FROM pages rp JOIN answer_sheets ra ON ra.id = rp.answer_sheet_id
                   WHERE rp.file_id = ${file}.id AND ${mismatchedPageSql('rp', 'ra')})
        OR EXISTS (SELECT 1 FROM answer_sheets ra WHERE ra.file_id = ${file}.id AND ra.lesson_id IS NULL AND ${keptSheetSql('ra')})
        OR EXISTS (SELECT 1 FROM answer_sheets ra WHERE ra.file_id = ${file}.id AND ${undecidedDuplicateSql('ra')}))`;
}

export function assignPendingSql(file: string): string {
  return `EXISTS (SELECT 1 FROM answer_sheets aa WHERE aa.file_id = ${file}.id AND aa.assigned_group IS NULL AND ${keptSheetSql('aa')})`;
}

/** A sent file is at the return step once grading is complete or a return file exists. */
function sentFileReturns(file: string): string {
  return `(${file}.grading_complete OR ${file}.return_prepped OR coalesce(${file}.file_status IN ('downloaded', 'archived'), false))`;
}

/** The file's step as one SQL expression over `files` aliased `file`. */
export function fileStepSql(file: string): string {
  return `(CASE
    WHEN ${file}.process_status <> 'success' THEN 'robot'
    WHEN ${file}.sent_at IS NULL AND ${reviewPendingSql(file)} THEN 'review'
    WHEN ${file}.sent_at IS NULL AND ${assignPendingSql(file)} THEN 'assign'
    WHEN ${file}.sent_at IS NULL THEN 'send'
    WHEN ${sentFileReturns(file)} THEN 'return'
    ELSE 'grading'
  END)`;
}

/**
 * The admin status filter (spec §4) as a condition on `files` aliased `file`:
 * processing = pending, failed, review = review step, ready_to_send = assign or send step,
 * grading / return = those steps before the return file was downloaded, downloaded, archived.
 */
export function fileStateSql(file: string, state: FileStateFilter): string {
  const step = fileStepSql(file);
  switch (state) {
    case 'processing':
      return `${file}.process_status = 'pending'`;
    case 'failed':
      return `${file}.process_status = 'failed'`;
    case 'review':
      return `(${file}.process_status = 'success' AND ${step} = 'review')`;
    case 'ready_to_send':
      return `(${file}.process_status = 'success' AND ${step} IN ('assign', 'send'))`;
    // Once sent, the step no longer depends on the sheets: say it without the step's subqueries,
    // which PostgreSQL may otherwise hash over every page of every file.
    case 'grading':
      return `(${file}.process_status = 'success' AND ${file}.sent_at IS NOT NULL AND NOT (${sentFileReturns(file)}))`;
    case 'return':
      return `(${file}.process_status = 'success' AND ${file}.sent_at IS NOT NULL AND (${sentFileReturns(file)}) AND ${file}.file_status IS DISTINCT FROM 'downloaded' AND ${file}.file_status IS DISTINCT FROM 'archived')`;
    case 'downloaded':
      return `${file}.file_status = 'downloaded'`;
    case 'archived':
      return `${file}.file_status = 'archived'`;
  }
}

export interface FileStepRow {
  step: FileStepName;
  complete: number;
  total: number;
  prepped: boolean;
  downloaded: boolean;
  file_status: Schemas['FileStatus'] | null;
}

/**
 * The file's step and its graded count, from `$1` (the file id); with `scoped`, the sheets counted
 * are the congregation `$2`'s alone (a coordinator's view).
 */
export function fileStepQuery(scoped = false): string {
  const sheets = `a.file_id = f.id AND ${keptSheetSql('a')}${scoped ? ' AND a.assigned_group = $2' : ''}`;
  return `
    SELECT ${fileStepSql('f')} AS step,
           (SELECT count(*) FROM answer_sheets a WHERE ${sheets} AND a.graded) AS complete,
           (SELECT count(*) FROM answer_sheets a WHERE ${sheets}) AS total,
           f.return_prepped AS prepped,
           f.file_status IN ('downloaded', 'archived') AS downloaded,
           f.file_status
    FROM files f WHERE f.id = $1`;
}
