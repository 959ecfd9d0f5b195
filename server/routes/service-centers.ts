// Service centers (admin): the centers that scan and send student answer sheets, with their
// recruiting points, recruiters and contact persons. A point, recruiter or contact person is
// only ever reached through its own service center. A center's batch cover sheet prints with its
// `c` code, issued on first print and reused afterwards. A center, recruiter or contact person made
// by mistake can be deleted while nothing refers to it (else 409 naming what does).
import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../auth/session';
import type { ReplyOf, Route, Schemas } from '../contract/types';
import type { Database } from '../db/database';
import { conflictError, notFound, validationError } from '../http-error';
import { pdfDrawing } from '../pdf/lazy-drawing';
import { CONTACT_PERSON_USES, contactPersonsOfServiceCenter, deleteContactPerson, insertContactPerson, lockContactPerson } from '../repositories/contact-persons';
import { countryExists } from '../repositories/countries';
import { coverSheetCodeOfServiceCenter } from '../repositories/printed-codes';
import { deleteRecruiter, insertRecruiter, lockRecruiter, RECRUITER_USES, recruitersOfServiceCenter } from '../repositories/recruiters';
import {
  deleteRecruitingPoint,
  insertRecruitingPoint,
  lockRecruitingPoint,
  RECRUITING_POINT_USES,
  recruitingPointsOfServiceCenter,
  renameRecruitingPoint,
} from '../repositories/recruiting-points';
import {
  deleteServiceCenter,
  insertServiceCenter,
  lockServiceCenter,
  lockServiceCenterNames,
  SERVICE_CENTER_USES,
  serviceCenterExists,
  serviceCenterForCoverSheet,
  serviceCenterListPage,
  serviceCenterNameTaken,
  serviceCenterRowById,
  type ServiceCenterNamedTable,
  type ServiceCenterRow,
} from '../repositories/service-centers';
import { pdfName, sendPdf } from './shared/blob-response';
import { refuseWhileUsed } from './shared/in-use';
import { pageOf, paged } from './shared/paging';
import { countryOrNull } from './shared/refs';

const SERVICE_CENTER_NOT_FOUND = 'Service center not found';
const RECRUITING_POINT_NOT_FOUND = 'Recruiting point not found';
const RECRUITER_NOT_FOUND = 'Recruiter not found';
const CONTACT_PERSON_NOT_FOUND = 'Contact person not found';

/** The people and places a service center names; each name once per center (case and spaces aside). */
const NAMED: Record<ServiceCenterNamedTable, string> = {
  recruiting_points: 'recruiting point',
  recruiters: 'recruiter',
  contact_persons: 'contact person',
};

/**
 * Runs `write` when no other row of `table` in the center has `name` (ignoring `exceptId`), else
 * answers 409. One at a time per center: two equal names added at once cannot both pass.
 */
async function withUniqueName<T>(
  db: Database,
  table: ServiceCenterNamedTable,
  serviceCenterId: string,
  name: string,
  exceptId: string | null,
  write: (tx: Database) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await lockServiceCenterNames(tx, serviceCenterId);
    if (await serviceCenterNameTaken(tx, table, serviceCenterId, name, exceptId)) {
      throw conflictError(`This service center already has a ${NAMED[table]} named "${name}".`);
    }
    return write(tx);
  });
}

/**
 * Deletes a record made by mistake, in one transaction: 404 when `lock` finds none, 409 while
 * anything in `uses` still refers to it.
 */
async function deleteUnused(
  db: Database,
  record: { what: string; notFound: string; verb?: 'has' | 'is named by' },
  id: string,
  steps: { lock: (tx: Database) => Promise<boolean>; uses: Parameters<typeof refuseWhileUsed>[3]; remove: (tx: Database) => Promise<void> },
): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await steps.lock(tx))) throw notFound(record.notFound);
    await refuseWhileUsed(tx, record.what, id, steps.uses, record.verb);
    await steps.remove(tx);
  });
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
  if (!(await serviceCenterExists(db, id))) throw notFound(SERVICE_CENTER_NOT_FOUND);
}

/** The center's batch cover sheet, with its one `c` code (issued on first print). */
async function coverSheetPdf(app: FastifyInstance, centerId: string): Promise<{ pdf: Uint8Array; name: string }> {
  const center = await serviceCenterForCoverSheet(app.db, centerId);
  if (center === null) throw notFound(SERVICE_CENTER_NOT_FOUND);
  const codeId = await app.db.transaction((tx) => coverSheetCodeOfServiceCenter(tx, center.id));
  const { makeCoverSheet } = await pdfDrawing();
  const pdf = await makeCoverSheet({ code: { prefix: 'c', id: codeId }, name: center.name, location: center.location, publicUrl: app.config.publicUrl });
  return { pdf, name: center.name };
}

export async function serviceCenterRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get<Route<'listServiceCenters'>>('/api/service_centers', async (request): Promise<ReplyOf<'listServiceCenters'>> => {
    const { name, order_by: orderBy, order_direction: direction } = request.query;
    const page = pageOf(request.query);
    const { rows, total } = await serviceCenterListPage(db, { name: name?.trim(), orderBy: orderBy ?? 'name', direction }, page);
    return paged(rows.map(serviceCenterOf), total, page);
  });

  app.post<Route<'createServiceCenter'>>('/api/service_centers', async (request, reply): Promise<ReplyOf<'createServiceCenter', 201>> => {
    const { name, country, location } = request.body;
    if (!(await countryExists(db, country))) throw validationError(`Unknown country: ${country}`);
    const id = await insertServiceCenter(db, { name: name.trim(), country, location: location.trim() });
    reply.code(201);
    return { id };
  });

  app.get<Route<'getServiceCenter'>>('/api/service_centers/:id', async (request): Promise<ReplyOf<'getServiceCenter'>> => {
    const row = await serviceCenterRowById(db, request.params.id);
    if (row === null) throw notFound(SERVICE_CENTER_NOT_FOUND);
    return serviceCenterOf(row);
  });

  app.delete<Route<'deleteServiceCenter'>>('/api/service_centers/:id', async (request, reply) => {
    const id = request.params.id;
    await deleteUnused(db, { what: 'service center', notFound: SERVICE_CENTER_NOT_FOUND }, id, {
      lock: (tx) => lockServiceCenter(tx, id),
      uses: SERVICE_CENTER_USES,
      remove: (tx) => deleteServiceCenter(tx, id),
    });
    return reply.code(204).send();
  });

  app.get<Route<'listRecruitingPoints'>>(
    '/api/service_centers/:id/recruiting-points',
    async (request): Promise<ReplyOf<'listRecruitingPoints'>> => {
      await requireServiceCenter(db, request.params.id);
      return recruitingPointsOfServiceCenter(db, request.params.id);
    },
  );

  app.post<Route<'createRecruitingPoint'>>(
    '/api/service_centers/:id/recruiting-points',
    async (request, reply): Promise<ReplyOf<'createRecruitingPoint', 201>> => {
      const centerId = request.params.id;
      await requireServiceCenter(db, centerId);
      const name = request.body.name.trim();
      const location = request.body.location?.trim() ?? '';
      const point = await withUniqueName(db, 'recruiting_points', centerId, name, null, (tx) => insertRecruitingPoint(tx, centerId, name, location));
      reply.code(201);
      return point;
    },
  );

  app.patch<Route<'updateRecruitingPoint'>>(
    '/api/service_centers/:id/recruiting-points/:recruiting_point',
    async (request): Promise<ReplyOf<'updateRecruitingPoint'>> => {
      const { id: centerId, recruiting_point: id } = request.params;
      const name = request.body.name.trim();
      const point = await withUniqueName(db, 'recruiting_points', centerId, name, id, (tx) => renameRecruitingPoint(tx, centerId, id, name));
      if (point === null) throw notFound(RECRUITING_POINT_NOT_FOUND);
      return point;
    },
  );

  app.delete<Route<'deleteRecruitingPoint'>>(
    '/api/service_centers/:id/recruiting-points/:recruiting_point',
    async (request, reply) => {
      const { id: centerId, recruiting_point: id } = request.params;
      // As for recruiters: files and students that name it would silently lose it.
      await deleteUnused(db, { what: 'recruiting point', notFound: RECRUITING_POINT_NOT_FOUND, verb: 'is named by' }, id, {
        lock: (tx) => lockRecruitingPoint(tx, centerId, id),
        uses: RECRUITING_POINT_USES,
        remove: (tx) => deleteRecruitingPoint(tx, id),
      });
      return reply.code(204).send();
    },
  );

  app.get<Route<'listRecruiters'>>(
    '/api/service-centers/:service_center_id/recruiters',
    async (request): Promise<ReplyOf<'listRecruiters'>> => {
      await requireServiceCenter(db, request.params.service_center_id);
      return recruitersOfServiceCenter(db, request.params.service_center_id);
    },
  );

  app.post<Route<'createRecruiter'>>(
    '/api/service-centers/:service_center_id/recruiters',
    async (request, reply): Promise<ReplyOf<'createRecruiter', 201>> => {
      const centerId = request.params.service_center_id;
      await requireServiceCenter(db, centerId);
      const name = request.body.name.trim();
      const contactInfo = request.body.contact_info?.trim() ?? '';
      const recruiter = await withUniqueName(db, 'recruiters', centerId, name, null, (tx) => insertRecruiter(tx, centerId, name, contactInfo));
      reply.code(201);
      return recruiter;
    },
  );

  app.delete<Route<'deleteRecruiter'>>(
    '/api/service-centers/:service_center_id/recruiters/:recruiter_id',
    async (request, reply) => {
      const { service_center_id: centerId, recruiter_id: id } = request.params;
      await deleteUnused(db, { what: 'recruiter', notFound: RECRUITER_NOT_FOUND, verb: 'is named by' }, id, {
        lock: (tx) => lockRecruiter(tx, centerId, id),
        uses: RECRUITER_USES,
        remove: (tx) => deleteRecruiter(tx, id),
      });
      return reply.code(204).send();
    },
  );

  app.get<Route<'listContactPersons'>>(
    '/api/service-centers/:service_center_id/contact-persons',
    async (request): Promise<ReplyOf<'listContactPersons'>> => {
      await requireServiceCenter(db, request.params.service_center_id);
      return contactPersonsOfServiceCenter(db, request.params.service_center_id);
    },
  );

  app.post<Route<'createContactPerson'>>(
    '/api/service-centers/:service_center_id/contact-person',
    async (request, reply): Promise<ReplyOf<'createContactPerson', 201>> => {
      const centerId = request.params.service_center_id;
      await requireServiceCenter(db, centerId);
      const name = request.body.name.trim();
      const person = await withUniqueName(db, 'contact_persons', centerId, name, null, (tx) => insertContactPerson(tx, centerId, name));
      reply.code(201);
      return person;
    },
  );

  app.get<Route<'printServiceCenterCoverSheet'>>('/api/service_centers/:id/cover-sheet.pdf', async (request, reply) => {
    requireAdmin(request);
    const { pdf, name } = await coverSheetPdf(app, request.params.id);
    return sendPdf(reply, pdf, pdfName(`${name} - cover sheet`, 'cover-sheet'));
  });

  app.delete<Route<'deleteContactPerson'>>(
    '/api/service-centers/:service_center_id/contact-persons/:contact_person_id',
    async (request, reply) => {
      const { service_center_id: centerId, contact_person_id: id } = request.params;
      await deleteUnused(db, { what: 'contact person', notFound: CONTACT_PERSON_NOT_FOUND, verb: 'is named by' }, id, {
        lock: (tx) => lockContactPerson(tx, centerId, id),
        uses: CONTACT_PERSON_USES,
        remove: (tx) => deleteContactPerson(tx, id),
      });
      return reply.code(204).send();
    },
  );
}
