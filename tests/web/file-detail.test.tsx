// @vitest-environment happy-dom
// /file/{file_id}/ on MSW (spec §2, §4, §5, §7, §8): back link, 404, the processing states with
// the progress stream, cover sheet, Action Items, the name form's Save rule, the service center
// pickers, Delete File by step, the step actions' calls, cache invalidation and the coordinator's
// read-only view. (Every stepper state is walked in tests/model/file-workflow.model.test.tsx.)
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import type { File, FileStep } from '../../generated/hooks/model';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { chooseOption, dropdownText } from './support/dropdown';
import { captureDownloads } from './support/downloads';
import { emitProgress, installFakeEventSource, streamsOpened } from './support/fake-event-source';
import { FILE_ID, fileRecord, statsRecord } from './support/fixtures';

setupMockApi();
installFakeEventSource();

const steps = (step: FileStep['step'], extra: Partial<FileStep> = {}): FileStep => ({
  step,
  complete: 0,
  total: 0,
  prepped: false,
  downloaded: false,
  file_status: null,
  ...extra,
});

/** The file's calls, answering with `file` (changeable) and recording what was sent. */
function fileApi(initial: File, step: FileStep = steps('review')) {
  const state = { file: initial, step, fileReads: 0, stepReads: 0 };
  const sent: { method: string; path: string; body: unknown }[] = [];
  const record = async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
    sent.push({ method: request.method, path: url.pathname + url.search, body: text ? JSON.parse(text) : undefined });
  };
  server.use(
    http.get(`*/api/file/${FILE_ID}`, () => {
      state.fileReads += 1;
      return HttpResponse.json(state.file);
    }),
    http.get(`*/api/file/${FILE_ID}/stats`, () => HttpResponse.json(
        statsRecord({
          unrecognized: 2,
          unassigned: 1,
          ignored: 3,
          flagged: 2,
          reasons: { no_code_found: 1, unreadable: 1, unknown_code: 0, out_of_order: 0, stray_page: 0, another_course: 0, duplicate_sheet: 0, blank_back: 3, ambiguous_position: 0, page_missing: 0, scanned_twice: 0, already_uploaded: 0, too_complex: 0, no_sheet: 0, too_blurred: 0 },
        }),
      ),),
    http.get(`*/api/file/${FILE_ID}/steps`, () => {
      state.stepReads += 1;
      return HttpResponse.json(state.step);
    }),
    http.patch(`*/api/file/${FILE_ID}`, async ({ request }) => {
      await record(request.clone());
      // A moment in flight, so the screen's saving state can be seen.
      await delay(150);
      const patch = (await request.json()) as Partial<File> & { name?: string };
      state.file = { ...state.file, ...(patch.name ? { name: patch.name } : {}) };
      return HttpResponse.json(state.file);
    }),
    http.delete(`*/api/file/${FILE_ID}`, async ({ request }) => {
      await record(request);
      return new HttpResponse(null, { status: 204 });
    }),
    http.patch('*/api/answer-sheets', async ({ request }) => {
      await record(request);
      return HttpResponse.json({ updated: 12 });
    }),
    http.post(`*/api/file/${FILE_ID}/send`, async ({ request }) => {
      await record(request);
      return HttpResponse.json({ group_name: 'send_to_study_helpers', run_id: 'run-42' });
    }),
    http.delete(`*/api/file/${FILE_ID}/send`, async ({ request }) => {
      await record(request);
      state.file = { ...state.file, sent_at: null, file_status: null };
      state.step = steps('send');
      return HttpResponse.json(state.file);
    }),
    http.post(`*/api/file/${FILE_ID}/regenerate`, async ({ request }) => {
      await record(request);
      return HttpResponse.json({ group_name: 'generate_return_file_requested', run_id: FILE_ID });
    }),
    http.post(`*/api/file/${FILE_ID}/archive`, async ({ request }) => {
      await record(request);
      return HttpResponse.json({ ...state.file, file_status: 'archived' });
    }),
    http.get(`*/api/file/${FILE_ID}/graded_pdf`, () =>
      new HttpResponse(new Uint8Array([37, 80, 68, 70]), {
        headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="Accra-return.pdf"' },
      }),
    ),
    http.get('*/api/service_centers', () =>
      HttpResponse.json({
        items: [
          { id: 'sc1', name: 'Accra Center', location: 'Accra', country: { iso_code: 'GH', display_name: 'Ghana' }, created_at: '2024-01-01T00:00:00Z' },
          { id: 'sc2', name: 'Lagos Center', location: 'Lagos', country: { iso_code: 'NG', display_name: 'Nigeria' }, created_at: '2024-01-01T00:00:00Z' },
        ],
        total: 2,
        skip: 0,
        limit: 500,
      }),
    ),
    http.get('*/api/service_centers/:id/recruiting-points', () => HttpResponse.json([{ id: 'rp1', name: 'Kumasi Market', location: 'Kumasi' }])),
    http.get('*/api/service-centers/:id/recruiters', () => HttpResponse.json([{ id: 'r1', name: 'Brother Kofi', contact_info: '' }])),
    http.get('*/api/service-centers/:id/contact-persons', () => HttpResponse.json([{ id: 'cp1', name: 'Sister Abena' }])),
  );
  return { state, sent };
}

const workflow = () => within(screen.getByRole('region', { name: 'Workflow' }));
const flow = async () => within(await screen.findByRole('region', { name: 'Workflow' }));

describe('file detail', () => {
  it('has the back link, the file menu, the cover sheet and the Action Items linking to the responses', async () => {
    fileApi(fileRecord());
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    const back = await screen.findByRole('link', { name: 'Back to All Files' });
    expect(back.getAttribute('href')).toBe('/files');
    expect(await screen.findByRole('img', { name: 'Cover sheet of Accra batch March' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Cover sheet of Accra batch March' }).getAttribute('src')).toBe(`/api/file/${FILE_ID}/cover`);
    const menu = within(screen.getByRole('navigation', { name: 'File menu' }));
    expect(menu.getByRole('link', { name: 'Responses' }).getAttribute('href')).toBe(`/file/${FILE_ID}/responses`);
    const items = within(await screen.findByRole('list', { name: 'Action Items' }));
    expect(items.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['1 page: No code found', `/file/${FILE_ID}/responses?reason=no_code_found`],
      ['1 page: Code unreadable', `/file/${FILE_ID}/responses?reason=unreadable`],
      ['3 blank backs', `/file/${FILE_ID}/responses?reason=blank_back`],
      ['1 response without a congregation', `/file/${FILE_ID}/responses`],
    ]);
    // Review: the same warnings link to the responses.
    expect(within(await (await flow()).findByRole('list', { name: 'Review warnings' })).getAllByRole('link')).toHaveLength(4);
    expect(screen.getByText('Details')).toBeTruthy();
  });

  it('says so when the file has no cover sheet', async () => {
    fileApi(fileRecord());
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    fireEvent.error(await screen.findByRole('img', { name: 'Cover sheet of Accra batch March' }));
    expect(await screen.findByText('This file has no cover sheet.')).toBeTruthy();
  });

  it('says "404 not found" for an unknown file', async () => {
    server.use(http.get(`*/api/file/${FILE_ID}`, () => HttpResponse.json({ detail: 'Not found' }, { status: 404 })));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: '404 not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to All Files' })).toBeTruthy();
  });

  it('shows "Processing File" with the upload job\'s progress and reads the file again when it is done', async () => {
    const { state } = fileApi(fileRecord({ process_status: 'pending' }), steps('robot'));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    expect(await screen.findByRole('heading', { name: 'Processing File' })).toBeTruthy();
    expect(screen.queryByRole('img', { name: /Cover sheet/ })).toBeNull();
    await waitFor(() => expect(emitProgress(`process_service_center_upload/${FILE_ID}`, { status: 'running', completed: 5, count: 10, failed: 0 })).toBe(1));
    expect(await screen.findByText('5 of 10 pages')).toBeTruthy();
    expect(await (await flow()).findByText('Pages checked: 5 of 10')).toBeTruthy();
    const reads = state.fileReads;
    state.file = fileRecord({ process_status: 'success' });
    state.step = steps('review');
    emitProgress(`process_service_center_upload/${FILE_ID}`, { status: 'success', completed: 10, count: 10, failed: 0 });
    await waitFor(() => expect(state.fileReads).toBeGreaterThan(reads));
    expect(await screen.findByRole('img', { name: 'Cover sheet of Accra batch March' })).toBeTruthy();
    await waitFor(() => expect(workflow().getByRole('button', { name: 'Review step' }).getAttribute('aria-current')).toBe('step'));
    // The finished stream is closed, not left to reconnect.
    expect(streamsOpened('process_service_center_upload').every((source) => source.readyState === 2)).toBe(true);
  });

  it('does not count progress at or below 0.999 as done', async () => {
    const { state } = fileApi(fileRecord({ process_status: 'pending' }), steps('robot'));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    await screen.findByRole('heading', { name: 'Processing File' });
    await waitFor(() => expect(emitProgress('process_service_center_upload', { status: 'running', completed: 999, count: 1000, failed: 0 })).toBe(1));
    const reads = state.fileReads;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(state.fileReads).toBe(reads);
    expect(screen.getByText('999 of 1000 pages')).toBeTruthy();
  });

  it('shows "Processing Failed" with a way to delete the file, which goes to /files?mode=all', async () => {
    const { sent } = fileApi(fileRecord({ process_status: 'failed', failure_reason: 'Not a readable PDF' }), steps('robot'));
    const { router } = renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    expect(await screen.findByRole('heading', { name: 'Processing Failed' })).toBeTruthy();
    expect(screen.getByText('Not a readable PDF')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete this file' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete File' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/files?mode=all'));
    expect(sent).toEqual([{ method: 'DELETE', path: `/api/file/${FILE_ID}`, body: undefined }]);
  });

  it('offers "Delete File" at review and not from grading on', async () => {
    fileApi(fileRecord(), steps('review'));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    expect(await screen.findByRole('button', { name: 'Delete File' })).toBeTruthy();
  });

  it('hides "Delete File" at grading', async () => {
    fileApi(fileRecord({ sent_at: '2024-03-03T10:00:00Z' }), steps('grading', { complete: 3, total: 12 }));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    expect(await (await flow()).findByText('3 of 12 responses graded')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete File' })).toBeNull();
  });

  it('lists no Action Items once the file was sent: its responses are fixed', async () => {
    fileApi(fileRecord({ sent_at: '2024-03-03T10:00:00Z', file_status: 'downloaded' }), steps('return', { complete: 12, total: 12, prepped: true, downloaded: true }));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    const card = within(await screen.findByRole('region', { name: 'Action Items' }));
    expect(await card.findByText('No action items')).toBeTruthy();
    expect(card.queryByRole('list')).toBeNull();
  });

  it('takes a sent file that is not printed back to the Send step, after asking', async () => {
    const { sent, state } = fileApi(fileRecord({ sent_at: '2024-03-03T10:00:00Z', file_status: 'grading' }), steps('grading', { total: 12 }));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    fireEvent.click(await screen.findByRole('button', { name: 'Take Back' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take Back' });
    expect(within(dialog).getByText('Take this file back to the Send step? Its packets are deleted; you can send it again.')).toBeTruthy();
    const reads = state.stepReads;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take Back' }));
    await waitFor(() => expect(sent.map((call) => `${call.method} ${call.path}`)).toEqual([`DELETE /api/file/${FILE_ID}/send`]));
    expect(await screen.findByText('The file is back at the Send step.')).toBeTruthy();
    await waitFor(() => expect(state.stepReads).toBeGreaterThan(reads));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Take Back' })).toBeNull());
  });

  it('offers no Take Back once a packet was printed', async () => {
    fileApi(fileRecord({ sent_at: '2024-03-03T10:00:00Z', file_status: 'grading', printed: true }), steps('grading', { complete: 3, total: 12 }));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    expect(await (await flow()).findByText('3 of 12 responses graded')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Take Back' })).toBeNull();
  });

  it('saves the name with Save, which is disabled while unchanged or saving, and invalidates the file lists', async () => {
    const { sent } = fileApi(fileRecord());
    const { queryClient } = renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    const name = (await screen.findByLabelText('File name')) as HTMLInputElement;
    const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(name.value).toBe('Accra batch March');
    expect(save().disabled).toBe(true);
    fireEvent.change(name, { target: { value: 'Accra batch March ' } });
    expect(save().disabled).toBe(true);
    fireEvent.change(name, { target: { value: 'Accra batch April' } });
    expect(save().disabled).toBe(false);
    queryClient.setQueryData(['/api/files', { skip: 0, limit: 10 }], { items: [], total: 0, skip: 0, limit: 10 });
    queryClient.setQueryData([`/api/files/${FILE_ID}`], fileRecord());
    fireEvent.click(save());
    await waitFor(() => expect(sent).toHaveLength(1));
    // Saving: disabled, though the name differs from the saved one.
    expect(save().disabled).toBe(true);
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(sent).toEqual([{ method: 'PATCH', path: `/api/file/${FILE_ID}`, body: { name: 'Accra batch April' } }]);
    expect(save().disabled).toBe(true);
    const stale = (key: string) => queryClient.getQueryCache().findAll({ queryKey: [key] }).every((query) => query.state.isInvalidated);
    expect(stale('/api/files')).toBe(true);
    expect(stale(`/api/files/${FILE_ID}`)).toBe(true);
  });

  it('only logs a failed save', async () => {
    fileApi(fileRecord());
    server.use(http.patch(`*/api/file/${FILE_ID}`, () => HttpResponse.json({ detail: 'no' }, { status: 500 })));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    fireEvent.change(await screen.findByLabelText('File name'), { target: { value: 'Renamed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(screen.queryByText('Saved')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    logged.mockRestore();
  });

  it('keeps recruiting point, recruiter and contact person disabled until a service center is chosen', async () => {
    const { sent, state } = fileApi(fileRecord({ service_center: null }));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    const disabled = (label: string) => (screen.getByLabelText(label).closest('.p-dropdown') as HTMLElement).classList.contains('p-disabled');
    await screen.findByLabelText('Service Center');
    expect(disabled('Recruiting Point')).toBe(true);
    expect(disabled('Recruiter')).toBe(true);
    expect(disabled('Contact Person')).toBe(true);
    state.file = fileRecord({ service_center: { id: 'sc2', name: 'Lagos Center' } });
    await chooseOption(screen.getByLabelText('Service Center'), 'Lagos Center');
    await waitFor(() => expect(disabled('Recruiter')).toBe(false));
    expect(sent.at(-1)).toEqual({
      method: 'PATCH',
      path: `/api/file/${FILE_ID}`,
      body: { service_center: 'sc2', recruiting_point: null, recruiter: null, contact_person: null },
    });
    expect(dropdownText(screen.getByLabelText('Service Center'))).toBe('Lagos Center');
    await chooseOption(screen.getByLabelText('Recruiter'), 'Brother Kofi');
    await waitFor(() => expect(sent.at(-1)?.body).toEqual({ recruiter: 'r1' }));
    await chooseOption(screen.getByLabelText('Contact Person'), 'Sister Abena');
    await waitFor(() => expect(sent.at(-1)?.body).toEqual({ contact_person: 'cp1' }));
    await chooseOption(screen.getByLabelText('Recruiting Point'), 'Kumasi Market');
    await waitFor(() => expect(sent.at(-1)?.body).toEqual({ recruiting_point: 'rp1' }));
  });

  it('assigns every sheet of the file to a congregation, then reads the steps again', async () => {
    const { sent, state } = fileApi(fileRecord(), steps('assign'));
    server.use(
      http.get('*/api/congregations', () =>
        HttpResponse.json({
          items: [{ id: 'c9', wbs_code: 'GH 0042', display_name: 'Accra Central', created_at: '2024-01-01T00:00:00Z' }],
          total: 1,
          skip: 0,
          limit: 50,
        }),
      ),
    );
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    expect(await (await flow()).findByText('Assign every response of this file to a congregation.')).toBeTruthy();
    expect((workflow().getByRole('button', { name: 'Assign' }) as HTMLButtonElement).disabled).toBe(true);
    await chooseOption(workflow().getByLabelText('Congregation'), 'GH 0042 (Accra Central)');
    const reads = state.stepReads;
    state.step = steps('send');
    fireEvent.click(workflow().getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(sent).toEqual([{ method: 'PATCH', path: `/api/answer-sheets?file=${FILE_ID}`, body: { assigned_group: 'c9' } }]));
    expect(await (await flow()).findByText('Ready to send to study helpers!')).toBeTruthy();
    expect(state.stepReads).toBeGreaterThan(reads);
  });

  it('says why it no longer assigns when the server answers that the file was sent meanwhile (409)', async () => {
    fileApi(fileRecord(), steps('assign'));
    const FIXED = 'This file was sent to the study helpers; its responses keep their congregations.';
    server.use(
      http.get('*/api/congregations', () =>
        HttpResponse.json({
          items: [{ id: 'c9', wbs_code: 'GH 0042', display_name: 'Accra Central', created_at: '2024-01-01T00:00:00Z' }],
          total: 1,
          skip: 0,
          limit: 50,
        }),
      ),
      http.patch('*/api/answer-sheets', () => HttpResponse.json({ detail: { error_type: 'SHEET_ALREADY_SENT', message: FIXED } }, { status: 409 })),
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    expect(await (await flow()).findByText('Assign every response of this file to a congregation.')).toBeTruthy();
    expect(workflow().queryByText(FIXED)).toBeNull();
    await chooseOption(workflow().getByLabelText('Congregation'), 'GH 0042 (Accra Central)');
    fireEvent.click(workflow().getByRole('button', { name: 'Assign' }));
    expect(await workflow().findByText(FIXED)).toBeTruthy();
    expect((workflow().getByRole('button', { name: 'Assign' }) as HTMLButtonElement).disabled).toBe(true);
    expect((workflow().getByLabelText('Congregation').closest('.p-dropdown') as HTMLElement).classList.contains('p-disabled')).toBe(true);
    logged.mockRestore();
  });

  it('says, looking at Assign again once the file is sent, that its responses keep their congregations', async () => {
    fileApi(fileRecord(), steps('grading', { total: 4 }));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    fireEvent.click(await (await flow()).findByRole('button', { name: 'Assign step' }));
    expect(
      await workflow().findByText('Assign: Every response was assigned. This file was sent to the study helpers; its responses keep their congregations.'),
    ).toBeTruthy();
    expect(workflow().queryByRole('button', { name: 'Assign' })).toBeNull();
  });

  it('sends the file, locks Send, and follows the send job\'s progress by its run id', async () => {
    const { sent } = fileApi(fileRecord(), steps('send'));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    expect(await (await flow()).findByText('Ready to send to study helpers!')).toBeTruthy();
    fireEvent.click(workflow().getByRole('button', { name: 'Send' }));
    expect((workflow().getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(sent).toEqual([{ method: 'POST', path: `/api/file/${FILE_ID}/send`, body: undefined }]));
    expect(await (await flow()).findByText('Sent to study helpers.')).toBeTruthy();
    await waitFor(() => expect(emitProgress('send_to_study_helpers/run-42', { status: 'running', completed: 3, count: 8, failed: 0 })).toBe(1));
    expect(await (await flow()).findByText('Sending: 3 of 8')).toBeTruthy();
  });

  it('downloads the return file under the server\'s name, regenerates it and archives it', async () => {
    const saved = captureDownloads();
    const { sent, state } = fileApi(fileRecord({ grading_complete: true }), steps('return', { prepped: true, complete: 12, total: 12 }));
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    const button = async (name: string) => (await (await flow()).findByRole('button', { name })) as HTMLButtonElement;
    expect((await button('Archive')).disabled).toBe(true);
    state.step = steps('return', { prepped: true, downloaded: true, complete: 12, total: 12 });
    fireEvent.click(await button('Download'));
    await waitFor(() => expect(saved).toEqual(['Accra-return.pdf']));
    await waitFor(async () => expect((await button('Archive')).disabled).toBe(false));
    fireEvent.click(await button('Regenerate'));
    await waitFor(() => expect(sent.map((call) => call.path)).toEqual([`/api/file/${FILE_ID}/regenerate`]));
    // Regenerate says what it does while the job runs.
    expect(await (await flow()).findByText('Making the return file again…')).toBeTruthy();
    await waitFor(async () => expect((await button('Archive')).disabled).toBe(false));
    fireEvent.click(await button('Archive'));
    // Archive asks first, saying what it does.
    const question = await screen.findByText(/^Archive this file\? .*Its return file can still be downloaded\.$/);
    fireEvent.click(within(question.closest('[role="alertdialog"],[role="dialog"]') as HTMLElement).getByRole('button', { name: 'Archive' }));
    expect(await (await flow()).findByText('Archived')).toBeTruthy();
    expect(await (await flow()).findByText('The file is archived. Its return file can still be downloaded here.')).toBeTruthy();
    expect(sent.map((call) => call.path)).toEqual([`/api/file/${FILE_ID}/regenerate`, `/api/file/${FILE_ID}/archive`]);
    // The return file can still be downloaded once archived.
    fireEvent.click(await button('Download'));
    await waitFor(() => expect(saved).toEqual(['Accra-return.pdf', 'Accra-return.pdf']));
    vi.restoreAllMocks();
  });

  it('shows a coordinator the file without editing, deleting or step actions', async () => {
    fileApi(fileRecord(), steps('send'));
    renderApp(`/file/${FILE_ID}`, { as: 'coordinator' });
    expect(await (await flow()).findByText('Ready to send to study helpers!')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Accra batch March' })).toBeTruthy();
    expect(screen.queryByLabelText('File name')).toBeNull();
    expect(screen.queryByLabelText('Service Center')).toBeNull();
    expect(workflow().queryByRole('button', { name: 'Send' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete File' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Take Back' })).toBeNull();
  });
});
