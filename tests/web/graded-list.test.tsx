// @vitest-environment happy-dom
// /graded on MSW (spec §2 "/graded"): GET /api/answer-sheets?graded=true, the four columns, the
// student link, Time Graded as relative time or "No Pages", sorting and paging in the address.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { AnswerSheet, AnswerSheetList } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { timeGraded } from '../../src/features/graded/graded-list';

setupMockApi();

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60 * 1000).toISOString();

const graded: AnswerSheet = {
  id: 'e0000000-0000-4000-8000-000000000001',
  file_id: 'f0000000-0000-4000-8000-000000000001',
  file: { name: 'Accra batch', uploaded_at: '2024-03-01T10:00:00Z' },
  student: {
    id: 'a0000000-0000-4000-8000-000000000001',
    human_id: 100234,
    name: 'Ada Mensah',
    study_helper: { id: 'h0000000-0000-4000-8000-000000000001', name: 'Sister Mary Jones' },
  },
  lesson: { id: 'l1', name: 'Lesson 3: The Church' },
  congregation: null,
  graded: true,
  assigned_group: null,
  is_baptism_request: false,
  page_count: 2,
  first_feedback_at: minutesAgo(5),
};
const noPages: AnswerSheet = {
  ...graded,
  id: 'e0000000-0000-4000-8000-000000000002',
  student: { ...graded.student!, id: 'a0000000-0000-4000-8000-000000000002', human_id: 100567, study_helper: null },
  lesson: null,
  page_count: 0,
  first_feedback_at: null,
};

function answerSheetsApi(page: AnswerSheetList) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/answer-sheets', ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json(page);
    }),
  );
  return queries;
}

const rowOf = (linkName: string) => screen.getByRole('link', { name: linkName }).closest('tr') as HTMLElement;
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('graded list', () => {
  it('asks for graded answer sheets and shows Student ID, Study Helper, Lesson, Time Graded', async () => {
    const queries = answerSheetsApi({ items: [graded, noPages], total: 2, skip: 0, limit: 10 });
    renderApp('/graded', { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Graded' })).toBeTruthy();
    await screen.findByRole('link', { name: '100234' });
    expect(queries.at(-1)?.get('graded')).toBe('true');
    expect(queries.at(-1)?.get('skip')).toBe('0');
    expect(queries.at(-1)?.get('limit')).toBe('10');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Student ID',
      'Study Helper',
      'Lesson',
      'Time Graded',
    ]);
    expect(cellsOf(rowOf('100234'))).toEqual(['100234', 'Sister Mary Jones', 'Lesson 3: The Church', '5 minutes ago']);
    expect(cellsOf(rowOf('100567'))).toEqual(['100567', '—', '—', 'No Pages']);
    expect(screen.getByRole('link', { name: '100234' }).getAttribute('href')).toBe(`/students/${graded.student!.id}`);
    expect(screen.getByText('Showing 1 to 2 of 2 results')).toBeTruthy();
  });

  it('says so when nothing is graded', async () => {
    answerSheetsApi({ items: [], total: 0, skip: 0, limit: 10 });
    renderApp('/graded');
    expect(await screen.findByText('There are no graded answer sheets to display')).toBeTruthy();
  });

  it('sorts by student and time graded, and pages, keeping both in the address', async () => {
    const queries = answerSheetsApi({ items: [graded], total: 25, skip: 0, limit: 10 });
    const { router } = renderApp('/graded');
    await screen.findByRole('link', { name: '100234' });
    const table = screen.getByRole('table', { name: 'Graded answer sheets' });
    fireEvent.click(within(table).getByRole('button', { name: 'Time Graded' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('graded_at'));
    fireEvent.click(within(table).getByRole('button', { name: 'Time Graded' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_direction')).toBe('desc'));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(queries.at(-1)?.get('skip')).toBe('10'));
    expect(queries.at(-1)?.get('graded')).toBe('true');
    expect(router.state.location.search).toBe('?order_by=graded_at&order_direction=desc&page=2');
    fireEvent.click(within(table).getByRole('button', { name: 'Student ID' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('student'));
    expect(queries.at(-1)?.get('skip')).toBe('0');
  });

  it('reads the first page\'s feedback time relative to now, "No Pages" only without pages', () => {
    const now = new Date('2024-05-01T12:00:00Z');
    expect(timeGraded({ page_count: 3, first_feedback_at: '2024-05-01T11:55:00Z' }, now)).toBe('5 minutes ago');
    expect(timeGraded({ page_count: 1, first_feedback_at: '2024-04-28T12:00:00Z' }, now)).toBe('3 days ago');
    expect(timeGraded({ page_count: 0, first_feedback_at: null }, now)).toBe('No Pages');
    expect(timeGraded({ page_count: 2, first_feedback_at: null }, now)).toBe('—');
  });
});
