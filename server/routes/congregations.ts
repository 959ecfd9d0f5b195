// Congregations: the admin list and creation (with the spec's WBS code rule), and what a
// congregation's coordinator reads about its own congregation: the record, the dashboard
// counts and its study helpers. A coordinator addressing another congregation gets 403. An
// admin deletes a congregation made by mistake while nothing refers to it (else 409). Its
// e-mail addresses (the Emails tile) are kept by admins and its own coordinator alike.
import type { FastifyInstance } from 'fastify';
import { propertyLimits, schemaLimits } from '../../generated/limits.js';
import { requireCongregationAccess } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { conflictError, notFound, validationError } from '../http-error';
import { sentToSql } from '../repositories/files';
import { refuseWhileUsed } from './shared/in-use';
import { pageOf, paged } from './shared/paging';
import { orderClause, type SortColumn } from '../repositories/sql/paging';
import { STUDY_HELPER_SELECT, type StudyHelperRow } from '../repositories/study-helpers';
import { studyHelperOf, studyHelperPage } from './shared/study-helper';
import { Where, containsPattern } from '../repositories/sql/where';

const CONGREGATION_NOT_FOUND = 'Congregation not found';
/** A congregation keeps at most this many addresses (the list is not paged). */
export const MAX_CONGREGATION_EMAILS = schemaLimits.CongregationEmailList.maxItems;
/** One address: something@domain.tld, no spaces, no second @. */
const EMAIL_PATTERN = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]+$/;

/** Spec section 5: longer than 5 characters, exactly one space, not in the first two positions. */
export function wbsCodeProblem(wbsCode: string): string | null {
  if (wbsCode.length < propertyLimits.CongregationCreate.wbs_code.minLength) return `WBS code must be longer than ${propertyLimits.CongregationCreate.wbs_code.minLength - 1} characters.`;
  if (wbsCode.split(' ').length !== 2) return 'WBS code must contain exactly one space.';
  if (wbsCode.indexOf(' ') < 2) return 'The space in a WBS code must not be in the first two positions.';
  return null;
}

const SORT: Record<'wbs_code' | 'display_name' | 'created_at', SortColumn> = {
  wbs_code: { sql: 'lower(wbs_code)', defaultDirection: 'asc' },
  display_name: { sql: 'lower(display_name)', defaultDirection: 'asc' },
  created_at: { sql: 'created_at', defaultDirection: 'desc' },
};

interface CongregationRow {
  id: string;
  wbs_code: string;
  display_name: string;
  created_at: Date;
}

function congregationOf(row: CongregationRow): Schemas['Congregation'] {
  return { id: row.id, wbs_code: row.wbs_code, display_name: row.display_name, created_at: new Date(row.created_at).toISOString() };
}

async function findCongregation(db: Database, id: string): Promise<CongregationRow> {
  const row = await db.maybeOne<CongregationRow>(
    'SELECT id, wbs_code, display_name, created_at FROM congregations WHERE id = $1',
    [id],
  );
  if (row === null) throw notFound(CONGREGATION_NOT_FOUND);
  return row;
}

export async function congregationRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listCongregations'>>('/api/congregations', async (request): Promise<ReplyOf<'listCongregations'>> => {
    const page = pageOf(request.query);
    const where = new Where();
    const wbsCode = request.query.wbs_code?.trim();
    if (wbsCode) where.add((p) => `lower(wbs_code) LIKE ${p}`, containsPattern(wbsCode));
    const order = orderClause(SORT, request.query.order_by ?? 'wbs_code', request.query.order_direction, 'id');
    const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM congregations ${where.sql}`, where.params);
    const rows = await db.query<CongregationRow>(
      `SELECT id, wbs_code, display_name, created_at FROM congregations ${where.sql}
       ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
      where.params,
    );
    return paged(rows.map(congregationOf), total, page);
  });

  app.post<Route<'createCongregation'>>('/api/congregations', async (request, reply): Promise<ReplyOf<'createCongregation', 201>> => {
    const { wbs_code: wbsCode } = request.body;
    const displayName = request.body.display_name.trim();
    const problem = wbsCodeProblem(wbsCode);
    if (problem !== null) throw validationError(problem);
    if (displayName === '') throw validationError('Display name must not be empty.');
    // ON CONFLICT keeps two simultaneous creations of one code from both succeeding.
    const row = await db.maybeOne<CongregationRow>(
      `INSERT INTO congregations (wbs_code, display_name) VALUES ($1, $2)
       ON CONFLICT (wbs_code) DO NOTHING
       RETURNING id, wbs_code, display_name, created_at`,
      [wbsCode, displayName],
    );
    if (row === null) throw conflictError(`A congregation with WBS code "${wbsCode}" already exists.`);
    reply.code(201);
    return congregationOf(row);
  });

  app.get<Route<'getCongregation'>>('/api/congregations/:id', async (request): Promise<ReplyOf<'getCongregation'>> => {
    requireCongregationAccess(request, request.params.id);
    return congregationOf(await findCongregation(db, request.params.id));
  });

  app.delete<Route<'deleteCongregation'>>('/api/congregations/:id', async (request, reply) => {
    const id = request.params.id;
    await db.transaction(async (tx) => {
      const found = await tx.maybeOne('SELECT id FROM congregations WHERE id = $1 FOR UPDATE', [id]);
      if (found === null) throw notFound(CONGREGATION_NOT_FOUND);
      await refuseWhileUsed(tx, 'congregation', id, [
        { name: ['student', 'students'], countSql: 'SELECT count(*) FROM students WHERE congregation_id = $1' },
        { name: ['study helper', 'study helpers'], countSql: 'SELECT count(*) FROM study_helpers WHERE congregation_id = $1' },
        { name: ['answer sheet assigned to it', 'answer sheets assigned to it'], countSql: 'SELECT count(*) FROM answer_sheets WHERE assigned_group = $1' },
        {
          name: ['sent file', 'sent files'],
          countSql: `SELECT count(*) FROM (SELECT file_id FROM file_congregations WHERE congregation_id = $1
                     UNION SELECT file_id FROM packets WHERE congregation_id = $1) f`,
        },
        { name: ['graded upload', 'graded uploads'], countSql: 'SELECT count(*) FROM graded_uploads WHERE congregation_id = $1' },
        { name: ['user', 'users'], countSql: 'SELECT count(*) FROM users WHERE congregation_id = $1' },
      ]);
      // An admin acting for it (View As) simply stops acting for it (ON DELETE SET NULL).
      await tx.query('DELETE FROM congregations WHERE id = $1', [id]);
    });
    return reply.code(204).send();
  });

  app.get<Route<'getCongregationStats'>>('/api/congregations/:id/stats', async (request): Promise<ReplyOf<'getCongregationStats'>> => {
    requireCongregationAccess(request, request.params.id);
    await findCongregation(db, request.params.id);
    // Ready to print: sent to this congregation and not yet printed there.
    // All files: its files list, the files with its sheets that were sent to it (not those in Review).
    const counts = await db.one<{ ready_to_print_count: number; all_files_count: number }>(
      `SELECT
         (SELECT count(*) FROM file_congregations fc JOIN files f ON f.id = fc.file_id
          WHERE fc.congregation_id = $1 AND fc.status = 'unprinted' AND f.sent_at IS NOT NULL) AS ready_to_print_count,
         (SELECT count(*) FROM file_groups fg WHERE fg.congregation_id = $1 AND ${sentToSql('fg.file_id', '$1')}) AS all_files_count`,
      [request.params.id],
    );
    return { ready_to_print_count: Number(counts.ready_to_print_count), all_files_count: Number(counts.all_files_count) };
  });

  app.get<Route<'listCongregationStudyHelpers'>>(
    '/api/congregations/:id/study-helpers',
    async (request): Promise<ReplyOf<'listCongregationStudyHelpers'>> => {
      requireCongregationAccess(request, request.params.id);
      await findCongregation(db, request.params.id);
      return studyHelperPage(db, request.params.id, request.query);
    },
  );

  app.post<Route<'createCongregationStudyHelper'>>(
    '/api/congregations/:id/study-helpers',
    async (request, reply): Promise<ReplyOf<'createCongregationStudyHelper', 201>> => {
      requireCongregationAccess(request, request.params.id);
      await findCongregation(db, request.params.id);
      const name = request.body.name.trim();
      if (name === '') throw validationError('Name must not be empty.');
      const { id } = await db.one<{ id: string }>(
        'INSERT INTO study_helpers (congregation_id, name, email) VALUES ($1, $2, $3) RETURNING id',
        [request.params.id, name, request.body.email.trim()],
      );
      const row = await db.one<StudyHelperRow>(`${STUDY_HELPER_SELECT} WHERE h.id = $1`, [id]);
      reply.code(201);
      return studyHelperOf(row);
    },
  );

  app.get<Route<'listCongregationEmails'>>('/api/congregations/:id/emails', async (request): Promise<ReplyOf<'listCongregationEmails'>> => {
    requireCongregationAccess(request, request.params.id);
    await findCongregation(db, request.params.id);
    const rows = await db.query<{ id: string; email: string; created_at: Date }>(
      'SELECT id, email, created_at FROM congregation_emails WHERE congregation_id = $1 ORDER BY email',
      [request.params.id],
    );
    return rows.map((row) => ({ id: row.id, email: row.email, created_at: new Date(row.created_at).toISOString() }));
  });

  app.post<Route<'createCongregationEmail'>>(
    '/api/congregations/:id/emails',
    async (request, reply): Promise<ReplyOf<'createCongregationEmail', 201>> => {
      requireCongregationAccess(request, request.params.id);
      const email = request.body.email.trim().toLowerCase();
      if (!EMAIL_PATTERN.test(email)) throw validationError(`"${request.body.email.trim()}" is not an e-mail address.`);
      const row = await db.transaction(async (tx) => {
        const found = await tx.maybeOne('SELECT id FROM congregations WHERE id = $1 FOR UPDATE', [request.params.id]);
        if (found === null) throw notFound(CONGREGATION_NOT_FOUND);
        const { count } = await tx.one<{ count: number }>('SELECT count(*)::int AS count FROM congregation_emails WHERE congregation_id = $1', [request.params.id]);
        if (count >= MAX_CONGREGATION_EMAILS) throw validationError(`A congregation keeps at most ${MAX_CONGREGATION_EMAILS} e-mail addresses.`);
        return tx.maybeOne<{ id: string; email: string }>(
          `INSERT INTO congregation_emails (congregation_id, email) VALUES ($1, $2)
           ON CONFLICT (congregation_id, email) DO NOTHING RETURNING id, email`,
          [request.params.id, email],
        );
      });
      if (row === null) throw validationError(`This congregation has the address ${email} already.`);
      reply.code(201);
      return row;
    },
  );

  app.delete<Route<'deleteCongregationEmail'>>('/api/congregations/:id/emails/:email_id', async (request, reply) => {
    requireCongregationAccess(request, request.params.id);
    const deleted = await db.execute('DELETE FROM congregation_emails WHERE id = $1 AND congregation_id = $2', [request.params.email_id, request.params.id]);
    if (deleted === 0) throw notFound('E-mail address not found');
    return reply.code(204).send();
  });
}
