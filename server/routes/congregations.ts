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
import {
  congregationById,
  congregationDashboardCounts,
  congregationListPage,
  CONGREGATION_USES,
  deleteCongregation,
  insertCongregation,
  lockCongregation,
  type CongregationRow,
} from '../repositories/congregations';
import { countCongregationEmails, deleteCongregationEmail, emailsOfCongregation, insertCongregationEmail } from '../repositories/congregation-emails';
import { insertStudyHelper } from '../repositories/study-helpers';
import { refuseWhileUsed } from './shared/in-use';
import { pageOf, paged } from './shared/paging';
import { studyHelperOf, studyHelperPage } from './shared/study-helper';

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

function congregationOf(row: CongregationRow): Schemas['Congregation'] {
  return { id: row.id, wbs_code: row.wbs_code, display_name: row.display_name, created_at: new Date(row.created_at).toISOString() };
}

async function findCongregation(db: Database, id: string): Promise<CongregationRow> {
  const row = await congregationById(db, id);
  if (row === null) throw notFound(CONGREGATION_NOT_FOUND);
  return row;
}

export async function congregationRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listCongregations'>>('/api/congregations', async (request): Promise<ReplyOf<'listCongregations'>> => {
    const { wbs_code: wbsCode, order_by: orderBy, order_direction: direction } = request.query;
    const page = pageOf(request.query);
    const { rows, total } = await congregationListPage(db, { wbsCode: wbsCode?.trim(), orderBy: orderBy ?? 'wbs_code', direction }, page);
    return paged(rows.map(congregationOf), total, page);
  });

  app.post<Route<'createCongregation'>>('/api/congregations', async (request, reply): Promise<ReplyOf<'createCongregation', 201>> => {
    const { wbs_code: wbsCode } = request.body;
    const displayName = request.body.display_name.trim();
    const problem = wbsCodeProblem(wbsCode);
    if (problem !== null) throw validationError(problem);
    if (displayName === '') throw validationError('Display name must not be empty.');
    const row = await insertCongregation(db, wbsCode, displayName);
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
      if (!(await lockCongregation(tx, id))) throw notFound(CONGREGATION_NOT_FOUND);
      await refuseWhileUsed(tx, 'congregation', id, CONGREGATION_USES);
      await deleteCongregation(tx, id);
    });
    return reply.code(204).send();
  });

  app.get<Route<'getCongregationStats'>>('/api/congregations/:id/stats', async (request): Promise<ReplyOf<'getCongregationStats'>> => {
    requireCongregationAccess(request, request.params.id);
    await findCongregation(db, request.params.id);
    return congregationDashboardCounts(db, request.params.id);
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
      const row = await insertStudyHelper(db, request.params.id, name, request.body.email.trim());
      reply.code(201);
      return studyHelperOf(row);
    },
  );

  app.get<Route<'listCongregationEmails'>>('/api/congregations/:id/emails', async (request): Promise<ReplyOf<'listCongregationEmails'>> => {
    requireCongregationAccess(request, request.params.id);
    await findCongregation(db, request.params.id);
    const rows = await emailsOfCongregation(db, request.params.id);
    return rows.map((row) => ({ id: row.id, email: row.email, created_at: new Date(row.created_at).toISOString() }));
  });

  app.post<Route<'createCongregationEmail'>>(
    '/api/congregations/:id/emails',
    async (request, reply): Promise<ReplyOf<'createCongregationEmail', 201>> => {
      requireCongregationAccess(request, request.params.id);
      const email = request.body.email.trim().toLowerCase();
      if (!EMAIL_PATTERN.test(email)) throw validationError(`"${request.body.email.trim()}" is not an e-mail address.`);
      const row = await db.transaction(async (tx) => {
        if (!(await lockCongregation(tx, request.params.id))) throw notFound(CONGREGATION_NOT_FOUND);
        const count = await countCongregationEmails(tx, request.params.id);
        if (count >= MAX_CONGREGATION_EMAILS) throw validationError(`A congregation keeps at most ${MAX_CONGREGATION_EMAILS} e-mail addresses.`);
        return insertCongregationEmail(tx, request.params.id, email);
      });
      if (row === null) throw validationError(`This congregation has the address ${email} already.`);
      reply.code(201);
      return row;
    },
  );

  app.delete<Route<'deleteCongregationEmail'>>('/api/congregations/:id/emails/:email_id', async (request, reply) => {
    requireCongregationAccess(request, request.params.id);
    const deleted = await deleteCongregationEmail(db, request.params.id, request.params.email_id);
    if (!deleted) throw notFound('E-mail address not found');
    return reply.code(204).send();
  });
}
