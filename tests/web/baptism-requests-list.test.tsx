// @vitest-environment happy-dom
// /baptism-requests/ on MSW (spec §2, §4, §5, §8): the table and its status labels, the empty
// message, the "Add Baptism Request" dialog with every one of its messages, and an admin's delete
// of a pending request (a coordinator is not offered one).
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { BaptismRequest, BaptismRequestList } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';

setupMockApi();

const request: BaptismRequest = {
  id: 'b0000000-0000-4000-8000-000000000001',
  student: { id: 'a0000000-0000-4000-8000-000000000001', human_id: 100245, name: 'Kofi Asante' },
  service_center: { name: 'Accra Service Center' },
  recruiter: { name: 'Ama Owusu' },
  latest_status: { status: 'waiting_on_recruiter' },
  requested_at: '2024-03-05T12:00:00Z',
};
const statuses = ['pending', 'waiting_on_service_center', 'missing_info', 'completed'] as const;
const others: BaptismRequest[] = statuses.map((status, i) => ({
  ...request,
  id: `b0000000-0000-4000-8000-00000000001${i}`,
  student: { ...request.student, id: `a0000000-0000-4000-8000-00000000001${i}`, human_id: 200000 + i },
  service_center: null,
  recruiter: null,
  latest_status: { status },
}));

function baptismApi(page: BaptismRequestList) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/baptism-requests', ({ request: req }) => {
      queries.push(new URL(req.url).searchParams);
      return HttpResponse.json(page);
    }),
  );
  return queries;
}

/** Answers POST /api/baptism-request with `status` and `body`, recording the bodies sent. */
function createApi(status: number, body: unknown) {
  const posted: unknown[] = [];
  server.use(
    http.post('*/api/baptism-request', async ({ request: req }) => {
      posted.push(await req.json());
      return HttpResponse.json(body as Record<string, unknown>, { status });
    }),
  );
  return posted;
}

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add Baptism Request' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add Baptism Request' });
  const input = within(dialog).getByLabelText('Student ID') as HTMLInputElement;
  const submit = (text: string) => {
    fireEvent.change(input, { target: { value: text } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
  };
  return { dialog, input, submit };
}

describe('baptism requests list', () => {
  it('shows Student ID, Name, Service Center, Recruiter, Status and Request Date', async () => {
    const queries = baptismApi({ items: [request, ...others], total: 5, skip: 0, limit: 10 });
    renderApp('/baptism-requests/', { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Baptism Requests' })).toBeTruthy();
    const link = await screen.findByRole('link', { name: '100245' });
    expect(link.getAttribute('href')).toBe(`/students/${request.student.id}`);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Student ID',
      'Name',
      'Service Center',
      'Recruiter',
      'Status',
      'Request Date',
    ]);
    const cells = within(link.closest('tr') as HTMLElement).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['100245', 'Kofi Asante', 'Accra Service Center', 'Ama Owusu', 'Waiting on Recruiter', 'Mar 5, 2024']);
    const statusOf = (humanId: string) =>
      within(screen.getByRole('link', { name: humanId }).closest('tr') as HTMLElement).getAllByRole('cell')[4]?.textContent;
    expect(['200000', '200001', '200002', '200003'].map(statusOf)).toEqual([
      'Pending',
      'Waiting on Service Center',
      'Missing Info',
      'Completed',
    ]);
    expect(queries.at(-1)?.get('skip')).toBe('0');
    expect(queries.at(-1)?.get('limit')).toBe('10');
  });

  it('says "There are no baptism requests yet" when there are none', async () => {
    baptismApi({ items: [], total: 0, skip: 0, limit: 10 });
    renderApp('/baptism-requests/');
    expect(await screen.findByText('There are no baptism requests yet')).toBeTruthy();
  });

  it('pages with skip and limit, the page in the address', async () => {
    const queries = baptismApi({ items: [request], total: 15, skip: 0, limit: 10 });
    const { router } = renderApp('/baptism-requests/');
    await screen.findByRole('link', { name: '100245' });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(queries.at(-1)?.get('skip')).toBe('10'));
    expect(router.state.location.search).toBe('?page=2');
  });

  it('checks the Student ID before sending it', async () => {
    baptismApi({ items: [], total: 0, skip: 0, limit: 10 });
    const posted = createApi(201, request);
    renderApp('/baptism-requests/', { as: 'coordinator' });
    const { dialog, input, submit } = await openDialog();
    submit('');
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter a Student ID to continue.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    for (const bad of ['abc', '0', '-3', '12.5']) {
      submit(bad);
      expect(within(dialog).getByRole('alert').textContent).toBe('Invalid Student ID format.');
    }
    // The message follows the typing once shown.
    fireEvent.change(input, { target: { value: '' } });
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter a Student ID to continue.');
    fireEvent.change(input, { target: { value: '42' } });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(posted).toEqual([]);
  });

  it.each([
    [404, { detail: 'Student not found' }, 'Student ID not found.'],
    [400, { detail: 'No answer sheet found for this student.' }, 'No answer sheet found for this student.'],
    [409, { detail: 'A baptism request already exists for this student.' }, 'A baptism request already exists for this student.'],
    [400, { detail: { error_type: 'VALIDATION_ERROR', message: 'student_id must be >= 1' } }, 'Invalid Student ID format.'],
    [500, { detail: 'boom' }, 'Unable to create baptism request due to a server error. Please try again later.'],
  ])('answers a %i %j with "%s"', async (status, body, text) => {
    baptismApi({ items: [], total: 0, skip: 0, limit: 10 });
    const posted = createApi(status, body);
    renderApp('/baptism-requests/', { as: 'coordinator' });
    const { dialog, submit } = await openDialog();
    submit(' 100245 ');
    expect((await within(dialog).findByRole('alert')).textContent).toBe(text);
    expect(posted).toEqual([{ student_id: 100245 }]);
    expect(screen.queryByText('Baptism request successfully created.')).toBeNull();
  });

  it('creates a request: the dialog closes, the list refreshes and the success message shows', async () => {
    const queries = baptismApi({ items: [], total: 0, skip: 0, limit: 10 });
    const posted = createApi(201, request);
    renderApp('/baptism-requests/', { as: 'admin' });
    const { submit } = await openDialog();
    const listRequests = queries.length;
    submit('100245');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted).toEqual([{ student_id: 100245 }]);
    const message = await screen.findByText('Baptism request successfully created.');
    expect(message.closest('[role="status"]')).toBeTruthy();
    await waitFor(() => expect(queries.length).toBeGreaterThan(listRequests));
  });

  it('starts the dialog over when it is closed', async () => {
    baptismApi({ items: [], total: 0, skip: 0, limit: 10 });
    createApi(404, { detail: 'Student not found' });
    renderApp('/baptism-requests/');
    const first = await openDialog();
    first.submit('7');
    await within(first.dialog).findByText('Student ID not found.');
    fireEvent.click(within(first.dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const second = await openDialog();
    expect(second.input.value).toBe('');
    expect(within(second.dialog).queryByRole('alert')).toBeNull();
  });

  it('offers an admin Delete on pending requests only, and a coordinator none', async () => {
    baptismApi({ items: [request, ...others], total: 5, skip: 0, limit: 10 });
    const deleted: string[] = [];
    server.use(
      http.delete('*/api/baptism-requests/:id', ({ params }) => {
        deleted.push(params.id as string);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const view = renderApp('/baptism-requests/', { as: 'admin' });
    const pending = others[0]!;
    fireEvent.click(await screen.findByRole('button', { name: `Delete ${pending.student.human_id}` }));
    expect(screen.getAllByRole('button', { name: /^Delete \d+$/ })).toHaveLength(1);
    const dialog = await screen.findByRole('dialog', { name: 'Delete Baptism Request' });
    expect(dialog.textContent).toContain('Are you sure you want to delete this baptism request? This action cannot be undone.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual([pending.id]));
    view.unmount();

    renderApp('/baptism-requests/', { as: 'coordinator' });
    expect((await screen.findAllByText('Kofi Asante')).length).toBe(5);
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();
  });
});
