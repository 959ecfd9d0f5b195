// The service-centers tag, the centers themselves (spec §7 "Service centers"): the list, one
// center, a new one, its cover sheet, and one deleted when nothing names it.
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import {
  getCreateServiceCenterMockHandler,
  getDeleteServiceCenterMockHandler,
  getGetServiceCenterMockHandler,
  getListServiceCentersMockHandler,
  getPrintServiceCenterCoverSheetMockHandler,
} from '../../../../../generated/hooks/service-centers/service-centers.msw';
import { answer, contains, forbidden, notFound, paged, pdf, refusal, sorted, uses, type WorldAccess } from '../http';
import { newId, tick, type ServiceCenterRow } from '../world';
import { inUse, type WorldLookups } from './lookups';

type S = components['schemas'];

const centerView = ({ id, name, location, country, created_at }: ServiceCenterRow): S['ServiceCenter'] => ({ id, name, location, country, created_at });

export function serviceCenterResponders({ world, viewer }: WorldAccess, { centerOf, deleted }: WorldLookups): HttpHandler[] {
  return [
    answer(getListServiceCentersMockHandler, ({ request }) => {
      const url = new URL(request.url);
      const rows = world().serviceCenters.filter((center) => contains(center.name, url.searchParams.get('name')));
      const page = paged(url, sorted(url, rows, { name: (center) => center.name.toLowerCase(), created_at: (center) => center.created_at }, 'name'));
      return { ...page, items: page.items.map(centerView) };
    }),
    answer(getCreateServiceCenterMockHandler, async ({ request }) => {
      const body = (await request.json()) as S['ServiceCenterCreate'];
      const country = world().countries.find((row) => row.iso_code === body.country);
      if (!country || body.name.trim() === '') return refusal(400, 'VALIDATION_ERROR', 'A service center needs a name and a known country.');
      const id = newId(world(), 'service-center');
      const code = body.name.replace(/[^A-Za-z]/g, '').slice(0, 3).toUpperCase();
      world().serviceCenters.push({ id, name: body.name.trim(), location: body.location, country, code, created_at: tick(world()), recruitingPoints: [], recruiters: [], contactPersons: [] });
      return { id };
    }),
    answer(getPrintServiceCenterCoverSheetMockHandler, ({ params }) => {
      const center = centerOf(params.id);
      return center ? pdf(`${center.name} cover sheet.pdf`, `Cover sheet: ${center.name}`) : notFound('Service center not found');
    }),
    answer(getDeleteServiceCenterMockHandler, ({ params }) => {
      if (viewer() !== null) return forbidden();
      const center = centerOf(params.id);
      if (!center) return notFound('Service center not found');
      const refused = inUse(
        'service center',
        uses([
          [world().files.filter((file) => file.serviceCenterId === center.id).length, 'file', 'files'],
          [world().students.filter((student) => student.serviceCenterId === center.id).length, 'student', 'students'],
          [center.recruitingPoints.length, 'recruiting point', 'recruiting points'],
          [center.recruiters.length, 'recruiter', 'recruiters'],
          [center.contactPersons.length, 'contact person', 'contact persons'],
        ]),
      );
      if (refused) return refused;
      world().serviceCenters = world().serviceCenters.filter((row) => row.id !== center.id);
      deleted();
    }),
    answer(getGetServiceCenterMockHandler, ({ params }) => {
      const center = centerOf(params.id);
      return center ? centerView(center) : notFound('Service center not found');
    }),
  ];
}
