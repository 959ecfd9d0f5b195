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
import { keptSheetSql, NO_CODE_FLAGS, sentOrSendingSql } from './file-steps';
import { resolveCodes } from './resolve-codes';
import { readCodeText } from '../domain/codes';

type MendAction = Schemas['ReviewMendAction'];

export const FILE_SENT_MESSAGE = 'This file was sent to study helpers: its pages can no longer be changed or moved.';

/** 400 in the spec's shape: a mend that cannot be made as asked. */
const invalidMend = (message: string) => badRequest({ error_type: 'VALIDATION_ERROR', message });

/** A sheet's duplicate_of: the earliest other sheet of the same student and lesson (SQL over `answer_sheets a`). */
export const DUPLICATE_OF_SQL = `CASE WHEN a.student_id IS NULL OR a.lesson_id IS NULL THEN NULL ELSE (
    SELECT e.id FROM answer_sheets e
    WHERE e.student_id = a.student_id AND e.lesson_id = a.lesson_id AND e.id <> a.id
      AND (e.created_at, e.file_id, e.sequence) < (a.created_at, a.file_id, a.sequence)
    ORDER BY e.created_at, e.sequence LIMIT 1) END`;

interface MendPage {
  id: string;
  file_id: string;
  page_number: number;
  answer_sheet_id: string | null;
  flag: string | null;
  ignored: boolean;
}

interface MendSheet {
  id: string;
  file_id: string;
  sequence: number;
  student_id: string | null;
  lesson_id: string | null;
  assigned_group: string | null;
}

export interface Mender {
  email: string;
}

/** Locks the page's file for the mend; 404 for no such page, 409 once the file is sent. */
async function lockPage(tx: Database, pageId: string): Promise<MendPage & { intro: boolean }> {
  const found = await tx.maybeOne<{ file_id: string }>('SELECT file_id FROM pages WHERE id = $1', [pageId]);
  if (found === null) throw notFound('Page not found');
  const { intro } = await lockFile(tx, found.file_id);
  // Read again under the lock: a mend that held it may have moved the page meanwhile.
  const page = await tx.maybeOne<MendPage>('SELECT id, file_id, page_number, answer_sheet_id, flag, ignored FROM pages WHERE id = $1', [pageId]);
  if (page === null) throw notFound('Page not found');
  return { ...page, intro };
}

async function lockFile(tx: Database, fileId: string): Promise<{ intro: boolean }> {
  const file = await tx.maybeOne<{ sent: boolean; answer_sheet_page_length: number }>(
    `SELECT ${sentOrSendingSql('f')} AS sent, answer_sheet_page_length FROM files f WHERE id = $1 FOR UPDATE`,
    [fileId],
  );
  if (file === null) throw notFound(FILE_NOT_FOUND);
  // Packets are made from the sheets as they are when Send is asked for.
  if (file.sent) throw conflict({ error_type: 'SHEET_ALREADY_SENT', message: FILE_SENT_MESSAGE });
  return { intro: Number(file.answer_sheet_page_length) !== 0 };
}

async function sheetOf(tx: Database, sheetId: string): Promise<MendSheet | null> {
  return tx.maybeOne<MendSheet>('SELECT id, file_id, sequence, student_id, lesson_id, assigned_group FROM answer_sheets WHERE id = $1', [sheetId]);
}

async function record(tx: Database, fileId: string, pageIds: readonly string[], action: MendAction, by: Mender): Promise<void> {
  await tx.query(
    `INSERT INTO review_mends (file_id, page_id, action, user_email) SELECT $1, page_id, $3, $4 FROM unnest($2::uuid[]) AS page_id`,
    [fileId, pageIds, action, by.email],
  );
}

/**
 * After pages left a sheet: a sheet with no page left goes, and so does a student this file made
 * (an intro sheet's) whom nothing keeps: a student made by a file exists for their kept pages, so
 * when the last one moves away, joins another sheet or is ignored, they go too, unless something
 * outside Review already names them (a code printed for them, a baptism request). A stray page
 * mistaken for a new student so leaves nobody behind; students of earlier files always stay.
 */
async function tidySheet(tx: Database, sheetId: string): Promise<void> {
  const sheet = await sheetOf(tx, sheetId);
  if (sheet === null) return;
  const left = await tx.one<{ pages: number }>('SELECT count(*)::int AS pages FROM pages WHERE answer_sheet_id = $1', [sheetId]);
  if (left.pages === 0) await tx.query('DELETE FROM answer_sheets WHERE id = $1', [sheetId]);
  if (sheet.student_id !== null) await removeStudentIfEmpty(tx, sheet.student_id, sheet.file_id);
}

async function removeStudentIfEmpty(tx: Database, studentId: string, fileId: string): Promise<void> {
  const removable = await tx.maybeOne(
    `SELECT 1 FROM students s, files f
     WHERE s.id = $1 AND f.id = $2 AND s.created_at >= f.created_at
       AND NOT EXISTS (SELECT 1 FROM answer_sheets a JOIN pages p ON p.answer_sheet_id = a.id WHERE a.student_id = s.id AND NOT p.ignored)
       AND NOT EXISTS (SELECT 1 FROM printed_codes pc WHERE pc.student_id = s.id)
       AND NOT EXISTS (SELECT 1 FROM baptism_requests b WHERE b.student_id = s.id)`,
    [studentId, fileId],
  );
  if (removable === null) return;
  await tx.query('UPDATE answer_sheets SET student_id = NULL, duplicate_of = NULL WHERE student_id = $1', [studentId]);
  await tx.query('DELETE FROM students WHERE id = $1', [studentId]);
}

/**
 * A new student for an intro sheet, from the file's service center and its country, as the
 * pipeline makes them. No congregation or study helper: nothing on the page says which.
 */
async function newIntroStudent(tx: Database, fileId: string): Promise<string> {
  const row = await tx.one<{ id: string }>(
    `INSERT INTO students (service_center_id, country_iso, last_active_at)
     SELECT f.service_center_id, sc.country_iso, now()
     FROM files f LEFT JOIN service_centers sc ON sc.id = f.service_center_id
     WHERE f.id = $1
     RETURNING id`,
    [fileId],
  );
  return row.id;
}

/** Room for a new sheet right after `sequence` (sequences are unique per file and never negative). */
async function makeRoomAfter(tx: Database, fileId: string, sequence: number): Promise<void> {
  // A unique constraint is checked row by row, so shifting in place would meet the next sheet
  // before it moves: lift the later sheets above every sequence of the file, then bring them
  // down to one past where they were. No step goes below 0 or onto a sequence in use.
  const { lift } = await tx.one<{ lift: number }>('SELECT coalesce(max(sequence), 0)::int + 2 AS lift FROM answer_sheets WHERE file_id = $1', [fileId]);
  await tx.query('UPDATE answer_sheets SET sequence = sequence + $3::int WHERE file_id = $1 AND sequence > $2::int', [fileId, sequence, lift]);
  await tx.query('UPDATE answer_sheets SET sequence = sequence - $3::int + 1 WHERE file_id = $1 AND sequence > $2::int + $3::int', [fileId, sequence, lift]);
}

/**
 * A new sheet right after `sheet` in its file. It takes the time of the sheet it comes from, so
 * "the first sheet received" of a student and lesson still follows the file's order.
 */
async function insertSheetAfter(tx: Database, sheet: MendSheet, studentId: string | null, lessonId: string | null): Promise<string> {
  await makeRoomAfter(tx, sheet.file_id, sheet.sequence);
  const created = await tx.one<{ id: string }>(
    `INSERT INTO answer_sheets (file_id, sequence, student_id, lesson_id, created_at)
     SELECT $1, $2, $3, $4, created_at FROM answer_sheets WHERE id = $5
     RETURNING id`,
    [sheet.file_id, sheet.sequence + 1, studentId, lessonId, sheet.id],
  );
  return created.id;
}

/** A sheet's lesson and congregation (the student's, when the sheet has none), after a mend. */
async function settleSheet(tx: Database, sheetId: string): Promise<void> {
  await tx.query(
    `UPDATE answer_sheets a SET
       lesson_id = coalesce(a.lesson_id, (SELECT pt.lesson_id FROM pages p JOIN page_templates pt ON pt.id = p.template_id
                                           WHERE p.answer_sheet_id = a.id AND NOT p.ignored ORDER BY p.page_number LIMIT 1)),
       assigned_group = coalesce(a.assigned_group, (SELECT s.congregation_id FROM students s WHERE s.id = a.student_id))
     WHERE a.id = $1`,
    [sheetId],
  );
  // A sheet that now holds as many kept pages as its lesson has is no longer short.
  await tx.query(
    `UPDATE pages p SET flag = NULL, flag_detail = p.flag_detail - 'missing_pages'
     WHERE p.answer_sheet_id = $1 AND p.flag = 'page_missing'
       AND (SELECT count(*) FROM pages k WHERE k.answer_sheet_id = $1 AND NOT k.ignored)
           >= (SELECT count(*) FROM answer_sheets a JOIN page_templates pt ON pt.lesson_id = a.lesson_id WHERE a.id = $1)`,
    [sheetId],
  );
}

/** Every sheet of the file points at the earliest sheet of its student and lesson, after sheets came and went. */
async function settleDuplicates(tx: Database, fileId: string): Promise<void> {
  // Only the sheets whose link changes are written.
  await tx.query(
    `UPDATE answer_sheets s SET duplicate_of = settled.duplicate_of
     FROM (SELECT a.id, ${DUPLICATE_OF_SQL} AS duplicate_of FROM answer_sheets a WHERE a.file_id = $1) settled
     WHERE s.id = settled.id AND s.duplicate_of IS DISTINCT FROM settled.duplicate_of`,
    [fileId],
  );
}

/**
 * In an intro file every sheet with a kept page is a student's: a sheet that takes pages again
 * (a page moved or brought back to a sheet whose pages were all ignored) gets a new student.
 */
async function giveIntroSheetsStudents(tx: Database, fileId: string, intro: boolean): Promise<void> {
  if (!intro) return;
  const bare = await tx.query<{ id: string }>(
    `SELECT a.id FROM answer_sheets a WHERE a.file_id = $1 AND a.student_id IS NULL AND ${keptSheetSql('a')} ORDER BY a.sequence`,
    [fileId],
  );
  for (const sheet of bare) {
    await tx.query('UPDATE answer_sheets SET student_id = $2 WHERE id = $1', [sheet.id, await newIntroStudent(tx, fileId)]);
    await settleSheet(tx, sheet.id);
  }
}

/** The duplex back that travels with a page: the ignored blank page right after it on the same sheet. */
async function blankBackOf(tx: Database, page: MendPage): Promise<string | null> {
  if (page.answer_sheet_id === null) return null;
  const back = await tx.maybeOne<{ id: string }>(
    `SELECT b.id FROM pages b, pages p
     WHERE p.id = $1 AND NOT p.blank AND b.file_id = p.file_id AND b.page_number = p.page_number + 1
       AND b.answer_sheet_id = p.answer_sheet_id AND b.blank AND b.ignored`,
    [page.id],
  );
  return back?.id ?? null;
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
    const target = await sheetOf(tx, targetSheetId);
    if (target === null || target.file_id !== page.file_id) throw invalidMend('answer_sheet: not an answer sheet of this page\'s file');
    if (page.answer_sheet_id === target.id) {
      await tx.query('UPDATE pages SET flag = NULL WHERE id = $1', [pageId]);
      await record(tx, page.file_id, [pageId], 'moved', by);
      return;
    }
    const back = await blankBackOf(tx, page);
    const moving = back === null ? [pageId] : [pageId, back];
    await tx.query('UPDATE pages SET answer_sheet_id = $2 WHERE id = ANY($1::uuid[])', [moving, target.id]);
    await tx.query('UPDATE pages SET flag = NULL WHERE id = $1', [pageId]);
    await record(tx, page.file_id, moving, 'moved', by);
    if (page.answer_sheet_id !== null) await tidySheet(tx, page.answer_sheet_id);
    await settleSheet(tx, target.id);
    await giveIntroSheetsStudents(tx, page.file_id, intro);
    await settleDuplicates(tx, page.file_id);
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
    const sheet = (await sheetOf(tx, page.answer_sheet_id))!;
    const before = await tx.one<{ kept: number }>(
      'SELECT count(*)::int AS kept FROM pages WHERE answer_sheet_id = $1 AND page_number < $2 AND NOT ignored',
      [sheet.id, page.page_number],
    );
    if (before.kept === 0) throw invalidMend('new_sheet: this page already starts its response (no kept page comes before it)');
    const moving = await tx.query<{ id: string; ignored: boolean }>('SELECT id, ignored FROM pages WHERE answer_sheet_id = $1 AND page_number >= $2', [
      sheet.id,
      page.page_number,
    ]);
    if (moving.every((row) => row.ignored)) throw invalidMend('new_sheet: this page and the pages after it on its response are all ignored; unignore the page first');

    const issued = await tx.maybeOne<{ student_id: string }>(
      `SELECT pc.student_id FROM pages p JOIN printed_codes pc ON pc.prefix = 's' AND pc.code_id = p.code_id
       WHERE p.id = $1 AND p.code_prefix = 's' AND pc.student_id IS NOT NULL`,
      [pageId],
    );
    const studentId = issued?.student_id ?? (intro ? await newIntroStudent(tx, page.file_id) : null);
    const lesson = await tx.maybeOne<{ lesson_id: string }>(
      'SELECT pt.lesson_id FROM pages p JOIN page_templates pt ON pt.id = p.template_id WHERE p.id = $1',
      [pageId],
    );
    const created = await insertSheetAfter(tx, sheet, studentId, lesson?.lesson_id ?? null);
    await tx.query('UPDATE pages SET answer_sheet_id = $2 WHERE id = ANY($1::uuid[])', [moving.map((row) => row.id), created]);
    await tx.query('UPDATE pages SET flag = NULL WHERE id = $1', [pageId]);
    await record(tx, page.file_id, [pageId], 'new_sheet', by);
    await settleSheet(tx, created);
    await tidySheet(tx, sheet.id);
    await settleDuplicates(tx, page.file_id);
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
    const sheet = (await sheetOf(tx, page.answer_sheet_id))!;
    const madeHere = await tx.maybeOne(
      'SELECT 1 FROM students s, files f WHERE s.id = $1 AND f.id = $2 AND s.created_at >= f.created_at',
      [sheet.student_id, page.file_id],
    );
    if (madeHere === null) {
      const studentId = await newIntroStudent(tx, page.file_id);
      await tx.query('UPDATE answer_sheets SET student_id = $2, assigned_group = NULL, duplicate_kept = false WHERE id = $1', [sheet.id, studentId]);
      await settleSheet(tx, sheet.id);
    }
    await tx.query('UPDATE pages SET flag = NULL, flag_detail = NULL WHERE id = $1', [pageId]);
    await record(tx, page.file_id, [pageId], 'new_student', by);
    await settleDuplicates(tx, page.file_id);
  });
}

/** Joins a sheet to the sheet before it in its file: its pages move there and it goes. Returns the sheet joined. */
export async function joinPrevious(db: Database, sheetId: string, by: Mender): Promise<string> {
  return mend(db, async (tx) => {
    const found = await sheetOf(tx, sheetId);
    if (found === null) throw notFound('Answer sheet not found');
    const { intro } = await lockFile(tx, found.file_id);
    const sheet = await sheetOf(tx, sheetId);
    if (sheet === null) throw notFound('Answer sheet not found');
    const previous = await tx.maybeOne<{ id: string }>(
      'SELECT id FROM answer_sheets WHERE file_id = $1 AND sequence < $2 ORDER BY sequence DESC LIMIT 1',
      [sheet.file_id, sheet.sequence],
    );
    if (previous === null) throw invalidMend('join_previous: this is the first response of its file, so there is none before it to join');
    const moving = await tx.query<{ id: string }>('UPDATE pages SET answer_sheet_id = $2, flag = NULL WHERE answer_sheet_id = $1 RETURNING id', [
      sheet.id,
      previous.id,
    ]);
    await record(tx, sheet.file_id, moving.map((row) => row.id), 'joined', by);
    // A sheet before whose pages were all ignored takes the student of the pages it receives.
    if (sheet.student_id !== null) await tx.query('UPDATE answer_sheets SET student_id = $2 WHERE id = $1 AND student_id IS NULL', [previous.id, sheet.student_id]);
    await tidySheet(tx, sheet.id);
    await settleSheet(tx, previous.id);
    await giveIntroSheetsStudents(tx, sheet.file_id, intro);
    await settleDuplicates(tx, sheet.file_id);
    return previous.id;
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
    await tx.query(
      `UPDATE pages SET code_prefix = $2, code_id = $3, template_id = $4, unrecognized_reason = NULL, flag = NULL,
              identified_by = 'person', printed_suggestion = NULL WHERE id = $1`,
      [pageId, code.prefix, code.id, meanings.templateOf(code)],
    );
    await record(tx, page.file_id, [pageId], 'code_typed', by);
    const studentId = meaning.student_id;
    if (page.answer_sheet_id === null || studentId === null) {
      if (page.answer_sheet_id !== null) await settleSheet(tx, page.answer_sheet_id);
      return;
    }
    const sheet = (await sheetOf(tx, page.answer_sheet_id))!;
    if (sheet.student_id === studentId) return settleSheet(tx, sheet.id);

    const back = await blankBackOf(tx, page);
    const moving = back === null ? [pageId] : [pageId, back];
    const theirs = await tx.maybeOne<{ id: string }>(
      'SELECT id FROM answer_sheets WHERE file_id = $1 AND student_id = $2 AND lesson_id = $3 AND id <> $4 ORDER BY sequence LIMIT 1',
      [sheet.file_id, studentId, meaning.lesson_id, sheet.id],
    );
    const others = await tx.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM pages WHERE answer_sheet_id = $1 AND id <> ALL($2::uuid[]) AND NOT ignored',
      [sheet.id, moving],
    );
    if (theirs === null && others.n === 0) {
      // The page is the sheet: the sheet, and the congregation it goes to, are this student's.
      await tx.query(
        'UPDATE answer_sheets SET student_id = $2, lesson_id = $3, assigned_group = (SELECT congregation_id FROM students WHERE id = $2) WHERE id = $1',
        [sheet.id, studentId, meaning.lesson_id],
      );
      if (sheet.student_id !== null) await removeStudentIfEmpty(tx, sheet.student_id, sheet.file_id);
      await settleSheet(tx, sheet.id);
      await settleDuplicates(tx, sheet.file_id);
      return;
    }
    const target = theirs?.id ?? (await insertSheetAfter(tx, sheet, studentId, meaning.lesson_id));
    await tx.query('UPDATE pages SET answer_sheet_id = $2 WHERE id = ANY($1::uuid[])', [moving, target]);
    await tidySheet(tx, sheet.id);
    await settleSheet(tx, target);
    await settleDuplicates(tx, sheet.file_id);
  });
}

/** Ignores or unignores a page; an intro sheet whose pages are all ignored lets its new student go. */
export async function setIgnored(db: Database, pageId: string, ignored: boolean, by: Mender): Promise<void> {
  await mend(db, async (tx) => {
    const page = await lockPage(tx, pageId);
    const { intro } = page;
    if (page.ignored === ignored) return;
    await tx.query('UPDATE pages SET ignored = $2 WHERE id = $1', [pageId, ignored]);
    await record(tx, page.file_id, [pageId], ignored ? 'ignored' : 'unignored', by);
    if (page.answer_sheet_id === null) return;
    if (ignored) {
      await tidySheet(tx, page.answer_sheet_id);
      return settleDuplicates(tx, page.file_id);
    }
    // A page brought back to an intro sheet that lost its student brings a new student.
    await settleSheet(tx, page.answer_sheet_id);
    await giveIntroSheetsStudents(tx, page.file_id, intro);
    await settleDuplicates(tx, page.file_id);
  });
}

/** Chooses a page's template (or none): a person saying which page it is clears a no-code flag. */
export async function setTemplate(db: Database, pageId: string, templateId: string | null, by: Mender): Promise<void> {
  await mend(db, async (tx) => {
    const page = await lockPage(tx, pageId);
    await tx.query(
      `UPDATE pages SET template_id = $2,
              flag = CASE WHEN $2::uuid IS NOT NULL AND flag = ANY($3::text[]) THEN NULL ELSE flag END
       WHERE id = $1`,
      [pageId, templateId, NO_CODE_FLAGS],
    );
    await record(tx, page.file_id, [pageId], 'template_set', by);
  });
}
