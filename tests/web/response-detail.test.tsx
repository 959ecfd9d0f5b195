// @vitest-environment happy-dom
// /responses/{response_id}/ on MSW (spec §2 "Response detail", "Page item", §4, §7, §9): the
// in-progress variant (Details panel, pickers, Save, Print link, page items with their rules), the
// completed variant, the unknown response, and the one-way baptism request.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { AnswerSheet, Page } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { chooseOption, dropdownText, optionLabels } from './support/dropdown';
import { FILE_ID, LESSON_1, LESSON_2, pageRecord, responseRecord, templateRecord } from './support/fixtures';

setupMockApi();

const COURSE_ID = 'co000000-0000-4000-8000-000000000001';

function api(response: AnswerSheet, pages: Page[]) {
  const state = { response, pages, answerSheetReads: 0, pageReads: 0 };
  const sent: { method: string; path: string; body: unknown }[] = [];
  server.use(
    http.get(`*/api/answer-sheets/${response.id}`, () => {
      state.answerSheetReads += 1;
      return HttpResponse.json(state.response);
    }),
    http.get(`*/api/answer-sheets/${response.id}/pages`, () => {
      state.pageReads += 1;
      return HttpResponse.json(state.pages);
    }),
    http.patch(`*/api/answer-sheets/${response.id}`, async ({ request }) => {
      const body = await request.json();
      sent.push({ method: 'PATCH', path: new URL(request.url).pathname, body });
      return HttpResponse.json(state.response);
    }),
    http.patch('*/api/pages/:id', async ({ request, params }) => {
      const body = (await request.json()) as { ignored?: boolean; template?: string | null };
      sent.push({ method: 'PATCH', path: new URL(request.url).pathname, body });
      const templates = [templateRecord(LESSON_1, 1), templateRecord(LESSON_1, 2), templateRecord(LESSON_2, 1)];
      state.pages = state.pages.map((page) => {
        if (page.id !== params.id) return page;
        const template = body.template === undefined ? page.template : (templates.find((t) => t.id === body.template) ?? null);
        return { ...page, ...(body.ignored === undefined ? {} : { ignored: body.ignored }), template };
      });
      return HttpResponse.json(state.pages.find((page) => page.id === params.id));
    }),
    http.post(`*/api/responses/${response.id}/baptism-request`, ({ request }) => {
      sent.push({ method: 'POST', path: new URL(request.url).pathname, body: undefined });
      return HttpResponse.json({ ...state.response, is_baptism_request: true });
    }),
    http.get('*/api/courses', () =>
      HttpResponse.json({
        items: [{ id: COURSE_ID, name: 'Search the Scriptures', version: '1', lessons: [LESSON_1, LESSON_2] }],
        total: 1,
        skip: 0,
        limit: 500,
      }),
    ),
    http.get(`*/api/courses/${COURSE_ID}/pages`, () =>
      HttpResponse.json([templateRecord(LESSON_1, 1), templateRecord(LESSON_1, 2), templateRecord(LESSON_2, 1)]),
    ),
    http.get('*/api/congregations', () =>
      HttpResponse.json({
        items: [
          { id: 'c0000000-0000-4000-8000-000000000001', wbs_code: 'US 1234', display_name: 'Springfield North', created_at: '2024-01-01T00:00:00Z' },
          { id: 'c2', wbs_code: 'GH 0042', display_name: 'Accra Central', created_at: '2024-01-01T00:00:00Z' },
        ],
        total: 2,
        skip: 0,
        limit: 50,
      }),
    ),
    http.get('*/api/congregations/:id', ({ params }) =>
      HttpResponse.json({ id: params.id, wbs_code: 'US 1234', display_name: 'Springfield North', created_at: '2024-01-01T00:00:00Z' }),
    ),
  );
  return { state, sent };
}

const pageItem = (n: number) => within(screen.getByRole('article', { name: `Page ${n}` }));

describe('response in progress', () => {
  const pages = [
    pageRecord({ id: 'p1', page_number: 1 }),
    pageRecord({ id: 'p2', page_number: 2, template: templateRecord(LESSON_2, 1) }),
    pageRecord({ id: 'p3', page_number: 3, template: null, ignored: true }),
  ];

  it('shows the Details panel, the Print link and the page items', async () => {
    const response = responseRecord();
    api(response, pages);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Response' })).toBeTruthy();
    const details = within(screen.getByRole('region', { name: 'Details' }));
    expect(details.getByText('US 1234')).toBeTruthy();
    expect(details.getByRole('link', { name: '100234' }).getAttribute('href')).toBe('/students/s0000000-0000-4000-8000-000000000001');
    await waitFor(() => expect(dropdownText(details.getByLabelText('Course'))).toBe('Lesson 1: The Bible'));
    expect(screen.getByRole('link', { name: 'Print' }).getAttribute('href')).toBe(`/api/answer-sheets/${response.id}/print.pdf`);
    expect(screen.getByRole('link', { name: 'Back to Responses' }).getAttribute('href')).toBe(`/file/${FILE_ID}/responses`);
    await screen.findByRole('article', { name: 'Page 1' });
    expect(screen.getAllByRole('article')).toHaveLength(3);
  });

  it('draws each page item: thumbnail at 1000, lesson or "Unrecognized", congregation, "Mismatched", Ignore/Unignore', async () => {
    const response = responseRecord();
    api(response, pages);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    await screen.findByRole('article', { name: 'Page 1' });
    expect(pageItem(1).getByRole('img', { name: 'Page 1' }).getAttribute('src')).toBe('/api/pages/p1/thumbnail?size=1000');
    expect(pageItem(1).getByText('Lesson 1: The Bible')).toBeTruthy();
    expect(pageItem(1).getByText('US 1234')).toBeTruthy();
    expect(pageItem(1).queryByText('Mismatched')).toBeNull();
    expect(pageItem(1).getByRole('button', { name: 'Ignore Page' })).toBeTruthy();
    // Page 2's template is lesson 2's, the response's lesson is lesson 1.
    expect(pageItem(2).getByText('Lesson 2: God')).toBeTruthy();
    expect(pageItem(2).getByText('Mismatched')).toBeTruthy();
    expect(pageItem(3).getByText('Unrecognized')).toBeTruthy();
    expect(pageItem(3).getByRole('button', { name: 'Unignore Page' })).toBeTruthy();
  });

  it('offers the course\'s page templates and saves a choice', async () => {
    const response = responseRecord();
    const { sent } = api(response, pages);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    await screen.findByRole('article', { name: 'Page 3' });
    const picker = pageItem(3).getByLabelText('Page template');
    expect(await optionLabels(picker)).toEqual([
      'Lesson 1: The Bible, page 1',
      'Lesson 1: The Bible, page 2',
      'Lesson 2: God, page 1',
    ]);
    await chooseOption(pageItem(3).getByLabelText('Page template'), 'Lesson 1: The Bible, page 2');
    await waitFor(() => expect(sent).toEqual([{ method: 'PATCH', path: '/api/pages/p3', body: { template: 't1-2' } }]));
    // Read again: the page now shows the lesson of its template.
    expect(await pageItem(3).findByText('Lesson 1: The Bible')).toBeTruthy();
  });

  it('ignores and unignores a page, reading the response and its pages again', async () => {
    const response = responseRecord();
    const { sent, state } = api(response, pages);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    await screen.findByRole('article', { name: 'Page 1' });
    const reads = state.pageReads;
    fireEvent.click(pageItem(1).getByRole('button', { name: 'Ignore Page' }));
    expect(await pageItem(1).findByRole('button', { name: 'Unignore Page' })).toBeTruthy();
    expect(sent.at(-1)).toEqual({ method: 'PATCH', path: '/api/pages/p1', body: { ignored: true } });
    expect(state.pageReads).toBeGreaterThan(reads);
    fireEvent.click(pageItem(1).getByRole('button', { name: 'Unignore Page' }));
    expect(await pageItem(1).findByRole('button', { name: 'Ignore Page' })).toBeTruthy();
    expect(sent.at(-1)).toEqual({ method: 'PATCH', path: '/api/pages/p1', body: { ignored: false } });
  });

  it('expands the full preview', async () => {
    const response = responseRecord();
    api(response, pages);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    await screen.findByRole('article', { name: 'Page 1' });
    expect(pageItem(1).queryByRole('img', { name: 'Full preview of page 1' })).toBeNull();
    fireEvent.click(pageItem(1).getByRole('button', { name: 'Show Preview' }));
    expect(pageItem(1).getByRole('img', { name: 'Full preview of page 1' }).getAttribute('src')).toBe('/api/pages/p1/preview');
    fireEvent.click(pageItem(1).getByRole('button', { name: 'Hide Preview' }));
    expect(pageItem(1).queryByRole('img', { name: 'Full preview of page 1' })).toBeNull();
  });

  it('shows a photographed page\'s photo as taken, linked, and nothing of the kind for a scanned page', async () => {
    const response = responseRecord();
    api(response, [pageRecord({ id: 'p1', page_number: 1, has_photo: true }), pageRecord({ id: 'p2', page_number: 2 })]);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    await screen.findByRole('article', { name: 'Page 1' });
    const link = pageItem(1).getByRole('link', { name: /Photo as taken/ });
    expect(link.getAttribute('href')).toBe('/api/pages/p1/photo');
    expect(pageItem(1).getByRole('img', { name: 'Photo of page 1 as taken' }).getAttribute('src')).toBe('/api/pages/p1/photo');
    expect(pageItem(2).queryByRole('link', { name: /Photo as taken/ })).toBeNull();
  });

  it('asks to "Set Response Template First" when the response has no lesson', async () => {
    const response = responseRecord({ lesson: null });
    api(response, [pageRecord({ id: 'p1', page_number: 1, template: null })]);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    expect(await screen.findByText('Set Response Template First')).toBeTruthy();
    expect(pageItem(1).queryByLabelText('Page template')).toBeNull();
  });

  it('saves the lesson and congregation chosen, only when changed', async () => {
    const response = responseRecord();
    const { sent } = api(response, pages);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    const details = within(await screen.findByRole('region', { name: 'Details' }));
    const save = () => details.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save().disabled).toBe(true);
    await chooseOption(details.getByLabelText('Course'), 'Lesson 2: God');
    expect(save().disabled).toBe(false);
    await chooseOption(details.getByLabelText('Congregation'), 'GH 0042 (Accra Central)');
    fireEvent.click(save());
    await waitFor(() =>
      expect(sent).toEqual([{ method: 'PATCH', path: `/api/answer-sheets/${response.id}`, body: { lesson: LESSON_2.id, assigned_group: 'c2' } }]),
    );
  });
});

describe('a response already sent', () => {
  const pages = [pageRecord({ id: 'p1', page_number: 1 })];
  const FIXED = 'This response was sent to its congregation; its congregation can no longer change.';

  it('keeps its congregation: the picker is disabled with a line saying why, Save sends only the lesson', async () => {
    const response = responseRecord({ sent: true });
    const { sent } = api(response, pages);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    const details = within(await screen.findByRole('region', { name: 'Details' }));
    expect(details.getByText(FIXED)).toBeTruthy();
    const picker = details.getByLabelText('Congregation').closest('.p-dropdown') as HTMLElement;
    expect(picker.classList.contains('p-disabled')).toBe(true);
    await waitFor(() => expect(dropdownText(details.getByLabelText('Congregation'))).toBe('US 1234 (Springfield North)'));
    const save = () => details.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save().disabled).toBe(true);
    await chooseOption(details.getByLabelText('Course'), 'Lesson 2: God');
    fireEvent.click(save());
    await waitFor(() => expect(sent).toEqual([{ method: 'PATCH', path: `/api/answer-sheets/${response.id}`, body: { lesson: LESSON_2.id } }]));
  });

  it('offers the change while not sent, and says why when the server refuses it as sent meanwhile (409)', async () => {
    const response = responseRecord({ sent: false });
    const { state } = api(response, pages);
    server.use(
      http.patch(`*/api/answer-sheets/${response.id}`, () => {
        state.response = { ...state.response, sent: true };
        return HttpResponse.json({ detail: { error_type: 'SHEET_ALREADY_SENT', message: FIXED } }, { status: 409 });
      }),
    );
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    const details = within(await screen.findByRole('region', { name: 'Details' }));
    expect(details.queryByText(FIXED)).toBeNull();
    await chooseOption(details.getByLabelText('Congregation'), 'GH 0042 (Accra Central)');
    fireEvent.click(details.getByRole('button', { name: 'Save' }));
    expect(await details.findByText(FIXED)).toBeTruthy();
    expect(details.queryByText('The response could not be saved. Please try again.')).toBeNull();
    // Read again: the response is sent, its picker shows the saved congregation and is disabled.
    await waitFor(() => expect((details.getByLabelText('Congregation').closest('.p-dropdown') as HTMLElement).classList.contains('p-disabled')).toBe(true));
    await waitFor(() => expect(dropdownText(details.getByLabelText('Congregation'))).toBe('US 1234 (Springfield North)'));
    expect((details.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('completed response', () => {
  it('shows "Status: Completed", the Print link, the student ID link and the page previews', async () => {
    const response = responseRecord({ graded: true });
    api(response, [
      pageRecord({ id: 'p1', page_number: 1, feedback_pages: [{ id: 'fb1', has_back: true, feedback: { created_at: '2024-04-01T00:00:00Z' } }] }),
    ]);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    expect(await screen.findByText('Status: Completed')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Print' }).getAttribute('href')).toBe(`/api/answer-sheets/${response.id}/print.pdf`);
    expect(screen.getByRole('link', { name: '100234' }).getAttribute('href')).toBe('/students/s0000000-0000-4000-8000-000000000001');
    expect((await screen.findByRole('img', { name: 'Page 1, graded' })).getAttribute('src')).toBe('/api/pages/p1/graded-preview');
    expect(screen.getByRole('img', { name: 'Page 1, graded back' }).getAttribute('src')).toBe('/api/pages/p1/graded-preview?is_back=true');
    expect(screen.queryByRole('region', { name: 'Details' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ignore Page' })).toBeNull();
  });
});

describe('unknown response', () => {
  it('says "No response found"', async () => {
    server.use(http.get('*/api/answer-sheets/:id', () => HttpResponse.json({ detail: 'Not found' }, { status: 404 })));
    renderApp('/responses/missing', { as: 'admin' });
    expect(await screen.findByText('No response found')).toBeTruthy();
  });
});

describe('baptism request', () => {
  it('flags the response once; the button then reads "Baptism Request Submitted" and is disabled', async () => {
    const response = responseRecord();
    const { sent } = api(response, []);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    const button = await screen.findByRole('button', { name: 'Baptism Request' });
    // It asks first: Cancel sends nothing.
    fireEvent.click(button);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Submit Request' })).toBeNull());
    expect(sent).toEqual([]);
    fireEvent.click(button);
    expect(
      await screen.findByText(
        "Submit a baptism request for this response's student? The request goes to the Baptism Requests list and cannot be withdrawn here.",
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    const submitted = (await screen.findByRole('button', { name: 'Baptism Request Submitted' })) as HTMLButtonElement;
    expect(submitted.disabled).toBe(true);
    expect(sent).toEqual([{ method: 'POST', path: `/api/responses/${response.id}/baptism-request`, body: undefined }]);
  });

  it('is already submitted for a flagged response', async () => {
    const response = responseRecord({ is_baptism_request: true, graded: true });
    api(response, []);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    expect(((await screen.findByRole('button', { name: 'Baptism Request Submitted' })) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Review mends on a response', () => {
  const flagged = pageRecord({ id: 'p4', page_number: 4, template: null, review_reason: 'stray_page', flagged: true, unrecognized_reason: 'no_code_found' });
  const blankBack = pageRecord({ id: 'p5', page_number: 5, template: null, ignored: true, blank: true, review_reason: 'blank_back', flagged: false });
  const first = pageRecord({ id: 'p3', page_number: 3 });
  const other = responseRecord({ id: 'a5000000-0000-4000-8000-000000000002', student: { id: 's2', human_id: 100235, name: 'Kwame Boateng', study_helper: null } });

  function sheetsOfFile(response: AnswerSheet) {
    server.use(http.get('*/api/answer-sheets', () => HttpResponse.json({ items: [response, other], total: 2, skip: 0, limit: 100 })));
  }

  it('says why a page waits and what to do; a blank back is told apart, not flagged', async () => {
    const response = responseRecord();
    api(response, [first, flagged, blankBack]);
    sheetsOfFile(response);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    await screen.findByRole('article', { name: 'Page 4' });
    expect(pageItem(4).getByText('Stray page')).toBeTruthy();
    expect(pageItem(4).getByText(/No response expects this page/)).toBeTruthy();
    expect(pageItem(5).getAllByText('Blank back').length).toBeGreaterThan(0);
    expect(pageItem(5).queryByText('Unrecognized')).toBeNull();
    expect(pageItem(5).queryByText(/No answer sheet expects/)).toBeNull();
    // A flagged page shows its mends; another offers them on request. The first page of a
    // response cannot start a new one; the others can.
    expect(pageItem(4).getByRole('button', { name: 'Start New Response Here' })).toBeTruthy();
    expect(pageItem(3).queryByRole('group', { name: 'Mend page 3' })).toBeNull();
    fireEvent.click(pageItem(3).getByRole('button', { name: 'Move or Split…' }));
    expect(pageItem(3).getByRole('group', { name: 'Mend page 3' })).toBeTruthy();
    expect(pageItem(3).queryByRole('button', { name: 'Start New Response Here' })).toBeNull();
  });

  it('keeps a page here, moves it, starts a response at it and takes a typed code, each as one PATCH', async () => {
    const response = responseRecord();
    const { sent } = api(response, [first, flagged]);
    sheetsOfFile(response);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    await screen.findByRole('article', { name: 'Page 4' });
    fireEvent.click(pageItem(4).getByRole('button', { name: 'Keep Page Here' }));
    await waitFor(() => expect(sent).toContainEqual({ method: 'PATCH', path: '/api/pages/p4', body: { answer_sheet: 'a5000000-0000-4000-8000-000000000001' } }));
    await chooseOption(pageItem(4).getByLabelText('Move to response'), 'Response 2: Student 100235 (Kwame Boateng), Lesson 1: The Bible');
    fireEvent.click(pageItem(4).getByRole('button', { name: 'Move Page' }));
    await waitFor(() => expect(sent).toContainEqual({ method: 'PATCH', path: '/api/pages/p4', body: { answer_sheet: other.id } }));
    fireEvent.click(pageItem(4).getByRole('button', { name: 'Start New Response Here' }));
    await waitFor(() => expect(sent).toContainEqual({ method: 'PATCH', path: '/api/pages/p4', body: { new_sheet: true } }));
    fireEvent.change(pageItem(4).getByLabelText('Code beside the QR code'), { target: { value: ' S-ABCD2345 ' } });
    fireEvent.click(pageItem(4).getByRole('button', { name: 'Use Code' }));
    await waitFor(() => expect(sent).toContainEqual({ method: 'PATCH', path: '/api/pages/p4', body: { code: 'S-ABCD2345' } }));
  });

  it('names the earlier page a rescan repeats and gives the response a new student when it is other paper', async () => {
    const response = responseRecord();
    const rescanned = pageRecord({
      id: 'p1',
      page_number: 1,
      review_reason: 'already_uploaded',
      flagged: true,
      review_detail: { copy_of: { page_id: 'e1', page_number: 7, file_id: 'f0000000-0000-4000-8000-00000000000e', file_name: 'Accra October', student_taken: true } },
    });
    const { sent } = api(response, [rescanned]);
    sheetsOfFile(response);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    await screen.findByRole('article', { name: 'Page 1' });
    expect(pageItem(1).getByText(/Already uploaded in file “Accra October” as/)).toBeTruthy();
    expect(pageItem(1).getByRole('link', { name: 'page 7' }).getAttribute('href')).toBe('/admin/pages/e1');
    expect(pageItem(1).getByText(/This response took that page’s student\./)).toBeTruthy();
    fireEvent.click(pageItem(1).getByRole('button', { name: 'New Student for this response' }));
    await waitFor(() => expect(sent).toContainEqual({ method: 'PATCH', path: '/api/pages/p1', body: { new_student: true } }));
  });

  it('joins the response to the one before it and opens that one', async () => {
    const response = responseRecord();
    const { sent } = api(response, [first]);
    server.use(
      http.patch(`*/api/answer-sheets/${response.id}`, async ({ request }) => {
        sent.push({ method: 'PATCH', path: new URL(request.url).pathname, body: await request.json() });
        return HttpResponse.json(other);
      }),
      http.get(`*/api/answer-sheets/${other.id}`, () => HttpResponse.json(other)),
      http.get(`*/api/answer-sheets/${other.id}/pages`, () => HttpResponse.json([first])),
    );
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    fireEvent.click(await screen.findByRole('button', { name: 'Join to Previous Response' }));
    await waitFor(() => expect(sent).toContainEqual({ method: 'PATCH', path: `/api/answer-sheets/${response.id}`, body: { join_previous: true } }));
    await waitFor(() => expect(screen.getByText(/Kwame Boateng/)).toBeTruthy());
  });

  it('offers no change once the file is sent, and says why', async () => {
    const response = responseRecord({ sent: true });
    api(response, [first, flagged]);
    renderApp(`/responses/${response.id}`, { as: 'admin' });
    await screen.findByRole('article', { name: 'Page 4' });
    expect(screen.getByText('This file was sent to study helpers: its pages can no longer be changed or moved.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ignore Page' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Join to Previous Response' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Mend page 4' })).toBeNull();
  });

  it("shows a coordinator the facts and what it may do, none of the admin's controls or instructions", async () => {
    const response = responseRecord({ sent: true });
    const { sent } = api(response, [first, flagged]);
    renderApp(`/responses/${response.id}`, { as: 'coordinator' });
    await screen.findByRole('article', { name: 'Page 4' });
    const details = within(screen.getByRole('region', { name: 'Details' }));
    expect(details.getByText('Lesson 1: The Bible')).toBeTruthy();
    expect(details.getByText(/You can print this response, open its student, and submit a baptism request/)).toBeTruthy();
    expect(details.queryByLabelText('Course')).toBeNull();
    expect(details.queryByLabelText('Congregation')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    // The reason a page was flagged may show; what an admin does about it does not.
    expect(screen.queryByText(/No response expects this page/)).toBeNull();
    expect(screen.queryByText(/Type the code printed beside the QR code/)).toBeNull();
    expect(screen.queryByText('This file was sent to study helpers: its pages can no longer be changed or moved.')).toBeNull();
    expect(screen.getByRole('link', { name: 'Print' })).toBeTruthy();
    expect(sent).toEqual([]);
  });
});
