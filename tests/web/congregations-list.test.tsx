// @vitest-environment happy-dom
// /admin/congregations/ on MSW: the list, its links, the "Add A New Congregation" dialog with
// the WBS code rule (spec §2, §5), and deleting a congregation after the spec's confirmation.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Congregation, CongregationList } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';

setupMockApi();

const springfield: Congregation = {
  id: 'c0000000-0000-4000-8000-000000000001',
  wbs_code: 'US 1234',
  display_name: 'Springfield North',
  created_at: '2024-01-02T00:00:00Z',
};
const accra: Congregation = { ...springfield, id: 'c0000000-0000-4000-8000-000000000002', wbs_code: 'GH 5678', display_name: 'Accra Central' };

function congregationsApi(page: CongregationList) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/congregations', ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json(page);
    }),
  );
  return queries;
}

async function openAddDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add A New Congregation' }));
  return screen.findByRole('dialog', { name: 'Add A New Congregation' });
}

describe('congregations list', () => {
  it('lists WBS code and display name, each row linking to the congregation\'s files', async () => {
    congregationsApi({ items: [springfield, accra], total: 2, skip: 0, limit: 10 });
    const { router } = renderApp('/admin/congregations/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Congregations' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'US 1234' });
    expect(link.getAttribute('href')).toBe(`/admin/congregations/${springfield.id}/files`);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['WBS Code', 'Display Name', '']);
    expect(screen.getByText('Accra Central')).toBeTruthy();
    expect(screen.getByText('Showing 1 to 2 of 2 results')).toBeTruthy();
    fireEvent.click(screen.getByText('Accra Central'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/congregations/${accra.id}/files`));
  });

  it('sorts by WBS code and searches by it', async () => {
    const queries = congregationsApi({ items: [springfield], total: 1, skip: 0, limit: 10 });
    renderApp('/admin/congregations/?wbsCode=US');
    await screen.findByRole('link', { name: 'US 1234' });
    expect(queries.at(-1)?.get('wbs_code')).toBe('US');
    fireEvent.click(within(screen.getByRole('table')).getByRole('button', { name: 'WBS Code' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('wbs_code'));
    expect(queries.at(-1)?.get('wbs_code')).toBe('US');
  });

  it('shows an error state with no message text while the WBS code breaks the rule', async () => {
    congregationsApi({ items: [], total: 0, skip: 0, limit: 10 });
    renderApp('/admin/congregations/');
    const dialog = await openAddDialog();
    const wbs = within(dialog).getByLabelText('WBS Code') as HTMLInputElement;
    const name = within(dialog).getByLabelText('Display Name') as HTMLInputElement;
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    const textBefore = dialog.textContent;

    fireEvent.change(name, { target: { value: 'Springfield North' } });
    for (const bad of ['US 12', 'US1234', 'U S1234', ' US1234', 'US 12 34']) {
      fireEvent.change(wbs, { target: { value: bad } });
      expect(wbs.classList.contains('p-invalid')).toBe(true);
      expect(wbs.getAttribute('aria-invalid')).toBe('true');
      expect(save.disabled).toBe(true);
      expect(dialog.textContent).toBe(textBefore);
    }
    fireEvent.change(wbs, { target: { value: 'US 1234' } });
    expect(wbs.classList.contains('p-invalid')).toBe(false);
    expect(wbs.hasAttribute('aria-invalid')).toBe(false);
    expect(save.disabled).toBe(false);
  });

  it('adds a congregation with POST /api/congregations and refreshes the list', async () => {
    const queries = congregationsApi({ items: [], total: 0, skip: 0, limit: 10 });
    const posted: unknown[] = [];
    server.use(
      http.post('*/api/congregations', async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json({ ...springfield, wbs_code: 'NG 4321', display_name: 'Lagos' }, { status: 201 });
      }),
    );
    renderApp('/admin/congregations/');
    const dialog = await openAddDialog();
    const listRequests = queries.length;
    fireEvent.change(within(dialog).getByLabelText('WBS Code'), { target: { value: 'NG 4321' } });
    fireEvent.change(within(dialog).getByLabelText('Display Name'), { target: { value: ' Lagos ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted).toEqual([{ wbs_code: 'NG 4321', display_name: 'Lagos' }]);
    await waitFor(() => expect(queries.length).toBeGreaterThan(listRequests));
    expect(await screen.findByText('Congregation NG 4321 added.')).toBeTruthy();
  });

  it('says so when the WBS code is taken', async () => {
    congregationsApi({ items: [], total: 0, skip: 0, limit: 10 });
    server.use(
      http.post('*/api/congregations', () =>
        HttpResponse.json({ detail: { error_type: 'CONFLICT', message: 'exists' } }, { status: 409 }),
      ),
    );
    renderApp('/admin/congregations/');
    const dialog = await openAddDialog();
    fireEvent.change(within(dialog).getByLabelText('WBS Code'), { target: { value: 'US 1234' } });
    fireEvent.change(within(dialog).getByLabelText('Display Name'), { target: { value: 'Again' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A congregation with this WBS code already exists.')).toBeTruthy();
  });

  it('deletes a congregation after "Are you sure…", and shows the server\'s refusal', async () => {
    congregationsApi({ items: [springfield, accra], total: 2, skip: 0, limit: 10 });
    const deleted: string[] = [];
    server.use(
      http.delete('*/api/congregations/:id', ({ params }) => {
        deleted.push(params.id as string);
        if (params.id === springfield.id) {
          return HttpResponse.json(
            { detail: { error_type: 'CONFLICT', message: 'This congregation cannot be deleted: it has 12 students.' } },
            { status: 409 },
          );
        }
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { router } = renderApp('/admin/congregations/');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete GH 5678' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Congregation' });
    expect(dialog.textContent).toContain('Are you sure you want to delete this congregation? This action cannot be undone.');
    expect(deleted).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual([accra.id]));
    expect(await screen.findByText('Congregation GH 5678 deleted.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete US 1234' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete Congregation' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('This congregation cannot be deleted: it has 12 students.')).toBeTruthy();
    // The row's link was not followed.
    expect(router.state.location.pathname).toBe('/admin/congregations/');
  });
});
