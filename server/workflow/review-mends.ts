// Review mends what the scan pipeline could not place with certainty (DESIGN §4 "Identity"):
// move a page to another sheet of its file, start a new sheet at a page, join a sheet to the one
// before, give a page its code (and so its student) by typing the short code printed beside the
// QR, choose a page's template, ignore or unignore it. Each mend runs in one transaction with the
// file locked, clears the flags it answers, is recorded (who, when), and is refused once the file
// is sent: from then on its sheets are in packets on paper.
import type { Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { badRequest, conflict, notFound } from '../http-error';
import { sentOrSendingSql } from './file-steps';
import { resolveCodes } from './resolve-codes';
import { readCodeText } from '../pipeline/codes';

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
async function lockPage(tx: Database, pageId: string): Promise<MendPage> {
  const page = await tx.maybeOne<MendPage>('SELECT id, file_id, page_number, answer_sheet_id, flag, ignored FROM pages WHERE id = $1', [pageId]);
  if (page === null) throw notFound('Page not found');
  await lockFile(tx, page.file_id);
  return page;
}

async function lockFile(tx: Database, fileId: string): Promise<{ intro: boolean }> {
  const file = await tx.one<{ sent: boolean; answer_sheet_page_length: number }>(
    `SELECT ${sentOrSendingSql('f')} AS sent, answer_sheet_page_length FROM files f WHERE id = $1 FOR UPDATE`,
    [fileId],
  );
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
 * After pages left a sheet: a sheet with no page left goes, and so does an intro student whom
 * nothing keeps (no kept page in any sheet, no sheet issued to them, no baptism request), so a
 * stray page mistaken for a new student leaves nobody behind.
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

/** A new student for an intro sheet, from the same place as the student of the sheet it came from. */
async function newIntroStudent(tx: Database, fileId: string, like: string | null): Promise<string> {
  const row = await tx.one<{ id: string }>(
    `INSERT INTO students (service_center_id, country_iso, congregation_id, study_helper_id, last_active_at)
     SELECT coalesce(s.service_center_id, f.service_center_id), coalesce(s.country_iso, sc.country_iso), s.congregation_id, s.study_helper_id, now()
     FROM files f LEFT JOIN service_centers sc ON sc.id = f.service_center_id LEFT JOIN students s ON s.id = $2
     WHERE f.id = $1
     RETURNING id`,
    [fileId, like],
  );
  return row.id;
}

/** Room for a new sheet right after `sequence` (sequences are unique per file). */
async function makeRoomAfter(tx: Database, fileId: string, sequence: number): Promise<void> {
  // Two steps: shifting in place would collide with the next sequence before it moves.
  await tx.query('UPDATE answer_sheets SET sequence = -sequence - 2 WHERE file_id = $1 AND sequence > $2', [fileId, sequence]);
  await tx.query('UPDATE answer_sheets SET sequence = -sequence - 1 WHERE file_id = $1 AND sequence < 0', [fileId]);
}

/** A sheet's student, lesson, congregation (the student's, when the sheet has none) and duplicate link, after a mend. */
async function settleSheet(tx: Database, sheetId: string): Promise<void> {
  await tx.query(
    `UPDATE answer_sheets a SET
       lesson_id = coalesce(a.lesson_id, (SELECT pt.lesson_id FROM pages p JOIN page_templates pt ON pt.id = p.template_id
                                           WHERE p.answer_sheet_id = a.id AND NOT p.ignored ORDER BY p.page_number LIMIT 1)),
       assigned_group = coalesce(a.assigned_group, (SELECT s.congregation_id FROM students s WHERE s.id = a.student_id))
     WHERE a.id = $1`,
    [sheetId],
  );
  await tx.query(`UPDATE answer_sheets a SET duplicate_of = ${DUPLICATE_OF_SQL} WHERE a.id = $1`, [sheetId]);
}

/** Moves a page to another sheet of its file (its own sheet: keeps it there); clears its flag. */
export async function movePage(db: Database, pageId: string, targetSheetId: string, by: Mender): Promise<void> {
  await db.transaction(async (tx) => {
    const page = await lockPage(tx, pageId);
    const target = await sheetOf(tx, targetSheetId);
    if (target === null || target.file_id !== page.file_id) throw invalidMend('answer_sheet: not an answer sheet of this page\'s file');
    await tx.query('UPDATE pages SET answer_sheet_id = $2, flag = NULL WHERE id = $1', [pageId, target.id]);
    await record(tx, page.file_id, [pageId], 'moved', by);
    if (page.answer_sheet_id !== null && page.answer_sheet_id !== target.id) await tidySheet(tx, page.answer_sheet_id);
    await settleSheet(tx, target.id);
  });
}

/** Starts a new sheet at a page: it and the pages after it in its sheet move to the new sheet. */
export async function startSheetAt(db: Database, pageId: string, by: Mender): Promise<void> {
  await db.transaction(async (tx) => {
    const page = await lockPage(tx, pageId);
    const { intro } = await lockFile(tx, page.file_id);
    if (page.answer_sheet_id === null) throw invalidMend('new_sheet: this page belongs to no answer sheet');
    const sheet = (await sheetOf(tx, page.answer_sheet_id))!;
    const first = await tx.one<{ page_number: number }>('SELECT min(page_number) AS page_number FROM pages WHERE answer_sheet_id = $1', [sheet.id]);
    if (first.page_number === page.page_number) throw invalidMend('new_sheet: this page already starts its answer sheet');
    const moving = await tx.query<{ id: string }>('SELECT id FROM pages WHERE answer_sheet_id = $1 AND page_number >= $2', [sheet.id, page.page_number]);

    // An issued page names its student; in an intro file a new sheet is a new student.
    const issued = await tx.maybeOne<{ student_id: string }>(
      `SELECT pc.student_id FROM pages p JOIN printed_codes pc ON pc.prefix = 's' AND pc.code_id = p.code_id
       WHERE p.id = $1 AND p.code_prefix = 's'`,
      [pageId],
    );
    const studentId = issued?.student_id ?? (intro ? await newIntroStudent(tx, page.file_id, sheet.student_id) : null);
    await makeRoomAfter(tx, page.file_id, sheet.sequence);
    const created = await tx.one<{ id: string }>(
      `INSERT INTO answer_sheets (file_id, sequence, student_id, lesson_id)
       VALUES ($1, $2, $3, (SELECT pt.lesson_id FROM pages p JOIN page_templates pt ON pt.id = p.template_id WHERE p.id = $4))
       RETURNING id`,
      [page.file_id, sheet.sequence + 1, studentId, pageId],
    );
    await tx.query('UPDATE pages SET answer_sheet_id = $2 WHERE id = ANY($1::uuid[])', [moving.map((row) => row.id), created.id]);
    await tx.query('UPDATE pages SET flag = NULL WHERE id = $1', [pageId]);
    await record(tx, page.file_id, [pageId], 'new_sheet', by);
    await settleSheet(tx, created.id);
    await tidySheet(tx, sheet.id);
  });
}

/** Joins a sheet to the sheet before it in its file: its pages move there and it goes. Returns the sheet joined. */
export async function joinPrevious(db: Database, sheetId: string, by: Mender): Promise<string> {
  return db.transaction(async (tx) => {
    const found = await sheetOf(tx, sheetId);
    if (found === null) throw notFound('Answer sheet not found');
    await lockFile(tx, found.file_id);
    const sheet = (await sheetOf(tx, sheetId))!;
    const previous = await tx.maybeOne<{ id: string }>(
      'SELECT id FROM answer_sheets WHERE file_id = $1 AND sequence < $2 ORDER BY sequence DESC LIMIT 1',
      [sheet.file_id, sheet.sequence],
    );
    if (previous === null) throw invalidMend('join_previous: this is the first answer sheet of its file');
    const moving = await tx.query<{ id: string }>('UPDATE pages SET answer_sheet_id = $2, flag = NULL WHERE answer_sheet_id = $1 RETURNING id', [
      sheet.id,
      previous.id,
    ]);
    await record(tx, sheet.file_id, moving.map((row) => row.id), 'joined', by);
    await tidySheet(tx, sheet.id);
    await settleSheet(tx, previous.id);
    return previous.id;
  });
}

/**
 * Gives a page the code a person read beside its QR: its template, and for an issued (S) code
 * its student. A page whose student differs from its sheet's leaves for a sheet of its own.
 */
export async function typeCode(db: Database, pageId: string, text: string, by: Mender): Promise<void> {
  const reading = readCodeText(text);
  if (reading.code === null || (reading.code.prefix !== 't' && reading.code.prefix !== 's')) {
    throw invalidMend('code: type the code printed beside the page\'s QR code, e.g. S-ABCD2345 or T-ABCD2345');
  }
  const code = reading.code;
  await db.transaction(async (tx) => {
    const page = await lockPage(tx, pageId);
    const meanings = await resolveCodes(tx, [code]);
    const meaning = meanings.resolve(code);
    if (meaning === null || meaning.kind !== 'sheet_page') throw invalidMend(`code: ${text.trim()} is not a code this programme printed`);
    await tx.query(
      `UPDATE pages SET code_prefix = $2, code_id = $3, template_id = $4, unrecognized_reason = NULL, flag = NULL WHERE id = $1`,
      [pageId, code.prefix, code.id, meanings.templateOf(code)],
    );
    await record(tx, page.file_id, [pageId], 'code_typed', by);
    if (page.answer_sheet_id === null || meaning.student_id === null) {
      if (page.answer_sheet_id !== null) await settleSheet(tx, page.answer_sheet_id);
      return;
    }
    const sheet = (await sheetOf(tx, page.answer_sheet_id))!;
    if (sheet.student_id === meaning.student_id) return settleSheet(tx, sheet.id);
    const others = await tx.one<{ n: number }>('SELECT count(*)::int AS n FROM pages WHERE answer_sheet_id = $1 AND id <> $2 AND NOT ignored', [sheet.id, pageId]);
    if (others.n === 0) {
      // The page is the sheet: the sheet is this student's.
      const previousStudent = sheet.student_id;
      await tx.query('UPDATE answer_sheets SET student_id = $2, lesson_id = $3 WHERE id = $1', [sheet.id, meaning.student_id, meaning.lesson_id]);
      if (previousStudent !== null) await removeStudentIfEmpty(tx, previousStudent, sheet.file_id);
      await settleSheet(tx, sheet.id);
      return;
    }
    await makeRoomAfter(tx, sheet.file_id, sheet.sequence);
    const created = await tx.one<{ id: string }>(
      'INSERT INTO answer_sheets (file_id, sequence, student_id, lesson_id) VALUES ($1, $2, $3, $4) RETURNING id',
      [sheet.file_id, sheet.sequence + 1, meaning.student_id, meaning.lesson_id],
    );
    await tx.query('UPDATE pages SET answer_sheet_id = $2 WHERE id = $1', [pageId, created.id]);
    await settleSheet(tx, created.id);
  });
}

/** Ignores or unignores a page; an intro sheet whose pages are all ignored lets its new student go. */
export async function setIgnored(db: Database, pageId: string, ignored: boolean, by: Mender): Promise<void> {
  await db.transaction(async (tx) => {
    const page = await lockPage(tx, pageId);
    const { intro } = await lockFile(tx, page.file_id);
    if (page.ignored === ignored) return;
    await tx.query('UPDATE pages SET ignored = $2 WHERE id = $1', [pageId, ignored]);
    await record(tx, page.file_id, [pageId], ignored ? 'ignored' : 'unignored', by);
    if (page.answer_sheet_id === null) return;
    if (ignored) return tidySheet(tx, page.answer_sheet_id);
    // A page brought back to an intro sheet that lost its student brings a new student.
    const sheet = (await sheetOf(tx, page.answer_sheet_id))!;
    if (intro && sheet.student_id === null) {
      await tx.query('UPDATE answer_sheets SET student_id = $2 WHERE id = $1', [sheet.id, await newIntroStudent(tx, sheet.file_id, null)]);
    }
  });
}

/** Chooses a page's template (or none): a person saying which page it is clears a no-code flag. */
export async function setTemplate(db: Database, pageId: string, templateId: string | null, by: Mender): Promise<void> {
  await db.transaction(async (tx) => {
    const page = await lockPage(tx, pageId);
    await tx.query(
      `UPDATE pages SET template_id = $2,
              flag = CASE WHEN $2::uuid IS NOT NULL AND flag IN ('no_code_found', 'unreadable', 'unknown_code') THEN NULL ELSE flag END
       WHERE id = $1`,
      [pageId, templateId],
    );
    await record(tx, page.file_id, [pageId], 'template_set', by);
  });
}
