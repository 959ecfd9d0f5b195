// @vitest-environment happy-dom
// /file/{file_id}/responses on MSW (spec §2): columns, the Graded check, the empty message, a row
// opening the response, sorting by Course, a failed file's message, and the list read again when
// the upload job's progress completes.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { AnswerSheet, File } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { emitProgress, installFakeEventSource } from './support/fake-event-source';
import { FILE_ID, LESSON_2, fileRecord, responseRecord } from './support/fixtures';

setupMockApi();
installFakeEventSource();

function api(file: File, sheets: AnswerSheet[]) {
  const queries: URLSearchParams[] = [];
  const state = { sheets };
  server.use(
    http.get(`*/api/file/${FILE_ID}`, () => HttpResponse.json(file)),
    http.get('*/api/answer-sheets', ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json({ items: state.sheets, total: state.sheets.length, skip: 0, limit: 10 });
    }),
  );
  return { queries, state };
}

const graded = responseRecord({
  id: 'a2',
  student: { id: 's2', human_id: 100567, name: 'Bo Owusu', study_helper: null },
  lesson: LESSON_2,
  graded: true,
});

describe('responses of a file', () => {
  it('lists Student, ID, Course, Congregation and Graded, and opens a response on a row click', async () => {
    const { queries } = api(fileRecord(), [responseRecord(), graded]);
    const { router } = renderApp(`/file/${FILE_ID}/responses`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Responses' })).toBeTruthy();
    await screen.findByRole('link', { name: 'Ada Mensah' });
    const table = screen.getByRole('table', { name: 'Responses' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Student', 'ID', 'Course', 'Congregation', 'Graded']);
    const cells = (name: string) =>
      within(screen.getByRole('link', { name }).closest('tr') as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('Ada Mensah')).toEqual(['Ada Mensah', '100234', 'Lesson 1: The Bible', 'US 1234', '']);
    expect(cells('Bo Owusu').slice(0, 4)).toEqual(['Bo Owusu', '100567', 'Lesson 2: God', 'US 1234']);
    expect(within(screen.getByRole('link', { name: 'Bo Owusu' }).closest('tr') as HTMLElement).getByRole('img', { name: 'Graded' })).toBeTruthy();
    expect(queries[0]?.get('file')).toBe(FILE_ID);
    fireEvent.click(within(screen.getByRole('link', { name: 'Bo Owusu' }).closest('tr') as HTMLElement).getByText('100567'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/responses/a2'));
  });

  it('sorts by Course only', async () => {
    const { queries } = api(fileRecord(), [responseRecord()]);
    renderApp(`/file/${FILE_ID}/responses`, { as: 'admin' });
    await screen.findByRole('link', { name: 'Ada Mensah' });
    const table = screen.getByRole('table', { name: 'Responses' });
    expect(within(table).getAllByRole('button').map((button) => button.textContent)).toEqual(['Course']);
    fireEvent.click(within(table).getByRole('button', { name: 'Course' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('course'));
    expect(queries.at(-1)?.get('order_direction')).toBe('asc');
  });

  it('says "There are no responses to display" when there are none', async () => {
    api(fileRecord(), []);
    renderApp(`/file/${FILE_ID}/responses`, { as: 'admin' });
    expect(await screen.findByText('There are no responses to display')).toBeTruthy();
  });

  it('says "Processing failed. Please try again." for a failed file', async () => {
    api(fileRecord({ process_status: 'failed' }), []);
    renderApp(`/file/${FILE_ID}/responses`, { as: 'admin' });
    expect(await screen.findByText('Processing failed. Please try again.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('reads the list again when the upload job completes', async () => {
    const { queries, state } = api(fileRecord({ process_status: 'pending' }), []);
    renderApp(`/file/${FILE_ID}/responses`, { as: 'admin' });
    expect(await screen.findByText('There are no responses to display')).toBeTruthy();
    const before = queries.length;
    await waitFor(() => expect(emitProgress(`process_service_center_upload/${FILE_ID}`, { status: 'running', completed: 4, count: 10, failed: 0 })).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(queries.length).toBe(before);
    state.sheets = [responseRecord()];
    emitProgress(`process_service_center_upload/${FILE_ID}`, { status: 'success', completed: 10, count: 10, failed: 0 });
    expect(await screen.findByRole('link', { name: 'Ada Mensah' })).toBeTruthy();
  });

  it('has the back link and the file tabs', async () => {
    api(fileRecord(), []);
    renderApp(`/file/${FILE_ID}/responses`, { as: 'admin' });
    expect((await screen.findByRole('link', { name: 'Back to All Files' })).getAttribute('href')).toBe('/files');
    const tabs = within(screen.getByRole('navigation', { name: 'File menu' }));
    expect(tabs.getByRole('link', { name: 'Overview' }).getAttribute('href')).toBe(`/file/${FILE_ID}`);
    expect(tabs.getByRole('link', { name: 'Responses' }).getAttribute('aria-current')).toBe('page');
  });
});
