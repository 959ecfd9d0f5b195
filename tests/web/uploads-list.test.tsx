// @vitest-environment happy-dom
// /files/uploads/ on MSW (spec §2): GET /api/uploads/ with group_id from the groupId search param,
// columns Name and Create Time, both sortable, and paging, all kept in the address; a graded
// upload may be withdrawn (by an admin or its coordinator), a service center's file not here.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { UploadList, UploadListItem } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { formatDateTime } from '../../src/lib/format';

setupMockApi();

const GROUP = 'c0000000-0000-4000-8000-000000000009';
const upload: UploadListItem = {
  id: 'u0000000-0000-4000-8000-000000000001',
  name: 'graded-packet-march.pdf',
  created_at: '2024-03-05T14:30:00Z',
  kind: 'graded',
};
const scan: UploadListItem = {
  id: 'f0000000-0000-4000-8000-000000000002',
  name: 'service-center-scan.pdf',
  created_at: '2024-03-04T09:00:00Z',
  kind: 'service_center',
  process_status: 'success',
  summary: { pages_read: 4, matched: 3, not_matched: 1, blank_dropped: 0 },
};

function uploadsApi(page: UploadList) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/uploads/', ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json(page);
    }),
  );
  return queries;
}

describe('uploads list', () => {
  it('lists the congregation\'s uploads with Name and Create Time', async () => {
    const queries = uploadsApi({ items: [upload], total: 1, skip: 0, limit: 10 });
    renderApp(`/files/uploads/?groupId=${GROUP}`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Uploads' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'graded-packet-march.pdf' });
    expect(link.getAttribute('href')).toBe(`/files/uploads/${upload.id}`);
    // The spec's two columns, and the pages each upload matched or not (issue: upload reports).
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Create Time', 'Kind', 'Pages', '']);
    const cells = within(link.closest('tr') as HTMLElement).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 2)).toEqual(['graded-packet-march.pdf', formatDateTime(upload.created_at)]);
    expect(cells[1]).toMatch(/^Mar [56], 2024, \d{1,2}:\d{2} [AP]M$/);
    expect(queries.at(-1)?.get('group_id')).toBe(GROUP);
    expect(queries.at(-1)?.get('skip')).toBe('0');
    expect(queries.at(-1)?.get('limit')).toBe('10');
  });

  it('lists a coordinator\'s uploads without groupId, each one it may withdraw', async () => {
    const queries = uploadsApi({ items: [upload], total: 1, skip: 0, limit: 10 });
    renderApp('/files/uploads/', { as: 'coordinator' });
    await screen.findByRole('link', { name: 'graded-packet-march.pdf' });
    expect(queries.at(-1)?.has('group_id')).toBe(false);
    expect(screen.getByRole('button', { name: 'Withdraw graded-packet-march.pdf' })).toBeTruthy();
    // Only an admin filters by congregation.
    expect(screen.queryByRole('button', { name: 'Filter' })).toBeNull();
  });

  it('shows an admin the service centers\' files beside graded uploads, and filters by congregation', async () => {
    uploadsApi({ items: [upload, scan], total: 2, skip: 0, limit: 10 });
    const { router } = renderApp('/files/uploads/', { as: 'admin' });
    const link = await screen.findByRole('link', { name: 'service-center-scan.pdf' });
    const cells = within(link.closest('tr') as HTMLElement).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(2, 4)).toEqual(['Service center file', '3 matched / 1 not matched']);
    expect(screen.queryByRole('button', { name: 'Withdraw service-center-scan.pdf' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Withdraw graded-packet-march.pdf' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('Congregation')).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });

  it('sorts by both columns and pages, in the address', async () => {
    const queries = uploadsApi({ items: [upload], total: 14, skip: 0, limit: 10 });
    const { router } = renderApp(`/files/uploads/?groupId=${GROUP}`);
    await screen.findByRole('link', { name: 'graded-packet-march.pdf' });
    const table = screen.getByRole('table', { name: 'Uploads' });
    fireEvent.click(within(table).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('name'));
    expect(queries.at(-1)?.get('order_direction')).toBe('asc');
    fireEvent.click(within(table).getByRole('button', { name: 'Create Time' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('created_at'));
    fireEvent.click(within(table).getByRole('button', { name: 'Create Time' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_direction')).toBe('desc'));
    expect(screen.getByRole('columnheader', { name: 'Create Time' }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(queries.at(-1)?.get('skip')).toBe('10'));
    expect(queries.at(-1)?.get('group_id')).toBe(GROUP);
    expect(router.state.location.search).toBe(`?groupId=${GROUP}&order_by=created_at&order_direction=desc&page=2`);
  });

  it('says so when there are none', async () => {
    uploadsApi({ items: [], total: 0, skip: 0, limit: 10 });
    renderApp('/files/uploads/');
    expect(await screen.findByText('There are no uploads to display')).toBeTruthy();
  });

  it('withdraws an upload after the question, and shows the server\'s refusal', async () => {
    uploadsApi({ items: [upload], total: 1, skip: 0, limit: 10 });
    let answer: 'refuse' | 'withdraw' = 'refuse';
    const withdrawn: string[] = [];
    server.use(
      http.delete('*/api/uploads/:id', ({ params }) => {
        withdrawn.push(params.id as string);
        return answer === 'refuse'
          ? HttpResponse.json(
              { detail: { error_type: 'CONFLICT', message: 'This upload cannot be withdrawn: the file "March" is archived.' } },
              { status: 409 },
            )
          : new HttpResponse(null, { status: 204 });
      }),
    );
    const { queryClient } = renderApp('/files/uploads/', { as: 'admin' });
    // A file's steps read before: withdrawing changes its grading, so they are read again.
    queryClient.setQueryData(['/api/file/f1/steps'], { step: 'return' });
    fireEvent.click(await screen.findByRole('button', { name: 'Withdraw graded-packet-march.pdf' }));
    let dialog = await screen.findByRole('dialog', { name: 'Withdraw Upload' });
    // The question names the upload and says what withdrawing does (issue 31).
    expect(
      within(dialog).getByText(
        'Withdraw the upload “graded-packet-march.pdf”? The pages it graded count as not graded again (a file it completed goes back to Grading, and its return file is made again once all is graded), and its report and scans are deleted. This action cannot be undone.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('This upload cannot be withdrawn: the file "March" is archived.')).toBeTruthy();
    answer = 'withdraw';
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw graded-packet-march.pdf' }));
    dialog = await screen.findByRole('dialog', { name: 'Withdraw Upload' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Upload graded-packet-march.pdf withdrawn.')).toBeTruthy();
    expect(withdrawn).toEqual([upload.id, upload.id]);
    await waitFor(() => expect(queryClient.getQueryState(['/api/file/f1/steps'])?.isInvalidated).toBe(true));
  });
});
