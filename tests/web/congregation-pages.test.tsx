// @vitest-environment happy-dom
// The congregation pages on MSW (spec §2, §6, §9): /admin/congregations/{group_id}/ (tiles Files and
// Emails), …/files (created_at descending by default, sort, name filter, paging in the address)
// and …/study-helpers (name filter), their shared side links, and "View As" for is_admin users.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Congregation, File, FileList, StudyHelper, StudyHelperList } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { browserLocation } from '../../src/lib/browser-location';

setupMockApi();
afterEach(() => vi.restoreAllMocks());

const GROUP = 'c0000000-0000-4000-8000-000000000009';
const accra: Congregation = { id: GROUP, wbs_code: 'GH 5678', display_name: 'Accra Central', created_at: '2024-01-02T00:00:00Z' };

const file: File = {
  id: 'f0000000-0000-4000-8000-000000000001',
  name: 'Accra batch March',
  process_status: 'success',
  file_status: null,
  grading_complete: false,
  printed: false,
  responses_count: 12,
  service_center: { id: 's1', name: 'Accra Service Center' },
  recruiting_point: null,
  recruiter: null,
  service_center_contact_person: null,
  congregations: [{ id: GROUP, wbs_code: 'GH 5678' }],
  courses: [],
  uploaded_at: '2024-03-01T10:00:00Z',
  created_at: '2024-03-02T10:00:00Z',
  sent_at: null,
  congregation_file_status: null,
};
const helper: StudyHelper = {
  id: 'd0000000-0000-4000-8000-000000000001',
  name: 'Sister Mary Jones',
  email: 'mary@example.org',
  student_count: 4,
  created_at: '2024-01-05T00:00:00Z',
  last_active_at: null,
};

function congregationApi(congregation: Congregation | null = accra) {
  server.use(
    http.get('*/api/congregations/:id', () =>
      congregation ? HttpResponse.json(congregation) : HttpResponse.json({ detail: 'Not found' }, { status: 404 }),
    ),
  );
}

function filesApi(page: FileList) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/files', ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json(page);
    }),
  );
  return queries;
}

function helpersApi(page: StudyHelperList) {
  const calls: { id: string; query: URLSearchParams }[] = [];
  server.use(
    http.get('*/api/congregations/:id/study-helpers', ({ request, params }) => {
      calls.push({ id: String(params.id), query: new URL(request.url).searchParams });
      return HttpResponse.json(page);
    }),
  );
  return calls;
}

const sideLinks = () => within(screen.getByRole('navigation', { name: 'Congregation' }));

describe('congregation home', () => {
  it('shows the congregation with tiles Files and Emails and the side links', async () => {
    congregationApi();
    renderApp(`/admin/congregations/${GROUP}/`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Congregation' })).toBeTruthy();
    expect(await screen.findByText('GH 5678 · Accra Central')).toBeTruthy();
    const tiles = within(screen.getByRole('navigation', { name: 'Congregation shortcuts' }));
    expect(tiles.getByRole('link', { name: 'Files' }).getAttribute('href')).toBe(`/admin/congregations/${GROUP}/files`);
    expect(tiles.getByRole('link', { name: 'Emails' }).getAttribute('href')).toBe(`/admin/congregations/${GROUP}/emails`);
    expect(sideLinks().getByRole('link', { name: 'Emails' }).getAttribute('href')).toBe(`/admin/congregations/${GROUP}/emails`);
    expect(sideLinks().getByRole('link', { name: 'Files' }).getAttribute('href')).toBe(`/admin/congregations/${GROUP}/files`);
    expect(sideLinks().getByRole('link', { name: 'Study Helpers' }).getAttribute('href')).toBe(
      `/admin/congregations/${GROUP}/study-helpers`,
    );
    expect(sideLinks().getByRole('button', { name: 'View As' })).toBeTruthy();
  });

  it('says so for an unknown congregation', async () => {
    congregationApi(null);
    renderApp(`/admin/congregations/${GROUP}/`, { as: 'admin' });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'This congregation does not exist.');
    expect(screen.queryByRole('navigation', { name: 'Congregation' })).toBeNull();
  });
});

describe('congregation files', () => {
  it('lists the congregation\'s files newest first by default', async () => {
    congregationApi();
    const queries = filesApi({ items: [file], total: 1, skip: 0, limit: 10 });
    renderApp(`/admin/congregations/${GROUP}/files`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Congregation Files' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Accra batch March' });
    expect(link.getAttribute('href')).toBe(`/file/${file.id}`);
    const query = queries.at(-1);
    expect(query?.get('group_id')).toBe(GROUP);
    expect(query?.get('order_by')).toBe('created_at');
    expect(query?.get('order_direction')).toBe('desc');
    expect(query?.get('skip')).toBe('0');
    expect(query?.get('limit')).toBe('10');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Name',
      'Service Center',
      'Responses',
      'Uploaded',
      'Created',
    ]);
    expect(within(link.closest('tr') as HTMLElement).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Accra batch March',
      'Accra Service Center',
      '12',
      'Mar 1, 2024',
      'Mar 2, 2024',
    ]);
    expect(screen.getByRole('columnheader', { name: 'Created' }).getAttribute('aria-sort')).toBe('descending');
    expect(sideLinks().getByRole('link', { name: 'Files' }).getAttribute('aria-current')).toBe('page');
  });

  it('sorts, filters by name and pages, all in the address', async () => {
    congregationApi();
    const queries = filesApi({ items: [file], total: 30, skip: 0, limit: 10 });
    const { router } = renderApp(`/admin/congregations/${GROUP}/files`, { as: 'admin' });
    await screen.findByRole('link', { name: 'Accra batch March' });
    const table = screen.getByRole('table', { name: 'Files' });
    fireEvent.click(within(table).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('name'));
    expect(queries.at(-1)?.get('order_direction')).toBe('asc');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(queries.at(-1)?.get('skip')).toBe('10'));
    expect(router.state.location.search).toBe('?order_by=name&order_direction=asc&page=2');

    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'March' } });
    await waitFor(() => expect(queries.at(-1)?.get('query_name')).toBe('March'));
    expect(queries.at(-1)?.get('skip')).toBe('0');
    expect(queries.at(-1)?.get('group_id')).toBe(GROUP);
    expect(router.state.location.search).toBe('?order_by=name&order_direction=asc&name=March');
  });

  it('links to the congregation\'s uploads', async () => {
    congregationApi();
    filesApi({ items: [], total: 0, skip: 0, limit: 10 });
    const { router } = renderApp(`/admin/congregations/${GROUP}/files`, { as: 'admin' });
    expect(await screen.findByText('There are no files to display')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Uploads' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/files/uploads'));
    expect(router.state.location.search).toBe(`?groupId=${GROUP}`);
  });
});

describe('congregation study helpers', () => {
  it('lists the congregation\'s study helpers and filters them by name', async () => {
    congregationApi();
    const calls = helpersApi({ items: [helper], total: 1, skip: 0, limit: 10 });
    const { router } = renderApp(`/admin/congregations/${GROUP}/study-helpers`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Congregation Study Helpers' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Sister Mary Jones' });
    expect(link.getAttribute('href')).toBe(`/study-helpers/${helper.id}`);
    expect(calls.at(-1)?.id).toBe(GROUP);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Study Helper',
      'Students',
      'Last Active',
      'Added',
      '',
    ]);
    expect(screen.getByRole('button', { name: 'Delete Sister Mary Jones' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '4 students of Sister Mary Jones' }).getAttribute('href')).toBe(
      `/students?studyHelper=${helper.id}`,
    );
    expect(sideLinks().getByRole('link', { name: 'Study Helpers' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'Mary' } });
    await waitFor(() => expect(calls.at(-1)?.query.get('name')).toBe('Mary'));
    expect(router.state.location.search).toBe('?name=Mary');
  });

  it('says so when the congregation has none', async () => {
    congregationApi();
    helpersApi({ items: [], total: 0, skip: 0, limit: 10 });
    renderApp(`/admin/congregations/${GROUP}/study-helpers?name=zzz`, { as: 'admin' });
    expect(await screen.findByText('There are no study helpers to display')).toBeTruthy();
  });
});

describe('View As on the congregation pages', () => {
  it('is offered to is_admin users only', async () => {
    congregationApi();
    helpersApi({ items: [helper], total: 1, skip: 0, limit: 10 });
    renderApp(`/admin/congregations/${GROUP}/study-helpers`, { as: 'coordinator' });
    await screen.findByRole('link', { name: 'Sister Mary Jones' });
    expect(sideLinks().getByRole('link', { name: 'Files' })).toBeTruthy();
    expect(sideLinks().queryByRole('button', { name: 'View As' })).toBeNull();
  });

  it('acts as the congregation, then starts over at /', async () => {
    congregationApi();
    filesApi({ items: [file], total: 1, skip: 0, limit: 10 });
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    const bodies: unknown[] = [];
    server.use(
      http.post('*/api/auth/view-as', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ email: 'admin@demo.local', role: 'study_helper_coordinator', congregation: GROUP, is_admin: true });
      }),
    );
    renderApp(`/admin/congregations/${GROUP}/files`, { as: 'admin' });
    await screen.findByRole('link', { name: 'Accra batch March' });
    fireEvent.click(sideLinks().getByRole('button', { name: 'View As' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(bodies).toEqual([{ congregation: GROUP }]);
  });

  it('says when it failed, and offers Try again and Cancel', async () => {
    congregationApi();
    filesApi({ items: [file], total: 1, skip: 0, limit: 10 });
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    server.use(
      http.post('*/api/auth/view-as', () =>
        fail
          ? HttpResponse.json({ detail: 'boom' }, { status: 500 })
          : HttpResponse.json({ email: 'admin@demo.local', role: 'study_helper_coordinator', congregation: GROUP, is_admin: true }),
      ),
    );
    renderApp(`/admin/congregations/${GROUP}/files`, { as: 'admin' });
    await screen.findByRole('link', { name: 'Accra batch March' });
    fireEvent.click(sideLinks().getByRole('button', { name: 'View As' }));
    const alert = await sideLinks().findByRole('alert');
    expect(alert.textContent).toContain('View As failed. Please try again.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(sideLinks().queryByRole('alert')).toBeNull());

    fireEvent.click(sideLinks().getByRole('button', { name: 'View As' }));
    const again = await sideLinks().findByRole('alert');
    fail = false;
    fireEvent.click(within(again).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
  });
});
