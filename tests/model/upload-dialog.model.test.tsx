// Model-based test of the upload dialogs (spec §2 "/files/", §4 "Upload dialog", §5, §8): every
// shortest path of the upload-dialog machine's graph, over both variants, is walked through the
// real screen (the admin's files list for service_center, the congregation dashboard for
// study_helper) on MSW. The `uploadFile` and `followProcessing` actors' results are MSW answers
// given when the path says; after each step the screen must show what the spec says for the
// dialog's state: the spec's rules and texts are written below (never taken from the machine or
// the screens). Uploads are resumable (tus at /api/uploads/resumable): every path starts with an
// unfinished upload of scan.pdf remembered in localStorage, as a reload leaves it, so the lookup
// for it is a HEAD the path answers. Photos of pages (ADD_PHOTOS, the camera) go in one multipart
// call of the variant, whose answer the path gives. UPLOAD_PROGRESS and UPLOAD_RETRYING are left out here: they
// come from the browser's XMLHttpRequest upload events and dropped connections, which happy-dom
// does not make (the machine test and the browser journeys cover them).
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { getShortestPaths } from '@xstate/graph';
import type { SnapshotFrom } from 'xstate';
import { uploadDialogMachine } from '../../machines/upload-dialog/upload-dialog.machine';
import type {
  EarlierUpload,
  ProcessingReport,
  UploadDialogEvent,
  UploadDialogInput,
} from '../../machines/upload-dialog/upload-dialog.types';
import { uploadDialogActorResults, uploadDialogEventFixtures, uploadDialogModelInputs } from '../../machines/upload-dialog/__tests__/upload-dialog.fixtures';
import { modelEvents, unreachedStateIds } from '../../machines/__tests__/model-events';
import { renderApp, setupMockApi, type RenderAppResult } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { DEMO_CONGREGATION_ID } from '../../src/testing/mocks/handlers';
import { GatedApi } from '../web/support/gated-api';
import { toBrowserFile } from '../web/support/files';
import { chooseOption, dropdownText } from '../web/support/dropdown';

setupMockApi();

type Snapshot = SnapshotFrom<typeof uploadDialogMachine>;
type PathEvent = UploadDialogEvent | { type: `xstate.${string}`; output?: unknown; error?: unknown };

// ---- The spec, as written (§5 "Validation rules", §8 "Banner messages") ----
/** "Maximum upload size is 1.5 GB (1,500,000,000 bytes). A larger file is skipped and "File too Large" is shown." */
const MAX_UPLOAD_BYTES = 1_500_000_000;
const FILE_TOO_LARGE = 'File too Large';
/** "Answer sheet page length options for a file upload: 0 (QR code), 1 (single-page intro), 2 (two-page intro)." */
const PAGE_LENGTHS = [
  [0, 'QR code'],
  [1, 'Single-page intro'],
  [2, 'Two-page intro'],
] as const;
const pageLengthLabel = (length: number) => `${length} (${PAGE_LENGTHS.find(([value]) => value === length)?.[1]})`;
/** The contract's UploadedPages: "either one scanned PDF, or photos of pages (JPEG, PNG or HEIC/HEIF …; at most 50)". */
const isPhoto = (file: { type: string }) => ['image/jpeg', 'image/png', 'image/heic', 'image/heif'].includes(file.type);
const MAX_PHOTOS = 50;
/**
 * "Upload is disabled with no file selected or with a too-large file." "An intro-file upload
 * requires a chosen study helper; Upload is disabled without one." A PDF among photos, or more than
 * 50 photos, is refused before sending.
 */
function uploadEnabled(listed: readonly { size: number; type: string }[], intro: boolean, studyHelperChosen: boolean): boolean {
  const photos = listed.filter(isPhoto).length;
  const contract = photos === 0 || (photos === listed.length && photos <= MAX_PHOTOS);
  return listed.length > 0 && listed.every((file) => file.size <= MAX_UPLOAD_BYTES) && contract && (!intro || studyHelperChosen);
}
const PDF_WITH_PHOTOS = 'A PDF and photos cannot go in one upload: choose the PDF alone, or only photos.';
/** The path's refused photos are answered 400 VALIDATION_ERROR with the server's reason. */
const VALIDATION_BANNER = "Invalid file format or corrupted file. Please ensure you're uploading a valid PDF file.";
const PHOTO_REFUSAL = 'Photo 2 is too small to read.';
const photosText = (count: number) => (count === 1 ? '1 photo' : `${count} photos`);
const SUCCESS_BANNER = 'Operation successful.';
/** The path's failed upload is answered 409 DUPLICATE_FILE. */
const DUPLICATE_FILE_BANNER = 'This file has already been uploaded. Please upload a different file.';

const STUDY_HELPER = { id: 'sh-1', name: 'Sister Ada Mensah' };
const CREATED_ID = 'file-1';
/** The unfinished upload a reload left: half of scan.pdf (2,048 bytes) sent. */
const EARLIER_ID = 'e'.repeat(32);
const EARLIER_OFFSET = 1_024;
const NEW_ID = 'a'.repeat(32);
const RESUMABLE = '/api/uploads/resumable';

/**
 * What tus-js-client keeps in localStorage for an unfinished upload: found again by the file's
 * identity (name, type, size, modified time), the kind of upload and the portal's address.
 */
function rememberEarlierUpload(variant: UploadDialogInput['variant']) {
  localStorage.clear();
  const file = uploadDialogEventFixtures.CHOOSE_FILES.files[0]!;
  const fingerprint = ['portal-upload', variant, file.name, file.type, file.size, file.lastModified, `${location.origin}${RESUMABLE}`].join('/');
  localStorage.setItem(`tus::${fingerprint}::1`, JSON.stringify({ size: file.size, metadata: {}, creationTime: '2026-11-27T10:00:00Z', uploadUrl: `${location.origin}${RESUMABLE}/${EARLIER_ID}` }));
}

/** The tus metadata of a creation request, decoded. */
function metadataOf(request: Request): Record<string, string> {
  return Object.fromEntries(
    (request.headers.get('upload-metadata') ?? '').split(',').map((pair) => {
      const [key, value = ''] = pair.split(' ');
      return [key, atob(value)];
    }),
  );
}

let earlierAnswered = false;
const created: Request[] = [];
const cancelled: string[] = [];

let gates = new GatedApi();
afterEach(() => gates.release());

function useApi(variant: UploadDialogInput['variant']) {
  gates = new GatedApi();
  earlierAnswered = false;
  created.length = 0;
  cancelled.length = 0;
  rememberEarlierUpload(variant);
  const earlierLookup = gates.resolver('earlier');
  server.use(
    // The lookup of the earlier upload waits for the path; later HEADs (a resume) say where it stands.
    http.head(`*${RESUMABLE}/:id`, (info) => {
      if (!earlierAnswered) return earlierLookup(info);
      const offset = info.params.id === EARLIER_ID ? EARLIER_OFFSET : 0;
      return new HttpResponse(null, { headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'upload-length': '2048' } });
    }),
    http.post(`*${RESUMABLE}`, ({ request }) => {
      created.push(request.clone());
      return new HttpResponse(null, { status: 201, headers: { 'tus-resumable': '1.0.0', location: `${RESUMABLE}/${NEW_ID}` } });
    }),
    http.delete(`*${RESUMABLE}/:id`, ({ params }) => {
      cancelled.push(String(params.id));
      return new HttpResponse(null, { status: 204, headers: { 'tus-resumable': '1.0.0' } });
    }),
    gates.handler('patch', `*${RESUMABLE}/:id`, 'upload'),
    // Photos go in the variant's multipart call itself.
    gates.handler('post', '*/api/file', 'photos'),
    gates.handler('post', '*/api/study-helpers/file', 'photos'),
    // The congregation's study helpers (the picker asks GET /api/study-helpers?congregation=…).
    http.get('*/api/study-helpers', ({ request }) => {
      const ofCongregation = new URL(request.url).searchParams.get('congregation') === DEMO_CONGREGATION_ID;
      return HttpResponse.json({
        items: ofCongregation ? [{ ...STUDY_HELPER, email: 'ada@example.org', student_count: 3, created_at: '2024-01-01T00:00:00Z' }] : [],
        total: ofCongregation ? 1 : 0,
        skip: 0,
        limit: 100,
      });
    }),
    http.get(`*/api/study-helpers/${STUDY_HELPER.id}`, () =>
      HttpResponse.json({ ...STUDY_HELPER, email: 'ada@example.org', student_count: 3, created_at: '2024-01-01T00:00:00Z' }),
    ),
    // Processing: the dialog asks until the file (or upload) is done, then reads its stats.
    gates.handler('get', `*/api/file/${CREATED_ID}`, 'processing'),
    gates.handler('get', `*/api/uploads/${CREATED_ID}`, 'processing'),
    http.get(`*/api/file/${CREATED_ID}/stats`, () => HttpResponse.json(statsWith(problems))),
  );
  void variant;
}

/** Problems the processing answer reports (set when the path's report arrives). */
let problems = 0;

const statsWith = (flagged: number) => ({
  pages: 4, sheets: 2, unrecognized: flagged, mismatched: 0, ignored: 0, unassigned: 0, duplicates: 0, missing_student: 0, missing_lesson: 0,
  flagged,
  reasons: { no_code_found: flagged, unreadable: 0, unknown_code: 0, out_of_order: 0, stray_page: 0, another_course: 0, duplicate_sheet: 0, blank_back: 0, ambiguous_position: 0, page_missing: 0, scanned_twice: 0, already_uploaded: 0, too_complex: 0 },
});

function processed(variant: UploadDialogInput['variant'], flagged: number): Response {
  if (variant === 'service_center') return HttpResponse.json({ id: CREATED_ID, name: 'scan.pdf', process_status: 'success' });
  return HttpResponse.json({
    id: CREATED_ID,
    name: 'scan.pdf',
    created_at: '2024-01-01T00:00:00Z',
    process_status: 'success',
    is_intro: false,
    failure_reason: null,
    summary: { pages_read: 4, matched: 4 - flagged, not_matched: flagged, blank_dropped: 0 },
    pages: [],
  });
}

const dialog = () => screen.queryByRole('dialog');
const inDialog = () => within(screen.getByRole('dialog'));

/** The MSW answer that stands for an actor result. */
function answerFor(variant: UploadDialogInput['variant'], next: PathEvent): Response | null {
  if (next?.type === 'xstate.done.actor.uploadFile') {
    // The last byte: the server names what the upload became.
    return new HttpResponse(null, { status: 204, headers: { 'tus-resumable': '1.0.0', 'upload-offset': '2048', 'upload-result-id': CREATED_ID } });
  }
  if (next?.type === 'xstate.done.actor.findEarlierUpload') {
    const earlier = next.output as EarlierUpload | null;
    // Gone on the server (404), or half sent.
    return earlier === null
      ? new HttpResponse(null, { status: 404 })
      : new HttpResponse(null, { headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(earlier.offset), 'upload-length': String(earlier.size) } });
  }
  if (next?.type === 'xstate.done.actor.followProcessing') {
    problems = (next.output as ProcessingReport).problems;
    return processed(variant, problems);
  }
  if (next?.type === 'xstate.done.actor.uploadPhotos') {
    return variant === 'service_center'
      ? HttpResponse.json({ id: CREATED_ID }, { status: 201 })
      : HttpResponse.json({ status: 'success', id: CREATED_ID }, { status: 201 });
  }
  if (next?.type === 'xstate.error.actor.uploadPhotos') {
    return HttpResponse.json({ detail: { error_type: 'VALIDATION_ERROR', message: PHOTO_REFUSAL } }, { status: 400 });
  }
  if (next?.type === 'xstate.error.actor.uploadFile') {
    return HttpResponse.json({ detail: { error_type: 'DUPLICATE_FILE', message: 'Already uploaded' } }, { status: 409 });
  }
  return null;
}

/** Does through the screen what the event asks. */
async function perform(event: PathEvent, variant: UploadDialogInput['variant']) {
  switch (event.type) {
    case 'OPEN':
      fireEvent.click(await screen.findByRole('button', { name: 'Upload' }));
      await screen.findByRole('dialog');
      return;
    case 'ANSWER_INTRO':
      fireEvent.click(inDialog().getByRole('button', { name: event.isIntro ? 'Yes' : 'No' }));
      return;
    case 'SELECT_STUDY_HELPER':
      await chooseOption(inDialog().getByLabelText('Study Helper'), STUDY_HELPER.name);
      return;
    case 'SET_PAGE_LENGTH':
      fireEvent.click(inDialog().getByLabelText(pageLengthLabel(event.pageLength)));
      return;
    case 'CHOOSE_FILES':
      fireEvent.change(inDialog().getByLabelText('Files to upload'), {
        target: { files: event.files.flatMap((file) => (file ? [toBrowserFile(file)] : [])) },
      });
      return;
    case 'DROP_FILES':
      fireEvent.drop(inDialog().getByTestId('file-drop-zone'), {
        dataTransfer: { files: event.files.flatMap((file) => (file ? [toBrowserFile(file)] : [])) },
      });
      return;
    case 'ADD_PHOTOS':
      fireEvent.change(inDialog().getByLabelText('Photos from the camera'), {
        target: { files: event.files.flatMap((file) => (file ? [toBrowserFile(file)] : [])) },
      });
      return;
    case 'REMOVE_PHOTO':
      fireEvent.click(inDialog().getByRole('button', { name: `Remove photo ${event.index + 1}` }));
      return;
    case 'REMOVE_FILE':
      fireEvent.click(inDialog().getByRole('button', { name: `Remove ${event.name}` }));
      return;
    case 'TRY_AGAIN':
      fireEvent.click(inDialog().getByRole('button', { name: 'Try again' }));
      return;
    case 'CLEAR_FILES':
      fireEvent.click(inDialog().getByRole('button', { name: 'Clear' }));
      return;
    case 'UPLOAD': {
      const photos = inDialog().queryAllByRole('button', { name: /^Remove photo / }).length > 0;
      fireEvent.click(inDialog().getByRole('button', { name: 'Upload' }));
      await waitFor(() => expect(gates.pending(photos ? 'photos' : 'earlier')).toBe(1));
      return;
    }
    case 'xstate.done.actor.uploadPhotos':
    case 'xstate.error.actor.uploadPhotos':
      await gates.answer('photos', answerFor(variant, event) as Response);
      return;
    case 'xstate.done.actor.findEarlierUpload':
      await gates.answer('earlier', answerFor(variant, event) as Response);
      earlierAnswered = true;
      if (event.output === null) await waitFor(() => expect(gates.pending('upload')).toBe(1));
      return;
    case 'CONTINUE_EARLIER':
    case 'START_OVER':
      fireEvent.click(inDialog().getByRole('button', { name: event.type === 'START_OVER' ? 'Start over' : 'Continue' }));
      await waitFor(() => expect(gates.pending('upload')).toBe(1));
      return;
    case 'PAUSE':
      fireEvent.click(inDialog().getByRole('button', { name: 'Pause' }));
      // The PATCH in flight is aborted by the browser: nobody reads its answer.
      await gates.answer('upload', new Response(null, { status: 503 }));
      return;
    case 'RESUME':
      fireEvent.click(inDialog().getByRole('button', { name: 'Resume' }));
      await waitFor(() => expect(gates.pending('upload')).toBe(1));
      return;
    case 'xstate.done.actor.uploadFile':
    case 'xstate.error.actor.uploadFile':
      await gates.answer('upload', answerFor(variant, event) as Response);
      return;
    case 'xstate.done.actor.followProcessing':
      await gates.answer('processing', answerFor(variant, event) as Response);
      return;
    case 'CANCEL':
      fireEvent.click(inDialog().getByRole('button', { name: 'Cancel' }));
      return;
    case 'CLOSE':
      fireEvent.click(inDialog().getByRole('button', { name: 'Close' }));
      return;
    default:
      // xstate.init: the screen as rendered.
      return;
  }
}

async function expectScreen(state: Snapshot, app: RenderAppResult) {
  const { context } = state;
  if (state.matches('closed')) {
    expect(await screen.findByRole('button', { name: 'Upload' })).toBeTruthy();
    await waitFor(() => expect(dialog()).toBeNull());
    return;
  }
  void app;
  await screen.findByRole('dialog');
  if (state.matches({ open: 'askingIntro' })) {
    expect(inDialog().getByText('Is this an intro file?')).toBeTruthy();
    expect(inDialog().getByRole('button', { name: 'Yes' })).toBeTruthy();
    expect(inDialog().getByRole('button', { name: 'No' })).toBeTruthy();
    expect(inDialog().queryByLabelText('Files to upload')).toBeNull();
    return;
  }
  if (state.matches({ open: 'choosing' })) {
    const photos = context.files.filter(isPhoto);
    await waitFor(() => {
      const listed = inDialog()
        .queryAllByRole('listitem')
        .flatMap((item) => (item.querySelector('.upload-file-name') ? [item.querySelector('.upload-file-name')?.textContent] : []));
      expect(listed).toEqual([...context.files.filter((file) => !isPhoto(file)), ...context.tooLargeFiles].map((file) => file.name));
    });
    // Photos show as thumbnails in the order they will be sent, each removable.
    expect(inDialog().queryAllByRole('img', { name: /^Photo \d+: / }).map((img) => img.getAttribute('aria-label') ?? img.getAttribute('alt'))).toEqual(
      photos.map((photo, index) => `Photo ${index + 1}: ${photo.name}`),
    );
    expect(inDialog().queryAllByRole('button', { name: /^Remove photo / })).toHaveLength(photos.length);
    const mixed = photos.length > 0 && photos.length < context.files.length;
    expect(inDialog().queryByText(PDF_WITH_PHOTOS) !== null).toBe(mixed);
    const listed = [...context.files, ...context.tooLargeFiles];
    expect(inDialog().queryAllByText(FILE_TOO_LARGE)).toHaveLength(listed.filter((file) => file.size > MAX_UPLOAD_BYTES).length);
    const upload = inDialog().getByRole('button', { name: 'Upload' }) as HTMLButtonElement;
    const intro = context.variant === 'study_helper' && context.isIntro === true;
    expect(upload.disabled).toBe(!uploadEnabled(listed, intro, context.studyHelperId !== null));
    if (context.variant === 'service_center') {
      for (const [length] of PAGE_LENGTHS) {
        const radio = inDialog().getByLabelText(pageLengthLabel(length)) as HTMLInputElement;
        expect(radio.checked).toBe(length === context.answerSheetPageLength);
      }
      expect(inDialog().queryByLabelText('Study Helper')).toBeNull();
    } else {
      expect(inDialog().getByText(context.isIntro ? 'Intro file' : 'Graded answer sheets')).toBeTruthy();
      expect(inDialog().queryAllByRole('radio')).toHaveLength(0);
      if (context.isIntro) {
        expect(inDialog().getByLabelText('Study Helper')).toBeTruthy();
        const shown = () => dropdownText(inDialog().getByLabelText('Study Helper'));
        await waitFor(() => expect(shown()).toBe(context.studyHelperId ? STUDY_HELPER.name : 'Choose a study helper'));
      } else {
        expect(inDialog().queryByLabelText('Study Helper')).toBeNull();
      }
    }
    return;
  }
  if (state.matches({ open: { uploading: 'lookingForEarlier' } })) {
    expect(await inDialog().findByText(`Looking for an earlier upload of ${context.files[context.currentIndex]?.name}…`)).toBeTruthy();
    return;
  }
  if (state.matches({ open: { uploading: 'offeringToContinue' } })) {
    // "After a reload the dialog offers to continue an unfinished upload of the same file."
    expect(await inDialog().findByText(/^An earlier upload of scan\.pdf stopped at 50% .*Continue it, or start over\?$/)).toBeTruthy();
    expect(inDialog().getByRole('button', { name: 'Continue' })).toBeTruthy();
    expect(inDialog().getByRole('button', { name: 'Start over' })).toBeTruthy();
    return;
  }
  if (state.matches({ open: { uploading: 'paused' } })) {
    const file = context.files[context.currentIndex];
    expect(await inDialog().findByText(`Paused ${file?.name} (${context.currentIndex + 1} of ${context.files.length})`)).toBeTruthy();
    expect(inDialog().getByRole('button', { name: 'Resume' })).toBeTruthy();
    expect(inDialog().queryByRole('button', { name: 'Pause' })).toBeNull();
    return;
  }
  if (state.matches({ open: { uploading: 'sending' } })) {
    const file = context.files[context.currentIndex];
    expect(await inDialog().findByRole('status', { name: 'Uploading' })).toBeTruthy();
    expect(inDialog().getByText(`Uploading ${file?.name} (${context.currentIndex + 1} of ${context.files.length})…`)).toBeTruthy();
    expect((inDialog().getByRole('button', { name: /^Upload/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(inDialog().getByRole('button', { name: 'Pause' })).toBeTruthy();
    const patch = gates.received.get('upload')?.at(-1) as Request;
    if (created.length === 0) {
      // Continuing the earlier upload: from where it stopped, with no new upload made.
      expect(patch.url).toMatch(new RegExp(`${EARLIER_ID}$`));
      expect(patch.headers.get('upload-offset')).toBe(String(EARLIER_OFFSET));
      return;
    }
    // A new upload carries what spec §7 lists for the variant's multipart call.
    expect(patch.url).toMatch(new RegExp(`${NEW_ID}$`));
    const fields = metadataOf(created.at(-1)!);
    expect(fields.name).toBe(file?.name);
    expect(fields.filename).toBe(file?.name);
    if (context.variant === 'service_center') {
      expect(fields.kind).toBe('service_center');
      expect(fields.answer_sheet_page_length).toBe(String(context.answerSheetPageLength));
      expect(fields.scanned_at).toBe(new Date(file?.lastModified ?? 0).toISOString());
    } else {
      expect(fields.kind).toBe('graded');
      expect(fields.study_helper).toBe(context.isIntro ? (context.studyHelperId ?? undefined) : undefined);
    }
    return;
  }
  if (state.matches({ open: 'cancelled' }) && context.files.every(isPhoto)) {
    // A multipart call stopped midway stores nothing: there is nothing to drop on the server.
    expect(await inDialog().findByText(`Upload cancelled: nothing of the ${photosText(context.files.length)} was stored.`)).toBeTruthy();
    expect(inDialog().getByRole('button', { name: 'Done' })).toBeTruthy();
    return;
  }
  if (state.matches({ open: { uploading: 'sendingPhotos' } })) {
    expect(await inDialog().findByRole('status', { name: 'Uploading' })).toBeTruthy();
    expect(inDialog().getByText(`Uploading ${photosText(context.files.length)}…`)).toBeTruthy();
    expect((inDialog().getByRole('button', { name: /^Upload/ }) as HTMLButtonElement).disabled).toBe(true);
    // A multipart call cannot continue later: no pause.
    expect(inDialog().queryByRole('button', { name: 'Pause' })).toBeNull();
    // One call of the variant (spec §7) with every photo as a `file` part, in order.
    const request = gates.received.get('photos')?.at(-1) as Request;
    expect(new URL(request.url).pathname).toBe(context.variant === 'service_center' ? '/api/file' : '/api/study-helpers/file');
    const form = await request.clone().formData();
    const parts = form.getAll('file').map((part) => (part as File).name + ':' + (part as File).size);
    expect(parts).toEqual(context.files.map((file) => `${file.name}:${file.size}`));
    if (context.variant === 'service_center') {
      expect(form.get('answer_sheet_page_length')).toBe(String(context.answerSheetPageLength));
      expect(form.get('scanned_at')).toBe(new Date(Math.min(...context.files.map((file) => file.lastModified))).toISOString());
    } else {
      expect(form.get('study_helper')).toBe(context.isIntro ? context.studyHelperId : null);
    }
    return;
  }
  if (state.matches({ open: 'cancelled' })) {
    // Cancelling during an upload says so, and the server is told to drop what it kept.
    expect(await inDialog().findByText('Upload cancelled: nothing of scan.pdf was stored.')).toBeTruthy();
    expect(inDialog().getByRole('button', { name: 'Done' })).toBeTruthy();
    await waitFor(() => expect(cancelled.length).toBeGreaterThan(0));
    return;
  }
  if (state.matches({ open: 'processing' })) {
    expect(await inDialog().findByRole('status', { name: 'Processing' })).toBeTruthy();
    expect(inDialog().getByText('Uploaded. Reading the pages…')).toBeTruthy();
    expect(inDialog().getByRole('button', { name: 'Continue in background' })).toBeTruthy();
    return;
  }
  if (state.matches({ open: 'success' })) {
    // Success only when every page went through, with the counts.
    expect(await inDialog().findByText(/^Upload complete: every page went through\. 4 pages read/)).toBeTruthy();
    expect(inDialog().queryByText(/not everything went through/)).toBeNull();
    expect(await screen.findByText(SUCCESS_BANNER)).toBeTruthy();
    return;
  }
  if (state.matches({ open: 'warning' })) {
    // A warning, never "success", with the counts and the next step.
    const counts = context.variant === 'service_center' ? /4 pages read, 2 answer sheets, 2 pages to review/ : /4 pages read, 2 matched, 2 not matched/;
    expect(await inDialog().findByText(new RegExp(`^Uploaded, but not everything went through\\. ${counts.source}`))).toBeTruthy();
    expect(inDialog().getByText(context.variant === 'service_center' ? 'Open the file and mend the flagged pages in Review.' : 'Open the upload to see each page not matched and why.')).toBeTruthy();
    expect(screen.queryByText(SUCCESS_BANNER)).toBeNull();
    return;
  }
  if (state.matches({ open: 'failed' }) && context.files.every(isPhoto)) {
    // Refused photos: the banner of spec §8, and the server's reason for them.
    expect(await inDialog().findByText(`${photosText(context.files.length)}: ${PHOTO_REFUSAL}`)).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText(VALIDATION_BANNER).length).toBe(2));
    return;
  }
  if (state.matches({ open: 'failed' })) {
    const message = DUPLICATE_FILE_BANNER;
    expect(await inDialog().findByText(message)).toBeTruthy();
    // The app's result banner says the same (spec §8).
    await waitFor(() => expect(screen.getAllByText(message).length).toBe(2));
    return;
  }
  throw new Error(`no screen check for ${JSON.stringify(state.value)}`);
}

function describePath(steps: readonly { event: PathEvent }[]): string {
  return steps.map((step) => step.event.type.replace(/^xstate\./, '')).join(' → ');
}

for (const input of uploadDialogModelInputs) {
  const paths = getShortestPaths(uploadDialogMachine, {
    input,
    events: modelEvents(
      Object.values(uploadDialogEventFixtures).filter((event) => event.type !== 'UPLOAD_PROGRESS' && event.type !== 'UPLOAD_RETRYING'),
      uploadDialogActorResults,
    ),
  });

  describe(`upload dialog (${input.variant}) through the screen`, () => {
    it('has paths to walk', () => {
      expect(paths.length).toBeGreaterThan(5);
    });

    it('walks, with the other variant, through every state of the machine', () => {
      const other = getShortestPaths(uploadDialogMachine, {
        input: uploadDialogModelInputs.find((candidate) => candidate !== input)!,
        events: modelEvents(Object.values(uploadDialogEventFixtures), uploadDialogActorResults),
      });
      expect(unreachedStateIds(uploadDialogMachine, [...paths, ...other].map((path) => path.state))).toEqual([]);
    });

    it.each(paths.map((path) => [describePath(path.steps as { event: PathEvent }[]), path] as const))('%s', async (_, path) => {
      useApi(input.variant);
      const app =
        input.variant === 'service_center'
          ? renderApp('/files', { as: 'admin' })
          : renderApp('/', { as: 'coordinator' });
      const steps = path.steps as unknown as { event: PathEvent; state: Snapshot }[];
      for (const step of steps) {
        await perform(step.event, input.variant);
        await expectScreen(step.state, app);
      }
    });
  });
}
