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
// - placing by position (DESIGN §4 "Placing a page by position"): a page without its own identity
//   (an intro page 2..n) joins a sheet only when exactly one sheet of the file can take it; when
//   an earlier sheet is still short of that page, the page is flagged ambiguous_position with the
//   sheets it could belong to. A sheet left short says which pages are missing (page_missing),
//   and the pages placed by position just before its page 1 may be its own, fed in reverse.
// - paper seen twice: a page that is a copy of an earlier page of the file (a double feed) joins
//   the original's sheet, flagged scanned_twice, and counts for nothing; a page seen in an earlier
//   file (a rescan) makes no new student: its sheet takes the earlier page's student, flagged.
import type { Schemas } from '../contract/types';
import type { Code } from './codes';
import { isPhotoReason, type PageReason, type PhotoReason } from './page-reasons';

/** The upload's `answer_sheet_page_length`: 0 = split by codes, 1 or 2 = fixed-length intro sheets. */
export type AnswerSheetPageLength = Schemas['AnswerSheetPageLength'];

/** Why a page waits for a person in Review (the contract's review reasons that hold a file). */
export type PageFlag = Exclude<Schemas['ReviewReason'], 'duplicate_sheet' | 'blank_back'>;

export interface SplitPageInput {
  page_number: number;
  code: Code | null;
  reason: PageReason | null;
  blank: boolean;
  /** The same paper as this earlier page of the file (a double feed), by its page image. */
  copy_of?: number | null;
  /** The same paper was seen in an earlier file (a rescan): that page's student, if it had one. */
  seen_before?: { student_id: string | null } | null;
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
  /** What Review shows beside the flag. */
  detail?: SplitPageDetail;
}

export interface SplitPageDetail {
  /** ambiguous_position: the sheets (indexes into `sheets`) the page could belong to. */
  candidates?: number[];
  /** scanned_twice: the page of this file it is a copy of. */
  copy_of?: number;
  /** page_missing: the lesson pages the sheet lacks. */
  missing_pages?: number[];
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
  | 'extra_cover'
  /** A copy of a page that belongs to no sheet (a cover fed twice). */
  | 'scanned_twice'
  /** A photo that could not be read (no sheet in it, too blurred): kept, flagged, on no sheet. */
  | PhotoReason;

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
  /** Lesson page numbers placed with certainty (not flagged as ambiguous or a copy). */
  firm: Set<number>;
  /** Its index in `sheets`. */
  index: number;
  /** An intro sheet: its later pages join it by position, not by a code naming its student. */
  byPosition: boolean;
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
  const opened: OpenSheet[] = [];
  const sheetOfPage = new Map<number, OpenSheet>();
  /** Pages that count for nothing: copies of another page. */
  const copies = new Set<number>();
  let current: OpenSheet | null = null;
  let seenContent = false;

  const startSheet = (student_id: string | null, meaning: SheetPageMeaning | null, new_student: boolean): OpenSheet => {
    const sheet: SplitSheet = { student_id, lesson_id: meaning?.lesson_id ?? null, new_student, pages: [], unrecognized_pages: 0 };
    result.sheets.push(sheet);
    current = { sheet, course_id: meaning?.course_id, last: null, firm: new Set(), index: result.sheets.length - 1, byPosition: false };
    opened.push(current);
    return current;
  };
  /** Starts a sheet for a page that would make a new student: a rescanned page takes the earlier page's student instead. */
  /**
   * The stack has been out of order somewhere before this page (a sheet left short, a page that
   * fitted nowhere, a page without the code it should have): from then on no page is placed by
   * position alone, since any short sheet before may be the one it belongs to.
   */
  let disordered = false;
  const startNewStudentSheet = (page: SplitPageInput, meaning: SheetPageMeaning | null): OpenSheet => {
    const before = current as OpenSheet | null;
    if (pageLength !== 0 && codesExpected && before?.byPosition && solidPages(before) < pageLength) disordered = true;
    const open = page.seen_before ? startSheet(page.seen_before.student_id, meaning, false) : startSheet(null, meaning, true);
    open.byPosition = true;
    return open;
  };
  const place = (open: OpenSheet, page: SplitPageInput, meaning: SheetPageMeaning | null, flag: PageFlag | null, detail?: SplitPageDetail) => {
    const reason = meaning ? null : noCodeReason(page);
    // A rescanned page says so when nothing else holds it.
    const seenFlag: PageFlag | null = flag ?? (page.seen_before ? 'already_uploaded' : null);
    open.sheet.pages.push({
      page_number: page.page_number,
      lesson_page_number: meaning?.lesson_page_number ?? null,
      ignored: false,
      unrecognized: reason !== null,
      reason,
      flag: seenFlag,
      ...(detail ? { detail } : {}),
    });
    sheetOfPage.set(page.page_number, open);
    if (reason !== null) open.sheet.unrecognized_pages++;
    if (meaning) {
      open.last = meaning.lesson_page_number;
      if (open.sheet.lesson_id === null) open.sheet.lesson_id = meaning.lesson_id;
      open.course_id ??= meaning.course_id;
      if (flag !== 'ambiguous_position') open.firm.add(meaning.lesson_page_number);
    }
  };
  /** Pages a sheet holds for sure: neither blank backs, copies, nor pages placed there as a guess. */
  const solidPages = (s: OpenSheet) =>
    s.sheet.pages.filter((p) => !p.ignored && !copies.has(p.page_number) && p.flag !== 'ambiguous_position').length;
  const counted = (open: OpenSheet) => open.sheet.pages.filter((p) => !p.ignored && !copies.has(p.page_number)).length;
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

    // A photo nothing could be read on is never placed by position: it could be any page.
    if (!page.code && isPhotoReason(page.reason)) {
      result.ignored_pages.push({ page_number: page.page_number, reason: page.reason });
      if (seenContent) disordered = true;
      continue;
    }

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

    if (page.copy_of != null) {
      placeCopy(page, page.copy_of, sheetPage(index));
      seenContent = true;
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

    if (pageLength !== 0) placeIntroPage(page, index, lesson, open);
    else if (lesson) placeMasterPage(page, lesson, open);
    else placeCodelessPage(page, open, isFirstContent);
  }

  flagPagesAShortSheetMayOwn(pageLength);
  flagMissingPages(pageLength);
  return result;

  /**
   * A sheet left short may own the pages just before its page 1: its pages fed in reverse order
   * (B2, B1) read the same as the sheet before finishing and this one losing a page (A1 A2, B1).
   * Pages placed there by position alone, of the lesson pages the short sheet lacks, are a guess.
   */
  function flagPagesAShortSheetMayOwn(length: AnswerSheetPageLength) {
    if (length === 0 || !codesExpected) return;
    for (const short of opened) {
      if (!short.byPosition || solidPages(short) >= length) continue;
      const kept = short.sheet.pages.filter((p) => !p.ignored && !copies.has(p.page_number));
      const first = kept[0];
      // Only a sheet that surely begins there (its page 1's code was read) may own pages before it.
      if (!first || first.lesson_page_number !== 1) continue;
      const present = new Set(kept.flatMap((p) => (p.lesson_page_number === null ? [] : [p.lesson_page_number])));
      for (let i = ordered.findIndex((p) => p.page_number === first.page_number) - 1; i >= 0; i--) {
        const before = ordered[i]!;
        if (before.blank || copies.has(before.page_number)) continue;
        const owner = sheetOfPage.get(before.page_number);
        const placed = owner?.sheet.pages.find((p) => p.page_number === before.page_number);
        const guess =
          owner !== undefined &&
          owner !== short &&
          owner.byPosition &&
          placed !== undefined &&
          placed.flag === null &&
          placed.lesson_page_number !== null &&
          placed.lesson_page_number !== 1 &&
          !present.has(placed.lesson_page_number) &&
          sheetPage(i)?.student_id === null &&
          sheetPage(i)?.lesson_id === short.sheet.lesson_id;
        if (!guess) break;
        placed.flag = 'ambiguous_position';
        placed.detail = { candidates: [owner.index, short.index].sort((a, b) => a - b) };
        owner.firm.delete(placed.lesson_page_number!);
      }
    }
  }

  /**
   * An intro page 2..n joins a sheet by position only when exactly one sheet of the file can take
   * it (of its lesson and course, without that page yet, with room) and that sheet is the one it
   * follows. With more than one, it is flagged with them; with one elsewhere, out of order.
   */
  function placeByPosition(page: SplitPageInput, lesson: SheetPageMeaning, open: OpenSheet | null, length: number) {
    const n = lesson.lesson_page_number;
    // A sheet can take the page when it lacks it and has room for it, counting neither pages
    // placed there as a guess nor copies (a sheet begun by a page without a code may be a page 1
    // whose codes are covered: it can take a page 2 as well).
    const solid = solidPages;
    const canTake = (s: OpenSheet) =>
      s.byPosition &&
      n <= length &&
      (s.sheet.lesson_id === null || s.sheet.lesson_id === lesson.lesson_id) &&
      !anotherCourse(s, lesson) &&
      !s.firm.has(n) &&
      solid(s) < length;
    const candidates = opened.filter(canTake);
    const hasRoom = (s: OpenSheet) => counted(s) < length;
    const follows = (s: OpenSheet) => n === (s.last ?? counted(s)) + 1;
    const wasDisordered = disordered;
    if (!wasDisordered && candidates.length === 1 && candidates[0] === open && hasRoom(open) && follows(open)) {
      place(open, page, lesson, null);
      return;
    }
    disordered = true;
    if (candidates.length > 1 || (wasDisordered && candidates.length === 1)) {
      // Where it most likely goes: the sheet it follows when that has room, else the latest that has.
      const home =
        (open && candidates.includes(open) && hasRoom(open) ? open : null) ??
        [...candidates].reverse().find(hasRoom) ??
        startNewStudentSheet(page, lesson);
      // Beside those, every sheet left short may be the one it belongs to.
      const short = opened.filter((s) => s.byPosition && solid(s) < length);
      const named = [...new Set([...candidates, ...short])].sort((a, b) => a.index - b.index);
      place(home, page, lesson, 'ambiguous_position', { candidates: named.map((s) => s.index) });
      return;
    }
    if (candidates.length === 1 && hasRoom(candidates[0]!)) {
      place(candidates[0]!, page, lesson, 'out_of_order');
      return;
    }
    const flag = anotherCourse(open, lesson) ? 'another_course' : n > length ? 'stray_page' : 'out_of_order';
    place(startNewStudentSheet(page, lesson), page, lesson, flag);
  }

  /**
   * Intro sheets (page length 1 or 2): a page-1 code starts a sheet, a later page joins one by
   * position, and a page without the code it should have is flagged.
   */
  function placeIntroPage(page: SplitPageInput, index: number, lesson: SheetPageMeaning | null, open: OpenSheet | null) {
    // The sheet before has room for this page: it holds fewer pages than the length.
    const roomy = open !== null && counted(open) < pageLength ? open : null;
    if (!codesExpected) {
      // Forms without codes: the count is all there is; a code read but not ours still says so.
      place(roomy ?? startNewStudentSheet(page, null), page, null, page.code || page.reason === 'unknown_code' || page.reason === 'other_kind' ? noCodeFlag(page) : null);
    } else if (lesson) {
      const n = lesson.lesson_page_number;
      if (n === 1) {
        const otherCourse = fileCourse !== undefined && lesson.course_id !== undefined && lesson.course_id !== fileCourse;
        if (otherCourse) disordered = true;
        place(startNewStudentSheet(page, lesson), page, lesson, otherCourse ? 'another_course' : null);
      } else placeByPosition(page, lesson, open, pageLength);
    } else if (roomy) {
      disordered = true;
      place(roomy, page, null, noCodeFlag(page));
    } else {
      disordered = true;
      // After a full sheet, a page without a code may be a page 1 whose code is covered (then
      // the page after it continues it) or a stray page (a letter, a note).
      const next = nextContent(index);
      const nextLesson = next === null ? null : sheetPage(next);
      const nextContinues =
        next !== null &&
        (nextLesson === null ? meanings[next] === null : nextLesson.lesson_page_number === 2 && nextLesson.student_id === null);
      place(startNewStudentSheet(page, null), page, null, pageLength === 1 || nextContinues ? noCodeFlag(page) : 'stray_page');
    }
  }

  /** Blank masters (split by codes) name no student: a page continues the sheet before or starts one. */
  function placeMasterPage(page: SplitPageInput, lesson: SheetPageMeaning, open: OpenSheet | null) {
    const continues =
      open !== null &&
      open.sheet.lesson_id === lesson.lesson_id &&
      open.sheet.student_id === null &&
      lesson.lesson_page_number !== 1 &&
      // A repeated or earlier page number is the next student's sheet on blank masters.
      (open.last === null || lesson.lesson_page_number > open.last);
    // Blank masters name no student: a later page fits by position only when one sheet lacks it.
    const n = lesson.lesson_page_number;
    const candidates =
      n === 1
        ? []
        : opened.filter(
            (s) =>
              s.sheet.student_id === null &&
              !s.sheet.new_student &&
              s.sheet.lesson_id === lesson.lesson_id &&
              s.firm.size > 0 &&
              !s.firm.has(n) &&
              (s.last === null || s.last < n),
          );
    if (candidates.length > 1) {
      const home = continues && open ? open : candidates.at(-1)!;
      place(home, page, lesson, 'ambiguous_position', { candidates: candidates.map((s) => s.index) });
    } else if (continues) place(open, page, lesson, open.last !== null && n !== open.last + 1 ? 'out_of_order' : null);
    else place(startSheet(null, lesson, false), page, lesson, startFlag(open, lesson));
  }

  /** No usable code (none read, unreadable, not ours, of another kind, or unknown to the database). */
  function placeCodelessPage(page: SplitPageInput, open: OpenSheet | null, isFirstContent: boolean) {
    const reason = noCodeReason(page);
    if (isFirstContent && !hasCoverCode && !result.cover && options.firstPageCover !== false && !page.code && reason === 'no_code_found') {
      result.cover = { page_number: page.page_number, service_center_id: null };
      return;
    }
    place(open ?? startSheet(null, null, false), page, null, noCodeFlag(page));
  }

  /** A double feed joins the sheet of the page it copies, flagged, and counts for nothing. */
  function placeCopy(page: SplitPageInput, original: number, meaning: SheetPageMeaning | null) {
    const home = sheetOfPage.get(original);
    if (!home) {
      result.ignored_pages.push({ page_number: page.page_number, reason: 'scanned_twice' });
      return;
    }
    copies.add(page.page_number);
    const reason = meaning ? null : noCodeReason(page);
    home.sheet.pages.push({
      page_number: page.page_number,
      lesson_page_number: meaning?.lesson_page_number ?? null,
      ignored: false,
      unrecognized: reason !== null,
      reason,
      flag: 'scanned_twice',
      detail: { copy_of: original },
    });
    if (reason !== null) home.sheet.unrecognized_pages++;
    sheetOfPage.set(page.page_number, home);
  }

  /**
   * Intro sheets printed with codes should hold `length` pages: one left short says which lesson
   * pages it lacks, on its first page that has no other flag (a person looks, then keeps it).
   */
  function flagMissingPages(length: AnswerSheetPageLength) {
    if (length === 0 || !codesExpected) return;
    for (const open of opened) {
      if (!open.byPosition) continue;
      const kept = open.sheet.pages.filter((p) => !p.ignored && !copies.has(p.page_number));
      if (kept.length >= length || kept.length === 0) continue;
      const present = new Set(kept.flatMap((p) => (p.lesson_page_number === null ? [] : [p.lesson_page_number])));
      const absent = Array.from({ length }, (_, i) => i + 1).filter((n) => !present.has(n));
      const missing = absent.slice(absent.length - (length - kept.length));
      const first = kept.find((p) => p.flag === null);
      if (first) {
        first.flag = 'page_missing';
        first.detail = { missing_pages: missing };
      }
    }
  }

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
