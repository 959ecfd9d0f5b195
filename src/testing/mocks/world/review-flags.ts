// Why a page of the mock world waits in Review, as the server says it (server/routes/shared/
// page-view.ts, server/repositories/sql/file-steps.ts): a page's flag holds its file in Review until a
// mend or Ignore Page; a sheet repeating its student's lesson holds it until kept or ignored;
// blank backs and kept duplicates are shown but hold nothing.
import type { components } from '../../../../generated/api-types';
import type { FileRow, PageFlag, PageRow, SheetRow, World } from './rows';

type S = components['schemas'];

/** The flags of a page without a usable code (the "unrecognized" pages). */
const NO_CODE_FLAGS: readonly PageFlag[] = ['no_code_found', 'unreadable', 'unknown_code'];

/** A page still waiting for a person: flagged, on a sheet, not ignored. */
export function isFlagged(page: PageRow): boolean {
  return page.sheetId !== null && !page.ignored && page.flag !== null;
}

/** A flagged page whose flag says no code could be used. */
export function isUnrecognized(page: PageRow): boolean {
  return isFlagged(page) && NO_CODE_FLAGS.includes(page.flag as PageFlag);
}

/** A page given a template by hand is identified now, so its no-code flag goes. */
export function clearNoCodeFlag(page: PageRow): void {
  if (page.flag !== null && NO_CODE_FLAGS.includes(page.flag)) page.flag = null;
}

const fileOf = (world: World, sheet: SheetRow) => world.files.find((file) => file.id === sheet.fileId) as FileRow;

/** Sheets in the order they were received: by file, then place in the file. */
function receivedBefore(world: World, a: SheetRow, b: SheetRow): boolean {
  const [fa, fb] = [fileOf(world, a), fileOf(world, b)];
  if (fa.uploaded_at !== fb.uploaded_at) return fa.uploaded_at < fb.uploaded_at;
  if (fa.id !== fb.id) return fa.id < fb.id;
  return a.sequence < b.sequence;
}

/** The earliest other sheet of the same student and lesson received before this one, if any. */
export function duplicateOf(world: World, sheet: SheetRow): SheetRow | null {
  if (sheet.studentId === null || sheet.lessonId === null) return null;
  const earlier = world.sheets.filter(
    (other) => other.id !== sheet.id && other.studentId === sheet.studentId && other.lessonId === sheet.lessonId && receivedBefore(world, other, sheet),
  );
  return earlier.reduce<SheetRow | null>((first, other) => (first === null || receivedBefore(world, other, first) ? other : first), null);
}

/** A duplicate nobody has decided about: it holds its file in Review until kept or its pages ignored. */
export function isUndecidedDuplicate(world: World, sheet: SheetRow): boolean {
  const kept = world.pages.some((page) => page.sheetId === sheet.id && !page.ignored);
  return kept && !sheet.duplicateKept && duplicateOf(world, sheet) !== null;
}

/** What Review shows for the page: its flag, else a blank back, else its sheet's duplicate. */
export function reviewReason(world: World, page: PageRow): S['ReviewReason'] | null {
  if (page.flag !== null) return page.flag;
  if (page.blank && page.ignored) return 'blank_back';
  const sheet = world.sheets.find((row) => row.id === page.sheetId);
  return sheet && duplicateOf(world, sheet) !== null ? 'duplicate_sheet' : null;
}

/** What Review knows beside the page's flag, for the flag it has now. */
export function reviewDetail(world: World, page: PageRow): S['ReviewDetail'] | null {
  const detail = page.flagDetail;
  if (detail === null) return null;
  if (page.flag === 'ambiguous_position' && detail.candidateSheetIds) {
    const candidates = world.sheets.filter((sheet) => sheet.fileId === page.fileId && detail.candidateSheetIds!.includes(sheet.id));
    return {
      candidate_sheets: candidates
        .sort((a, b) => a.sequence - b.sequence)
        .map((sheet) => {
          const student = world.students.find((row) => row.id === sheet.studentId);
          return { id: sheet.id, number: sheet.sequence, student: student ? { id: student.id, human_id: student.human_id } : null };
        }),
    };
  }
  if ((page.flag === 'scanned_twice' || page.flag === 'already_uploaded') && detail.copyOfPageId) {
    const copy = world.pages.find((row) => row.id === detail.copyOfPageId);
    const file = world.files.find((row) => row.id === copy?.fileId);
    const here = world.files.find((row) => row.id === page.fileId);
    if (!copy || !file) return null;
    const studentTaken = page.flag === 'already_uploaded' && here !== undefined && here.answer_sheet_page_length > 0;
    return { copy_of: { page_id: copy.id, page_number: copy.page_number, file_id: file.id, file_name: file.name, student_taken: studentTaken } };
  }
  if (page.flag === 'page_missing' && detail.missingPages) return { missing_pages: detail.missingPages };
  return null;
}

/** The page's last mend, who made it and when. */
export function lastMend(world: World, page: PageRow): S['ReviewMend'] | null {
  const mend = world.mends.findLast((row) => row.pageId === page.id);
  return mend ? { action: mend.action, by: mend.by, at: mend.at } : null;
}

/** How many times the page was turned in Review. */
export function turnsOf(world: World, page: PageRow): number {
  return world.mends.filter((row) => row.pageId === page.id && row.action === 'turned').length;
}

/** FileStats.reasons over the pages counted (and their sheets' duplicates). */
export function reasonCounts(world: World, pages: readonly PageRow[]): S['FileStats']['reasons'] {
  const flagged = (flag: PageFlag) => pages.filter((page) => isFlagged(page) && page.flag === flag).length;
  const undecided = (page: PageRow) => {
    const sheet = world.sheets.find((row) => row.id === page.sheetId);
    return sheet !== undefined && !sheet.duplicateKept && duplicateOf(world, sheet) !== null;
  };
  return {
    no_code_found: flagged('no_code_found'),
    unreadable: flagged('unreadable'),
    unknown_code: flagged('unknown_code'),
    out_of_order: flagged('out_of_order'),
    stray_page: flagged('stray_page'),
    another_course: flagged('another_course'),
    duplicate_sheet: pages.filter((page) => !page.ignored && page.flag === null && undecided(page)).length,
    blank_back: pages.filter((page) => page.blank && page.ignored).length,
    ambiguous_position: flagged('ambiguous_position'),
    page_missing: flagged('page_missing'),
    scanned_twice: flagged('scanned_twice'),
    already_uploaded: flagged('already_uploaded'),
    too_complex: flagged('too_complex'),
    no_sheet: flagged('no_sheet'),
    too_blurred: flagged('too_blurred'),
  };
}

/** A sheet with a page shown in Review for `reason` (the answer-sheets list's reason filter). */
export function sheetShowsReason(world: World, sheet: SheetRow, reason: S['ReviewReason']): boolean {
  const pages = world.pages.filter((page) => page.sheetId === sheet.id);
  if (reason === 'blank_back') return pages.some((page) => page.blank && page.ignored);
  if (reason === 'duplicate_sheet') return !sheet.duplicateKept && duplicateOf(world, sheet) !== null && pages.some((page) => !page.ignored);
  return pages.some((page) => !page.ignored && page.flag === reason);
}
