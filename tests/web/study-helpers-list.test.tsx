// @vitest-environment happy-dom
// /study-helpers/ on MSW: the columns, links and the "Add A New Study Helper" dialog (spec §2, §7).
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StudyHelper, StudyHelperList } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { DEMO_CONGREGATION_ID } from '../../src/testing/mocks/handlers';
import { STUDY_HELPER_PLACEHOLDER_EMAIL } from '../../src/features/study-helpers/add-study-helper-dialog';

setupMockApi();

const mary: StudyHelper = {
  id: 'd4c3b2a1-0000-4000-8000-000000000001',
  name: 'Sister Mary Jones',
  email: 'mary@example.org',
  student_count: 12,
  created_at: '2024-01-02T00:00:00Z',
  last_active_at: new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString(),
};

function helpersApi(page: StudyHelperList) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/study-helpers', ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json(page);
    }),
  );
  return queries;
}

describe('study helpers list', () => {
  it('shows ID, Study Helper, Students and Last Active, scoped to the congregation', async () => {
    const queries = helpersApi({ items: [mary], total: 1, skip: 0, limit: 10 });
    const { router } = renderApp('/study-helpers/', { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Study Helpers' })).toBeTruthy();
    await screen.findByText('Sister Mary Jones');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'ID',
      'Study Helper',
      'Students',
      'Last Active',
    ]);
    const row = screen.getByText('Sister Mary Jones').closest('tr') as HTMLElement;
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'd4c3b2',
      'Sister Mary Jones',
      '12',
      '2 days ago',
    ]);
    expect(within(row).getByRole('link', { name: 'd4c3b2' }).getAttribute('href')).toBe(`/study-helpers/${mary.id}`);
    expect(within(row).getByRole('link', { name: '12 students of Sister Mary Jones' }).getAttribute('href')).toBe(
      `/students?studyHelper=${mary.id}`,
    );
    expect(queries.at(-1)?.get('congregation')).toBe(DEMO_CONGREGATION_ID);
    fireEvent.click(screen.getByText('Sister Mary Jones'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/study-helpers/${mary.id}`));
  });

  it('filters by name from the filter panel', async () => {
    const queries = helpersApi({ items: [mary], total: 1, skip: 0, limit: 10 });
    renderApp('/study-helpers/', { as: 'coordinator' });
    await screen.findByText('Sister Mary Jones');
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), { target: { value: 'Mary' } });
    await waitFor(() => expect(queries.at(-1)?.get('name')).toBe('Mary'));
  });

  it('says so when there are none', async () => {
    helpersApi({ items: [], total: 0, skip: 0, limit: 10 });
    renderApp('/study-helpers/', { as: 'coordinator' });
    expect(await screen.findByText('There are no study helpers to display')).toBeTruthy();
  });

  it('adds a study helper by name, sending the fixed placeholder e-mail', async () => {
    helpersApi({ items: [], total: 0, skip: 0, limit: 10 });
    const posts: { congregation: string; body: unknown }[] = [];
    server.use(
      http.post('*/api/congregations/:id/study-helpers', async ({ params, request }) => {
        posts.push({ congregation: String(params.id), body: await request.json() });
        return HttpResponse.json({ ...mary, name: 'Brother Kofi' }, { status: 201 });
      }),
    );
    renderApp('/study-helpers/', { as: 'coordinator' });
    fireEvent.click(await screen.findByRole('button', { name: 'Add A New Study Helper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add A New Study Helper' });
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Brother Kofi' } });
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts).toEqual([
      { congregation: DEMO_CONGREGATION_ID, body: { name: 'Brother Kofi', email: STUDY_HELPER_PLACEHOLDER_EMAIL } },
    ]);
    expect(await screen.findByText('Study helper Brother Kofi added.')).toBeTruthy();
  });

  it('offers no Add button to an admin without a congregation', async () => {
    helpersApi({ items: [mary], total: 1, skip: 0, limit: 10 });
    renderApp('/study-helpers/', { as: 'admin' });
    await screen.findByText('Sister Mary Jones');
    expect(screen.queryByRole('button', { name: 'Add A New Study Helper' })).toBeNull();
  });
});
