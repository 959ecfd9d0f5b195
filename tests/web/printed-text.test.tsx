// @vitest-environment happy-dom
// Pages known from their printed text (DESIGN §4 "Identity"; issue 36) on MSW: a page placed so
// says "Read from the printed text" on its page item and in the upload report; a page whose text
// did not confirm one sheet shows what was read as a suggestion taken in one click (PATCH code),
// one button per sheet page it fits.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Page, UploadReport } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { pageRecord, responseRecord } from './support/fixtures';

setupMockApi();

const pageItem = (n: number) => within(screen.getByRole('article', { name: `Page ${n}` }));

function pagesApi(pages: Page[]) {
  const response = responseRecord();
  const sent: unknown[] = [];
  server.use(
    http.get(`*/api/answer-sheets/${response.id}`, () => HttpResponse.json(response)),
    http.get(`*/api/answer-sheets/${response.id}/pages`, () => HttpResponse.json(pages)),
    http.patch('*/api/pages/:id', async ({ request, params }) => {
      sent.push({ id: params.id, body: await request.json() });
      return HttpResponse.json({ ...pages.find((page) => page.id === params.id)!, flagged: false, review_reason: null, review_detail: null, identified_by: 'person' });
    }),
  );
  return { response, sent };
}

const suggested = (id: string, n: number, codes: string[]): Page =>
  pageRecord({
    id,
    page_number: n,
    template: null,
    flagged: true,
    review_reason: 'no_code_found',
    unrecognized_reason: 'no_code_found',
    review_detail: { printed_text_suggestion: { student_human_id: 1049, lesson_number: 2, page_number: 2, codes } },
    identified_by: null,
  });

describe('a response with pages read from their printed text', () => {
  it('marks the page placed by its printed text, and takes a suggestion in one click', async () => {
    const { response, sent } = pagesApi([
      pageRecord({ id: 'p1', page_number: 1, identified_by: 'printed_text' }),
      suggested('p2', 2, ['S-ABCD2345-R']),
      suggested('p3', 3, ['S-ABCD2345-R', 'S-EFGH2345-K']),
      pageRecord({ id: 'p4', page_number: 4, identified_by: 'code' }),
    ]);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    await screen.findByRole('article', { name: 'Page 4' });
    expect(pageItem(1).getByText('Read from the printed text')).toBeTruthy();
    expect(pageItem(4).queryByText('Read from the printed text')).toBeNull();
    expect(pageItem(2).getByText('Looks like Student 1049, Lesson 2, page 2: use this?')).toBeTruthy();
    expect(pageItem(3).getByText('Looks like Student 1049, Lesson 2, page 2, which fits more than one sheet:')).toBeTruthy();
    expect(pageItem(3).getAllByRole('button', { name: /^Use S-/ }).map((button) => button.textContent)).toEqual(['Use S-ABCD2345-R', 'Use S-EFGH2345-K']);
    fireEvent.click(pageItem(2).getByRole('button', { name: 'Use This' }));
    await waitFor(() => expect(sent).toEqual([{ id: 'p2', body: { code: 'S-ABCD2345-R' } }]));
  });
});

describe('the upload report', () => {
  it('says which matched pages were read from the printed text', async () => {
    const report: UploadReport = {
      id: 'u1',
      name: 'graded.pdf',
      created_at: '2024-01-01T00:00:00Z',
      kind: 'graded',
      process_status: 'success',
      is_intro: false,
      failure_reason: null,
      summary: { pages_read: 2, matched: 2, not_matched: 0, blank_dropped: 0 },
      pages: [1, 2].map((n) => ({
        page_number: n,
        result: 'matched',
        reason: null,
        kept: true,
        detail: null,
        code: `P-ABCD234${n + 1}`,
        identified_by: n === 1 ? 'printed_text' : 'code',
        file: { id: 'f1', name: 'Batch one' },
        answer_sheet: { id: `a${n}`, student_human_id: 1049, lesson: 'Prayer' },
        has_image: true,
      })),
    };
    server.use(http.get('*/api/uploads/:id', () => HttpResponse.json(report)));
    renderApp('/files/uploads/u1', { as: 'admin' });
    const rows = await screen.findAllByRole('row');
    const marked = rows.filter((row) => within(row).queryByText('Read from the printed text'));
    expect(marked.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual(['1']);
  });
});
