// Step 4 of the scan pipeline: cut a file's pages into answer sheets. Pure: page results and what
// the codes mean come in, sheets come out. The caller looks codes up (database) beforehand and
// passes a synchronous resolver, so these rules can be tested exhaustively on their own.
import type { Code } from './codes';
import type { PageReason } from './find-codes';

/** The upload's `answer_sheet_page_length`: 0 = split by codes, 1 or 2 = fixed-length intro sheets. */
export type AnswerSheetPageLength = 0 | 1 | 2;

export interface SplitPageInput {
  page_number: number;
  code: Code | null;
  reason: PageReason | null;
  blank: boolean;
}

/** What a code means, as the database knows it. */
export type ResolvedCode =
  /** A `t` (template page: student_id null) or `s` (issued to a student) code. */
  | { kind: 'sheet_page'; student_id: string | null; lesson_id: string; lesson_page_number: number }
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
  /** No usable code: joined to the sheet before it (or started an unrecognized sheet). */
  unrecognized: boolean;
  /** Why an unrecognized page has no code; `unknown_code` also when the database does not know it. */
  reason: PageReason | null;
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

/** Every input page ends up exactly once: in a sheet, as the cover, or in `ignored_pages`. */
export function splitIntoSheets(
  pages: readonly SplitPageInput[],
  resolve: CodeResolver,
  pageLength: AnswerSheetPageLength,
  options: SplitOptions = {},
): SplitResult {
  const ordered = [...pages].sort((a, b) => a.page_number - b.page_number);
  const resolved = new Map<number, ResolvedCode | null>();
  for (const page of ordered) resolved.set(page.page_number, page.code ? resolve(page.code) : null);
  const hasCoverCode = ordered.some(
    (p) => !p.blank && resolved.get(p.page_number)?.kind === 'cover',
  );

  const result: SplitResult = { sheets: [], cover: null, ignored_pages: [] };
  let current: SplitSheet | null = null;
  let seenContent = false;

  const startSheet = (sheet: Omit<SplitSheet, 'pages' | 'unrecognized_pages'>): SplitSheet => {
    current = { ...sheet, pages: [], unrecognized_pages: 0 };
    result.sheets.push(current);
    return current;
  };

  for (const page of ordered) {
    const meaning = resolved.get(page.page_number) ?? null;

    if (page.blank) {
      const sheet = current as SplitSheet | null;
      if (sheet)
        sheet.pages.push({
          page_number: page.page_number,
          lesson_page_number: null,
          ignored: true,
          unrecognized: false,
          reason: null,
        });
      else result.ignored_pages.push({ page_number: page.page_number, reason: 'blank' });
      continue;
    }

    if (meaning?.kind === 'cover') {
      if (result.cover)
        result.ignored_pages.push({ page_number: page.page_number, reason: 'extra_cover' });
      else
        result.cover = {
          page_number: page.page_number,
          service_center_id: meaning.service_center_id,
        };
      // Whatever follows a cover belongs to a new batch, never to the sheet before it.
      current = null;
      seenContent = true;
      continue;
    }

    const isFirstContent = !seenContent;
    seenContent = true;

    if (pageLength !== 0) {
      const sheet = current as SplitSheet | null;
      const counted = sheet ? sheet.pages.filter((p) => !p.ignored).length : 0;
      const target =
        sheet && counted < pageLength
          ? sheet
          : startSheet({ student_id: null, lesson_id: null, new_student: true });
      const lesson = meaning?.kind === 'sheet_page' ? meaning : null;
      if (lesson && target.lesson_id === null) target.lesson_id = lesson.lesson_id;
      target.pages.push({
        page_number: page.page_number,
        lesson_page_number: lesson?.lesson_page_number ?? null,
        ignored: false,
        unrecognized: false,
        reason: null,
      });
      continue;
    }

    if (meaning?.kind === 'sheet_page') {
      const sheet = current as SplitSheet | null;
      const lastPage = sheet ? lastLessonPage(sheet) : null;
      const continues =
        sheet !== null &&
        sheet.lesson_id === meaning.lesson_id &&
        sheet.student_id === meaning.student_id &&
        meaning.lesson_page_number !== 1 &&
        // A repeated or earlier page number is the next student's sheet on blank masters.
        (lastPage === null || meaning.lesson_page_number > lastPage);
      const target = continues
        ? sheet
        : startSheet({
            student_id: meaning.student_id,
            lesson_id: meaning.lesson_id,
            new_student: false,
          });
      target.pages.push({
        page_number: page.page_number,
        lesson_page_number: meaning.lesson_page_number,
        ignored: false,
        unrecognized: false,
        reason: null,
      });
      continue;
    }

    // No usable code (none read, unreadable, not ours, of another kind, or unknown to the database).
    const reason: PageReason = page.code
      ? (page.reason ?? 'unknown_code')
      : (page.reason ?? 'no_code_found');
    if (
      isFirstContent &&
      !hasCoverCode &&
      !result.cover &&
      options.firstPageCover !== false &&
      !page.code &&
      reason === 'no_code_found'
    ) {
      result.cover = { page_number: page.page_number, service_center_id: null };
      continue;
    }
    const target =
      (current as SplitSheet | null) ??
      startSheet({ student_id: null, lesson_id: null, new_student: false });
    target.pages.push({
      page_number: page.page_number,
      lesson_page_number: null,
      ignored: false,
      unrecognized: true,
      reason,
    });
    target.unrecognized_pages++;
  }

  return result;
}

function lastLessonPage(sheet: SplitSheet): number | null {
  for (let i = sheet.pages.length - 1; i >= 0; i--) {
    const n = sheet.pages[i]!.lesson_page_number;
    if (n !== null) return n;
  }
  return null;
}
