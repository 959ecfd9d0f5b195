// Paper as it really comes back, in the mock world's files at Review: pages out of order, a stray
// page, a blank back, a double feed, a rescan of an earlier file's sheet (a duplicate), and an
// intro file with a sheet short of a page, a page two sheets could take, and a rescan that took
// an earlier student. Testers meet every reason Review shows (ReviewReason). No random draws, so
// the rest of the seeded world stays as it was.
import { duplicateOf, isFlagged } from './review-flags';
import { stableUuid } from './random';
import type { FileRow, PageRow, SheetRow, World } from './rows';

const pagesOf = (world: World, fileId: string) => world.pages.filter((page) => page.fileId === fileId).sort((a, b) => a.page_number - b.page_number);
const sheetsOf = (world: World, fileId: string) => world.sheets.filter((sheet) => sheet.fileId === fileId).sort((a, b) => a.sequence - b.sequence);

function page(fileId: string, sheetId: string | null, pageNumber: number, templateId: string | null, extra: Partial<PageRow> = {}): PageRow {
  return {
    id: stableUuid(`${fileId}:page:${pageNumber}${extra.blank ? ':blank' : ''}`),
    fileId,
    sheetId,
    page_number: pageNumber,
    ignored: false,
    templateId,
    unrecognized_reason: null,
    blank: false,
    flag: null,
    flagDetail: null,
    ...extra,
  };
}

/** A page put right after `after` in its file: the pages behind it move one place on. */
function insertAfter(world: World, after: PageRow, row: Omit<PageRow, 'page_number'>): PageRow {
  for (const other of world.pages) if (other.fileId === after.fileId && other.page_number > after.page_number) other.page_number += 1;
  const inserted = { ...row, page_number: after.page_number + 1 };
  world.pages.push(inserted);
  return inserted;
}

/** An earlier file's sheet with a student, for a rescan to copy (of a lesson of `pages` pages, when asked). */
function earlierSheet(world: World, file: FileRow, pages?: number): SheetRow | undefined {
  return world.sheets.find((sheet) => {
    const from = world.files.find((row) => row.id === sheet.fileId)!;
    const count = world.pages.filter((row) => row.sheetId === sheet.id).length;
    return from.uploaded_at < file.uploaded_at && sheet.studentId !== null && sheet.lessonId !== null && (pages === undefined || count === pages);
  });
}

/** A batch read by its codes: reverse order, a stray page, a blank back, a double feed, a rescan. */
function codedBatch(world: World, file: FileRow): void {
  const sheets = sheetsOf(world, file.id);
  const pairs = sheets.filter((sheet) => world.pages.filter((row) => row.sheetId === sheet.id).length === 2);
  const reversed = pairs.at(-1);
  if (reversed) {
    const [first, second] = world.pages.filter((row) => row.sheetId === reversed.id).sort((a, b) => a.page_number - b.page_number) as [PageRow, PageRow];
    [first.page_number, second.page_number] = [second.page_number, first.page_number];
    if (first.flag === null) second.flag = 'out_of_order';
  }
  const last = pagesOf(world, file.id).at(-1)!;
  insertAfter(world, last, { ...page(file.id, last.sheetId, 0, null), id: stableUuid(`${file.id}:page:stray`), flag: 'stray_page' });
  const fronted = pagesOf(world, file.id).find((row) => row.flag === null && row.templateId !== null)!;
  insertAfter(world, fronted, { ...page(file.id, fronted.sheetId, 0, null), id: stableUuid(`${file.id}:page:blank`), blank: true, ignored: true });
  const fed = pagesOf(world, file.id).filter((row) => row.flag === null && !row.blank && row.templateId !== null).at(-1)!;
  insertAfter(world, fed, {
    ...page(file.id, fed.sheetId, 0, fed.templateId),
    id: stableUuid(`${file.id}:page:double-feed`),
    flag: 'scanned_twice',
    flagDetail: { copyOfPageId: fed.id },
  });
  const original = earlierSheet(world, file);
  if (!original) return;
  // The rescan of an earlier sheet is its student's lesson again: a duplicate, and already uploaded.
  const student = world.students.find((row) => row.id === original.studentId);
  const rescan: SheetRow = { ...original, id: stableUuid(`${file.id}:sheet:rescan`), fileId: file.id, sequence: sheets.length + 1, assignedGroup: student?.congregationId ?? null, gradedAt: null, is_baptism_request: false, duplicateKept: false };
  world.sheets.push(rescan);
  let at = pagesOf(world, file.id).length;
  for (const copied of world.pages.filter((row) => row.sheetId === original.id).sort((a, b) => a.page_number - b.page_number)) {
    at += 1;
    world.pages.push(page(file.id, rescan.id, at, copied.templateId, { id: stableUuid(`${file.id}:page:rescan:${at}`), flag: 'already_uploaded', flagDetail: { copyOfPageId: copied.id } }));
  }
}

/** An intro file of two-page sheets, each making a student: one short, one page two sheets could take, one rescanned. */
function introBatch(world: World, file: FileRow): void {
  const original = earlierSheet(world, file, 2);
  if (!original) return;
  const templates = world.courses.flatMap((course) => course.templates).filter((template) => template.lesson.id === original.lessonId);
  const [one, two] = templates.sort((a, b) => a.page_number - b.page_number);
  if (!one || !two) return;
  const others = world.students.filter((row) => row.serviceCenterId === file.serviceCenterId && row.id !== original.studentId).slice(0, 3);
  if (others.length < 3) return;
  const dropped = new Set(sheetsOf(world, file.id).map((sheet) => sheet.id));
  world.sheets = world.sheets.filter((sheet) => !dropped.has(sheet.id));
  world.pages = world.pages.filter((row) => row.fileId !== file.id);
  file.answer_sheet_page_length = 2;
  const students = [...others.map((row) => row.id), original.studentId!];
  const sheets = students.map((studentId, index): SheetRow => ({
    id: stableUuid(`${file.id}:sheet:${index + 1}`),
    fileId: file.id,
    sequence: index + 1,
    studentId,
    lessonId: original.lessonId,
    assignedGroup: world.students.find((row) => row.id === studentId)?.congregationId ?? null,
    gradedAt: null,
    is_baptism_request: false,
    duplicateKept: false,
  }));
  world.sheets.push(...sheets);
  const [first, short, after, rescan] = sheets as [SheetRow, SheetRow, SheetRow, SheetRow];
  const copies = world.pages.filter((row) => row.sheetId === original.id).sort((a, b) => a.page_number - b.page_number);
  world.pages.push(
    page(file.id, first.id, 1, one.id),
    page(file.id, first.id, 2, two.id),
    page(file.id, first.id, 3, null, { blank: true, ignored: true }),
    page(file.id, short.id, 4, one.id, { flag: 'page_missing', flagDetail: { missingPages: [2] } }),
    page(file.id, after.id, 5, one.id),
    page(file.id, after.id, 6, two.id, { flag: 'ambiguous_position', flagDetail: { candidateSheetIds: [short.id, after.id] } }),
    page(file.id, rescan.id, 7, one.id, { flag: 'already_uploaded', flagDetail: { copyOfPageId: copies[0]!.id } }),
    page(file.id, rescan.id, 8, two.id, { flag: 'already_uploaded', flagDetail: { copyOfPageId: copies[1]!.id } }),
  );
}

/**
 * Lays the reasons over the files at Review (by turns: a coded batch, an intro batch). Files past
 * Review that repeat a student's lesson had it kept by a person, so they stay where they are.
 */
export function seedReviewFlags(world: World): void {
  const unsent = world.files.filter((file) => file.process_status === 'success' && file.sent_at === null);
  const atReview = unsent.filter((file) => world.pages.some((row) => row.fileId === file.id && isFlagged(row)));
  for (const file of unsent.filter((row) => !atReview.includes(row))) {
    for (const sheet of sheetsOf(world, file.id)) if (duplicateOf(world, sheet) !== null) sheet.duplicateKept = true;
  }
  atReview.forEach((file, index) => (index % 2 === 0 ? codedBatch(world, file) : introBatch(world, file)));
}
