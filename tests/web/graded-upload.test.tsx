// @vitest-environment happy-dom
// The congregation dashboard's upload (spec §2 "/files/", §4 "Upload dialog (study-helper file)",
// §5, §7 POST /api/study-helpers/file, §8): the intro-file question first, a study helper required
// for an intro file, study_helper sent only for intro files, one upload per file, the banner.
// Uploads are resumable (tus 1.0.0 at /api/uploads/resumable): the multipart call's fields go as
// the creation's Upload-Metadata, and the final PATCH answers with the multipart call's outcome:
// 204 naming the new upload in Upload-Result-Id, or its refusal (e.g. 409 DUPLICATE_FILE).
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { DEMO_CONGREGATION_ID } from '../../src/testing/mocks/handlers';
import { chooseOption } from './support/dropdown';
import { pdfFile } from './support/files';

setupMockApi();
// tus-js-client remembers unfinished uploads in localStorage: each test starts with none.
beforeEach(() => localStorage.clear());

const helper = { id: 'h1', name: 'Sister Mary Jones', email: 'x@example.org', student_count: 2, created_at: '2024-01-01T00:00:00Z' };
const dialog = () => within(screen.getByRole('dialog', { name: 'Upload' }));
const uploadButton = () => dialog().getByRole('button', { name: 'Upload' }) as HTMLButtonElement;

/** The report GET /api/uploads/{id} gives once processing is done. */
function report(id: string, summary: { pages_read: number; matched: number; not_matched: number; blank_dropped: number }) {
  return { id, name: 'graded.pdf', created_at: '2024-01-01T00:00:00Z', process_status: 'success', is_intro: false, failure_reason: null, summary, pages: [] };
}

const RESUMABLE = '/api/uploads/resumable';
const TUS = { 'tus-resumable': '1.0.0' };

/** One resumable upload as the dialog created and sent it. */
interface SentUpload {
  /** Upload-Metadata, decoded: the multipart call's fields, plus kind and filename. */
  metadata: Record<string, string>;
  length: number;
  received: number;
}

/** The multipart call's answer once the last byte is in: the new upload's id, or a refusal. */
type Outcome = { id: string } | { status: number; body: { detail: unknown } };

function metadataOf(request: Request): Record<string, string> {
  const header = request.headers.get('upload-metadata') ?? '';
  return Object.fromEntries(
    header
      .split(',')
      .filter((pair) => pair.trim() !== '')
      .map((pair) => {
        const [key = '', value = ''] = pair.trim().split(' ');
        return [key, new TextDecoder().decode(Uint8Array.from(atob(value), (char) => char.charCodeAt(0)))];
      }),
  );
}

/**
 * The server as the dialog meets it: tus creation, HEAD, PATCH and GET at /api/uploads/resumable
 * (the last byte handed to the multipart call, whose answer `finish` gives), the study helpers,
 * and the processing report of each upload. POST /api/study-helpers/file itself is never to be
 * called by the browser: such calls are counted.
 */
function uploadsApi(
  finish: (upload: SentUpload, index: number) => Outcome = (_upload, index) => ({ id: `u${index + 1}` }),
  summary = { pages_read: 4, matched: 3, not_matched: 0, blank_dropped: 1 },
) {
  const uploads: SentUpload[] = [];
  const outcomes = new Map<number, Outcome>();
  const helperQueries: string[] = [];
  const reportsRead: string[] = [];
  const multipartCalls: string[] = [];
  const indexOf = (id: unknown) => Number(id) - 1;
  const position = (index: number) => {
    const upload = uploads[index] as SentUpload;
    const outcome = outcomes.get(index);
    return {
      ...TUS,
      'upload-offset': String(upload.received),
      'upload-length': String(upload.length),
      ...(outcome && 'id' in outcome ? { 'upload-result-id': outcome.id } : {}),
    };
  };
  server.use(
    http.post(`*${RESUMABLE}`, ({ request }) => {
      uploads.push({ metadata: metadataOf(request), length: Number(request.headers.get('upload-length')), received: 0 });
      return new HttpResponse(null, { status: 201, headers: { ...TUS, location: `${RESUMABLE}/${uploads.length}` } });
    }),
    http.head(`*${RESUMABLE}/:id`, ({ params }) =>
      uploads[indexOf(params.id)] ? new HttpResponse(null, { headers: position(indexOf(params.id)) }) : new HttpResponse(null, { status: 404 }),
    ),
    http.patch(`*${RESUMABLE}/:id`, async ({ params, request }) => {
      const index = indexOf(params.id);
      const upload = uploads[index];
      if (!upload || outcomes.has(index)) return HttpResponse.json({ detail: { error_type: 'CONFLICT' } }, { status: 409 });
      upload.received += (await request.arrayBuffer()).byteLength;
      if (upload.received < upload.length) return new HttpResponse(null, { status: 204, headers: position(index) });
      const outcome = finish(upload, index);
      outcomes.set(index, outcome);
      if ('id' in outcome) return new HttpResponse(null, { status: 204, headers: position(index) });
      return HttpResponse.json(outcome.body, { status: outcome.status });
    }),
    http.get(`*${RESUMABLE}/:id`, ({ params }) => {
      const index = indexOf(params.id);
      const upload = uploads[index];
      if (!upload) return HttpResponse.json({ detail: 'Upload not found' }, { status: 404 });
      const outcome = outcomes.get(index);
      return HttpResponse.json({
        id: String(params.id),
        kind: 'graded',
        name: upload.metadata.name ?? '',
        filename: upload.metadata.filename ?? '',
        offset: upload.received,
        length: upload.length,
        state: outcome === undefined ? 'receiving' : 'id' in outcome ? 'accepted' : 'refused',
        result_id: outcome && 'id' in outcome ? outcome.id : null,
        refusal: outcome && !('id' in outcome) ? { status: outcome.status, detail: outcome.body.detail } : null,
        created_at: '2024-01-01T00:00:00Z',
      });
    }),
    http.post('*/api/study-helpers/file', ({ request }) => {
      multipartCalls.push(request.url);
      return HttpResponse.json({ detail: 'The dialog uploads resumably' }, { status: 500 });
    }),
    http.get('*/api/uploads/:id', ({ params }) => {
      reportsRead.push(String(params.id));
      return HttpResponse.json(report(String(params.id), summary));
    }),
    http.get('*/api/study-helpers', ({ request }) => {
      helperQueries.push(String(new URL(request.url).searchParams.get('congregation')));
      return HttpResponse.json({ items: [helper], total: 1, skip: 0, limit: 100 });
    }),
    http.get('*/api/study-helpers/h1', () => HttpResponse.json(helper)),
  );
  return { uploads, helperQueries, reportsRead, multipartCalls };
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

  it('uploads graded sheets one upload per file, without a study helper', async () => {
    const { uploads, reportsRead, multipartCalls } = uploadsApi();
    await open();
    fireEvent.click(dialog().getByRole('button', { name: 'No' }));
    expect(dialog().getByText('Graded answer sheets')).toBeTruthy();
    expect(dialog().queryByLabelText('Study Helper')).toBeNull();
    choose(pdfFile('graded-1.pdf', 2_048), pdfFile('graded-2.pdf', 3_000));
    expect(uploadButton().disabled).toBe(false);
    fireEvent.click(uploadButton());
    expect(await dialog().findByText('Upload complete: every page went through. 8 pages read, 6 matched, 0 not matched, 2 blank backs dropped.')).toBeTruthy();
    // One graded upload per file, each sent whole, its name and no study_helper in the metadata.
    expect(uploads.map(({ metadata, length, received }) => [metadata, length, received])).toEqual([
      [{ kind: 'graded', name: 'graded-1.pdf', filename: 'graded-1.pdf' }, 2_048, 2_048],
      [{ kind: 'graded', name: 'graded-2.pdf', filename: 'graded-2.pdf' }, 3_000, 3_000],
    ]);
    // Processing is followed for the uploads the final PATCH named in Upload-Result-Id.
    expect([...new Set(reportsRead)].sort()).toEqual(['u1', 'u2']);
    expect(multipartCalls).toEqual([]);
    expect(screen.getByText('Operation successful.')).toBeTruthy();
    fireEvent.click(dialog().getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('needs a study helper of the congregation for an intro file, and sends it', async () => {
    const { uploads, helperQueries, multipartCalls } = uploadsApi();
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
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.metadata).toEqual({ kind: 'graded', name: 'intro.pdf', filename: 'intro.pdf', study_helper: 'h1' });
    expect(uploads[0]?.received).toBe(uploads[0]?.length);
    expect(multipartCalls).toEqual([]);
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
    // The multipart call refuses the finished upload; the final PATCH carries its answer.
    const { uploads } = uploadsApi(() => ({ status: 409, body: { detail: { error_type: 'DUPLICATE_FILE', message: 'This file has already been uploaded.' } } }));
    await open();
    fireEvent.click(dialog().getByRole('button', { name: 'No' }));
    choose(pdfFile('again.pdf'));
    fireEvent.click(uploadButton());
    const text = 'This file has already been uploaded. Please upload a different file.';
    await waitFor(() => expect(screen.getAllByText(text)).toHaveLength(2));
    expect(screen.queryByText('Operation successful.')).toBeNull();
    // Refused, not a dropped connection: sent once, never retried.
    expect(uploads.map(({ metadata }) => metadata.name)).toEqual(['again.pdf']);
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
