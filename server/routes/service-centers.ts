// Service centers (admin): the centers that scan and send student answer sheets, with their
// recruiting points, recruiters and contact persons. A point, recruiter or contact person is
// only ever reached through its own service center. A center's batch cover sheet prints with its
// `c` code, issued on first print and reused afterwards. A center, recruiter or contact person made
// by mistake can be deleted while nothing refers to it (else 409 naming what does).
import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { issuePrintedCode } from '../db/printed-codes';
import { conflictError, notFound, validationError } from '../http-error';
import { pdfDrawing } from '../pdf/lazy-drawing';
import { pdfName, sendPdf } from './shared/blob-response';
import { refuseWhileUsed } from './shared/in-use';
import { pageOf, paged } from './shared/paging';
import { orderClause, type SortColumn } from '../repositories/sql/paging';
import { countryOrNull } from './shared/refs';
import { Where, containsPattern } from '../repositories/sql/where';

const SERVICE_CENTER_NOT_FOUND = 'Service center not found';
const RECRUITING_POINT_NOT_FOUND = 'Recruiting point not found';
const RECRUITER_NOT_FOUND = 'Recruiter not found';
const CONTACT_PERSON_NOT_FOUND = 'Contact person not found';

/** The people and places a service center names; each name once per center (case and spaces aside). */
const NAMED = {
  recruiting_points: 'recruiting point',
  recruiters: 'recruiter',
  contact_persons: 'contact person',
} as const;
type NamedTable = keyof typeof NAMED;

function duplicateNameMessage(table: NamedTable, name: string): string {
  return `This service center already has a ${NAMED[table]} named "${name}".`;
}

/**
 * Runs `write` when no other row of `table` in the center has `name` (ignoring `exceptId`), else
 * answers 409. One at a time per center: two equal names added at once cannot both pass.
 */
async function withUniqueName<T>(
  db: Database,
  table: NamedTable,
  serviceCenterId: string,
  name: string,
  exceptId: string | null,
  write: (tx: Database) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('service-center-names:' || $1))`, [serviceCenterId]);
    const taken = await tx.maybeOne(
      `SELECT 1 FROM ${table} WHERE service_center_id = $1 AND lower(btrim(name)) = lower($2) AND ($3::uuid IS NULL OR id <> $3::uuid)`,
      [serviceCenterId, name, exceptId],
    );
    if (taken !== null) throw conflictError(duplicateNameMessage(table, name));
    return write(tx);
  });
}

const SORT: Record<'name' | 'created_at', SortColumn> = {
  name: { sql: 'lower(sc.name)', defaultDirection: 'asc' },
  created_at: { sql: 'sc.created_at', defaultDirection: 'desc' },
};

const SERVICE_CENTER_SELECT = `
  SELECT sc.id, sc.name, sc.location, sc.created_at, sc.country_iso, co.display_name AS country_name
  FROM service_centers sc
  LEFT JOIN countries co ON co.iso_code = sc.country_iso`;

interface ServiceCenterRow {
  id: string;
  name: string;
  location: string;
  created_at: Date;
  country_iso: string | null;
  country_name: string | null;
}

function serviceCenterOf(row: ServiceCenterRow): Schemas['ServiceCenter'] {
  return {
    id: row.id,
    name: row.name,
    location: row.location,
    // Every center made through the API has a country; the column still allows none (rows
    // made by hand), which the contract does not foresee: such a row goes out as null.
    country: countryOrNull(row.country_iso, row.country_name) as Schemas['Country'],
    created_at: new Date(row.created_at).toISOString(),
  };
}

async function requireServiceCenter(db: Database, id: string): Promise<void> {
  const found = await db.maybeOne('SELECT id FROM service_centers WHERE id = $1', [id]);
  if (found === null) throw notFound(SERVICE_CENTER_NOT_FOUND);
}

export async function serviceCenterRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listServiceCenters'>>('/api/service_centers', async (request): Promise<ReplyOf<'listServiceCenters'>> => {
    const page = pageOf(request.query);
    const where = new Where();
    const name = request.query.name?.trim();
    if (name) where.add((p) => `lower(sc.name) LIKE ${p}`, containsPattern(name));
    const order = orderClause(SORT, request.query.order_by ?? 'name', request.query.order_direction, 'sc.id');
    const { total } = await db.one<{ total: number }>(`SELECT count(*) AS total FROM service_centers sc ${where.sql}`, where.params);
    const rows = await db.query<ServiceCenterRow>(
      `${SERVICE_CENTER_SELECT} ${where.sql} ${order} LIMIT ${where.param(page.limit)} OFFSET ${where.param(page.skip)}`,
      where.params,
    );
    return paged(rows.map(serviceCenterOf), total, page);
  });

  app.post<Route<'createServiceCenter'>>('/api/service_centers', async (request, reply): Promise<ReplyOf<'createServiceCenter', 201>> => {
    const { name, country, location } = request.body;
    const known = await db.maybeOne('SELECT iso_code FROM countries WHERE iso_code = $1', [country]);
    if (known === null) throw validationError(`Unknown country: ${country}`);
    const created = await db.one<{ id: string }>(
      'INSERT INTO service_centers (name, country_iso, location) VALUES ($1, $2, $3) RETURNING id',
      [name.trim(), country, location.trim()],
    );
    reply.code(201);
    return { id: created.id };
  });

  app.get<Route<'getServiceCenter'>>('/api/service_centers/:id', async (request): Promise<ReplyOf<'getServiceCenter'>> => {
    const row = await db.maybeOne<ServiceCenterRow>(`${SERVICE_CENTER_SELECT} WHERE sc.id = $1`, [request.params.id]);
    if (row === null) throw notFound(SERVICE_CENTER_NOT_FOUND);
    return serviceCenterOf(row);
  });

  app.delete<Route<'deleteServiceCenter'>>('/api/service_centers/:id', async (request, reply) => {
    const id = request.params.id;
    await db.transaction(async (tx) => {
      const found = await tx.maybeOne('SELECT id FROM service_centers WHERE id = $1 FOR UPDATE', [id]);
      if (found === null) throw notFound(SERVICE_CENTER_NOT_FOUND);
      await refuseWhileUsed(tx, 'service center', id, [
        { name: ['file', 'files'], countSql: 'SELECT count(*) FROM files WHERE service_center_id = $1' },
        { name: ['student', 'students'], countSql: 'SELECT count(*) FROM students WHERE service_center_id = $1' },
        { name: ['recruiting point', 'recruiting points'], countSql: 'SELECT count(*) FROM recruiting_points WHERE service_center_id = $1' },
        { name: ['recruiter', 'recruiters'], countSql: 'SELECT count(*) FROM recruiters WHERE service_center_id = $1' },
        { name: ['contact person', 'contact persons'], countSql: 'SELECT count(*) FROM contact_persons WHERE service_center_id = $1' },
      ]);
      await tx.query('DELETE FROM service_centers WHERE id = $1', [id]);
    });
    return reply.code(204).send();
  });

  app.get<Route<'listRecruitingPoints'>>(
    '/api/service_centers/:id/recruiting-points',
    async (request): Promise<ReplyOf<'listRecruitingPoints'>> => {
      await requireServiceCenter(db, request.params.id);
      return db.query<Schemas['RecruitingPoint']>(
        'SELECT id, name, location FROM recruiting_points WHERE service_center_id = $1 ORDER BY name, id',
        [request.params.id],
      );
    },
  );

  app.post<Route<'createRecruitingPoint'>>(
    '/api/service_centers/:id/recruiting-points',
    async (request, reply): Promise<ReplyOf<'createRecruitingPoint', 201>> => {
      await requireServiceCenter(db, request.params.id);
      const name = request.body.name.trim();
      const point = await withUniqueName(db, 'recruiting_points', request.params.id, name, null, (tx) =>
        tx.one<Schemas['RecruitingPoint']>(
          'INSERT INTO recruiting_points (service_center_id, name, location) VALUES ($1, $2, $3) RETURNING id, name, location',
          [request.params.id, name, request.body.location?.trim() ?? ''],
        ),
      );
      reply.code(201);
      return point;
    },
  );

  app.patch<Route<'updateRecruitingPoint'>>(
    '/api/service_centers/:id/recruiting-points/:recruiting_point',
    async (request): Promise<ReplyOf<'updateRecruitingPoint'>> => {
      const name = request.body.name.trim();
      const point = await withUniqueName(db, 'recruiting_points', request.params.id, name, request.params.recruiting_point, (tx) =>
        tx.maybeOne<Schemas['RecruitingPoint']>(
          `UPDATE recruiting_points SET name = $3 WHERE id = $2 AND service_center_id = $1 RETURNING id, name, location`,
          [request.params.id, request.params.recruiting_point, name],
        ),
      );
      if (point === null) throw notFound(RECRUITING_POINT_NOT_FOUND);
      return point;
    },
  );

  app.delete<Route<'deleteRecruitingPoint'>>(
    '/api/service_centers/:id/recruiting-points/:recruiting_point',
    async (request, reply) => {
      const { id: centerId, recruiting_point: id } = request.params;
      await db.transaction(async (tx) => {
        const found = await tx.maybeOne('SELECT id FROM recruiting_points WHERE id = $1 AND service_center_id = $2 FOR UPDATE', [id, centerId]);
        if (found === null) throw notFound(RECRUITING_POINT_NOT_FOUND);
        // As for recruiters: files and students that name it would silently lose it.
        await refuseWhileUsed(
          tx,
          'recruiting point',
          id,
          [
            { name: ['file', 'files'], countSql: 'SELECT count(*) FROM files WHERE recruiting_point_id = $1' },
            { name: ['student', 'students'], countSql: 'SELECT count(*) FROM students WHERE recruiting_point_id = $1' },
          ],
          'is named by',
        );
        await tx.query('DELETE FROM recruiting_points WHERE id = $1', [id]);
      });
      return reply.code(204).send();
    },
  );

  app.get<Route<'listRecruiters'>>(
    '/api/service-centers/:service_center_id/recruiters',
    async (request): Promise<ReplyOf<'listRecruiters'>> => {
      await requireServiceCenter(db, request.params.service_center_id);
      return db.query<Schemas['Recruiter']>(
        'SELECT id, name, contact_info FROM recruiters WHERE service_center_id = $1 ORDER BY name, id',
        [request.params.service_center_id],
      );
    },
  );

  app.post<Route<'createRecruiter'>>(
    '/api/service-centers/:service_center_id/recruiters',
    async (request, reply): Promise<ReplyOf<'createRecruiter', 201>> => {
      await requireServiceCenter(db, request.params.service_center_id);
      const name = request.body.name.trim();
      const recruiter = await withUniqueName(db, 'recruiters', request.params.service_center_id, name, null, (tx) =>
        tx.one<Schemas['Recruiter']>(
          'INSERT INTO recruiters (service_center_id, name, contact_info) VALUES ($1, $2, $3) RETURNING id, name, contact_info',
          [request.params.service_center_id, name, request.body.contact_info?.trim() ?? ''],
        ),
      );
      reply.code(201);
      return recruiter;
    },
  );

  app.delete<Route<'deleteRecruiter'>>(
    '/api/service-centers/:service_center_id/recruiters/:recruiter_id',
    async (request, reply) => {
      const { service_center_id: centerId, recruiter_id: id } = request.params;
      await db.transaction(async (tx) => {
        const found = await tx.maybeOne('SELECT id FROM recruiters WHERE id = $1 AND service_center_id = $2 FOR UPDATE', [id, centerId]);
        if (found === null) throw notFound(RECRUITER_NOT_FOUND);
        await refuseWhileUsed(
          tx,
          'recruiter',
          id,
          [
            { name: ['file', 'files'], countSql: 'SELECT count(*) FROM files WHERE recruiter_id = $1' },
            { name: ['student', 'students'], countSql: 'SELECT count(*) FROM students WHERE recruiter_id = $1' },
          ],
          'is named by',
        );
        await tx.query('DELETE FROM recruiters WHERE id = $1', [id]);
      });
      return reply.code(204).send();
    },
  );

  app.get<Route<'listContactPersons'>>(
    '/api/service-centers/:service_center_id/contact-persons',
    async (request): Promise<ReplyOf<'listContactPersons'>> => {
      await requireServiceCenter(db, request.params.service_center_id);
      return db.query<Schemas['ContactPerson']>(
        'SELECT id, name FROM contact_persons WHERE service_center_id = $1 ORDER BY name, id',
        [request.params.service_center_id],
      );
    },
  );

  app.post<Route<'createContactPerson'>>(
    '/api/service-centers/:service_center_id/contact-person',
    async (request, reply): Promise<ReplyOf<'createContactPerson', 201>> => {
      await requireServiceCenter(db, request.params.service_center_id);
      const name = request.body.name.trim();
      const person = await withUniqueName(db, 'contact_persons', request.params.service_center_id, name, null, (tx) =>
        tx.one<Schemas['ContactPerson']>('INSERT INTO contact_persons (service_center_id, name) VALUES ($1, $2) RETURNING id, name', [
          request.params.service_center_id,
          name,
        ]),
      );
      reply.code(201);
      return person;
    },
  );

  app.get<Route<'printServiceCenterCoverSheet'>>('/api/service_centers/:id/cover-sheet.pdf', async (request, reply) => {
    requireAdmin(request);
    const center = await db.maybeOne<{ id: string; name: string; location: string }>(
      'SELECT id, name, location FROM service_centers WHERE id = $1',
      [request.params.id],
    );
    if (center === null) throw notFound(SERVICE_CENTER_NOT_FOUND);
    const codeId = await db.transaction(async (tx) => {
      // One c code per service center: every cover sheet it prints is the same.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('cover-code:' || $1))`, [center.id]);
      const existing = await tx.maybeOne<{ code_id: string }>(
        `SELECT code_id FROM printed_codes WHERE prefix = 'c' AND target_id = $1 ORDER BY created_at LIMIT 1`,
        [center.id],
      );
      return existing?.code_id ?? (await issuePrintedCode(tx, { prefix: 'c', targetId: center.id }));
    });
    const { makeCoverSheet } = await pdfDrawing();
    const pdf = await makeCoverSheet({
      code: { prefix: 'c', id: codeId },
      name: center.name,
      location: center.location,
      publicUrl: app.config.publicUrl,
    });
    return sendPdf(reply, pdf, pdfName(`${center.name} - cover sheet`, 'cover-sheet'));
  });

  app.delete<Route<'deleteContactPerson'>>(
    '/api/service-centers/:service_center_id/contact-persons/:contact_person_id',
    async (request, reply) => {
      const { service_center_id: centerId, contact_person_id: id } = request.params;
      await db.transaction(async (tx) => {
        const found = await tx.maybeOne('SELECT id FROM contact_persons WHERE id = $1 AND service_center_id = $2 FOR UPDATE', [id, centerId]);
        if (found === null) throw notFound(CONTACT_PERSON_NOT_FOUND);
        await refuseWhileUsed(
          tx,
          'contact person',
          id,
          [{ name: ['file', 'files'], countSql: 'SELECT count(*) FROM files WHERE contact_person_id = $1' }],
          'is named by',
        );
        await tx.query('DELETE FROM contact_persons WHERE id = $1', [id]);
      });
      return reply.code(204).send();
    },
  );
}
