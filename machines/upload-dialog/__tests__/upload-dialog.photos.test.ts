// Photos of pages in the upload dialog (issue 35, the contract's UploadedPages): one PDF, or 1 to
// 50 photos (JPEG, PNG, HEIC/HEIF) and nothing else, at most 1.5 GB in all; the photos go in one
// request, in the order chosen, the camera's adding to those already there.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { MAX_PHOTOS_PER_UPLOAD, MAX_UPLOAD_BYTES } from '../../constants';
import { uploadDialogMachine } from '../upload-dialog.machine';
import { canUpload, isPhoto, selectionProblem, withoutPhoto } from '../upload-dialog.rules';
import type {
  EarlierUpload,
  FileLike,
  FollowProcessingInput,
  ProcessingReport,
  UploadDialogInput,
  UploadFileInput,
  UploadFileOutput,
  UploadPhotosInput,
  UploadTargetInput,
} from '../upload-dialog.types';

const photo = (name: string, size = 3_000, lastModified = 1, type = 'image/jpeg'): FileLike => ({ name, size, type, lastModified });
const pdf = (name: string): FileLike => ({ name, size: 1_000, type: 'application/pdf', lastModified: 1 });

function start(input: UploadDialogInput) {
  const sent: { input: UploadPhotosInput; signal: AbortSignal; resolve: (output: UploadFileOutput) => void; reject: (error: unknown) => void }[] = [];
  const tusUploads: UploadFileInput[] = [];
  const cancelled: string[] = [];
  const followed: FollowProcessingInput[] = [];
  const actor = createActor(
    uploadDialogMachine.provide({
      actors: {
        uploadPhotos: fromPromise<UploadFileOutput, UploadPhotosInput>(
          ({ input: photos, signal }) => new Promise((resolve, reject) => sent.push({ input: photos, signal, resolve, reject })),
        ),
        uploadFile: fromPromise<UploadFileOutput, UploadFileInput>(async ({ input: file }) => {
          tusUploads.push(file);
          return { id: 'pdf-1' };
        }),
        findEarlierUpload: fromPromise<EarlierUpload | null, UploadTargetInput>(async () => null),
        cancelUpload: fromPromise<void, UploadTargetInput>(async ({ input: target }) => {
          cancelled.push(target.file.name);
        }),
        followProcessing: fromPromise<ProcessingReport, FollowProcessingInput>(async ({ input: follow }) => {
          followed.push(follow);
          return { problems: 0, counts: [], nextStep: null, href: null };
        }),
      },
    }),
    { input },
  ).start();
  actor.send({ type: 'OPEN' });
  return { actor, sent, tusUploads, cancelled, followed, state: () => actor.getSnapshot() };
}

describe('what a photo is', () => {
  it.each([
    [photo('a.jpg'), true],
    [photo('a.png', 1, 1, 'image/png'), true],
    [photo('IMG_0001.HEIC', 1, 1, 'image/heic'), true],
    [photo('IMG_0001.HEIC', 1, 1, ''), true],
    [photo('IMG_0001.heif', 1, 1, 'application/octet-stream'), true],
    [photo('a.gif', 1, 1, 'image/gif'), false],
    [photo('a.webp', 1, 1, 'image/webp'), false],
    [pdf('a.pdf'), false],
  ])('%o → %s', (file, expected) => {
    expect(isPhoto(file)).toBe(expected);
  });
});

describe('selectionProblem: the contract checked before sending', () => {
  it('takes PDFs (one upload each) and 1 to 50 photos', () => {
    expect(selectionProblem([pdf('a.pdf'), pdf('b.pdf')])).toBeNull();
    expect(selectionProblem([photo('1.jpg')])).toBeNull();
    expect(selectionProblem(Array.from({ length: MAX_PHOTOS_PER_UPLOAD }, (_, i) => photo(`${i}.jpg`)))).toBeNull();
    expect(MAX_PHOTOS_PER_UPLOAD).toBe(50);
  });

  it('refuses a PDF among photos, a 51st photo, photos over 1.5 GB in all, and what is neither', () => {
    expect(selectionProblem([photo('1.jpg'), pdf('a.pdf')])).toEqual({ kind: 'pdf_with_photos' });
    expect(selectionProblem(Array.from({ length: 51 }, (_, i) => photo(`${i}.jpg`)))).toEqual({ kind: 'too_many_photos', count: 51, max: 50 });
    const half = Math.ceil(MAX_UPLOAD_BYTES / 2);
    expect(selectionProblem([photo('1.jpg', half), photo('2.jpg', half + 1)])).toEqual({ kind: 'photos_too_large', bytes: 2 * half + 1, max: MAX_UPLOAD_BYTES });
    expect(selectionProblem([photo('1.jpg'), photo('clip.gif', 1, 1, 'image/gif')])).toEqual({ kind: 'not_a_page', name: 'clip.gif' });
    expect(selectionProblem([{ name: 'notes.txt', size: 1, type: 'text/plain', lastModified: 1 }])).toEqual({ kind: 'not_a_page', name: 'notes.txt' });
  });

  it('removes the n-th photo, even when every photo has the same name', () => {
    const [a, b, c] = [photo('image.jpg', 1), photo('image.jpg', 2), photo('image.jpg', 3)] as const;
    expect(withoutPhoto([a, b, c], 1)).toEqual([a, c]);
    expect(withoutPhoto([a, b, c], 1)[1]).toBe(c);
  });
});

describe('uploadDialogMachine with photos', () => {
  it('sends every photo in one request, in order, with the progress of them all, then follows processing', async () => {
    const { actor, sent, tusUploads, followed, state } = start({ variant: 'study_helper' });
    actor.send({ type: 'ANSWER_INTRO', isIntro: false });
    const photos = [photo('image.jpg', 3_000, 1), photo('image.jpg', 4_000, 2), photo('page3.png', 5_000, 3, 'image/png')];
    actor.send({ type: 'CHOOSE_FILES', files: photos });
    expect(canUpload(state().context)).toBe(true);
    actor.send({ type: 'UPLOAD' });
    expect(state().value).toEqual({ open: { uploading: { sendingPhotos: 'transferring' } } });
    expect(sent).toHaveLength(1);
    const { onProgress, onRetry, ...input } = sent[0]!.input;
    expect(onRetry).toBeTypeOf('function');
    expect(input).toEqual({ variant: 'study_helper', photos, answerSheetPageLength: 0, isIntro: false, studyHelperId: null });
    expect(state().context.transfer.total).toBe(12_000);
    onProgress?.({ loaded: 6_000, total: 12_400, at: 10 });
    expect(state().context.transfer).toMatchObject({ loaded: 6_000, total: 12_400 });
    // A multipart request cannot continue: no pause.
    actor.send({ type: 'PAUSE' });
    expect(state().value).toEqual({ open: { uploading: { sendingPhotos: 'transferring' } } });
    sent[0]!.resolve({ id: 'u-7' });
    await waitFor(actor, (s) => s.matches({ open: 'success' }));
    expect(state().context.results).toEqual([{ status: 'success', fileName: '3 photos', id: 'u-7' }]);
    expect(followed).toEqual([{ variant: 'study_helper', ids: ['u-7'] }]);
    expect(tusUploads).toEqual([]);
  });

  it('sends an intro file\'s study helper and a service center\'s page length with the photos', async () => {
    const intro = start({ variant: 'study_helper' });
    intro.actor.send({ type: 'ANSWER_INTRO', isIntro: true });
    intro.actor.send({ type: 'ADD_PHOTOS', files: [photo('a.jpg')] });
    intro.actor.send({ type: 'UPLOAD' });
    expect(intro.sent).toHaveLength(0);
    intro.actor.send({ type: 'SELECT_STUDY_HELPER', studyHelperId: 'sh-1' });
    intro.actor.send({ type: 'UPLOAD' });
    expect(intro.sent[0]?.input).toMatchObject({ isIntro: true, studyHelperId: 'sh-1' });

    const center = start({ variant: 'service_center' });
    center.actor.send({ type: 'SET_PAGE_LENGTH', pageLength: 1 });
    center.actor.send({ type: 'ADD_PHOTOS', files: [photo('a.jpg')] });
    center.actor.send({ type: 'UPLOAD' });
    expect(center.sent[0]?.input).toMatchObject({ variant: 'service_center', answerSheetPageLength: 1, studyHelperId: null });
  });

  it('adds the camera\'s photos after those chosen, once each; choosing again starts afresh', () => {
    const { actor, state } = start({ variant: 'service_center' });
    const [a, b, c] = [photo('image.jpg', 1, 1), photo('image.jpg', 2, 2), photo('image.jpg', 3, 3)];
    actor.send({ type: 'CHOOSE_FILES', files: [a] });
    actor.send({ type: 'ADD_PHOTOS', files: [b] });
    actor.send({ type: 'ADD_PHOTOS', files: [c, b, undefined] });
    expect(state().context.files).toEqual([a, b, c]);
    actor.send({ type: 'REMOVE_PHOTO', index: 1 });
    expect(state().context.files).toEqual([a, c]);
    // No such photo: nothing changes.
    actor.send({ type: 'REMOVE_PHOTO', index: 5 });
    expect(state().context.files).toEqual([a, c]);
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('scan.pdf')] });
    expect(state().context.files).toEqual([pdf('scan.pdf')]);
  });

  it('keeps Upload off while the selection breaks the contract, and on once it is mended', () => {
    const { actor, state, sent } = start({ variant: 'service_center' });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('scan.pdf')] });
    actor.send({ type: 'ADD_PHOTOS', files: [photo('a.jpg')] });
    expect(selectionProblem(state().context.files)).toEqual({ kind: 'pdf_with_photos' });
    actor.send({ type: 'UPLOAD' });
    expect(state().value).toEqual({ open: 'choosing' });
    // "Remove photo 1" is the photo, not the PDF before it.
    actor.send({ type: 'REMOVE_PHOTO', index: 0 });
    expect(state().context.files).toEqual([pdf('scan.pdf')]);

    actor.send({ type: 'CHOOSE_FILES', files: Array.from({ length: 51 }, (_, i) => photo(`${i}.jpg`)) });
    actor.send({ type: 'UPLOAD' });
    expect(state().value).toEqual({ open: 'choosing' });
    actor.send({ type: 'REMOVE_PHOTO', index: 50 });
    actor.send({ type: 'UPLOAD' });
    expect(state().matches({ open: { uploading: 'sendingPhotos' } })).toBe(true);
    expect(sent[0]?.input.photos).toHaveLength(50);
  });

  it('ends failed with the server\'s reason when the photos are refused', async () => {
    const { actor, sent, state } = start({ variant: 'study_helper' });
    actor.send({ type: 'ANSWER_INTRO', isIntro: false });
    actor.send({ type: 'CHOOSE_FILES', files: [photo('a.jpg'), photo('b.jpg')] });
    actor.send({ type: 'UPLOAD' });
    sent[0]!.reject({ status: 400, body: { detail: { error_type: 'VALIDATION_ERROR', message: 'Photo 2 is too small to read.' } } });
    await waitFor(actor, (s) => s.matches({ open: 'failed' }));
    expect(state().context.errorType).toBe('VALIDATION_ERROR');
    expect(state().context.results).toEqual([
      { status: 'error', fileName: '2 photos', errorType: 'VALIDATION_ERROR', message: 'Photo 2 is too small to read.' },
    ]);
  });

  it('TRY_AGAIN after a refusal chooses the same photos again, to remove the one refused', async () => {
    const { actor, sent, state } = start({ variant: 'study_helper' });
    actor.send({ type: 'ANSWER_INTRO', isIntro: false });
    const photos = [photo('a.jpg'), photo('b.jpg', 100, 2)];
    actor.send({ type: 'CHOOSE_FILES', files: photos });
    actor.send({ type: 'UPLOAD' });
    sent[0]!.reject({ status: 400, body: { detail: { error_type: 'VALIDATION_ERROR', message: 'Photo 2 is too small to read.' } } });
    await waitFor(actor, (s) => s.matches({ open: 'failed' }));
    actor.send({ type: 'TRY_AGAIN' });
    expect(state().value).toEqual({ open: 'choosing' });
    expect(state().context).toMatchObject({ files: photos, results: [], errorType: null, currentIndex: 0, isIntro: false });
    actor.send({ type: 'REMOVE_PHOTO', index: 1 });
    actor.send({ type: 'UPLOAD' });
    expect(sent[1]?.input.photos).toEqual([photos[0]]);
  });

  it('TRY_AGAIN after PDFs keeps only those not uploaded', async () => {
    const uploaded = createActor(
      uploadDialogMachine.provide({
        actors: {
          uploadFile: fromPromise<UploadFileOutput, UploadFileInput>(async ({ input }) => {
            if (input.file.name === 'b.pdf') throw { status: 409 };
            return { id: `id-${input.file.name}` };
          }),
          findEarlierUpload: fromPromise<EarlierUpload | null, UploadTargetInput>(async () => null),
        },
      }),
      { input: { variant: 'service_center' } },
    ).start();
    uploaded.send({ type: 'OPEN' });
    uploaded.send({ type: 'CHOOSE_FILES', files: [pdf('a.pdf'), pdf('b.pdf'), pdf('c.pdf')] });
    uploaded.send({ type: 'UPLOAD' });
    await waitFor(uploaded, (s) => s.matches({ open: 'failed' }));
    uploaded.send({ type: 'TRY_AGAIN' });
    expect(uploaded.getSnapshot().context.files.map((file) => file.name)).toEqual(['b.pdf']);
  });

  it('waits to retry when the connection drops, counting the bytes again from the first', () => {
    const { actor, sent, state } = start({ variant: 'service_center' });
    actor.send({ type: 'CHOOSE_FILES', files: [photo('a.jpg', 5_000)] });
    actor.send({ type: 'UPLOAD' });
    const { onProgress, onRetry } = sent[0]!.input;
    onProgress?.({ loaded: 4_000, total: 5_200, at: 10 });
    onRetry?.({ delayMs: 3_000, at: 20 });
    expect(state().value).toEqual({ open: { uploading: { sendingPhotos: 'waitingToRetry' } } });
    expect(state().context.retry).toEqual({ delayMs: 3_000, at: 20 });
    expect(state().context.transfer).toMatchObject({ loaded: 0, startedAt: null });
    onProgress?.({ loaded: 1_000, total: 5_200, at: 3_100 });
    expect(state().value).toEqual({ open: { uploading: { sendingPhotos: 'transferring' } } });
    expect(state().context.retry).toBeNull();
  });

  it('CANCEL while sending aborts the request and says so', () => {
    const { actor, sent, state } = start({ variant: 'service_center' });
    actor.send({ type: 'CHOOSE_FILES', files: [photo('a.jpg')] });
    actor.send({ type: 'UPLOAD' });
    actor.send({ type: 'CANCEL' });
    expect(sent[0]?.signal.aborted).toBe(true);
    expect(state().value).toEqual({ open: 'cancelled' });
  });
});
