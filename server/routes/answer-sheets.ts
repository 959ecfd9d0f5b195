// Answer sheets (responses): the sheets of a file (or every graded one), one sheet, assigning
// sheets to congregations (one by one or a whole file at once), setting a sheet's lesson, and in
// Review its student or keeping it as a duplicate (server/workflow/sheet-mends.ts); a sheet's pages. A coordinator reaches only sheets assigned to its congregation. Assigning gives
// a student without a congregation that one; once a file is sent (or being sent) its sheets'
// congregations are fixed: a change answers 409 SHEET_ALREADY_SENT. A sheet prints again as its
// packet pages (a lost or spoiled print-out).
import type { FastifyInstance } from 'fastify';
import { congregationScope, requireAdmin } from '../auth/session';
import type { ReplyOf, Route } from '../contract/types';
import type { Database } from '../db/database';
import { FILE_NOT_FOUND, forbidden, notFound, sheetAlreadySent, validationError } from '../http-error';
import { pdfDrawing } from '../pdf/lazy-drawing';
import { keptSheetSql, sentOrSendingSql } from '../repositories/sql/file-steps';
import { pageCodes } from '../workflow/printed-codes';
import { joinPrevious } from '../workflow/review-mends';
import { keepDuplicate, setSheetStudent } from '../workflow/sheet-mends';
import { addPacketPages, packetPagesSql, type PacketPageRow } from '../workflow/send-packets';
import { SHEET_SELECT, sheetOf, sheetsWithReasonSql, type SheetRow } from './shared/answer-sheet-view';
import { sendPdf } from './shared/blob-response';
import { fileVisibleSql, sentToSql } from './shared/file-view';
import { loadSheetPages, requireSheetAccess } from './shared/page-view';
import { pageOf, paged } from './shared/paging';
import { orderClause, type SortColumn } from '../repositories/sql/paging';
import { giveCongregationToStudents } from './shared/student-congregation';
import { Where } from '../repositories/sql/where';

const SHEET_NOT_FOUND = 'Answer sheet not found';
const FILE_SENT = 'This file was sent to the study helpers; its responses keep their congregations.';
const SHEET_SENT = 'This response was sent to its congregation; its congregation can no longer change.';
const SHEET_LESSON_SENT = 'This response was sent to its congregation; its lesson can no longer change.';

const SORT: Record<'sequence' | 'course' | 'student' | 'graded_at', SortColumn> = {
  sequence: { sql: 'a.sequence', defaultDirection: 'asc' },
  course: { sql: 'lower(c.name) NULLS LAST, l.number', defaultDirection: 'asc' },
  student: { sql: 'st.human_id', defaultDirection: 'asc' },
  graded_at: { sql: '(SELECT min(fb.created_at) FROM feedback fb JOIN pages fp ON fp.id = fb.page_id WHERE fp.answer_sheet_id = a.id)', defaultDirection: 'desc' },
};

async function loadSheet(db: Database, sheetId: string): Promise<ReplyOf<'getAnswerSheet'>> {
  const row = await db.maybeOne<SheetRow>(`${SHEET_SELECT} WHERE a.id = $1`, [sheetId]);
  if (row === null) throw notFound(SHEET_NOT_FOUND);
  return sheetOf(row);
}

async function requireCongregation(db: Database, id: string): Promise<void> {
  if ((await db.maybeOne('SELECT 1 FROM congregations WHERE id = $1', [id])) === null) {
    throw validationError('assigned_group: no such congregation');
  }
}

export async function answerSheetsRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listAnswerSheets'>>('/api/answer-sheets', async (request): Promise<ReplyOf<'listAnswerSheets'>> => {
    const query = request.query;
    const page = pageOf(query);
    const scope = congregationScope(request);
    if (query.file !== undefined) {
      const file = await db.maybeOne<{ visible: boolean }>(`SELECT ${fileVisibleSql('f', '$2')} AS visible FROM files f WHERE f.id = $1`, [query.file, scope]);
      if (file === null) throw notFound('File not found');
      if (!file.visible) throw forbidden();
    }
    const where = new Where();
    where.addIf(query.file, (p) => `a.file_id = ${p}::uuid`);
    where.addIf(scope, (p) => `a.assigned_group = ${p}::uuid AND ${sentToSql('a.file_id', p)}`);
    if (query.graded !== undefined) where.add((p) => `a.graded = ${p}`, query.graded);
    if (query.reason !== undefined) where.add((p) => `a.id IN (${sheetsWithReasonSql(p)})`, query.reason);
    // The sequence order's direction applies within a file; files stay newest first.
    const sort = query.order_by ?? 'sequence';
    const order =
      sort === 'sequence'
        ? `ORDER BY f.created_at DESC, a.file_id, a.sequence ${query.order_direction === 'desc' ? 'DESC' : 'ASC'}, a.id`
        : orderClause(SORT, sort, query.order_direction, 'a.id');
    const { total } = await db.one<{ total: number }>(
      `SELECT count(*) AS total FROM answer_sheets a ${where.sql}`,
      where.params,
    );
    const rows = await db.query<SheetRow>(
      `${SHEET_SELECT} ${where.sql} ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
      where.params,
    );
    return paged(rows.map(sheetOf), Number(total), page);
  });

  app.patch<Route<'assignFileAnswerSheets'>>('/api/answer-sheets', async (request): Promise<ReplyOf<'assignFileAnswerSheets'>> => {
    requireAdmin(request);
    const fileId = request.query.file;
    const group = request.body.assigned_group;
    const updated = await db.transaction(async (tx) => {
      // The file's row lock orders this against Send (which locks it too before it reads the sheets).
      const file = await tx.maybeOne<{ sent: boolean }>(`SELECT ${sentOrSendingSql('f')} AS sent FROM files f WHERE f.id = $1 FOR UPDATE`, [fileId]);
      if (file === null) throw notFound(FILE_NOT_FOUND);
      await requireCongregation(tx, group);
      const changes = `a.file_id = $1 AND ${keptSheetSql('a')} AND a.assigned_group IS DISTINCT FROM $2::uuid`;
      if (file.sent) {
        if ((await tx.maybeOne(`SELECT 1 FROM answer_sheets a WHERE ${changes} LIMIT 1`, [fileId, group])) !== null) throw sheetAlreadySent(FILE_SENT);
        return 0;
      }
      const count = await tx.execute(`UPDATE answer_sheets a SET assigned_group = $2 WHERE ${changes}`, [fileId, group]);
      const students = await tx.query<{ student_id: string }>(
        `SELECT DISTINCT a.student_id FROM answer_sheets a
         WHERE a.file_id = $1 AND a.assigned_group = $2::uuid AND a.student_id IS NOT NULL AND ${keptSheetSql('a')}`,
        [fileId, group],
      );
      await giveCongregationToStudents(tx, students.map((row) => row.student_id), group);
      return count;
    });
    return { updated };
  });

  app.get<Route<'getAnswerSheet'>>('/api/answer-sheets/:sheet_id', async (request): Promise<ReplyOf<'getAnswerSheet'>> => {
    await requireSheetAccess(db, request, request.params.sheet_id);
    return loadSheet(db, request.params.sheet_id);
  });

  app.patch<Route<'updateAnswerSheet'>>('/api/answer-sheets/:sheet_id', async (request): Promise<ReplyOf<'updateAnswerSheet'>> => {
    const by = requireAdmin(request);
    const sheetId = request.params.sheet_id;
    if (request.body.join_previous !== undefined) {
      if (Object.keys(request.body).length > 1) throw validationError('join_previous: send it alone');
      return loadSheet(db, await joinPrevious(db, sheetId, by));
    }
    if (request.body.keep_duplicate !== undefined) {
      if (Object.keys(request.body).length > 1) throw validationError('keep_duplicate: send it alone');
      await keepDuplicate(db, sheetId, by);
      return loadSheet(db, sheetId);
    }
    const { assigned_group: group, lesson, student } = request.body;
    if (student !== undefined) {
      await setSheetStudent(db, sheetId, student, by);
      // The student takes the sheet's congregation when it has none, as assigning does.
      const named = await db.one<{ assigned_group: string | null }>('SELECT assigned_group FROM answer_sheets WHERE id = $1', [sheetId]);
      if (named.assigned_group !== null) await giveCongregationToStudents(db, [student], named.assigned_group);
    }
    if (group !== undefined && group !== null) await requireCongregation(db, group);
    if (lesson !== undefined && lesson !== null && (await db.maybeOne('SELECT 1 FROM lessons WHERE id = $1', [lesson])) === null) {
      throw validationError('lesson: no such lesson');
    }
    await db.transaction(async (tx) => {
      // The file's row shared: Send, which locks it, waits for this change or this one sees it sent.
      const sheet = await tx.maybeOne<{ student_id: string | null; lesson_id: string | null; assigned_group: string | null; sent: boolean }>(
        `SELECT a.student_id, a.lesson_id, a.assigned_group, ${sentOrSendingSql('f')} AS sent
         FROM answer_sheets a JOIN files f ON f.id = a.file_id WHERE a.id = $1 FOR UPDATE OF a FOR SHARE OF f`,
        [sheetId],
      );
      if (sheet === null) throw notFound(SHEET_NOT_FOUND);
      if (group !== undefined && group !== sheet.assigned_group) {
        if (sheet.sent) throw sheetAlreadySent(SHEET_SENT);
        await tx.query('UPDATE answer_sheets SET assigned_group = $2 WHERE id = $1', [sheetId, group]);
        if (group !== null && sheet.student_id !== null) await giveCongregationToStudents(tx, [sheet.student_id], group);
      }
      if (lesson !== undefined && lesson !== sheet.lesson_id) {
        // Its packet was printed with this lesson, and its return file will carry it.
        if (sheet.sent) throw sheetAlreadySent(SHEET_LESSON_SENT);
        // A new lesson may make the sheet a duplicate of an earlier one (same student and lesson), or stop it being one.
        await tx.query(
          `UPDATE answer_sheets a SET lesson_id = $2, duplicate_kept = false,
             duplicate_of = CASE WHEN a.student_id IS NULL OR $2::uuid IS NULL THEN NULL ELSE (
               SELECT e.id FROM answer_sheets e
               WHERE e.student_id = a.student_id AND e.lesson_id = $2::uuid AND e.id <> a.id
                 AND (e.created_at, e.file_id, e.sequence) < (a.created_at, a.file_id, a.sequence)
               ORDER BY e.created_at, e.sequence LIMIT 1) END
           WHERE a.id = $1`,
          [sheetId, lesson],
        );
      }
    });
    return loadSheet(db, sheetId);
  });

  app.get<Route<'listAnswerSheetPages'>>('/api/answer-sheets/:id/pages', async (request): Promise<ReplyOf<'listAnswerSheetPages'>> => {
    await requireSheetAccess(db, request, request.params.id);
    return loadSheetPages(db, request.params.id);
  });

  app.get<Route<'printAnswerSheet'>>('/api/answer-sheets/:response_id/print.pdf', async (request, reply) => {
    const sheetId = request.params.response_id;
    await requireSheetAccess(db, request, sheetId);
    const rows = await db.query<PacketPageRow>(packetPagesSql('a.id = $1'), [sheetId]);
    if (rows.length === 0) throw notFound('This answer sheet has no pages to print');
    const codes = await pageCodes(db, rows.map((row) => row.page_id));
    const { createPdfWriter } = await pdfDrawing();
    const writer = await createPdfWriter({ title: 'Answer sheet' });
    await addPacketPages(writer, app.blobStore, rows, codes, app.config.publicUrl);
    const pdf = await writer.finish();
    const student = rows[0]!.student_human_id;
    return sendPdf(reply, pdf, `answer-sheet-${student ?? sheetId.slice(0, 8)}.pdf`);
  });
}
