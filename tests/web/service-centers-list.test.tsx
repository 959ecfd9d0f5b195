// @vitest-environment happy-dom
// /admin/service-centers/ on MSW (spec §2): the list with flags, sorting, name filter and paging
// in the address, and the "Add a Service Center" dialog (name, country, location), which opens the
// created center.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { CountryList, ServiceCenter, ServiceCenterList } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';

setupMockApi();

const accra: ServiceCenter = {
  id: '5c000000-0000-4000-8000-000000000001',
  name: 'Accra Service Center',
  location: 'Accra',
  country: { iso_code: 'GH', display_name: 'Ghana' },
  created_at: '2024-02-01T00:00:00Z',
};
const countries: CountryList = {
  items: [
    { iso_code: 'GH', display_name: 'Ghana' },
    { iso_code: 'NG', display_name: 'Nigeria' },
  ],
  total: 2,
  skip: 0,
  limit: 500,
};

function centersApi(page: ServiceCenterList) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/service_centers', ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json(page);
    }),
    http.get('*/api/countries', () => HttpResponse.json(countries)),
  );
  return queries;
}

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add a Service Center' }));
  return screen.findByRole('dialog', { name: 'Add a Service Center' });
}

/** Chooses a country in the dialog's PrimeReact dropdown (its panel opens in a portal). */
async function chooseCountry(dialog: HTMLElement, name: string) {
  const input = within(dialog).getByLabelText('Country');
  fireEvent.click(input.closest('.p-dropdown') as HTMLElement);
  fireEvent.click(await screen.findByRole('option', { name, hidden: true }));
}

describe('service centers list', () => {
  it('lists name (linking to the center), country with its flag, location and created date', async () => {
    const queries = centersApi({ items: [accra], total: 1, skip: 0, limit: 10 });
    const { router } = renderApp('/admin/service-centers/', { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Service Centers' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Accra Service Center' });
    expect(link.getAttribute('href')).toBe(`/admin/service-centers/${accra.id}`);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Country', 'Location', 'Created']);
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Accra Service Center',
      'Ghana',
      'Accra',
      'Feb 1, 2024',
    ]);
    expect(within(row).getByRole('img', { name: 'Ghana' })).toBeTruthy();
    expect(queries.at(-1)?.get('order_by')).toBe('name');
    fireEvent.click(within(row).getByText('Accra'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/service-centers/${accra.id}`));
  });

  it('says so when there are none', async () => {
    centersApi({ items: [], total: 0, skip: 0, limit: 10 });
    renderApp('/admin/service-centers/');
    expect(await screen.findByText('There are no service centers to display')).toBeTruthy();
  });

  it('sorts, filters by name and pages, all in the address', async () => {
    const queries = centersApi({ items: [accra], total: 12, skip: 0, limit: 10 });
    const { router } = renderApp('/admin/service-centers/');
    await screen.findByRole('link', { name: 'Accra Service Center' });
    const table = screen.getByRole('table', { name: 'Service Centers' });
    fireEvent.click(within(table).getByRole('button', { name: 'Created' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('created_at'));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(queries.at(-1)?.get('skip')).toBe('10'));
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'Accra' } });
    await waitFor(() => expect(queries.at(-1)?.get('name')).toBe('Accra'));
    expect(router.state.location.search).toBe('?order_by=created_at&order_direction=asc&name=Accra');
  });

  it('adds a service center with name, country and location, then opens it', async () => {
    centersApi({ items: [], total: 0, skip: 0, limit: 10 });
    const created = '5c000000-0000-4000-8000-000000000002';
    const posted: unknown[] = [];
    server.use(
      http.post('*/api/service_centers', async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json({ id: created }, { status: 201 });
      }),
    );
    const { router } = renderApp('/admin/service-centers/');
    const dialog = await openDialog();
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: ' Lagos Center ' } });
    fireEvent.change(within(dialog).getByLabelText('Location'), { target: { value: 'Lagos' } });
    expect(save.disabled).toBe(true);
    await chooseCountry(dialog, 'Nigeria');
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/service-centers/${created}`));
    expect(posted).toEqual([{ name: 'Lagos Center', country: 'NG', location: 'Lagos' }]);
  });

  it('says so when the center could not be added', async () => {
    centersApi({ items: [], total: 0, skip: 0, limit: 10 });
    server.use(http.post('*/api/service_centers', () => HttpResponse.json({ detail: 'boom' }, { status: 500 })));
    const { router } = renderApp('/admin/service-centers/');
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Lagos Center' } });
    fireEvent.change(within(dialog).getByLabelText('Location'), { target: { value: 'Lagos' } });
    await chooseCountry(dialog, 'Ghana');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The service center could not be added. Please try again.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/service-centers/');
  });
});
