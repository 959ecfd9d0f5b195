// The service-centers tag, the people and places a center works with (spec §7 "Service centers"):
// recruiting points, recruiters and contact persons, each refused deletion while something names it.
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import {
  getCreateContactPersonMockHandler,
  getCreateRecruiterMockHandler,
  getCreateRecruitingPointMockHandler,
  getDeleteContactPersonMockHandler,
  getDeleteRecruiterMockHandler,
  getDeleteRecruitingPointMockHandler,
  getListContactPersonsMockHandler,
  getListRecruitersMockHandler,
  getListRecruitingPointsMockHandler,
  getUpdateRecruitingPointMockHandler,
} from '../../../../../generated/hooks/service-centers/service-centers.msw';
import { answer, forbidden, notFound, uses, type WorldAccess } from '../http';
import { newId, tick } from '../world';
import { inUse, type WorldLookups } from './lookups';

type S = components['schemas'];

export function serviceCenterPeopleResponders({ world, viewer }: WorldAccess, { centerOf, deleted }: WorldLookups): HttpHandler[] {
  /** How many files and students name a recruiting point or a recruiter. */
  const namedBy = (field: 'recruitingPointId' | 'recruiterId', id: unknown) =>
    uses([
      [world().files.filter((file) => file[field] === id).length, 'file', 'files'],
      [world().students.filter((student) => student[field] === id).length, 'student', 'students'],
    ]);
  const created = <T>(list: T[], row: T) => {
    list.push(row);
    tick(world());
    return row;
  };
  return [
    answer(getListRecruitingPointsMockHandler, ({ params }) => centerOf(params.id)?.recruitingPoints ?? notFound('Service center not found')),
    answer(getCreateRecruitingPointMockHandler, async ({ params, request }) => {
      const center = centerOf(params.id);
      if (!center) return notFound('Service center not found');
      const body = (await request.json()) as S['RecruitingPointCreate'];
      return created(center.recruitingPoints, { id: newId(world(), 'recruiting-point'), name: body.name, location: body.location ?? '' });
    }),
    answer(getUpdateRecruitingPointMockHandler, async ({ params, request }) => {
      const point = centerOf(params.id)?.recruitingPoints.find((row) => row.id === params.recruitingPoint);
      if (!point) return notFound('Recruiting point not found');
      point.name = ((await request.json()) as S['RecruitingPointPatch']).name;
      tick(world());
      return point;
    }),
    answer(getDeleteRecruitingPointMockHandler, ({ params }) => {
      if (viewer() !== null) return forbidden();
      const center = centerOf(params.id);
      if (!center?.recruitingPoints.some((row) => row.id === params.recruitingPoint)) return notFound('Recruiting point not found');
      // As for recruiters (and on the server): files and students that name it would silently lose it.
      const refused = inUse('recruiting point', namedBy('recruitingPointId', params.recruitingPoint), 'is named by');
      if (refused) return refused;
      center.recruitingPoints = center.recruitingPoints.filter((row) => row.id !== params.recruitingPoint);
      tick(world());
    }),
    answer(getListRecruitersMockHandler, ({ params }) => centerOf(params.serviceCenterId)?.recruiters ?? notFound('Service center not found')),
    answer(getCreateRecruiterMockHandler, async ({ params, request }) => {
      const center = centerOf(params.serviceCenterId);
      if (!center) return notFound('Service center not found');
      const body = (await request.json()) as S['RecruiterCreate'];
      return created(center.recruiters, { id: newId(world(), 'recruiter'), name: body.name, contact_info: body.contact_info ?? '' });
    }),
    answer(getDeleteRecruiterMockHandler, ({ params }) => {
      if (viewer() !== null) return forbidden();
      const center = centerOf(params.serviceCenterId);
      const recruiter = center?.recruiters.find((row) => row.id === params.recruiterId);
      if (!center || !recruiter) return notFound('Recruiter not found');
      const refused = inUse('recruiter', namedBy('recruiterId', recruiter.id), 'is named by');
      if (refused) return refused;
      center.recruiters = center.recruiters.filter((row) => row.id !== recruiter.id);
      deleted();
    }),
    answer(getDeleteContactPersonMockHandler, ({ params }) => {
      if (viewer() !== null) return forbidden();
      const center = centerOf(params.serviceCenterId);
      const person = center?.contactPersons.find((row) => row.id === params.contactPersonId);
      if (!center || !person) return notFound('Contact person not found');
      const refused = inUse('contact person', uses([[world().files.filter((file) => file.contactPersonId === person.id).length, 'file', 'files']]), 'is named by');
      if (refused) return refused;
      center.contactPersons = center.contactPersons.filter((row) => row.id !== person.id);
      deleted();
    }),
    answer(getListContactPersonsMockHandler, ({ params }) => centerOf(params.serviceCenterId)?.contactPersons ?? notFound('Service center not found')),
    answer(getCreateContactPersonMockHandler, async ({ params, request }) => {
      const center = centerOf(params.serviceCenterId);
      if (!center) return notFound('Service center not found');
      const body = (await request.json()) as S['ContactPersonCreate'];
      return created(center.contactPersons, { id: newId(world(), 'contact-person'), name: body.name });
    }),
  ];
}
