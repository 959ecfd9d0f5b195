// What writing a file's split means, decided without the database (workflow/write-sheets.ts reads
// the facts and saves the plan): which sheets to create and whose they are, which students the
// file brings, where each page goes with its flag, and the file's cover. Intro sheets create their
// students; sheets of known students go to the student's congregation; a sheet of a student and
// lesson already received is a duplicate of the first one received.
import type { Schemas } from '../contract/types';
import type { Code } from './codes';
import { isPhotoReason } from './page-reasons';
import type { SplitResult, SplitSheetPage } from './split';

/** What the database knows, read before planning. */
export interface WriteSheetsFacts {
  fileId: string;
  /** The file's stored pages. */
  pages: readonly { id: string; page_number: number; code: Code | null }[];
  split: SplitResult;
  /** Page number → the page template its code names (t and s codes the database knows). */
  templateOfPage: ReadonlyMap<number, string>;
  /** Page number → the earlier page of this file it is the same paper as. */
  copyOf: ReadonlyMap<number, number>;
  /** Page number → the page of an earlier file it is the same paper as. */
  seenBefore: ReadonlyMap<number, { page_id: string; file_id: string }>;
  /** Every student the split names who still exists, with their congregation. */
  congregationOf: ReadonlyMap<string, string | null>;
  /** `studentLessonKey` → the first sheet of that student and lesson in earlier files. */
  firstSheetOf: ReadonlyMap<string, string>;
}

/** Whose a planned sheet is: a student who exists, the n-th student this file brings, or nobody. */
export type PlannedStudent = { existing: string } | { new: number } | null;

export interface PlannedSheet {
  student: PlannedStudent;
  lesson_id: string | null;
  assigned_group: string | null;
  /** The first sheet of the same student and lesson: an earlier file's, or one planned before this. */
  duplicate_of: { existing: string } | { sheet: number } | null;
}

/** pages.flag_detail as planned: sheets are indexes into the plan's sheets (see migration 017). */
export interface PlannedFlagDetail {
  candidate_sheets?: number[];
  missing_pages?: number[];
  copy_page_id?: string;
  copy_file_id?: string;
}

export interface PlannedPage {
  page_number: number;
  /** Index into the plan's sheets; null for a page on no sheet (cover, set aside). */
  sheet: number | null;
  template_id: string | null;
  ignored: boolean;
  reason: Schemas['UnrecognizedReason'] | null;
  flag: Schemas['ReviewReason'] | null;
  detail: PlannedFlagDetail | null;
}

export interface WriteSheetsPlan {
  /** Students the file brings, made in order (they take the next human ids as the file brings them). */
  newStudents: number;
  sheets: PlannedSheet[];
  /** Every page of the file the split placed, once. */
  pages: PlannedPage[];
  /** Existing students the split named: they sent something now. */
  activeStudents: string[];
  cover: { page_id: string | null; service_center_id: string | null };
}

/** The key of a student and lesson in `firstSheetOf`. */
export const studentLessonKey = (studentId: string, lessonId: string): string => `${studentId}/${lessonId}`;

/** The service center of the file's sheets: its cover's, else the one the file was uploaded for. */
export function serviceCenterOfSplit(split: SplitResult, fileServiceCenterId: string | null): string | null {
  return split.cover?.service_center_id ?? fileServiceCenterId;
}

/** Existing students the split names, in the order they come. */
export function studentsNamedBySplit(split: SplitResult): string[] {
  return [...new Set(split.sheets.flatMap((sheet) => (sheet.new_student || sheet.student_id === null ? [] : [sheet.student_id])))];
}

/** The existing students and lessons of the split's sheets, whose first sheets the plan needs. */
export function studentLessonsOfSplit(split: SplitResult): { student_id: string; lesson_id: string }[] {
  return split.sheets.flatMap((sheet) =>
    !sheet.new_student && sheet.student_id !== null && sheet.lesson_id !== null ? [{ student_id: sheet.student_id, lesson_id: sheet.lesson_id }] : [],
  );
}

/** The plan: pure, from the facts alone. */
export function planWriteSheets(facts: WriteSheetsFacts): WriteSheetsPlan {
  const { split } = facts;
  const students = sheetStudents(facts);
  const sheets = students.map(
    (student, index): PlannedSheet => ({
      student,
      lesson_id: split.sheets[index]!.lesson_id,
      assigned_group: student !== null && 'existing' in student ? (facts.congregationOf.get(student.existing) ?? null) : null,
      duplicate_of: null,
    }),
  );
  markDuplicates(sheets, facts.firstSheetOf);
  const cover = split.cover;
  return {
    newStudents: students.filter((student) => student !== null && 'new' in student).length,
    sheets,
    pages: plannedPages(facts),
    activeStudents: studentsNamedBySplit(split),
    cover: {
      page_id: cover ? (facts.pages.find((page) => page.page_number === cover.page_number)?.id ?? null) : null,
      service_center_id: cover?.service_center_id ?? null,
    },
  };
}

/** Each sheet's student: intro sheets bring a new one; a code can name a student who no longer exists, and the sheet then has none. */
function sheetStudents(facts: WriteSheetsFacts): PlannedStudent[] {
  let brought = 0;
  return facts.split.sheets.map((sheet): PlannedStudent => {
    if (sheet.new_student) return { new: brought++ };
    if (sheet.student_id === null || !facts.congregationOf.has(sheet.student_id)) return null;
    return { existing: sheet.student_id };
  });
}

/** The first sheet received of each student and lesson: earlier files' first, then this file's. */
function markDuplicates(sheets: PlannedSheet[], firstSheetOf: ReadonlyMap<string, string>): void {
  const firstHere = new Map<string, number>();
  sheets.forEach((sheet, index) => {
    if (sheet.student === null || sheet.lesson_id === null) return;
    const student = 'existing' in sheet.student ? sheet.student.existing : `new:${sheet.student.new}`;
    const key = studentLessonKey(student, sheet.lesson_id);
    const earlier = firstSheetOf.get(key);
    const here = firstHere.get(key);
    if (earlier !== undefined) sheet.duplicate_of = { existing: earlier };
    else if (here !== undefined) sheet.duplicate_of = { sheet: here };
    else firstHere.set(key, index);
  });
}

/** Where every page goes: on its sheet, set aside (an unread photo stays in view with its reason), or the cover. */
function plannedPages(facts: WriteSheetsFacts): PlannedPage[] {
  const { split } = facts;
  const idOf = new Map(facts.pages.map((page) => [page.page_number, page.id]));
  const page = (page_number: number, sheet: number | null, rest: Omit<PlannedPage, 'page_number' | 'sheet' | 'detail'>, detail: PlannedFlagDetail = {}) => {
    // Where the paper was seen before stays with the page, whatever Review does with its flag.
    const seen = facts.seenBefore.get(page_number);
    const copy = facts.copyOf.get(page_number);
    const copyPage = seen ?? (copy === undefined ? undefined : { page_id: idOf.get(copy)!, file_id: facts.fileId });
    const full = { ...detail, ...(copyPage ? { copy_page_id: copyPage.page_id, copy_file_id: copyPage.file_id } : {}) };
    return { page_number, sheet, ...rest, detail: Object.keys(full).length === 0 ? null : full };
  };
  const out: PlannedPage[] = split.sheets.flatMap((sheet, index) =>
    sheet.pages.map((placed) =>
      page(
        placed.page_number,
        index,
        {
          template_id: placed.unrecognized ? null : (facts.templateOfPage.get(placed.page_number) ?? null),
          ignored: placed.ignored,
          reason: placed.unrecognized ? placed.reason : null,
          flag: placed.flag,
        },
        flagDetail(placed),
      ),
    ),
  );
  for (const aside of split.ignored_pages) {
    if (isPhotoReason(aside.reason)) out.push(page(aside.page_number, null, { template_id: null, ignored: false, reason: aside.reason, flag: aside.reason }));
    else out.push(page(aside.page_number, null, { template_id: null, ignored: true, reason: null, flag: null }));
  }
  if (split.cover) out.push(page(split.cover.page_number, null, { template_id: null, ignored: false, reason: null, flag: null }));
  return out;
}

function flagDetail(placed: SplitSheetPage): PlannedFlagDetail {
  return {
    ...(placed.detail?.candidates ? { candidate_sheets: placed.detail.candidates } : {}),
    ...(placed.detail?.missing_pages ? { missing_pages: placed.detail.missing_pages } : {}),
  };
}
