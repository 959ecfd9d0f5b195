// Baptism requests: the list (newest first), a request made by typing a student's id, and a
// response flagged as a baptism request (one way), which also makes the student's request.
// A coordinator works only with its own congregation's students and responses. An admin deletes
// a pending request made by mistake, which unflags the student's responses (the flag's undo).
import type { FastifyInstance } from 'fastify';
import { congregationScope } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { badRequest, conflict, conflictError, notFound } from '../http-error';
import { answerSheetRowById, flagSheetAsBaptismRequest, lockSheetForBaptismFlag, newestSheetOfStudent, unflagBaptismSheetsOfStudent } from '../repositories/answer-sheets';
import {
  baptismRequestPage,
  baptismRequestRowById,
  deleteBaptismRequest,
  insertBaptismRequestUnlessAny,
  lockBaptismRequest,
  type BaptismRequestRow,
} from '../repositories/baptism-requests';
import { studentIdByHumanIdInScope } from '../repositories/students';
import { sheetOf } from './shared/answer-sheet-view';
import { studentNotFound } from './shared/errors';
import { pageOf, paged } from './shared/paging';
import { studentName } from './shared/refs';

/** Spec section 8: the dialog shows these texts as the server sends them. */
export const NO_ANSWER_SHEET = 'No answer sheet found for this student.';
export const BAPTISM_REQUEST_EXISTS = 'A baptism request already exists for this student.';
const BAPTISM_REQUEST_NOT_FOUND = 'Baptism request not found';

function baptismRequestOf(row: BaptismRequestRow): Schemas['BaptismRequest'] {
  return {
    id: row.id,
    student: { id: row.student_id, human_id: Number(row.human_id), name: studentName(row.attributes) },
    service_center: row.service_center_name === null ? null : { name: row.service_center_name },
    recruiter: row.recruiter_name === null ? null : { name: row.recruiter_name },
    latest_status: { status: row.status },
    requested_at: new Date(row.requested_at).toISOString(),
  };
}

async function findBaptismRequest(db: Database, id: string): Promise<Schemas['BaptismRequest']> {
  return baptismRequestOf(await baptismRequestRowById(db, id));
}

/** Flags the response (one a coordinator sees) and makes its student's request, unless the student has one. */
async function flagBaptismRequest(db: Database, sheetId: string, scope: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    // Any response a coordinator may not flag is unknown to it (the answer would name it).
    const sheet = await lockSheetForBaptismFlag(tx, sheetId, scope);
    if (sheet === null) throw notFound('Answer sheet not found');
    if (sheet.student_id === null) {
      throw conflictError('This response has no student yet, so it cannot be a baptism request.');
    }
    await flagSheetAsBaptismRequest(tx, sheetId);
    await insertBaptismRequestUnlessAny(tx, sheet.student_id, sheetId);
  });
}

/** Deletes a pending request and unflags its student's responses (the flag's undo). */
async function withdrawBaptismRequest(db: Database, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const found = await lockBaptismRequest(tx, id);
    if (found === null) throw notFound(BAPTISM_REQUEST_NOT_FOUND);
    if (found.status !== 'pending') {
      throw conflictError('This baptism request is already being handled, so it cannot be deleted.');
    }
    await deleteBaptismRequest(tx, id);
    await unflagBaptismSheetsOfStudent(tx, found.student_id);
  });
}

export async function baptismRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listBaptismRequests'>>('/api/baptism-requests', async (request): Promise<ReplyOf<'listBaptismRequests'>> => {
    const page = pageOf(request.query);
    const { rows, total } = await baptismRequestPage(db, congregationScope(request), page);
    return paged(rows.map(baptismRequestOf), total, page);
  });

  app.post<Route<'createBaptismRequest'>>(
    '/api/baptism-request',
    async (request, reply): Promise<ReplyOf<'createBaptismRequest', 201>> => {
      const studentId = await studentIdByHumanIdInScope(db, request.body.student_id, congregationScope(request));
      if (studentId === null) throw studentNotFound();
      const sheetId = await newestSheetOfStudent(db, studentId);
      if (sheetId === null) throw badRequest(NO_ANSWER_SHEET);
      const created = await insertBaptismRequestUnlessAny(db, studentId, sheetId);
      if (created === null) throw conflict(BAPTISM_REQUEST_EXISTS);
      reply.code(201);
      return findBaptismRequest(db, created);
    },
  );

  app.post<Route<'flagAnswerSheetBaptismRequest'>>(
    '/api/responses/:response_id/baptism-request',
    async (request): Promise<ReplyOf<'flagAnswerSheetBaptismRequest'>> => {
      const id = request.params.response_id;
      await flagBaptismRequest(db, id, congregationScope(request));
      const row = await answerSheetRowById(db, id);
      if (row === null) throw notFound('Answer sheet not found');
      return sheetOf(row);
    },
  );

  app.delete<Route<'deleteBaptismRequest'>>('/api/baptism-requests/:id', async (request, reply) => {
    await withdrawBaptismRequest(db, request.params.id);
    return reply.code(204).send();
  });
}
