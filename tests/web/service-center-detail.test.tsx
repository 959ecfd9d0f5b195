// @vitest-environment happy-dom
// /admin/service-centers/{service_center_id} on MSW (spec §2, §5, §7): the heading with flag, name
// and location, the cover sheet PDF, the disabled Archive, and the panels: Recruiting Points (add,
// rename in place, delete after the confirmation question, refused in use), Recruiters (add with
// contact info), Contact Persons, and the blank lesson masters.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ContactPerson, Recruiter, RecruitingPoint, ServiceCenter } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';

setupMockApi();

const SC = '5c000000-0000-4000-8000-000000000001';
const accra: ServiceCenter = {
  id: SC,
  name: 'Accra Service Center',
  location: 'Accra, Greater Accra',
  country: { iso_code: 'GH', display_name: 'Ghana' },
  created_at: '2024-02-01T00:00:00Z',
};
const makola: RecruitingPoint = { id: 'r0000000-0000-4000-8000-000000000001', name: 'Makola Market stand', location: 'Makola Market' };
const ama: Recruiter = { id: 'r1000000-0000-4000-8000-000000000001', name: 'Ama Owusu', contact_info: '+233 20 000 0000' };
const yaw: ContactPerson = { id: 'p0000000-0000-4000-8000-000000000001', name: 'Yaw Boateng' };

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

/** The service center's calls, answered from lists the test can change, each call recorded. */
function serviceCenterApi(center: ServiceCenter | null = accra) {
  const calls: Call[] = [];
  const points = [{ ...makola }];
  const recruiters = [{ ...ama }];
  const people = [{ ...yaw }];
  const record = async (request: Request, withBody = true) => {
    const call: Call = { method: request.method, path: new URL(request.url).pathname };
    if (withBody) call.body = await request.json();
    calls.push(call);
  };
  server.use(
    http.get('*/api/service_centers/:id', () =>
      center ? HttpResponse.json(center) : HttpResponse.json({ detail: 'Service center not found' }, { status: 404 }),
    ),
    http.get('*/api/service_centers/:id/recruiting-points', () => HttpResponse.json(points)),
    http.post('*/api/service_centers/:id/recruiting-points', async ({ request }) => {
      await record(request);
      const body = calls.at(-1)?.body as { name: string; location: string };
      const point = { id: `r0000000-0000-4000-8000-00000000000${points.length + 1}`, ...body };
      points.push(point);
      return HttpResponse.json(point, { status: 201 });
    }),
    http.patch('*/api/service_centers/:id/recruiting-points/:point', async ({ request, params }) => {
      await record(request);
      const point = points.find((p) => p.id === params.point) as RecruitingPoint;
      point.name = (calls.at(-1)?.body as { name: string }).name;
      return HttpResponse.json(point);
    }),
    http.delete('*/api/service_centers/:id/recruiting-points/:point', async ({ request, params }) => {
      await record(request, false);
      points.splice(points.findIndex((p) => p.id === params.point), 1);
      return new HttpResponse(null, { status: 204 });
    }),
    http.get('*/api/service-centers/:id/recruiters', () => HttpResponse.json(recruiters)),
    http.post('*/api/service-centers/:id/recruiters', async ({ request }) => {
      await record(request);
      const body = calls.at(-1)?.body as { name: string; contact_info: string };
      const recruiter = { id: 'r1000000-0000-4000-8000-000000000002', ...body };
      recruiters.push(recruiter);
      return HttpResponse.json(recruiter, { status: 201 });
    }),
    http.delete('*/api/service-centers/:id/recruiters/:recruiter', async ({ request, params }) => {
      await record(request, false);
      recruiters.splice(recruiters.findIndex((r) => r.id === params.recruiter), 1);
      return new HttpResponse(null, { status: 204 });
    }),
    http.delete('*/api/service-centers/:id/contact-persons/:person', async ({ request }) => {
      await record(request, false);
      return HttpResponse.json(
        { detail: { error_type: 'CONFLICT', message: 'This contact person cannot be deleted: it is named by 2 files.' } },
        { status: 409 },
      );
    }),
    http.get('*/api/service-centers/:id/contact-persons', () => HttpResponse.json(people)),
    http.post('*/api/service-centers/:id/contact-person', async ({ request }) => {
      await record(request);
      const person = { id: 'p0000000-0000-4000-8000-000000000002', ...(calls.at(-1)?.body as { name: string }) };
      people.push(person);
      return HttpResponse.json(person, { status: 201 });
    }),
  );
  return calls;
}

const panel = (name: string) => screen.getByRole('region', { name });

async function open() {
  const calls = serviceCenterApi();
  renderApp(`/admin/service-centers/${SC}`, { as: 'admin' });
  await screen.findByText('Makola Market stand');
  return calls;
}

describe('service center detail', () => {
  it('heads the page with the flag, the name and the location, with a disabled Archive', async () => {
    await open();
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading.textContent).toBe('Accra Service Center');
    expect(within(heading).getByRole('img', { name: 'Ghana' })).toBeTruthy();
    expect(screen.getByText('Accra, Greater Accra')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Archive' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'Back to Service Centers' }).getAttribute('href')).toBe('/admin/service-centers');
    expect(
      screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent),
    ).toEqual(['Recruiting Points', 'Recruiters', 'Contact Persons', 'Blank Lesson Masters']);
    expect(screen.getByRole('link', { name: 'Cover Sheet' }).getAttribute('href')).toBe(`/api/service_centers/${SC}/cover-sheet.pdf`);
  });

  it("offers each course's lessons with their blank masters", async () => {
    server.use(
      http.get('*/api/courses', () =>
        HttpResponse.json({
          items: [{ id: 'co1', name: 'Search the Scriptures', version: '1', lessons: [{ id: 'l1', name: 'Lesson 1: The Bible', number: 1 }] }],
          total: 1,
          skip: 0,
          limit: 500,
        }),
      ),
    );
    await open();
    const masters = within(panel('Blank Lesson Masters'));
    fireEvent.click(await masters.findByText('Search the Scriptures'));
    expect(masters.getByRole('link', { name: 'Blank master of Lesson 1: The Bible (PDF)' }).getAttribute('href')).toBe('/api/courses/co1/lessons/l1/master.pdf');
  });

  it('keeps a recruiting point that students name, saying why', async () => {
    await open();
    server.use(
      http.delete('*/api/service_centers/:id/recruiting-points/:point', () =>
        HttpResponse.json({ detail: { error_type: 'CONFLICT', message: 'This recruiting point cannot be deleted: it is named by 3 students.' } }, { status: 409 }),
      ),
    );
    const points = within(panel('Recruiting Points'));
    fireEvent.click(points.getByRole('button', { name: 'Delete Makola Market stand' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete Location' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('This recruiting point cannot be deleted: it is named by 3 students.')).toBeTruthy();
    expect(points.getByText('Makola Market stand')).toBeTruthy();
  });

  it('says so for an unknown service center', async () => {
    serviceCenterApi(null);
    renderApp(`/admin/service-centers/${SC}`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Service center not found' })).toBeTruthy();
  });

  it('adds a recruiting point with name and location', async () => {
    const calls = await open();
    const points = within(panel('Recruiting Points'));
    const add = points.getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    fireEvent.change(points.getByLabelText('Name'), { target: { value: ' Kaneshie stand ' } });
    fireEvent.change(points.getByLabelText('Location'), { target: { value: 'Kaneshie Market' } });
    fireEvent.click(add);
    expect(await points.findByText('Kaneshie stand')).toBeTruthy();
    expect(points.getByText('Kaneshie Market')).toBeTruthy();
    expect(calls).toEqual([
      {
        method: 'POST',
        path: `/api/service_centers/${SC}/recruiting-points`,
        body: { name: 'Kaneshie stand', location: 'Kaneshie Market' },
      },
    ]);
    expect(await screen.findByText('Recruiting point Kaneshie stand added.')).toBeTruthy();
    expect((points.getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('renames a recruiting point in place', async () => {
    const calls = await open();
    const points = within(panel('Recruiting Points'));
    fireEvent.click(points.getByRole('button', { name: 'Edit name of Makola Market stand' }));
    const input = points.getByLabelText('Name of Makola Market stand') as HTMLInputElement;
    const save = points.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(input.value).toBe('Makola Market stand');
    expect(save.disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'Makola stand 2' } });
    fireEvent.click(save);
    expect(await points.findByText('Makola stand 2')).toBeTruthy();
    expect(points.queryByLabelText('Name of Makola Market stand')).toBeNull();
    expect(calls).toEqual([
      { method: 'PATCH', path: `/api/service_centers/${SC}/recruiting-points/${makola.id}`, body: { name: 'Makola stand 2' } },
    ]);
  });

  it('leaves the name as it was when renaming is cancelled', async () => {
    const calls = await open();
    const points = within(panel('Recruiting Points'));
    fireEvent.click(points.getByRole('button', { name: 'Edit name of Makola Market stand' }));
    fireEvent.change(points.getByLabelText('Name of Makola Market stand'), { target: { value: 'Other' } });
    fireEvent.click(points.getByRole('button', { name: 'Cancel' }));
    expect(points.getByText('Makola Market stand')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('asks before deleting a recruiting point, and deletes only when confirmed', async () => {
    const calls = await open();
    const points = within(panel('Recruiting Points'));
    fireEvent.click(points.getByRole('button', { name: 'Delete Makola Market stand' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Location' });
    expect(
      within(dialog).getByText('Are you sure you want to delete this location? This action cannot be undone.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([]);

    fireEvent.click(points.getByRole('button', { name: 'Delete Makola Market stand' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Location' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(points.queryByText('Makola Market stand')).toBeNull());
    expect(calls).toEqual([{ method: 'DELETE', path: `/api/service_centers/${SC}/recruiting-points/${makola.id}` }]);
    expect(points.getByText('No recruiting points yet.')).toBeTruthy();
  });

  it('deletes a recruiter after the spec\'s question, and shows why a contact person in use is kept', async () => {
    const calls = await open();
    const recruiters = within(panel('Recruiters'));
    fireEvent.click(recruiters.getByRole('button', { name: 'Delete Ama Owusu' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Recruiter' });
    expect(within(dialog).getByText('Are you sure you want to delete this recruiter? This action cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(recruiters.queryByText('Ama Owusu')).toBeNull());
    expect(calls).toEqual([{ method: 'DELETE', path: `/api/service-centers/${SC}/recruiters/${ama.id}` }]);

    const people = within(panel('Contact Persons'));
    fireEvent.click(people.getByRole('button', { name: 'Delete Yaw Boateng' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete Contact Person' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('This contact person cannot be deleted: it is named by 2 files.')).toBeTruthy();
    expect(people.getByText('Yaw Boateng')).toBeTruthy();
  });

  it('lists recruiters with their contact info and adds one', async () => {
    const calls = await open();
    const recruiters = within(panel('Recruiters'));
    expect(recruiters.getByText('Ama Owusu')).toBeTruthy();
    expect(recruiters.getByText('+233 20 000 0000')).toBeTruthy();
    fireEvent.change(recruiters.getByLabelText('Name'), { target: { value: 'Kwame Mensah' } });
    fireEvent.change(recruiters.getByLabelText('Contact Info'), { target: { value: 'kwame@example.org' } });
    fireEvent.click(recruiters.getByRole('button', { name: 'Add' }));
    expect(await recruiters.findByText('Kwame Mensah')).toBeTruthy();
    expect(calls).toEqual([
      {
        method: 'POST',
        path: `/api/service-centers/${SC}/recruiters`,
        body: { name: 'Kwame Mensah', contact_info: 'kwame@example.org' },
      },
    ]);
  });

  it('lists contact persons and adds one by name', async () => {
    const calls = await open();
    const people = within(panel('Contact Persons'));
    expect(people.getByText('Yaw Boateng')).toBeTruthy();
    const add = people.getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    fireEvent.change(people.getByLabelText('Name'), { target: { value: 'Efua Mensah' } });
    fireEvent.click(add);
    expect(await people.findByText('Efua Mensah')).toBeTruthy();
    expect(calls).toEqual([
      { method: 'POST', path: `/api/service-centers/${SC}/contact-person`, body: { name: 'Efua Mensah' } },
    ]);
  });

  it('says so when an addition fails', async () => {
    await open();
    server.use(http.post('*/api/service-centers/:id/contact-person', () => HttpResponse.json({ detail: 'x' }, { status: 500 })));
    const people = within(panel('Contact Persons'));
    fireEvent.change(people.getByLabelText('Name'), { target: { value: 'Efua Mensah' } });
    fireEvent.click(people.getByRole('button', { name: 'Add' }));
    expect(await people.findByText('The contact person could not be added. Please try again.')).toBeTruthy();
  });

  it("shows the server's words when a name is already taken (409)", async () => {
    await open();
    const taken = (message: string) => () => HttpResponse.json({ detail: { error_type: 'CONFLICT', message } }, { status: 409 });
    server.use(
      http.post('*/api/service-centers/:id/recruiters', taken('This service center already has a recruiter named "Ama Owusu".')),
      http.post('*/api/service_centers/:id/recruiting-points', taken('This service center already has a recruiting point named "Makola Market stand".')),
    );
    const recruiters = within(panel('Recruiters'));
    fireEvent.change(recruiters.getByLabelText('Name'), { target: { value: 'Ama Owusu' } });
    fireEvent.click(recruiters.getByRole('button', { name: 'Add' }));
    expect(await recruiters.findByText('This service center already has a recruiter named "Ama Owusu".')).toBeTruthy();
    const points = within(panel('Recruiting Points'));
    fireEvent.change(points.getByLabelText('Name'), { target: { value: 'Makola Market stand' } });
    fireEvent.click(points.getByRole('button', { name: 'Add' }));
    expect(await points.findByText('This service center already has a recruiting point named "Makola Market stand".')).toBeTruthy();
  });
});
