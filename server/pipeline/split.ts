// Step 4 of the scan pipeline: cut a file's pages into answer sheets. Pure: page results and what
// the codes mean come in, sheets come out. The caller looks codes up (database) beforehand and
// passes a synchronous resolver, so these rules can be tested exhaustively on their own.
//
// What the paper says wins over what the count expects, and a page that cannot be placed with
// certainty is kept and flagged with a reason a person can act on (DESIGN §4 "Identity"):
// - by codes (page length 0): a page 1, or a change of student or lesson, starts a sheet; a page
//   without a usable code joins the sheet before it, flagged; a sheet that starts at a page other
//   than 1, or a page number that skips or goes back, is flagged out of order.
// - intro sheets (1 or 2): the length is what a sheet should have, the codes say where sheets
//   start: a page-1 code starts a sheet, a page that does not fit (no code where codes are
//   expected, a page 2 with no page 1 before it, reverse order, a page beyond the length, another
//   course) is flagged, and a sheet never holds more pages than the length. An intro file whose
//   pages carry no codes at all is cut by the count alone: no page there is expected to have one.
import type { Schemas } from '../contract/types';
import type { Code } from './codes';
import type { PageReason } from './find-codes';

/** The upload's `answer_sheet_page_length`: 0 = split by codes, 1 or 2 = fixed-length intro sheets. */
export type AnswerSheetPageLength = Schemas['AnswerSheetPageLength'];

/** Why a page waits for a person in Review (the contract's review reasons that hold a file). */
export type PageFlag = Exclude<Schemas['ReviewReason'], 'duplicate_sheet' | 'blank_back'>;

export interface SplitPageInput {
  page_number: number;
  code: Code | null;
  reason: PageReason | null;
  blank: boolean;
}

/** What a code means, as the database knows it. */
export type ResolvedCode =
  /** A `t` (template page: student_id null) or `s` (issued to a student) code. */
  | {
      kind: 'sheet_page';
      student_id: string | null;
      lesson_id: string;
      lesson_page_number: number;
      /** The lesson's course, when known: a page of another course is flagged. */
      course_id?: string;
    }
  /** A `c` code. */
  | { kind: 'cover'; service_center_id: string };

/** Null when the code is unknown (never issued, deleted, or of a kind that is no sheet page). */
export type CodeResolver = (code: Code) => ResolvedCode | null;

export interface SplitSheetPage {
  page_number: number;
  /** The lesson page its code names; null without a code. */
  lesson_page_number: number | null;
  /** A blank page (duplex back) kept with the sheet but ignored. */
  ignored: boolean;
  /** No usable code (see `reason`). */
  unrecognized: boolean;
  /** Why the page has no usable code; `unknown_code` also when the database does not know it. */
  reason: PageReason | null;
  /** Why the page waits for a person in Review; null when it was placed with certainty. */
  flag: PageFlag | null;
}

export interface SplitSheet {
  pages: SplitSheetPage[];
  student_id: string | null;
  lesson_id: string | null;
  /** Intro sheets (page length 1 or 2): each creates a new student. */
  new_student: boolean;
  unrecognized_pages: number;
}

export type IgnoredPageReason =
  /** A blank page that belongs to no sheet (before the first sheet, or the cover's back). */
  | 'blank'
  /** A second cover sheet in the same file. */
  | 'extra_cover';

export interface SplitResult {
  sheets: SplitSheet[];
  /** The cover page: a `c` code, or (by codes only) a first page without any code. */
  cover: { page_number: number; service_center_id: string | null } | null;
  ignored_pages: { page_number: number; reason: IgnoredPageReason }[];
}

export interface SplitOptions {
  /**
   * By codes, when no `c` page exists: a first non-blank page with no code at all is the cover
   * (a service center's own cover letter). Default true.
   */
  firstPageCover?: boolean;
}

type SheetPageMeaning = Extract<ResolvedCode, { kind: 'sheet_page' }>;

/** A sheet being filled, with what its coded pages said so far. */
interface OpenSheet {
  sheet: SplitSheet;
  course_id: string | undefined;
  /** The lesson page number of its last page with a code; null while it has none. */
  last: number | null;
}

/** Every input page ends up exactly once: in a sheet, as the cover, or in `ignored_pages`. */
export function splitIntoSheets(
  pages: readonly SplitPageInput[],
  resolve: CodeResolver,
  pageLength: AnswerSheetPageLength,
  options: SplitOptions = {},
): SplitResult {
  const ordered = [...pages].sort((a, b) => a.page_number - b.page_number);
  const meanings = ordered.map((page) => (page.code ? resolve(page.code) : null));
  const sheetPage = (index: number): SheetPageMeaning | null => {
    const meaning = meanings[index];
    return meaning?.kind === 'sheet_page' ? meaning : null;
  };
  const hasCoverCode = ordered.some((p, i) => !p.blank && meanings[i]?.kind === 'cover');
  // Intro files printed from the product's masters carry codes; forms without any are cut by count.
  const codesExpected = pageLength === 0 || ordered.some((p, i) => !p.blank && sheetPage(i) !== null);
  // The course of an intro file: the first page 1's.
  const fileCourse = ordered.map((_, i) => sheetPage(i)).find((m) => m?.lesson_page_number === 1)?.course_id;

  const result: SplitResult = { sheets: [], cover: null, ignored_pages: [] };
  let current: OpenSheet | null = null;
  let seenContent = false;

  const startSheet = (student_id: string | null, meaning: SheetPageMeaning | null, new_student: boolean): OpenSheet => {
    const sheet: SplitSheet = { student_id, lesson_id: meaning?.lesson_id ?? null, new_student, pages: [], unrecognized_pages: 0 };
    result.sheets.push(sheet);
    current = { sheet, course_id: meaning?.course_id, last: null };
    return current;
  };
  const place = (open: OpenSheet, page: SplitPageInput, meaning: SheetPageMeaning | null, flag: PageFlag | null) => {
    const reason = meaning ? null : noCodeReason(page);
    open.sheet.pages.push({
      page_number: page.page_number,
      lesson_page_number: meaning?.lesson_page_number ?? null,
      ignored: false,
      unrecognized: reason !== null,
      reason,
      flag,
    });
    if (reason !== null) open.sheet.unrecognized_pages++;
    if (meaning) {
      open.last = meaning.lesson_page_number;
      if (open.sheet.lesson_id === null) open.sheet.lesson_id = meaning.lesson_id;
      open.course_id ??= meaning.course_id;
    }
  };
  const counted = (open: OpenSheet) => open.sheet.pages.filter((p) => !p.ignored).length;
  const anotherCourse = (open: OpenSheet | null, meaning: SheetPageMeaning) =>
    open?.course_id !== undefined && meaning.course_id !== undefined && meaning.course_id !== open.course_id;
  /** The next page that is neither blank nor a cover. */
  const nextContent = (index: number): number | null => {
    for (let i = index + 1; i < ordered.length; i++) if (!ordered[i]!.blank && meanings[i]?.kind !== 'cover') return i;
    return null;
  };

  for (const [index, page] of ordered.entries()) {
    const meaning = meanings[index] ?? null;
    const open = current as OpenSheet | null;

    if (page.blank) {
      if (open)
        open.sheet.pages.push({
          page_number: page.page_number,
          lesson_page_number: null,
          ignored: true,
          unrecognized: false,
          reason: null,
          flag: null,
        });
      else result.ignored_pages.push({ page_number: page.page_number, reason: 'blank' });
      continue;
    }

    if (meaning?.kind === 'cover') {
      if (result.cover) result.ignored_pages.push({ page_number: page.page_number, reason: 'extra_cover' });
      else result.cover = { page_number: page.page_number, service_center_id: meaning.service_center_id };
      // Whatever follows a cover belongs to a new batch, never to the sheet before it.
      current = null;
      seenContent = true;
      continue;
    }

    const isFirstContent = !seenContent;
    seenContent = true;
    const lesson = sheetPage(index);

    if (lesson && lesson.student_id !== null) {
      // An issued page names its student: identity is certain, only the order can be wrong.
      placeIssuedPage(page, lesson, open, pageLength === 0 ? Infinity : pageLength);
      continue;
    }

    if (pageLength !== 0) {
      // The sheet before has room for this page: it holds fewer pages than the length.
      const roomy = open !== null && counted(open) < pageLength ? open : null;
      if (!codesExpected) {
        // Forms without codes: the count is all there is.
        place(roomy ?? startSheet(null, null, true), page, null, null);
      } else if (lesson) {
        const n = lesson.lesson_page_number;
        const follows =
          roomy !== null &&
          roomy.sheet.student_id === null &&
          n !== 1 &&
          (roomy.sheet.lesson_id === null || roomy.sheet.lesson_id === lesson.lesson_id) &&
          n === (roomy.last ?? counted(roomy)) + 1;
        if (follows) place(roomy, page, lesson, null);
        else if (n === 1) {
          const otherCourse = fileCourse !== undefined && lesson.course_id !== undefined && lesson.course_id !== fileCourse;
          place(startSheet(null, lesson, true), page, lesson, otherCourse ? 'another_course' : null);
        } else {
          const flag = anotherCourse(open, lesson) ? 'another_course' : n > pageLength ? 'stray_page' : 'out_of_order';
          place(startSheet(null, lesson, true), page, lesson, flag);
        }
      } else if (roomy) {
        place(roomy, page, null, noCodeFlag(page));
      } else {
        // After a full sheet, a page without a code may be a page 1 whose code is covered (then
        // the page after it continues it) or a stray page (a letter, a note).
        const next = nextContent(index);
        const nextLesson = next === null ? null : sheetPage(next);
        const nextContinues =
          next !== null &&
          (nextLesson === null ? meanings[next] === null : nextLesson.lesson_page_number === 2 && nextLesson.student_id === null);
        place(startSheet(null, null, true), page, null, pageLength === 1 || nextContinues ? noCodeFlag(page) : 'stray_page');
      }
      continue;
    }

    if (lesson) {
      const continues =
        open !== null &&
        open.sheet.lesson_id === lesson.lesson_id &&
        open.sheet.student_id === null &&
        lesson.lesson_page_number !== 1 &&
        // A repeated or earlier page number is the next student's sheet on blank masters.
        (open.last === null || lesson.lesson_page_number > open.last);
      if (continues) place(open, page, lesson, open.last !== null && lesson.lesson_page_number !== open.last + 1 ? 'out_of_order' : null);
      else place(startSheet(null, lesson, false), page, lesson, startFlag(open, lesson));
      continue;
    }

    // No usable code (none read, unreadable, not ours, of another kind, or unknown to the database).
    const reason = noCodeReason(page);
    if (isFirstContent && !hasCoverCode && !result.cover && options.firstPageCover !== false && !page.code && reason === 'no_code_found') {
      result.cover = { page_number: page.page_number, service_center_id: null };
      continue;
    }
    place(open ?? startSheet(null, null, false), page, null, noCodeFlag(page));
  }

  return result;

  function placeIssuedPage(page: SplitPageInput, lesson: SheetPageMeaning, open: OpenSheet | null, length: number) {
    const n = lesson.lesson_page_number;
    const same = open !== null && open.sheet.student_id === lesson.student_id && open.sheet.lesson_id === lesson.lesson_id && counted(open) < length;
    const hasPage = same && open.sheet.pages.some((p) => p.lesson_page_number === n);
    if (same && n !== 1 && open.last !== null && n > open.last) place(open, page, lesson, n === open.last + 1 ? null : 'out_of_order');
    // The same student's pages in reverse order: the code is certain, the order is not.
    else if (same && !hasPage && open.last !== null && n < open.last) place(open, page, lesson, 'out_of_order');
    else place(startSheet(lesson.student_id, lesson, false), page, lesson, startFlag(open, lesson));
  }

  function startFlag(before: OpenSheet | null, lesson: SheetPageMeaning): PageFlag | null {
    if (lesson.lesson_page_number === 1) return null;
    return anotherCourse(before, lesson) ? 'another_course' : 'out_of_order';
  }
}

/** Why a page has no usable code: what the reader said, or `unknown_code` for a code the database does not know. */
function noCodeReason(page: SplitPageInput): PageReason {
  return page.code ? (page.reason ?? 'unknown_code') : (page.reason ?? 'no_code_found');
}

/** A page without a usable code is flagged with its reason; a code of another kind is one we don't know here. */
function noCodeFlag(page: SplitPageInput): PageFlag {
  const reason = noCodeReason(page);
  return reason === 'other_kind' ? 'unknown_code' : reason;
}
