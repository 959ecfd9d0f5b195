// Review mends what the scan pipeline could not place with certainty (DESIGN §4 "Identity"):
// move a page to another sheet of its file, start a new sheet at a page, join a sheet to the one
// before, give a page its code (and so its student) by typing the short code printed beside the
// QR, choose a page's template, ignore or unignore it. Each mend runs in one transaction with the
// file locked, clears the flags it answers, is recorded (who, when), and is refused once the file
// is sent: from then on its sheets are in packets on paper. Every mend works on any sheet of the
// file (first, middle, last); a page moves with its blank back; what cannot be done is refused
// in a sentence, and nothing is left behind: no empty sheet, no student the file made for nothing.
import type { Schemas } from '../contract/types';
import { sqlState, type Database } from '../db/database';
import { badRequest, conflict, conflictError, FILE_NOT_FOUND, HttpError, notFound } from '../http-error';
import {
  blankBackOfPage,
  clearPageFlag,
  clearPageFlagAndDetail,
  countKeptPagesBefore,
  countOtherKeptPages,
  countPagesOnSheet,
  createIntroStudentOfFile,
  deleteMendedSheet,
  fileOfPageForMend,
  giveSheetNewStudent,
  giveSheetStudentIfNone,
  insertSheetAfter,
  keptSheetsWithoutStudent,
  lessonOfPageTemplate,
  lockFileForMend,
  makeSheetStudentsLesson,
  moveAllPagesOfSheet,
  movePagesToSheet,
  otherSheetOfStudentLesson,
  pageForMend,
  pagesOfSheetFrom,
  previousSheetInFile,
  recordMend,
  removeStudentFromSheets,
  setPageIgnored,
  setPageTemplate,
  setSheetStudentId,
  setTypedCode,
  settleDuplicatesOfFile,
  settleMendedSheet,
  sheetForMend,
  studentMadeByFile,
  studentOfFileLeftEmpty,
  studentOfIssuedCodeOnPage,
  type MendPageRow,
} from '../repositories/review-mends';
import { NO_CODE_FLAGS } from '../repositories/sql/file-steps';
import { resolveCodes } from './resolve-codes';
import { readCodeText } from '../domain/codes';

type MendAction = Schemas['ReviewMendAction'];

export const FILE_SENT_MESSAGE = 'This file was sent to study helpers: its pages can no longer be changed or moved.';

/** 400 in the spec's shape: a mend that cannot be made as asked. */
const invalidMend = (message: string) => badRequest({ error_type: 'VALIDATION_ERROR', message });

export interface Mender {
  email: string;
}

/** Locks the page's file for the mend; 404 for no such page, 409 once the file is sent. */
async function lockPage(tx: Database, pageId: string): Promise<MendPageRow & { intro: boolean }> {
  const fileId = await fileOfPageForMend(tx, pageId);
  if (fileId === null) throw notFound('Page not found');
  const { intro } = await lockFile(tx, fileId);
  // Read again under the lock: a mend that held it may have moved the page meanwhile.
  const page = await pageForMend(tx, pageId);
  if (page === null) throw notFound('Page not found');
  return { ...page, intro };
}

async function lockFile(tx: Database, fileId: string): Promise<{ intro: boolean }> {
  const file = await lockFileForMend(tx, fileId);
  if (file === null) throw notFound(FILE_NOT_FOUND);
  // Packets are made from the sheets as they are when Send is asked for.
  if (file.sent) throw conflict({ error_type: 'SHEET_ALREADY_SENT', message: FILE_SENT_MESSAGE });
  return { intro: Number(file.answer_sheet_page_length) !== 0 };
}

async function record(tx: Database, fileId: string, pageIds: readonly string[], action: MendAction, by: Mender): Promise<void> {
  await recordMend(tx, fileId, pageIds, action, by.email);
}

/**
 * After pages left a sheet: a sheet with no page left goes, and so does a student this file made
 * (an intro sheet's) whom nothing keeps: a student made by a file exists for their kept pages, so
 * when the last one moves away, joins another sheet or is ignored, they go too, unless something
 * outside Review already names them (a code printed for them, a baptism request). A stray page
 * mistaken for a new student so leaves nobody behind; students of earlier files always stay.
 */
async function tidySheet(tx: Database, sheetId: string): Promise<void> {
  const sheet = await sheetForMend(tx, sheetId);
  if (sheet === null) return;
  if ((await countPagesOnSheet(tx, sheetId)) === 0) await deleteMendedSheet(tx, sheetId);
  if (sheet.student_id !== null) await removeStudentIfEmpty(tx, sheet.student_id, sheet.file_id);
}

async function removeStudentIfEmpty(tx: Database, studentId: string, fileId: string): Promise<void> {
  if (await studentOfFileLeftEmpty(tx, studentId, fileId)) await removeStudentFromSheets(tx, studentId);
}

/**
 * In an intro file every sheet with a kept page is a student's: a sheet that takes pages again
 * (a page moved or brought back to a sheet whose pages were all ignored) gets a new student.
 * The new student comes from the file's service center and its country, as the pipeline makes
 * them; no congregation or study helper: nothing on the page says which.
 */
async function giveIntroSheetsStudents(tx: Database, fileId: string, intro: boolean): Promise<void> {
  if (!intro) return;
  for (const sheetId of await keptSheetsWithoutStudent(tx, fileId)) {
    await setSheetStudentId(tx, sheetId, await createIntroStudentOfFile(tx, fileId));
    await settleMendedSheet(tx, sheetId);
  }
}

/** The duplex back that travels with a page: the ignored blank page right after it on the same sheet. */
async function blankBackOf(tx: Database, page: MendPageRow): Promise<string | null> {
  if (page.answer_sheet_id === null) return null;
  return blankBackOfPage(tx, page.id);
}

/**
 * One mend in one transaction. Whatever a rule of the database refuses (a bug, or data changed
 * under the mend) answers in words: nothing was changed, and why, rather than "Invalid input".
 */
async function mend<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    // Class 23: integrity constraint violations (unique, check, foreign key, not null).
    if (error instanceof HttpError || !sqlState(error)?.startsWith('23')) throw error;
    throw conflictError(
      'This mend could not be made: it would leave this file’s responses out of order or pointing at something gone, so nothing was changed. Reload the file and try again.',
    );
  }
}

/**
 * Moves a page to another sheet of its file (its own sheet: keeps it there); clears its flag. Its
 * blank back (a duplex back, ignored) goes with it.
 */
export async function movePage(db: Database, pageId: string, targetSheetId: string, by: Mender): Promise<void> {
  await mend(db, async (tx) => {
    const page = await lockPage(tx, pageId);
    const { intro } = page;
    const target = await sheetForMend(tx, targetSheetId);
    if (target === null || target.file_id !== page.file_id) throw invalidMend('answer_sheet: not an answer sheet of this page\'s file');
    if (page.answer_sheet_id === target.id) {
      await clearPageFlag(tx, pageId);
      await record(tx, page.file_id, [pageId], 'moved', by);
      return;
    }
    const back = await blankBackOf(tx, page);
    const moving = back === null ? [pageId] : [pageId, back];
    await movePagesToSheet(tx, moving, target.id);
    await clearPageFlag(tx, pageId);
    await record(tx, page.file_id, moving, 'moved', by);
    if (page.answer_sheet_id !== null) await tidySheet(tx, page.answer_sheet_id);
    await settleMendedSheet(tx, target.id);
    await giveIntroSheetsStudents(tx, page.file_id, intro);
    await settleDuplicatesOfFile(tx, page.file_id);
  });
}

/**
 * Starts a new sheet at a page: it and the pages after it in its sheet move to the new sheet,
 * placed right after. The new sheet carries only what is certain: the lesson of its pages'
 * templates, the student an issued (S) code on the page names and that student's congregation.
 * In an intro file a sheet is a student's first, so it brings a new student.
 */
export async function startSheetAt(db: Database, pageId: string, by: Mender): Promise<void> {
  await mend(db, async (tx) => {
    const page = await lockPage(tx, pageId);
    const { intro } = page;
    if (page.answer_sheet_id === null) throw invalidMend('new_sheet: this page is on no response (a cover or a page set aside), so no response can start at it');
    const sheet = (await sheetForMend(tx, page.answer_sheet_id))!;
    if ((await countKeptPagesBefore(tx, sheet.id, page.page_number)) === 0) throw invalidMend('new_sheet: this page already starts its response (no kept page comes before it)');
    const moving = await pagesOfSheetFrom(tx, sheet.id, page.page_number);
    if (moving.every((row) => row.ignored)) throw invalidMend('new_sheet: this page and the pages after it on its response are all ignored; unignore the page first');

    const studentId = (await studentOfIssuedCodeOnPage(tx, pageId)) ?? (intro ? await createIntroStudentOfFile(tx, page.file_id) : null);
    const created = await insertSheetAfter(tx, sheet, studentId, await lessonOfPageTemplate(tx, pageId));
    await movePagesToSheet(tx, moving.map((row) => row.id), created);
    await clearPageFlag(tx, pageId);
    await record(tx, page.file_id, [pageId], 'new_sheet', by);
    await settleMendedSheet(tx, created);
    await tidySheet(tx, sheet.id);
    await settleDuplicatesOfFile(tx, page.file_id);
  });
}

/**
 * A page taken for a rescan (already_uploaded) that a person says is other paper: its response
 * took the earlier page's student, and gets a new student instead. The earlier student stays
 * (an earlier file made them); the response drops the congregation they brought. When the
 * response already has a student this file made, the page only loses its flag.
 */
export async function giveNewStudent(db: Database, pageId: string, by: Mender): Promise<void> {
  await mend(db, async (tx) => {
    const page = await lockPage(tx, pageId);
    if (!page.intro || page.flag !== 'already_uploaded' || page.answer_sheet_id === null)
      throw invalidMend('new_student: only a page flagged as already uploaded, in an intro file, can take a new student');
    const sheet = (await sheetForMend(tx, page.answer_sheet_id))!;
    if (!(await studentMadeByFile(tx, sheet.student_id, page.file_id))) {
      const studentId = await createIntroStudentOfFile(tx, page.file_id);
      await giveSheetNewStudent(tx, sheet.id, studentId);
      await settleMendedSheet(tx, sheet.id);
    }
    await clearPageFlagAndDetail(tx, pageId);
    await record(tx, page.file_id, [pageId], 'new_student', by);
    await settleDuplicatesOfFile(tx, page.file_id);
  });
}

/** Joins a sheet to the sheet before it in its file: its pages move there and it goes. Returns the sheet joined. */
export async function joinPrevious(db: Database, sheetId: string, by: Mender): Promise<string> {
  return mend(db, async (tx) => {
    const found = await sheetForMend(tx, sheetId);
    if (found === null) throw notFound('Answer sheet not found');
    const { intro } = await lockFile(tx, found.file_id);
    const sheet = await sheetForMend(tx, sheetId);
    if (sheet === null) throw notFound('Answer sheet not found');
    const previous = await previousSheetInFile(tx, sheet.file_id, sheet.sequence);
    if (previous === null) throw invalidMend('join_previous: this is the first response of its file, so there is none before it to join');
    const moving = await moveAllPagesOfSheet(tx, sheet.id, previous);
    await record(tx, sheet.file_id, moving, 'joined', by);
    // A sheet before whose pages were all ignored takes the student of the pages it receives.
    if (sheet.student_id !== null) await giveSheetStudentIfNone(tx, previous, sheet.student_id);
    await tidySheet(tx, sheet.id);
    await settleMendedSheet(tx, previous);
    await giveIntroSheetsStudents(tx, sheet.file_id, intro);
    await settleDuplicatesOfFile(tx, sheet.file_id);
    return previous;
  });
}

/**
 * Gives a page the code a person read beside its QR: its template, and for an issued (S) code
 * its student. A page of another student than its sheet's (with its blank back) joins that
 * student's sheet of the same lesson in this file when there is one; else, alone on its sheet,
 * the sheet becomes that student's; else it starts a sheet of theirs right after its own.
 */
export async function typeCode(db: Database, pageId: string, text: string, by: Mender): Promise<void> {
  const reading = readCodeText(text);
  if (reading.code === null || (reading.code.prefix !== 't' && reading.code.prefix !== 's')) {
    throw invalidMend('code: type the code printed beside the page\'s QR code, e.g. S-ABCD2345 or T-ABCD2345');
  }
  const code = reading.code;
  await mend(db, async (tx) => {
    const page = await lockPage(tx, pageId);
    const meanings = await resolveCodes(tx, [code]);
    const meaning = meanings.resolve(code);
    if (meaning === null || meaning.kind !== 'sheet_page') throw invalidMend(`code: ${text.trim()} is not a code this programme printed`);
    await setTypedCode(tx, pageId, code, meanings.templateOf(code));
    await record(tx, page.file_id, [pageId], 'code_typed', by);
    const studentId = meaning.student_id;
    if (page.answer_sheet_id === null || studentId === null) {
      if (page.answer_sheet_id !== null) await settleMendedSheet(tx, page.answer_sheet_id);
      return;
    }
    const sheet = (await sheetForMend(tx, page.answer_sheet_id))!;
    if (sheet.student_id === studentId) return settleMendedSheet(tx, sheet.id);

    const back = await blankBackOf(tx, page);
    const moving = back === null ? [pageId] : [pageId, back];
    const theirs = await otherSheetOfStudentLesson(tx, sheet, studentId, meaning.lesson_id);
    if (theirs === null && (await countOtherKeptPages(tx, sheet.id, moving)) === 0) {
      // The page is the sheet: the sheet, and the congregation it goes to, are this student's.
      await makeSheetStudentsLesson(tx, sheet.id, studentId, meaning.lesson_id);
      if (sheet.student_id !== null) await removeStudentIfEmpty(tx, sheet.student_id, sheet.file_id);
      await settleMendedSheet(tx, sheet.id);
      await settleDuplicatesOfFile(tx, sheet.file_id);
      return;
    }
    const target = theirs ?? (await insertSheetAfter(tx, sheet, studentId, meaning.lesson_id));
    await movePagesToSheet(tx, moving, target);
    await tidySheet(tx, sheet.id);
    await settleMendedSheet(tx, target);
    await settleDuplicatesOfFile(tx, sheet.file_id);
  });
}

/** Ignores or unignores a page; an intro sheet whose pages are all ignored lets its new student go. */
export async function setIgnored(db: Database, pageId: string, ignored: boolean, by: Mender): Promise<void> {
  await mend(db, async (tx) => {
    const page = await lockPage(tx, pageId);
    const { intro } = page;
    if (page.ignored === ignored) return;
    await setPageIgnored(tx, pageId, ignored);
    await record(tx, page.file_id, [pageId], ignored ? 'ignored' : 'unignored', by);
    if (page.answer_sheet_id === null) return;
    if (ignored) {
      await tidySheet(tx, page.answer_sheet_id);
      return settleDuplicatesOfFile(tx, page.file_id);
    }
    // A page brought back to an intro sheet that lost its student brings a new student.
    await settleMendedSheet(tx, page.answer_sheet_id);
    await giveIntroSheetsStudents(tx, page.file_id, intro);
    await settleDuplicatesOfFile(tx, page.file_id);
  });
}

/** Chooses a page's template (or none): a person saying which page it is clears a no-code flag. */
export async function setTemplate(db: Database, pageId: string, templateId: string | null, by: Mender): Promise<void> {
  await mend(db, async (tx) => {
    const page = await lockPage(tx, pageId);
    await setPageTemplate(tx, pageId, templateId, NO_CODE_FLAGS);
    await record(tx, page.file_id, [pageId], 'template_set', by);
  });
}
