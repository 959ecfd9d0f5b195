// Answer sheets (responses): the sheets of a file (or every graded one), one sheet, assigning
// sheets to congregations (one by one or a whole file at once), setting a sheet's lesson, and in
// Review its student or keeping it as a duplicate (server/workflow/sheet-mends.ts); a sheet's pages. A coordinator reaches only sheets assigned to
// its congregation. Assigning gives
// a student without a congregation that one; once a file is sent (or being sent) its sheets'
// congregations are fixed: a change answers 409 SHEET_ALREADY_SENT. A sheet prints again as its
// packet pages (a lost or spoiled print-out).
import type { FastifyInstance } from 'fastify';
import { congregationScope, requireAdmin, type SessionUser } from '../auth/session';
import type { ReplyOf, Route } from '../contract/types';
import type { Database } from '../db/database';
import { FILE_NOT_FOUND, forbidden, notFound, sheetAlreadySent, validationError } from '../http-error';
import { pdfDrawing } from '../pdf/lazy-drawing';
import {
  answerSheetListPage,
  answerSheetRowById,
  assignKeptSheetsOfFile,
  congregationOfSheet,
  fileHasSheetsToReassign,
  lockSheetForChange,
  setSheetCongregation,
  setSheetLesson,
  studentsOfFileSheetsAssignedTo,
} from '../repositories/answer-sheets';
import { congregationExists } from '../repositories/congregations';
import { fileVisibleInScope, lockFileForSheetAssignment } from '../repositories/files';
import { lessonExists } from '../repositories/lessons';
import { pageCodes } from '../workflow/printed-codes';
import { joinPrevious } from '../workflow/review-mends';
import { keepDuplicate, setSheetStudent } from '../workflow/sheet-mends';
import { addPacketPages } from '../workflow/send-packets';
import { packetPagesOfSheet } from '../repositories/file-sending';
import { sheetOf } from './shared/answer-sheet-view';
import { sendPdf } from './shared/blob-response';
import { loadSheetPages, requireSheetAccess } from './shared/page-view';
import { pageOf, paged } from './shared/paging';
import { giveCongregationToStudents } from '../repositories/students';

const SHEET_NOT_FOUND = 'Answer sheet not found';
const FILE_SENT = 'This file was sent to the study helpers; its responses keep their congregations.';
const SHEET_SENT = 'This response was sent to its congregation; its congregation can no longer change.';
const SHEET_LESSON_SENT = 'This response was sent to its congregation; its lesson can no longer change.';

type SheetPatch = Route<'updateAnswerSheet'>['Body'];

async function loadSheet(db: Database, sheetId: string): Promise<ReplyOf<'getAnswerSheet'>> {
  const row = await answerSheetRowById(db, sheetId);
  if (row === null) throw notFound(SHEET_NOT_FOUND);
  return sheetOf(row);
}

async function requireCongregation(db: Database, id: string): Promise<void> {
  if (!(await congregationExists(db, id))) throw validationError('assigned_group: no such congregation');
}

/** 404 when the file does not exist, 403 when a coordinator's congregation was not sent it. */
async function requireFileVisible(db: Database, fileId: string, scope: string | null): Promise<void> {
  const visible = await fileVisibleInScope(db, fileId, scope);
  if (visible === null) throw notFound('File not found');
  if (!visible) throw forbidden();
}

/**
 * Assigns every kept sheet of the file to the congregation, giving their students without one
 * that one; returns how many sheets changed. A sent file's sheets keep theirs (409 on a change).
 */
async function assignFileSheets(db: Database, fileId: string, group: string): Promise<number> {
  return db.transaction(async (tx) => {
    // The file's row lock orders this against Send (which locks it too before it reads the sheets).
    const sent = await lockFileForSheetAssignment(tx, fileId);
    if (sent === null) throw notFound(FILE_NOT_FOUND);
    await requireCongregation(tx, group);
    if (sent) {
      if (await fileHasSheetsToReassign(tx, fileId, group)) throw sheetAlreadySent(FILE_SENT);
      return 0;
    }
    const count = await assignKeptSheetsOfFile(tx, fileId, group);
    await giveCongregationToStudents(tx, await studentsOfFileSheetsAssignedTo(tx, fileId, group), group);
    return count;
  });
}

/** Names the sheet's student; the student takes the sheet's congregation when it has none, as assigning does. */
async function nameSheetStudent(db: Database, sheetId: string, student: string, by: SessionUser): Promise<void> {
  await setSheetStudent(db, sheetId, student, by);
  const group = await congregationOfSheet(db, sheetId);
  if (group !== null) await giveCongregationToStudents(db, [student], group);
}

/** The sheet's congregation and lesson, refused once the sheet is sent (its packet carries them). */
async function changeSheetGroupAndLesson(db: Database, sheetId: string, group: string | null | undefined, lesson: string | null | undefined): Promise<void> {
  await db.transaction(async (tx) => {
    const sheet = await lockSheetForChange(tx, sheetId);
    if (sheet === null) throw notFound(SHEET_NOT_FOUND);
    if (group !== undefined && group !== sheet.assigned_group) {
      if (sheet.sent) throw sheetAlreadySent(SHEET_SENT);
      await setSheetCongregation(tx, sheetId, group);
      if (group !== null && sheet.student_id !== null) await giveCongregationToStudents(tx, [sheet.student_id], group);
    }
    if (lesson !== undefined && lesson !== sheet.lesson_id) {
      // Its packet was printed with this lesson, and its return file will carry it.
      if (sheet.sent) throw sheetAlreadySent(SHEET_LESSON_SENT);
      await setSheetLesson(tx, sheetId, lesson);
    }
  });
}

/** A change sent alone (join_previous, keep_duplicate); returns the sheet it leaves, or null for none of those. */
async function applyLoneSheetMend(db: Database, sheetId: string, body: SheetPatch, by: SessionUser): Promise<string | null> {
  const lone = body.join_previous !== undefined ? 'join_previous' : body.keep_duplicate !== undefined ? 'keep_duplicate' : null;
  if (lone === null) return null;
  if (Object.keys(body).length > 1) throw validationError(`${lone}: send it alone`);
  if (lone === 'join_previous') return joinPrevious(db, sheetId, by);
  await keepDuplicate(db, sheetId, by);
  return sheetId;
}

async function updateSheet(db: Database, sheetId: string, body: SheetPatch, by: SessionUser): Promise<string> {
  const mended = await applyLoneSheetMend(db, sheetId, body, by);
  if (mended !== null) return mended;
  const { assigned_group: group, lesson, student } = body;
  if (student !== undefined) await nameSheetStudent(db, sheetId, student, by);
  if (group !== undefined && group !== null) await requireCongregation(db, group);
  if (lesson !== undefined && lesson !== null && !(await lessonExists(db, lesson))) throw validationError('lesson: no such lesson');
  await changeSheetGroupAndLesson(db, sheetId, group, lesson);
  return sheetId;
}

export async function answerSheetsRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listAnswerSheets'>>('/api/answer-sheets', async (request): Promise<ReplyOf<'listAnswerSheets'>> => {
    const query = request.query;
    const page = pageOf(query);
    const scope = congregationScope(request);
    if (query.file !== undefined) await requireFileVisible(db, query.file, scope);
    const filter = { file: query.file, scope, graded: query.graded, reason: query.reason, orderBy: query.order_by ?? 'sequence', direction: query.order_direction };
    const { rows, total } = await answerSheetListPage(db, filter, page);
    return paged(rows.map(sheetOf), total, page);
  });

  app.patch<Route<'assignFileAnswerSheets'>>('/api/answer-sheets', async (request): Promise<ReplyOf<'assignFileAnswerSheets'>> => {
    requireAdmin(request);
    return { updated: await assignFileSheets(db, request.query.file, request.body.assigned_group) };
  });

  app.get<Route<'getAnswerSheet'>>('/api/answer-sheets/:sheet_id', async (request): Promise<ReplyOf<'getAnswerSheet'>> => {
    await requireSheetAccess(db, request, request.params.sheet_id);
    return loadSheet(db, request.params.sheet_id);
  });

  app.patch<Route<'updateAnswerSheet'>>('/api/answer-sheets/:sheet_id', async (request): Promise<ReplyOf<'updateAnswerSheet'>> => {
    const by = requireAdmin(request);
    return loadSheet(db, await updateSheet(db, request.params.sheet_id, request.body, by));
  });

  app.get<Route<'listAnswerSheetPages'>>('/api/answer-sheets/:id/pages', async (request): Promise<ReplyOf<'listAnswerSheetPages'>> => {
    await requireSheetAccess(db, request, request.params.id);
    return loadSheetPages(db, request.params.id);
  });

  app.get<Route<'printAnswerSheet'>>('/api/answer-sheets/:response_id/print.pdf', async (request, reply) => {
    const sheetId = request.params.response_id;
    await requireSheetAccess(db, request, sheetId);
    const rows = await packetPagesOfSheet(db, sheetId);
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
