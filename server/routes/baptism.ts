// Baptism requests: the list (newest first), a request made by typing a student's id, and a
// response flagged as a baptism request (one way), which also makes the student's request.
// A coordinator works only with its own congregation's students and responses. An admin deletes
// a pending request made by mistake, which unflags the student's responses (the flag's undo).
import type { FastifyInstance } from 'fastify';
import { congregationScope } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { badRequest, conflict, conflictError, notFound } from '../http-error';
import { SHEET_SELECT, type SheetRow } from '../repositories/answer-sheets';
import { sheetOf } from './shared/answer-sheet-view';
import { sentToSql } from '../repositories/files';
import { studentNotFound } from './shared/errors';
import { pageOf, paged } from './shared/paging';
import { studentName } from './shared/refs';
import { NEWEST_ANSWER_SHEETS_FIRST, studentVisible } from '../repositories/students';
import { Where } from '../repositories/sql/where';

/** Spec section 8: the dialog shows these texts as the server sends them. */
export const NO_ANSWER_SHEET = 'No answer sheet found for this student.';
export const BAPTISM_REQUEST_EXISTS = 'A baptism request already exists for this student.';
const BAPTISM_REQUEST_NOT_FOUND = 'Baptism request not found';

// The student's own service center and recruiter; failing those, the ones of the file the
// request's answer sheet came in.
const BAPTISM_REQUEST_SELECT = `
  SELECT b.id, b.status, b.requested_at, s.id AS student_id, s.human_id, s.attributes,
         COALESCE(sc.name, fsc.name) AS service_center_name, COALESCE(r.name, fr.name) AS recruiter_name
  FROM baptism_requests b
  JOIN students s ON s.id = b.student_id
  LEFT JOIN service_centers sc ON sc.id = s.service_center_id
  LEFT JOIN recruiters r ON r.id = s.recruiter_id
  LEFT JOIN answer_sheets a ON a.id = b.answer_sheet_id
  LEFT JOIN files f ON f.id = a.file_id
  LEFT JOIN service_centers fsc ON fsc.id = f.service_center_id
  LEFT JOIN recruiters fr ON fr.id = f.recruiter_id`;

interface BaptismRequestRow {
  id: string;
  status: Schemas['BaptismStatus'];
  requested_at: Date;
  student_id: string;
  human_id: number;
  attributes: Schemas['StudentAttributes'];
  service_center_name: string | null;
  recruiter_name: string | null;
}

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
  return baptismRequestOf(await db.one<BaptismRequestRow>(`${BAPTISM_REQUEST_SELECT} WHERE b.id = $1`, [id]));
}

export async function baptismRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listBaptismRequests'>>('/api/baptism-requests', async (request): Promise<ReplyOf<'listBaptismRequests'>> => {
    const scope = congregationScope(request);
    const page = pageOf(request.query);
    const where = new Where().addIf(scope, (p) => `s.congregation_id = ${p}`);
    const { total } = await db.one<{ total: number }>(
      `SELECT count(*) AS total FROM baptism_requests b JOIN students s ON s.id = b.student_id ${where.sql}`,
      where.params,
    );
    const rows = await db.query<BaptismRequestRow>(
      `${BAPTISM_REQUEST_SELECT} ${where.sql}
       ORDER BY b.requested_at DESC, b.id DESC LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
      where.params,
    );
    return paged(rows.map(baptismRequestOf), total, page);
  });

  app.post<Route<'createBaptismRequest'>>(
    '/api/baptism-request',
    async (request, reply): Promise<ReplyOf<'createBaptismRequest', 201>> => {
      const scope = congregationScope(request);
      const student = await db.maybeOne<{ id: string }>(
        `SELECT s.id FROM students s WHERE s.human_id = $1 AND ${studentVisible('$2')}`,
        [request.body.student_id, scope],
      );
      if (student === null) throw studentNotFound();
      const sheet = await db.maybeOne<{ id: string }>(
        `SELECT a.id FROM answer_sheets a WHERE a.student_id = $1 ORDER BY ${NEWEST_ANSWER_SHEETS_FIRST} LIMIT 1`,
        [student.id],
      );
      if (sheet === null) throw badRequest(NO_ANSWER_SHEET);
      // ON CONFLICT: the unique student_id decides, even for two requests at the same moment.
      const created = await db.maybeOne<{ id: string }>(
        `INSERT INTO baptism_requests (student_id, answer_sheet_id) VALUES ($1, $2)
         ON CONFLICT (student_id) DO NOTHING RETURNING id`,
        [student.id, sheet.id],
      );
      if (created === null) throw conflict(BAPTISM_REQUEST_EXISTS);
      reply.code(201);
      return findBaptismRequest(db, created.id);
    },
  );

  app.post<Route<'flagAnswerSheetBaptismRequest'>>(
    '/api/responses/:response_id/baptism-request',
    async (request): Promise<ReplyOf<'flagAnswerSheetBaptismRequest'>> => {
      const scope = congregationScope(request);
      const id = request.params.response_id;
      await db.transaction(async (tx) => {
        // A coordinator may flag the responses it can see: assigned to its congregation, in a file
        // sent to it. Any other is unknown to it (the answer would name it).
        const sheet = await tx.maybeOne<{ student_id: string | null }>(
          `SELECT a.student_id FROM answer_sheets a
           WHERE a.id = $1 AND ($2::uuid IS NULL OR (a.assigned_group = $2::uuid AND ${sentToSql('a.file_id', '$2')}))
           FOR UPDATE OF a`,
          [id, scope],
        );
        if (sheet === null) throw notFound('Answer sheet not found');
        if (sheet.student_id === null) {
          throw conflictError('This response has no student yet, so it cannot be a baptism request.');
        }
        await tx.query('UPDATE answer_sheets SET is_baptism_request = true WHERE id = $1 AND NOT is_baptism_request', [id]);
        await tx.query(
          `INSERT INTO baptism_requests (student_id, answer_sheet_id) VALUES ($1, $2) ON CONFLICT (student_id) DO NOTHING`,
          [sheet.student_id, id],
        );
      });
      return sheetOf(await db.one<SheetRow>(`${SHEET_SELECT} WHERE a.id = $1`, [id]));
    },
  );

  app.delete<Route<'deleteBaptismRequest'>>('/api/baptism-requests/:id', async (request, reply) => {
    const id = request.params.id;
    await db.transaction(async (tx) => {
      const found = await tx.maybeOne<{ student_id: string; status: Schemas['BaptismStatus'] }>(
        'SELECT student_id, status FROM baptism_requests WHERE id = $1 FOR UPDATE',
        [id],
      );
      if (found === null) throw notFound(BAPTISM_REQUEST_NOT_FOUND);
      if (found.status !== 'pending') {
        throw conflictError('This baptism request is already being handled, so it cannot be deleted.');
      }
      await tx.query('DELETE FROM baptism_requests WHERE id = $1', [id]);
      // A flagged response stands for the request: with it gone, none of the student's stays flagged.
      await tx.query('UPDATE answer_sheets SET is_baptism_request = false WHERE student_id = $1 AND is_baptism_request', [found.student_id]);
    });
    return reply.code(204).send();
  });
}
