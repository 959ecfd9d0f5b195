// @vitest-environment happy-dom
// The congregation dashboard's upload (spec §2 "/files/", §4 "Upload dialog (study-helper file)",
// §5, §7 POST /api/study-helpers/file, §8): the intro-file question first, a study helper required
// for an intro file, study_helper sent only for intro files, one request per file, the banner.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { DEMO_CONGREGATION_ID } from '../../src/testing/mocks/handlers';
import { chooseOption } from './support/dropdown';
import { pdfFile } from './support/files';

setupMockApi();

const helper = { id: 'h1', name: 'Sister Mary Jones', email: 'x@example.org', student_count: 2, created_at: '2024-01-01T00:00:00Z' };
const dialog = () => within(screen.getByRole('dialog', { name: 'Upload' }));
const uploadButton = () => dialog().getByRole('button', { name: 'Upload' }) as HTMLButtonElement;

/** The report GET /api/uploads/{id} gives once processing is done. */
function report(summary: { pages_read: number; matched: number; not_matched: number; blank_dropped: number }) {
  return { id: 'u1', name: 'graded.pdf', created_at: '2024-01-01T00:00:00Z', process_status: 'success', is_intro: false, failure_reason: null, summary, pages: [] };
}

function uploadsApi(
  answer: () => Response = () => HttpResponse.json({ status: 'success', id: 'u1' }),
  summary = { pages_read: 4, matched: 3, not_matched: 0, blank_dropped: 1 },
) {
  const requests: FormData[] = [];
  const helperQueries: string[] = [];
  server.use(
    http.get('*/api/uploads/:id', () => HttpResponse.json(report(summary))),
    http.post('*/api/study-helpers/file', async ({ request }) => {
      requests.push(await request.formData());
      return answer();
    }),
    http.get('*/api/study-helpers', ({ request }) => {
      helperQueries.push(String(new URL(request.url).searchParams.get('congregation')));
      return HttpResponse.json({ items: [helper], total: 1, skip: 0, limit: 100 });
    }),
    http.get('*/api/study-helpers/h1', () => HttpResponse.json(helper)),
  );
  return { requests, helperQueries };
}

async function open() {
  renderApp('/', { as: 'coordinator' });
  fireEvent.click(await screen.findByRole('button', { name: 'Upload' }));
  await screen.findByRole('dialog', { name: 'Upload' });
}

const choose = (...files: File[]) => fireEvent.change(dialog().getByLabelText('Files to upload'), { target: { files } });

describe('graded upload dialog', () => {
  it('asks "Is this an intro file?" before anything else', async () => {
    uploadsApi();
    await open();
    expect(dialog().getByText('Is this an intro file?')).toBeTruthy();
    expect(dialog().queryByLabelText('Files to upload')).toBeNull();
    expect(dialog().queryByRole('button', { name: 'Upload' })).toBeNull();
  });

  it('uploads graded sheets one request per file, without a study helper', async () => {
    const { requests } = uploadsApi();
    await open();
    fireEvent.click(dialog().getByRole('button', { name: 'No' }));
    expect(dialog().getByText('Graded answer sheets')).toBeTruthy();
    expect(dialog().queryByLabelText('Study Helper')).toBeNull();
    choose(pdfFile('graded-1.pdf'), pdfFile('graded-2.pdf'));
    expect(uploadButton().disabled).toBe(false);
    fireEvent.click(uploadButton());
    expect(await dialog().findByText('Upload complete: every page went through. 8 pages read, 6 matched, 0 not matched, 2 blank backs dropped.')).toBeTruthy();
    expect(requests.map((form) => [form.get('name'), form.get('study_helper'), (form.get('file') as File).name])).toEqual([
      ['graded-1.pdf', null, 'graded-1.pdf'],
      ['graded-2.pdf', null, 'graded-2.pdf'],
    ]);
    expect(screen.getByText('Operation successful.')).toBeTruthy();
    fireEvent.click(dialog().getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('needs a study helper of the congregation for an intro file, and sends it', async () => {
    const { requests, helperQueries } = uploadsApi();
    await open();
    fireEvent.click(dialog().getByRole('button', { name: 'Yes' }));
    expect(dialog().getByText('Intro file')).toBeTruthy();
    choose(pdfFile('intro.pdf'));
    expect(uploadButton().disabled).toBe(true);
    await chooseOption(dialog().getByLabelText('Study Helper'), 'Sister Mary Jones');
    await waitFor(() => expect(uploadButton().disabled).toBe(false));
    expect(helperQueries).toContain(DEMO_CONGREGATION_ID);
    fireEvent.click(uploadButton());
    expect(await dialog().findByText(/^Upload complete: every page went through\./)).toBeTruthy();
    expect(requests[0]?.get('study_helper')).toBe('h1');
    expect(requests[0]?.get('name')).toBe('intro.pdf');
  });

  it.each([
    ['some pages not matched', { pages_read: 6, matched: 4, not_matched: 2, blank_dropped: 0 }, '6 pages read, 4 matched, 2 not matched, 0 blank backs dropped'],
    ['nothing matched', { pages_read: 16, matched: 0, not_matched: 16, blank_dropped: 0 }, '16 pages read, 0 matched, 16 not matched, 0 blank backs dropped'],
    ['only blank pages', { pages_read: 3, matched: 0, not_matched: 0, blank_dropped: 3 }, '3 pages read, 0 matched, 0 not matched, 3 blank backs dropped'],
  ])('warns, never "success", when %s', async (_, summary, counts) => {
    uploadsApi(undefined, summary);
    await open();
    fireEvent.click(dialog().getByRole('button', { name: 'No' }));
    choose(pdfFile('graded.pdf'));
    fireEvent.click(uploadButton());
    expect(await dialog().findByText(`Uploaded, but not everything went through. ${counts}.`)).toBeTruthy();
    expect(dialog().getByText('Open the upload to see each page not matched and why.')).toBeTruthy();
    expect(dialog().getByRole('link', { name: 'Open the upload report' }).getAttribute('href')).toBe('/files/uploads/u1');
    expect(screen.queryByText('Operation successful.')).toBeNull();
    expect(dialog().queryByText(/every page went through/)).toBeNull();
  });

  it('shows the banner text of an upload the server refused', async () => {
    uploadsApi(() => HttpResponse.json({ status: 'error', errorType: 'DUPLICATE_FILE' }));
    await open();
    fireEvent.click(dialog().getByRole('button', { name: 'No' }));
    choose(pdfFile('again.pdf'));
    fireEvent.click(uploadButton());
    const text = 'This file has already been uploaded. Please upload a different file.';
    await waitFor(() => expect(screen.getAllByText(text)).toHaveLength(2));
    // One file and nothing to add to the summary: no list repeating the same sentence.
    expect(dialog().queryByText(`again.pdf: ${text}`)).toBeNull();
  });

  it('closes on Cancel and asks again when opened again', async () => {
    uploadsApi();
    await open();
    fireEvent.click(dialog().getByRole('button', { name: 'Yes' }));
    fireEvent.click(dialog().getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Is this an intro file?')).toBeTruthy();
  });
});
