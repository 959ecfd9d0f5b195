// @vitest-environment happy-dom
// /students/ on MSW (spec §2 "/students/", §5, §9): columns per role, cells, links, empty message,
// and what the list sends for sorting, paging and each filter.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Student, StudentList } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';

setupMockApi();

const now = Date.now();
const ada: Student = {
  id: 'a0000000-0000-4000-8000-000000000001',
  human_id: 100234,
  name: 'Ada Mensah',
  country: { iso_code: 'GH', display_name: 'Ghana' },
  congregation_id: 'c0000000-0000-4000-8000-000000000001',
  congregation: { id: 'c0000000-0000-4000-8000-000000000001', wbs_code: 'US 1234' },
  study_helper: { id: 'h0000000-0000-4000-8000-000000000001', name: 'Sister Mary Jones' },
  latest_answer_sheet: {
    file: {
      service_center: { id: 's1', name: 'Accra Center' },
      recruiting_point: { id: 'r1', name: 'Kumasi Market' },
      recruiter: null,
      uploaded_at: '2024-03-01T10:00:00Z',
    },
    lesson: { id: 'l1', name: 'Lesson 3: The Church' },
  },
  created_at: '2024-03-05T12:00:00Z',
  last_active_at: new Date(now - 5 * 60 * 1000).toISOString(),
  attributes: {},
};
const bo: Student = {
  ...ada,
  id: 'a0000000-0000-4000-8000-000000000002',
  human_id: 100567,
  country: null,
  congregation: null,
  congregation_id: null,
  study_helper: null,
  latest_answer_sheet: null,
  last_active_at: null,
};

/** Answers GET /api/students with `page` and records every query it received. */
function studentsApi(page: StudentList) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/students', ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json(page);
    }),
  );
  return queries;
}

const headers = () => screen.getAllByRole('columnheader').map((th) => th.textContent);
const table = () => screen.getByRole('table', { name: 'Students' });

describe('students list', () => {
  it('shows the admin\'s columns and each student\'s cells', async () => {
    studentsApi({ items: [ada, bo], total: 2, skip: 0, limit: 10 });
    renderApp('/students/', { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Students' })).toBeTruthy();
    await screen.findByRole('link', { name: '100234' });
    expect(headers()).toEqual([
      'ID',
      'Service Center',
      'Recruiting Location',
      'Last Completed Lesson',
      'Assigned Congregation',
      'Assigned Study Helper',
      'Country',
      'Last Active',
      'First Seen',
    ]);
    const row = screen.getByRole('link', { name: '100234' }).closest('tr') as HTMLElement;
    const cells = within(row).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells.slice(0, 6)).toEqual([
      '100234',
      'Accra Center',
      'Kumasi Market',
      'Lesson 3: The Church',
      'US 1234',
      'Sister Mary Jones',
    ]);
    expect(within(row).getByRole('img', { name: 'Ghana' })).toBeTruthy();
    expect(cells[7]).toBe('5 minutes ago');
    expect(cells[8]).toBe('Mar 5, 2024');
    expect(screen.getByRole('link', { name: '100234' }).getAttribute('href')).toBe(`/students/${ada.id}`);
    expect(screen.getByText('Showing 1 to 2 of 2 results')).toBeTruthy();
  });

  it('hides the Assigned Congregation column from a coordinator', async () => {
    studentsApi({ items: [ada], total: 1, skip: 0, limit: 10 });
    renderApp('/students/', { as: 'coordinator' });
    await screen.findByRole('link', { name: '100234' });
    expect(headers()).not.toContain('Assigned Congregation');
    expect(headers()).toHaveLength(8);
  });

  it('says "There are no students to display" for an empty list', async () => {
    studentsApi({ items: [], total: 0, skip: 0, limit: 10 });
    renderApp('/students/');
    expect(await screen.findByText('There are no students to display')).toBeTruthy();
  });

  it('opens the student on a row click', async () => {
    studentsApi({ items: [ada], total: 1, skip: 0, limit: 10 });
    const { router } = renderApp('/students/');
    const link = await screen.findByRole('link', { name: '100234' });
    fireEvent.click(within(link.closest('tr') as HTMLElement).getByText('Accra Center'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/students/${ada.id}`));
  });

  it('sorts by ID and First Seen, and pages with skip and limit 10', async () => {
    const queries = studentsApi({ items: [ada], total: 35, skip: 0, limit: 10 });
    const { router } = renderApp('/students/');
    await screen.findByRole('link', { name: '100234' });
    expect(queries.at(-1)?.get('limit')).toBe('10');
    expect(queries.at(-1)?.get('skip')).toBe('0');
    expect(queries.at(-1)?.has('order_by')).toBe(false);

    const sortButton = (name: string) => within(table()).getByRole('button', { name });
    expect(within(table()).queryByRole('button', { name: 'Service Center' })).toBeNull();
    fireEvent.click(sortButton('ID'));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('human_id'));
    expect(queries.at(-1)?.get('order_direction')).toBe('asc');
    fireEvent.click(sortButton('ID'));
    await waitFor(() => expect(queries.at(-1)?.get('order_direction')).toBe('desc'));
    fireEvent.click(sortButton('First Seen'));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('created_at'));

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(queries.at(-1)?.get('skip')).toBe('10'));
    expect(router.state.location.search).toBe('?order_by=created_at&order_direction=asc&page=2');
  });

  it('goes from a page beyond the last to the last page, replacing the address', async () => {
    const lastPageAnswer = { items: [ada], total: 62, skip: 60, limit: 10 };
    const queries = studentsApi(lastPageAnswer);
    const { router } = renderApp('/students?page=99');
    await waitFor(() => expect(router.state.location.search).toBe('?page=7'));
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(queries.at(-1)?.get('skip')).toBe('60'));
    expect(await screen.findByText('Showing 61 to 62 of 62 results')).toBeTruthy();
  });

  it('sends the country and studyHelper search params as filters', async () => {
    const queries = studentsApi({ items: [ada], total: 1, skip: 0, limit: 10 });
    renderApp('/students?country=GH&studyHelper=h0000000-0000-4000-8000-000000000001');
    await screen.findByRole('link', { name: '100234' });
    expect(queries.at(-1)?.get('country')).toBe('GH');
    expect(queries.at(-1)?.get('study_helper')).toBe('h0000000-0000-4000-8000-000000000001');
  });

  it('searches by student ID with human_id_prefix and limit 20, only when numeric', async () => {
    const queries = studentsApi({ items: [ada], total: 1, skip: 0, limit: 20 });
    const { router, queryClient } = renderApp('/students/');
    await screen.findByRole('link', { name: '100234' });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    const box = await screen.findByRole('textbox', { name: 'Student ID' });
    fireEvent.change(box, { target: { value: '1002' } });
    await waitFor(() => expect(queries.at(-1)?.get('human_id_prefix')).toBe('1002'));
    expect(queries.at(-1)?.get('limit')).toBe('20');
    expect(router.state.location.search).toBe('?studentId=1002');

    fireEvent.change(box, { target: { value: 'abc' } });
    await waitFor(() => expect(router.state.location.search).toBe('?studentId=abc'));
    // The list asks for the plain first page again (answered from the cache).
    const activeKeys = () =>
      queryClient.getQueryCache().findAll({ queryKey: ['/api/students'], type: 'active' }).map((query) => query.queryKey[1]);
    await waitFor(() => expect(activeKeys()).toEqual([{ skip: 0, limit: 10 }]));
    expect(queries.some((query) => query.get('human_id_prefix') === 'abc')).toBe(false);
  });

  it('offers the congregation picker to admins only, and sends it for admins only', async () => {
    const queries = studentsApi({ items: [ada], total: 1, skip: 0, limit: 10 });
    renderApp('/students?congregation=c0000000-0000-4000-8000-000000000001', { as: 'admin' });
    await screen.findByRole('link', { name: '100234' });
    expect(queries.at(-1)?.get('congregation')).toBe('c0000000-0000-4000-8000-000000000001');
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByLabelText('Congregation')).toBeTruthy();
    expect(screen.getByLabelText('Country')).toBeTruthy();
  });

  it('does not filter a coordinator by congregation', async () => {
    const queries = studentsApi({ items: [ada], total: 1, skip: 0, limit: 10 });
    renderApp('/students?congregation=c0000000-0000-4000-8000-000000000001', { as: 'coordinator' });
    await screen.findByRole('link', { name: '100234' });
    expect(queries.at(-1)?.has('congregation')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await screen.findByRole('textbox', { name: 'Student ID' });
    expect(screen.getByLabelText('Country')).toBeTruthy();
    expect(screen.queryByLabelText('Congregation')).toBeNull();
  });
});
