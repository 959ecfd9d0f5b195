// @vitest-environment happy-dom
// /files/ on MSW (spec §2 "/files/", §4, §5, §7, §8, §9): titles per mode, the admin's table with
// status icons, filters, default sort and 2 s refetch, the service-center upload (request fields,
// size rule, dropped-file filter, error banners, going to the new file), the coordinator's
// congregation file states, and Ready to Print with its Print/Download.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { File, FileList } from '../../generated/hooks/model';
import { MAX_UPLOAD_BYTES } from '../../machines/constants';
import { RETRY_DELAYS_MS } from '../../src/components/upload/resumable-upload';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { chooseOption, optionLabels } from './support/dropdown';
import { captureDownloads } from './support/downloads';
import { pdfFile, toBrowserFile } from './support/files';
import { fileRecord, statsRecord } from './support/fixtures';

setupMockApi();

const page = (items: File[]): FileList => ({ items, total: items.length, skip: 0, limit: 10 });

/** Answers GET /api/files with `list` and records every query. */
function filesApi(list: FileList) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get('*/api/files', ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json(list);
    }),
  );
  return queries;
}

const headers = () => screen.getAllByRole('columnheader').map((th) => th.textContent);
const dialog = () => within(screen.getByRole('dialog'));

describe('files list, admin', () => {
  const files = [
    fileRecord({ id: 'f1', name: 'Pending batch', process_status: 'pending' }),
    fileRecord({ id: 'f2', name: 'Broken batch', process_status: 'failed' }),
    fileRecord({ id: 'f3', name: 'Downloaded batch', file_status: 'downloaded' }),
    fileRecord({ id: 'f4', name: 'Graded batch', grading_complete: true }),
    fileRecord({ id: 'f5', name: 'Printed batch', printed: true }),
    fileRecord({ id: 'f6', name: 'New batch' }),
  ];

  it('is titled "Files", has the Upload button and the table with status icons', async () => {
    const queries = filesApi(page(files));
    renderApp('/files', { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Files' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeTruthy();
    await screen.findByRole('link', { name: 'Pending batch' });
    expect(headers()).toEqual(['Status', 'Name', 'Service Center', 'Congregations', 'Responses', 'Uploaded']);
    const statusOf = (name: string) =>
      within(screen.getByRole('link', { name }).closest('tr') as HTMLElement).getAllByRole('img')[0]?.getAttribute('aria-label');
    expect(statusOf('Pending batch')).toBe('Processing');
    expect(statusOf('Broken batch')).toBe('Failed');
    expect(statusOf('Downloaded batch')).toBe('Downloaded');
    expect(statusOf('Graded batch')).toBe('All responses graded');
    expect(statusOf('Printed batch')).toBe('Printed but not returned');
    expect(statusOf('New batch')).toBe('Ready to send');
    const row = screen.getByRole('link', { name: 'New batch' }).closest('tr') as HTMLElement;
    expect(within(row).getByRole('img', { name: 'Ghana' })).toBeTruthy();
    expect(within(row).getByText('Accra Center')).toBeTruthy();
    expect(within(row).getByText('US 1234')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New batch' }).getAttribute('href')).toBe('/file/f6');
    // Default sort: created_at descending, first page of 10.
    expect(queries[0]?.get('order_by')).toBe('created_at');
    expect(queries[0]?.get('order_direction')).toBe('desc');
    expect(queries[0]?.get('skip')).toBe('0');
    expect(queries[0]?.get('limit')).toBe('10');
  });

  it('refetches the table every 2 s', async () => {
    const queries = filesApi(page(files));
    renderApp('/files', { as: 'admin' });
    await screen.findByRole('link', { name: 'New batch' });
    const first = queries.length;
    await waitFor(() => expect(queries.length).toBeGreaterThan(first), { timeout: 3_500 });
  });

  it('sends the filters: study helper, status as file_state, country, name as query_name', async () => {
    const queries = filesApi(page(files));
    const { router } = renderApp('/files?studyHelper=h1&status=ready_to_send&country=GH&name=accra', { as: 'admin' });
    await screen.findByRole('link', { name: 'New batch' });
    const last = queries.at(-1) as URLSearchParams;
    expect(last.get('study_helper')).toBe('h1');
    expect(last.get('file_state')).toBe('ready_to_send');
    expect(last.get('country')).toBe('GH');
    expect(last.get('query_name')).toBe('accra');

    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await chooseOption(await screen.findByLabelText('Status'), 'Archived');
    await waitFor(() => expect(queries.at(-1)?.get('file_state')).toBe('archived'));
    expect(router.state.location.search).toContain('status=archived');
  });

  it('offers the status filter\'s eight choices', async () => {
    filesApi(page(files));
    renderApp('/files', { as: 'admin' });
    await screen.findByRole('link', { name: 'New batch' });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await optionLabels(await screen.findByLabelText('Status'))).toEqual([
      'Processing',
      'Failed',
      'Review',
      'Ready to Send',
      'Grading',
      'Return',
      'Downloaded',
      'Archived',
    ]);
  });

  it('sorts by name', async () => {
    const queries = filesApi(page(files));
    renderApp('/files', { as: 'admin' });
    await screen.findByRole('link', { name: 'New batch' });
    fireEvent.click(within(screen.getByRole('table', { name: 'Files' })).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(queries.at(-1)?.get('order_by')).toBe('name'));
    expect(queries.at(-1)?.get('order_direction')).toBe('asc');
  });
});

/** What the dialog sent as one resumable upload: its tus metadata (the multipart call's fields) and bytes. */
interface SentUpload {
  fields: Record<string, string>;
  length: number;
  received: number;
}

/** The multipart call's answer to a finished upload: the new file, or its refusal (status and JSON body). */
type Outcome = { id: string } | { status: number; body: unknown };

const RESUMABLE = '/api/uploads/resumable';
const TUS = { 'tus-resumable': '1.0.0' };

/** The tus metadata of a creation request, decoded. */
function metadataOf(request: Request): Record<string, string> {
  return Object.fromEntries(
    (request.headers.get('upload-metadata') ?? '').split(',').map((pair) => {
      const [key = '', value = ''] = pair.split(' ');
      return [key, atob(value)];
    }),
  );
}

/**
 * Answers the dialog's resumable uploads (tus at /api/uploads/resumable) as the server does: the
 * last byte goes to the multipart call, whose answer `finish` gives: 204 naming the new file in
 * Upload-Result-Id, or the call's refusal in the final PATCH answer (and, asked again, HEAD says
 * the upload ended and GET carries the refusal). Returns the uploads as they were created.
 */
function resumableApi(finish: (upload: SentUpload, index: number) => Outcome) {
  const uploads: SentUpload[] = [];
  const outcomes = new Map<number, Outcome>();
  const indexOf = (id: unknown) => Number(id) - 1;
  const position = (index: number) => {
    const upload = uploads[index] as SentUpload;
    const outcome = outcomes.get(index);
    return {
      ...TUS,
      'upload-offset': String(outcome ? upload.length : upload.received),
      'upload-length': String(upload.length),
      ...(outcome && 'id' in outcome ? { 'upload-result-id': outcome.id } : {}),
    };
  };
  server.use(
    http.post(`*${RESUMABLE}`, ({ request }) => {
      uploads.push({ fields: metadataOf(request), length: Number(request.headers.get('upload-length')), received: 0 });
      return new HttpResponse(null, { status: 201, headers: { ...TUS, location: `${RESUMABLE}/${uploads.length}` } });
    }),
    http.head(`*${RESUMABLE}/:id`, ({ params }) =>
      uploads[indexOf(params.id)] ? new HttpResponse(null, { headers: position(indexOf(params.id)) }) : new HttpResponse(null, { status: 404 }),
    ),
    http.patch(`*${RESUMABLE}/:id`, async ({ params, request }) => {
      const index = indexOf(params.id);
      const upload = uploads[index] as SentUpload;
      upload.received += (await request.arrayBuffer()).byteLength;
      if (upload.received < upload.length) return new HttpResponse(null, { status: 204, headers: position(index) });
      const outcome = finish(upload, index);
      outcomes.set(index, outcome);
      if ('id' in outcome) return new HttpResponse(null, { status: 204, headers: position(index) });
      return HttpResponse.json(outcome.body as Record<string, unknown>, { status: outcome.status });
    }),
    http.get(`*${RESUMABLE}/:id`, ({ params }) => {
      const index = indexOf(params.id);
      const upload = uploads[index] as SentUpload;
      const outcome = outcomes.get(index);
      return HttpResponse.json({
        id: String(params.id),
        kind: 'service_center',
        name: upload.fields.name ?? '',
        filename: upload.fields.filename ?? '',
        offset: upload.received,
        length: upload.length,
        state: outcome === undefined ? 'receiving' : 'id' in outcome ? 'accepted' : 'refused',
        result_id: outcome && 'id' in outcome ? outcome.id : null,
        refusal: outcome && !('id' in outcome) ? { status: outcome.status, detail: (outcome.body as { detail?: unknown }).detail } : null,
        created_at: '2024-01-01T00:00:00Z',
      });
    }),
  );
  return uploads;
}

describe('service-center upload', () => {
  // tus-js-client remembers unfinished uploads in localStorage: each test starts with none.
  beforeEach(() => localStorage.clear());

  async function openUpload() {
    filesApi(page([]));
    const app = renderApp('/files', { as: 'admin' });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload' }));
    await screen.findByRole('dialog', { name: 'Upload' });
    return app;
  }

  function choose(...files: globalThis.File[]) {
    fireEvent.change(dialog().getByLabelText('Files to upload'), { target: { files } });
  }

  it('offers page lengths 0, 1 and 2 and sends one request per file with name, page length and scanned_at', async () => {
    const uploads = resumableApi((_upload, index) => ({ id: `new-${index + 1}` }));
    server.use(
      http.get('*/api/file/:id', () => HttpResponse.json(fileRecord())),
      http.get('*/api/file/:id/stats', () =>
        HttpResponse.json(statsRecord({ pages: 6, sheets: 3, unassigned: 3 })),
      ),
    );
    const { router } = await openUpload();
    expect(dialog().getAllByRole('radio').map((radio) => radio.closest('.upload-page-length')?.textContent)).toEqual([
      '0 (QR code)',
      '1 (Single-page intro)',
      '2 (Two-page intro)',
    ]);
    expect((dialog().getByLabelText('0 (QR code)') as HTMLInputElement).checked).toBe(true);
    expect((dialog().getByRole('button', { name: 'Upload' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(dialog().getByLabelText('1 (Single-page intro)'));
    choose(pdfFile('a.pdf', 2_048, Date.UTC(2024, 2, 1, 9)), pdfFile('b.pdf', 1_024));
    fireEvent.click(dialog().getByRole('button', { name: 'Upload' }));
    // The dialog stays for the processing and its summary (nothing flagged: success); Done goes to the file.
    expect(await dialog().findByText('Upload complete: every page went through. 12 pages read, 6 answer sheets.')).toBeTruthy();
    fireEvent.click(dialog().getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/file/new-1'));
    // One upload per file, carrying the multipart call's fields, and every byte of the file.
    expect(uploads).toHaveLength(2);
    expect(uploads[0]?.fields).toEqual({
      kind: 'service_center',
      name: 'a.pdf',
      filename: 'a.pdf',
      answer_sheet_page_length: '1',
      scanned_at: '2024-03-01T09:00:00.000Z',
    });
    expect(uploads[0]?.length).toBe(2_048);
    expect(uploads[0]?.received).toBe(2_048);
    expect(uploads[1]?.fields.name).toBe('b.pdf');
    expect(uploads[1]?.received).toBe(1_024);
    expect(await screen.findByText('Operation successful.')).toBeTruthy();
  });

  it('warns with the counts and the next step when the processed file has flagged pages', async () => {
    resumableApi(() => ({ id: 'new-1' }));
    server.use(
      http.get('*/api/file/:id', () => HttpResponse.json(fileRecord())),
      http.get('*/api/file/:id/stats', () =>
        HttpResponse.json(
          statsRecord({
            pages: 16,
            sheets: 8,
            unrecognized: 16,
            mismatched: 1,
            unassigned: 8,
            flagged: 16,
            reasons: { no_code_found: 16, unreadable: 0, unknown_code: 0, out_of_order: 0, stray_page: 0, another_course: 0, duplicate_sheet: 0, blank_back: 0, ambiguous_position: 0, page_missing: 0, scanned_twice: 0, already_uploaded: 0, too_complex: 0, no_sheet: 0, too_blurred: 0 },
          }),
        ),
      ),
    );
    await openUpload();
    choose(pdfFile('no-codes.pdf'));
    fireEvent.click(dialog().getByRole('button', { name: 'Upload' }));
    expect(await dialog().findByText('Uploaded, but not everything went through. 16 pages read, 8 answer sheets, 16 pages to review, 1 mismatched.')).toBeTruthy();
    expect(dialog().getByText('Open the file and mend the flagged pages in Review.')).toBeTruthy();
    expect(screen.queryByText('Operation successful.')).toBeNull();
  });

  it('flags a file over 1.5 GB "File too Large" and keeps Upload disabled until it is removed', async () => {
    await openUpload();
    const huge = toBrowserFile({ name: 'huge.pdf', size: MAX_UPLOAD_BYTES + 1, type: 'application/pdf', lastModified: 0 });
    choose(huge, pdfFile('ok.pdf'));
    expect(dialog().getByText('File too Large')).toBeTruthy();
    expect((dialog().getByRole('button', { name: 'Upload' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(dialog().getByRole('button', { name: 'Remove huge.pdf' }));
    expect(dialog().queryByText('File too Large')).toBeNull();
    expect((dialog().getByRole('button', { name: 'Upload' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('keeps only PDFs of the files dropped on it', async () => {
    await openUpload();
    fireEvent.drop(dialog().getByTestId('file-drop-zone'), {
      dataTransfer: { files: [pdfFile('scan.pdf'), toBrowserFile({ name: 'notes.txt', size: 10, type: 'text/plain', lastModified: 0 })] },
    });
    const listed = within(dialog().getByRole('list', { name: 'Selected files' })).getAllByRole('listitem');
    expect(listed.map((item) => item.querySelector('.upload-file-name')?.textContent)).toEqual(['scan.pdf']);
  });

  // The multipart call's refusal comes back in the final PATCH answer. One without an error_type
  // (or a 5xx) is tried again after 1 s: the server says the upload ended, and its GET carries
  // the refusal.
  it.each([
    [409, { detail: { error_type: 'DUPLICATE_FILE' } }, 'This file has already been uploaded. Please upload a different file.'],
    [409, { detail: 'duplicate' }, 'This file has already been uploaded. Please upload a different file.'],
    [400, { detail: { error_type: 'VALIDATION_ERROR', message: 'not a PDF' } }, "Invalid file format or corrupted file. Please ensure you're uploading a valid PDF file."],
    [500, { detail: 'boom' }, 'Server error occurred. Please try again later.'],
    [403, { detail: 'Forbidden' }, 'Upload failed. Please check your connection and try again.'],
    [409, { detail: { error_type: 'SOMETHING_ELSE' } }, 'Operation failed. Please try again.'],
  ])('answers %i %o with "%s" in the banner', async (status, body, message) => {
    const uploads = resumableApi(() => ({ status, body }));
    const { router } = await openUpload();
    choose(pdfFile('scan.pdf'));
    fireEvent.click(dialog().getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2), { timeout: 5_000 });
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.received).toBe(2_048);
    expect(router.state.location.pathname).toBe('/files');
  });

  it('says "Upload failed…" when the network fails, once the retries are used up', async () => {
    let attempts = 0;
    server.use(http.post(`*${RESUMABLE}`, () => ((attempts += 1), HttpResponse.error())));
    await openUpload();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
    try {
      choose(pdfFile('scan.pdf'));
      fireEvent.click(dialog().getByRole('button', { name: 'Upload' }));
      // A dropped connection is tried again with backoff (about 20 minutes in all), saying so.
      expect(await dialog().findByText(/^Connection lost, retrying/)).toBeTruthy();
      expect(screen.queryByText('Upload failed. Please check your connection and try again.')).toBeNull();
      for (let minute = 0; minute < 25 && screen.queryAllByText('Upload failed. Please check your connection and try again.').length < 2; minute += 1) {
        await vi.advanceTimersByTimeAsync(60_000);
        await new Promise((resolve) => queueMicrotask(() => resolve(undefined)));
      }
      await waitFor(() => expect(screen.getAllByText('Upload failed. Please check your connection and try again.')).toHaveLength(2));
      // The first try and one per retry delay.
      expect(attempts).toBe(1 + RETRY_DELAYS_MS.length);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('files list, coordinator', () => {
  it('shows the congregation\'s files with their congregation file states, without upload or filters', async () => {
    const queries = filesApi(
      page([
        fileRecord({ id: 'c1', name: 'Unprinted one', congregation_file_status: 'unprinted' }),
        fileRecord({ id: 'c2', name: 'Half graded', congregation_file_status: 'partially_graded' }),
        fileRecord({ id: 'c3', name: 'Returned one', congregation_file_status: 'returned' }),
        fileRecord({ id: 'c4', name: 'Broken one', process_status: 'failed' }),
        fileRecord({ id: 'c5', name: 'Done one', file_status: 'archived', congregation_file_status: 'graded' }),
        fileRecord({ id: 'c6', name: 'Busy one', process_status: 'pending' }),
      ]),
    );
    renderApp('/files', { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Files' })).toBeTruthy();
    await screen.findByRole('link', { name: 'Unprinted one' });
    expect(headers()).toEqual(['Name', 'Uploaded', 'Responses', 'Status', 'Print']);
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Filter' })).toBeNull();
    const stateOf = (name: string) => {
      const row = screen.getByRole('link', { name }).closest('tr') as HTMLElement;
      const tag = row.querySelector('.p-tag') as HTMLElement;
      return [tag.textContent, [...tag.classList].find((c) => /^p-tag-(success|warning|danger|info)$/.test(c))];
    };
    expect(stateOf('Unprinted one')).toEqual(['Unprinted', 'p-tag-warning']);
    expect(stateOf('Half graded')).toEqual(['Partially Graded', 'p-tag-danger']);
    expect(stateOf('Returned one')).toEqual(['Returned', 'p-tag-success']);
    expect(stateOf('Broken one')).toEqual(['Incomplete', 'p-tag-danger']);
    expect(stateOf('Done one')).toEqual(['Completed', 'p-tag-success']);
    expect(stateOf('Busy one')).toEqual(['Processing', 'p-tag-warning']);
    const broken = screen.getByRole('link', { name: 'Broken one' }).closest('tr') as HTMLElement;
    expect(within(broken).getByRole('img', { name: 'Failed to process correctly' })).toBeTruthy();
    expect(queries[0]?.get('order_by')).toBe('created_at');
    expect(queries[0]?.get('order_direction')).toBe('desc');
  });
});

describe('Ready to Print', () => {
  it('lists unprinted files (skip 0, limit 10) and downloads the packet once it exists', async () => {
    const saved = captureDownloads();
    const queries = filesApi(page([fileRecord({ id: 'p1', name: 'Print me', congregation_file_status: 'unprinted' })]));
    let existsCalls = 0;
    const downloads: string[] = [];
    server.use(
      http.get('*/api/file/p1/congregations', () =>
        HttpResponse.json([
          { id: 'other', wbs_code: 'XX 1', display_name: 'Other', status: 'unprinted', sheets: 1, packet_id: 'd-other' },
          {
            id: '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b',
            wbs_code: 'US 1234',
            display_name: 'Springfield North',
            status: 'unprinted',
            sheets: 4,
            packet_id: 'd-own',
          },
        ]),
      ),
      http.get('*/api/study-helpers/distributed-files/:id/exists', ({ params }) => {
        expect(params.id).toBe('d-own');
        existsCalls += 1;
        return HttpResponse.json({ exists: existsCalls >= 2 });
      }),
      http.get('*/api/study-helpers/distributed-files/:file', ({ params }) => {
        downloads.push(String(params.file));
        return new HttpResponse(new Uint8Array([37, 80, 68, 70]), {
          headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="packet.pdf"' },
        });
      }),
    );
    renderApp('/files?mode=print', { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ready to Print' })).toBeTruthy();
    const printButton = await screen.findByRole('button', { name: 'Print/Download Print me' });
    expect((printButton as HTMLButtonElement).disabled).toBe(true);
    expect(queries[0]?.get('congregation_file_state')).toBe('unprinted');
    expect(queries[0]?.get('skip')).toBe('0');
    expect(queries[0]?.get('limit')).toBe('10');
    // Repolled each second until it exists.
    await waitFor(() => expect((screen.getByRole('button', { name: 'Print/Download Print me' }) as HTMLButtonElement).disabled).toBe(false), {
      timeout: 3_000,
    });
    expect(existsCalls).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(existsCalls).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: 'Print/Download Print me' }));
    await waitFor(() => expect(downloads).toEqual(['d-own.pdf']));
    // Saved under the server's file name.
    await waitFor(() => expect(saved).toEqual(['packet.pdf']));
    vi.restoreAllMocks();
  });

  it('stops only the spinner and logs a failed download', async () => {
    filesApi(page([fileRecord({ id: 'p1', name: 'Print me' })]));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('*/api/file/p1/congregations', () =>
        HttpResponse.json([{ id: 'x', wbs_code: 'US 1234', display_name: 'S', status: 'unprinted', sheets: 1, packet_id: 'd1' }]),
      ),
      http.get('*/api/study-helpers/distributed-files/:id/exists', () => HttpResponse.json({ exists: true })),
      http.get('*/api/study-helpers/distributed-files/:file', () => new HttpResponse(null, { status: 500, statusText: 'Internal Server Error' })),
    );
    renderApp('/files?mode=print', { as: 'coordinator' });
    const printButton = await screen.findByRole('button', { name: 'Print/Download Print me' });
    await waitFor(() => expect((printButton as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(printButton);
    await waitFor(() => expect(logged).toHaveBeenCalledWith(new Error('Download failed: Internal Server Error')));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Print/Download Print me' }) as HTMLButtonElement).disabled).toBe(false));
    logged.mockRestore();
  });
});
