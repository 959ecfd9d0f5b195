// The client behaves as spec section 7 says, checked on MSW: same origin, JSON, query strings,
// multipart when a file is present, 204/empty = {}, failed responses thrown with status and
// body, download file names from Content-Disposition with an {id}.pdf fallback.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, apiClient, downloadFileName, downloadPdf } from '../../src/lib/api-client';
import { listStudents } from '../../generated/hooks/students/students';
import { createCongregation } from '../../generated/hooks/congregations/congregations';
import { deleteFile, uploadFile } from '../../generated/hooks/files/files';
import { getStudentsMock } from '../../generated/hooks/students/students.msw';

const seen: Request[] = [];
const server = setupServer();
server.events.on('request:start', ({ request }) => {
  seen.push(request.clone());
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen.length = 0;
});
afterAll(() => server.close());

describe('api client', () => {
  it('sends GET parameters as a query string to the same origin and reads JSON', async () => {
    server.use(...getStudentsMock());
    const page = await listStudents({ human_id_prefix: '12', limit: 20 });
    expect(Array.isArray(page.items)).toBe(true);
    const url = new URL(seen[0]!.url);
    expect(url.origin).toBe('http://localhost');
    expect(url.pathname).toBe('/api/students');
    expect(url.searchParams.get('human_id_prefix')).toBe('12');
    expect(url.searchParams.get('limit')).toBe('20');
    expect(seen[0]!.headers.get('accept')).toContain('application/json');
  });

  it('sends bodies as JSON', async () => {
    server.use(
      http.post('*/api/congregations', async ({ request }) =>
        HttpResponse.json(
          { id: 'x', ...((await request.json()) as object), created_at: 'now' },
          { status: 201 },
        ),
      ),
    );
    const created = await createCongregation({ wbs_code: 'US 1234', display_name: 'North' });
    expect(created.wbs_code).toBe('US 1234');
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
  });

  it('sends multipart with a boundary when a file is present', async () => {
    let received: FormData | undefined;
    server.use(
      http.post('*/api/file', async ({ request }) => {
        received = await request.formData();
        return HttpResponse.json({ id: '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b' }, { status: 201 });
      }),
    );
    const pdf = new File(['%PDF-1.4 test'], 'scan.pdf', { type: 'application/pdf' });
    await uploadFile({
      name: 'scan',
      answer_sheet_page_length: '0',
      scanned_at: '2026-11-02T10:00:00Z',
      file: [pdf],
    });
    expect(seen[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(received?.get('name')).toBe('scan');
    expect(received?.get('answer_sheet_page_length')).toBe('0');
    expect((received?.get('file') as File).name).toBe('scan.pdf');
  });

  it('treats 204 and empty answers as {}', async () => {
    server.use(http.delete('*/api/file/:id', () => new HttpResponse(null, { status: 204 })));
    await expect(deleteFile('3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b')).resolves.toEqual({});
  });

  it('throws failed answers with their status and body', async () => {
    const body = { detail: { error_type: 'DUPLICATE_FILE', message: 'again' } };
    server.use(
      http.post('*/api/file', () =>
        HttpResponse.json(body, { status: 409, statusText: 'Conflict' }),
      ),
    );
    const pdf = new File(['%PDF'], 'a.pdf');
    const error = await uploadFile({ name: 'a', answer_sheet_page_length: '0', file: [pdf] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).body).toEqual(body);
  });

  it('has a typed openapi-fetch client that throws failures too', async () => {
    server.use(
      http.get('*/api/students/:id', () =>
        HttpResponse.json({ detail: 'Student not found' }, { status: 404 }),
      ),
    );
    const error = await apiClient
      .GET('/api/students/{id}', {
        params: { path: { id: '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b' } },
      })
      .catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).body).toEqual({ detail: 'Student not found' });
  });

  it('names downloads from Content-Disposition, else {id}.pdf', async () => {
    expect(downloadFileName('attachment; filename="Accra batch.pdf"', 'x')).toBe('Accra batch.pdf');
    expect(downloadFileName("attachment; filename*=UTF-8''Acc%C3%A9.pdf", 'x')).toBe('Accé.pdf');
    expect(downloadFileName(null, 'abc')).toBe('abc.pdf');
    server.use(
      http.get(
        '*/api/file/:id.pdf',
        () =>
          new HttpResponse('%PDF', {
            headers: { 'content-disposition': 'attachment; filename="orig.pdf"' },
          }),
      ),
    );
    await expect(downloadPdf('/api/file/abc.pdf', 'abc')).resolves.toBe('orig.pdf');
  });

  it('throws "Download failed: {status text}" when a download fails', async () => {
    server.use(
      http.get(
        '*/api/file/:id.pdf',
        () => new HttpResponse(null, { status: 500, statusText: 'Internal Server Error' }),
      ),
    );
    await expect(downloadPdf('/api/file/abc.pdf', 'abc')).rejects.toThrow(
      'Download failed: Internal Server Error',
    );
  });
});
