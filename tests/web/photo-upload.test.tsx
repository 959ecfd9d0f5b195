// @vitest-environment happy-dom
// Photos of pages in the upload dialogs (issue 35; the contract's UploadedPages): one PDF or 1 to
// 50 photos (JPEG, PNG, HEIC/HEIF), sent together in one multipart call with the field `file`
// repeated in the order shown; thumbnails (a placeholder named for a HEIC the browser cannot draw)
// each with "Remove photo N", the count and total size; refusals in words before anything is sent.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { pdfFile, photoFile } from './support/files';

setupMockApi();
afterEach(() => vi.restoreAllMocks());

const dialog = () => within(screen.getByRole('dialog', { name: 'Upload' }));
const uploadButton = () => dialog().getByRole('button', { name: 'Upload' }) as HTMLButtonElement;
const choose = (...files: File[]) => fireEvent.change(dialog().getByLabelText('Files to upload'), { target: { files } });
const takePhotos = (...files: File[]) => fireEvent.change(dialog().getByLabelText('Photos from the camera'), { target: { files } });
const thumbnails = () => within(dialog().getByRole('region', { name: 'Photos to upload' })).getAllByRole('listitem');

/** One multipart call as the server received it: its fields, and each `file` part in order. */
interface Received {
  fields: Record<string, string>;
  files: { name: string; size: number; type: string }[];
}

async function receive(request: Request): Promise<Received> {
  const form = await request.formData();
  const fields: Record<string, string> = {};
  const files: Received['files'] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else if (name === 'file') files.push({ name: value.name, size: value.size, type: value.type });
  }
  return { fields, files };
}

/** The graded-upload server: POST /api/study-helpers/file answers `answer`, and the report of the upload. */
function gradedApi(answer: (received: Received) => Response = () => HttpResponse.json({ status: 'success', id: 'u9' }, { status: 201 })) {
  const received: Received[] = [];
  server.use(
    http.post('*/api/study-helpers/file', async ({ request }) => {
      const call = await receive(request);
      received.push(call);
      return answer(call);
    }),
    http.get('*/api/uploads/u9', () =>
      HttpResponse.json({
        id: 'u9', name: 'photos', created_at: '2026-11-27T10:00:00Z', process_status: 'success', is_intro: false, failure_reason: null,
        summary: { pages_read: 2, matched: 2, not_matched: 0, blank_dropped: 0 }, pages: [],
      }),
    ),
  );
  return received;
}

async function openGraded() {
  renderApp('/', { as: 'coordinator' });
  fireEvent.click(await screen.findByRole('button', { name: 'Upload' }));
  await screen.findByRole('dialog', { name: 'Upload' });
  fireEvent.click(dialog().getByRole('button', { name: 'No' }));
}

describe('photos in the graded upload dialog', () => {
  it('offers PDFs and photos in the picker, and photos from the camera', async () => {
    gradedApi();
    await openGraded();
    const picker = dialog().getByLabelText('Files to upload') as HTMLInputElement;
    expect(picker.accept).toBe('application/pdf,image/*,.heic,.heif');
    expect(picker.multiple).toBe(true);
    const camera = dialog().getByLabelText('Photos from the camera') as HTMLInputElement;
    expect(camera.accept).toBe('image/*');
    expect(camera.getAttribute('capture')).toBe('environment');
    expect(dialog().getByText('PDF scans, or up to 50 photos of pages (JPEG, PNG, HEIC), one page each.')).toBeTruthy();
  });

  it('shows thumbnails in order, removes one, and sends the rest in one request, in order', async () => {
    const received = gradedApi();
    await openGraded();
    // A phone's camera names every photo alike.
    choose(photoFile('image.jpg', 3_000, 1_700_000_100_000), photoFile('image.jpg', 4_000, 1_700_000_160_000));
    takePhotos(photoFile('IMG_0003.HEIC', 5_000, 1_700_000_220_000, 'image/heic'));
    expect(thumbnails()).toHaveLength(3);
    expect(dialog().getByText('3 photos, 12.0 kB in all, sent in this order, one page each')).toBeTruthy();
    expect(dialog().getByRole('img', { name: 'Photo 1: image.jpg' })).toBeTruthy();
    expect(dialog().getByRole('img', { name: 'Photo 2: image.jpg' })).toBeTruthy();
    expect(dialog().getByRole('img', { name: 'Photo 3: IMG_0003.HEIC' })).toBeTruthy();
    expect(dialog().queryByText('No file selected')).toBeNull();

    fireEvent.click(dialog().getByRole('button', { name: 'Remove photo 1' }));
    expect(thumbnails()).toHaveLength(2);
    expect(dialog().getByText('2 photos, 9.0 kB in all, sent in this order, one page each')).toBeTruthy();
    expect(dialog().queryByRole('button', { name: 'Remove photo 3' })).toBeNull();

    fireEvent.click(uploadButton());
    expect(await dialog().findByText('Upload complete: every page went through. 2 pages read, 2 matched, 0 not matched, 0 blank backs dropped.')).toBeTruthy();
    expect(received).toHaveLength(1);
    expect(received[0]!.files).toEqual([
      { name: 'image.jpg', size: 4_000, type: 'image/jpeg' },
      { name: 'IMG_0003.HEIC', size: 5_000, type: 'image/heic' },
    ]);
    // Named for what they are (phones call every photo image.jpg); no study helper for graded work.
    expect(received[0]!.fields.name).toMatch(/^2 photos, /);
    expect(received[0]!.fields).not.toHaveProperty('study_helper');
    expect(dialog().getByRole('link', { name: 'Open the upload report' }).getAttribute('href')).toBe('/files/uploads/u9');
  });

  it('shows a named placeholder for a photo the browser cannot draw', async () => {
    gradedApi();
    await openGraded();
    choose(photoFile('IMG_0001.HEIC', 5_000, 1, 'image/heic'));
    fireEvent.error(dialog().getByRole('img', { name: 'Photo 1: IMG_0001.HEIC' }));
    expect(dialog().getByRole('img', { name: 'Photo 1: IMG_0001.HEIC (no preview)' })).toBeTruthy();
    expect(dialog().getByText('HEIC photo')).toBeTruthy();
  });

  it('lets go of each preview when its photo is removed or the dialog closes', async () => {
    gradedApi();
    const created: string[] = [];
    const revoked: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
      created.push(`blob:photo-${created.length + 1}`);
      return created.at(-1)!;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url));
    await openGraded();
    choose(photoFile('a.jpg', 1_000, 1), photoFile('b.jpg', 1_000, 2), photoFile('c.jpg', 1_000, 3));
    await waitFor(() => expect(created).toHaveLength(3));
    const second = (dialog().getByRole('img', { name: 'Photo 2: b.jpg' }) as HTMLImageElement).getAttribute('src');
    fireEvent.click(dialog().getByRole('button', { name: 'Remove photo 2' }));
    await waitFor(() => expect(revoked).toEqual([second]));
    fireEvent.click(dialog().getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect([...revoked].sort()).toEqual([...created].sort());
  });

  it.each([
    ['a PDF among photos', () => [pdfFile('scan.pdf'), photoFile('a.jpg')], 'A PDF and photos cannot go in one upload: choose the PDF alone, or only photos.'],
    ['51 photos', () => Array.from({ length: 51 }, (_, i) => photoFile(`p${i + 1}.jpg`, 1_000, i)), /^At most 50 photos in one upload: 51 are chosen\. Remove 1, or send the rest in another upload\.$/],
    ['what is neither', () => [photoFile('a.jpg'), photoFile('clip.gif', 1_000, 1, 'image/gif')], 'clip.gif is neither a PDF nor a photo (JPEG, PNG or HEIC).'],
  ])('refuses %s in words, with Upload off, before sending', async (_, files, words) => {
    const received = gradedApi();
    await openGraded();
    choose(...files());
    expect(within(dialog().getByRole('alert')).getByText(words)).toBeTruthy();
    expect(uploadButton().disabled).toBe(true);
    fireEvent.click(uploadButton());
    expect(received).toEqual([]);
  });

  it('lets the 51st photo be removed, and then sends 50', async () => {
    const received = gradedApi();
    await openGraded();
    choose(...Array.from({ length: 51 }, (_, i) => photoFile(`p${i + 1}.jpg`, 1_000, i)));
    fireEvent.click(dialog().getByRole('button', { name: 'Remove photo 51' }));
    expect(dialog().queryByRole('alert')).toBeNull();
    fireEvent.click(uploadButton());
    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]!.files.map((file) => file.name)).toEqual(Array.from({ length: 50 }, (_, i) => `p${i + 1}.jpg`));
  });

  it('sends the photos again after a dropped connection, saying so', async () => {
    let calls = 0;
    const received = gradedApi(() => {
      calls += 1;
      return calls === 1 ? HttpResponse.error() : HttpResponse.json({ status: 'success', id: 'u9' }, { status: 201 });
    });
    await openGraded();
    choose(photoFile('a.jpg'), photoFile('b.jpg', 3_000, 2));
    fireEvent.click(uploadButton());
    expect(await dialog().findByText(/^Connection lost, retrying (in \d s|now)…$/)).toBeTruthy();
    expect(await dialog().findByText(/^Upload complete: every page went through\./, {}, { timeout: 5_000 })).toBeTruthy();
    expect(received.map((call) => call.files.map((file) => file.name))).toEqual([['a.jpg', 'b.jpg'], ['a.jpg', 'b.jpg']]);
  });

  it('shows the server\'s reason when it refuses the photos', async () => {
    const received = gradedApi(() => HttpResponse.json({ detail: { error_type: 'VALIDATION_ERROR', message: 'Photo 2 is too small to read (under 600 pixels on its shorter side).' } }, { status: 400 }));
    await openGraded();
    choose(photoFile('a.jpg'), photoFile('b.jpg', 100, 2));
    fireEvent.click(uploadButton());
    expect(await dialog().findByText('2 photos: Photo 2 is too small to read (under 600 pixels on its shorter side).')).toBeTruthy();
    expect(screen.getAllByText("Invalid file format or corrupted file. Please ensure you're uploading a valid PDF file.").length).toBeGreaterThan(0);
    // The photos are still there: the one refused is removed and the rest sent again.
    fireEvent.click(dialog().getByRole('button', { name: 'Try again' }));
    expect(thumbnails()).toHaveLength(2);
    fireEvent.click(dialog().getByRole('button', { name: 'Remove photo 2' }));
    fireEvent.click(uploadButton());
    await waitFor(() => expect(received).toHaveLength(2));
    expect(received[1]!.files.map((file) => file.name)).toEqual(['a.jpg']);
  });
});

describe('photos in the service-center upload dialog', () => {
  it('sends the photos to POST /api/file with the page length and when the first was taken', async () => {
    const received: Received[] = [];
    server.use(
      http.post('*/api/file', async ({ request }) => {
        received.push(await receive(request));
        return HttpResponse.json({ id: 'f-photos' }, { status: 201 });
      }),
    );
    renderApp('/files', { as: 'admin' });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload' }));
    await screen.findByRole('dialog', { name: 'Upload' });
    fireEvent.click(dialog().getByLabelText('1 (Single-page intro)'));
    choose(photoFile('p1.png', 2_000, 1_700_000_000_000, 'image/png'), photoFile('p2.jpg', 2_500, 1_700_000_060_000));
    fireEvent.click(uploadButton());
    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]!.files.map((file) => file.name)).toEqual(['p1.png', 'p2.jpg']);
    expect(received[0]!.fields).toMatchObject({ answer_sheet_page_length: '1', scanned_at: '2023-11-14T22:13:20.000Z' });
    expect(received[0]!.fields.name).toMatch(/^2 photos, /);
  });
});
