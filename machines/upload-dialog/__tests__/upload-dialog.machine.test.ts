import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { getShortestPaths } from '@xstate/graph';
import { modelEvents, unreachedStateIds } from '../../__tests__/model-events';
import { MAX_UPLOAD_BYTES } from '../../constants';
import { uploadDialogMachine } from '../upload-dialog.machine';
import {
  FILE_TOO_LARGE_LABEL,
  canUpload,
  classifyUploadError,
  fileProblem,
  isAcceptedType,
  parseAcceptedTypes,
  summarizeUploadResults,
  retrySecondsLeft,
  uploadPercent,
  uploadSecondsLeft,
} from '../upload-dialog.rules';
import type {
  FileLike,
  FollowProcessingInput,
  ProcessingReport,
  UploadDialogInput,
  UploadFileInput,
  UploadFileOutput,
  EarlierUpload,
  UploadTargetInput,
} from '../upload-dialog.types';
import { uploadDialogActorResults, uploadDialogEventFixtures, uploadDialogModelInputs } from './upload-dialog.fixtures';

const pdf = (name: string, size = 1_000): FileLike => ({ name, size, type: 'application/pdf', lastModified: 1 });
const text = (name: string): FileLike => ({ name, size: 10, type: 'text/plain', lastModified: 1 });

/** An uploadFile actor whose requests the test answers one by one. */
function controlledUploads() {
  const requests: { input: UploadFileInput; signal: AbortSignal; resolve: (o: UploadFileOutput) => void; reject: (e: unknown) => void }[] = [];
  const logic = fromPromise<UploadFileOutput, UploadFileInput>(
    ({ input, signal }) =>
      new Promise<UploadFileOutput>((resolve, reject) => {
        requests.push({ input, signal, resolve, reject });
      }),
  );
  return { logic, requests };
}

const ALL_MATCHED: ProcessingReport = { problems: 0, counts: [{ label: 'matched', count: 3 }], nextStep: null, href: null };

function start(input: UploadDialogInput, uploads = controlledUploads(), report: ProcessingReport = ALL_MATCHED) {
  const followed: FollowProcessingInput[] = [];
  const followProcessing = fromPromise<ProcessingReport, FollowProcessingInput>(async ({ input: follow }) => {
    followed.push(follow);
    return report;
  });
  // No unfinished upload of these files on the server (the offer to continue has tests of its own).
  const findEarlierUpload = fromPromise<EarlierUpload | null, UploadTargetInput>(async () => null);
  const cancelUpload = fromPromise<void, UploadTargetInput>(async ({ input: target }) => {
    cancelledUploads.push(target.file.name);
  });
  const cancelledUploads: string[] = [];
  const actor = createActor(
    uploadDialogMachine.provide({ actors: { uploadFile: uploads.logic, followProcessing, findEarlierUpload, cancelUpload } }),
    { input },
  ).start();
  return { actor, uploads, followed, cancelledUploads, state: () => actor.getSnapshot() };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('classifyUploadError', () => {
  it.each([
    [{ status: 409, body: { detail: { error_type: 'SAME_HASH' } } }, 'SAME_HASH'],
    [{ status: 409, body: { detail: 'duplicate' } }, 'DUPLICATE_FILE'],
    [{ status: 409 }, 'DUPLICATE_FILE'],
    [{ status: 400, body: { detail: { error_type: 'NOT_A_PDF' } } }, 'NOT_A_PDF'],
    [{ status: 400, body: { detail: { error_type: 42 } } }, 'VALIDATION_ERROR'],
    [{ status: 400, body: null }, 'VALIDATION_ERROR'],
    [{ status: 500 }, 'SERVER_ERROR'],
    [{ status: 503, body: { detail: { error_type: 'X' } } }, 'SERVER_ERROR'],
    [{ status: 599 }, 'SERVER_ERROR'],
    [{ status: 404 }, 'NETWORK_ERROR'],
    [{ status: 403 }, 'NETWORK_ERROR'],
    [{ status: 600 }, 'NETWORK_ERROR'],
    [new TypeError('Failed to fetch'), 'NETWORK_ERROR'],
    [undefined, 'NETWORK_ERROR'],
    ['offline', 'NETWORK_ERROR'],
  ])('%o → %s', (error, errorType) => {
    expect(classifyUploadError(error)).toBe(errorType);
  });
});

describe('pure helpers', () => {
  it('summarizeUploadResults', async () => {
    expect(summarizeUploadResults([])).toEqual({ status: 'error', errorType: 'NO_FILES_UPLOADED' });
    expect(
      summarizeUploadResults([
        { status: 'success', fileName: 'a', id: 'f-1' },
        { status: 'error', fileName: null, errorType: null, message: 'File is undefined' },
        { status: 'error', fileName: 'c', errorType: 'SERVER_ERROR', message: null },
      ]),
    ).toEqual({ status: 'error', errorType: 'UNKNOWN_ERROR' });
    expect(
      summarizeUploadResults([
        { status: 'success', fileName: 'a', id: 'f-1' },
        { status: 'success', fileName: 'b', id: null },
        { status: 'success', fileName: 'c', id: 'f-3' },
      ]),
    ).toEqual({ status: 'success', fileIds: ['f-1', 'f-3'] });
  });

  it('fileProblem: the per-file texts of spec §8 and the 1.5 GB limit', async () => {
    expect(fileProblem(undefined)).toBe('File is undefined');
    expect(fileProblem(null)).toBe('File is undefined');
    expect(fileProblem(pdf('big', MAX_UPLOAD_BYTES + 1))).toBe('File too large');
    expect(fileProblem(pdf('max', MAX_UPLOAD_BYTES))).toBeNull();
    expect(MAX_UPLOAD_BYTES).toBe(1_500_000_000);
    expect(FILE_TOO_LARGE_LABEL).toBe('File too Large');
  });

  it('isAcceptedType / parseAcceptedTypes', async () => {
    expect(parseAcceptedTypes(' application/pdf, .PDF ,')).toEqual(['application/pdf', '.PDF']);
    expect(parseAcceptedTypes(undefined)).toEqual([]);
    expect(isAcceptedType(pdf('a.pdf'), ['application/pdf'])).toBe(true);
    expect(isAcceptedType(text('a.txt'), ['application/pdf'])).toBe(false);
    expect(isAcceptedType({ ...text('SCAN.PDF'), type: '' }, ['.pdf'])).toBe(true);
    expect(isAcceptedType({ ...text('a.png'), type: 'image/png' }, ['image/*'])).toBe(true);
    expect(isAcceptedType(text('a.txt'), [])).toBe(true);
  });
});

describe('uploadDialogMachine, service-center variant', () => {
  it('opens on choosing with page length 0, uploads the file and succeeds with its id', async () => {
    const { actor, uploads, state } = start({ variant: 'service_center' });
    expect(state().value).toBe('closed');
    actor.send({ type: 'OPEN' });
    expect(state().value).toEqual({ open: 'choosing' });
    expect(state().context.answerSheetPageLength).toBe(0);
    actor.send({ type: 'SET_PAGE_LENGTH', pageLength: 1 });
    expect(canUpload(state().context)).toBe(false);
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(state().value).toEqual({ open: 'choosing' });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('batch.pdf')] });
    expect(canUpload(state().context)).toBe(true);
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(state().value).toEqual({ open: { uploading: { sending: 'transferring' } } });
    expect(uploads.requests.map(({ input: { onProgress, onRetry, ...input } }) => (expect(onProgress).toBeTypeOf('function'), expect(onRetry).toBeTypeOf('function'), input))).toEqual([
      { variant: 'service_center', file: pdf('batch.pdf'), answerSheetPageLength: 1, isIntro: false, studyHelperId: null, startOver: false },
    ]);
    uploads.requests[0]?.resolve({ id: 'f-9' });
    await waitFor(actor, (s) => s.matches({ open: 'success' }));
    expect(state().context.uploadedFileIds).toEqual(['f-9']);
    expect(state().context.errorType).toBeNull();
  });

  it('keeps files over 1.5 GB aside as too large, and they block Upload until removed', async () => {
    const { actor, state, uploads } = start({ variant: 'service_center' });
    actor.send({ type: 'OPEN' });
    const big = pdf('big.pdf', MAX_UPLOAD_BYTES + 1);
    const max = pdf('max.pdf', MAX_UPLOAD_BYTES);
    actor.send({ type: 'CHOOSE_FILES', files: [big, max, undefined, null] });
    expect(state().context.files).toEqual([max]);
    expect(state().context.tooLargeFiles).toEqual([big]);
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(state().value).toEqual({ open: 'choosing' });
    actor.send({ type: 'REMOVE_FILE', name: 'big.pdf' });
    expect(state().context.tooLargeFiles).toEqual([]);
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(state().value).toEqual({ open: { uploading: { sending: 'transferring' } } });
    expect(uploads.requests).toHaveLength(1);
  });

  it('filters dropped files by the accepted types, but not files chosen in the picker', async () => {
    const { actor, state } = start({ variant: 'service_center', acceptedTypes: 'application/pdf' });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'DROP_FILES', files: [text('notes.txt'), pdf('a.pdf')] });
    expect(state().context.files.map((f) => f.name)).toEqual(['a.pdf']);
    actor.send({ type: 'CHOOSE_FILES', files: [text('notes.txt')] });
    expect(state().context.files.map((f) => f.name)).toEqual(['notes.txt']);
    actor.send({ type: 'CLEAR_FILES' });
    expect(state().context.files).toEqual([]);
    const anyType = start({ variant: 'service_center' });
    anyType.actor.send({ type: 'OPEN' });
    anyType.actor.send({ type: 'DROP_FILES', files: [text('notes.txt')] });
    expect(anyType.state().context.files.map((f) => f.name)).toEqual(['notes.txt']);
  });

  it('ignores the study-helper events', async () => {
    const { actor, state } = start({ variant: 'service_center' });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'SELECT_STUDY_HELPER', studyHelperId: 'sh-1' });
    actor.send({ type: 'ANSWER_INTRO', isIntro: true });
    expect(state().value).toEqual({ open: 'choosing' });
    expect(state().context.studyHelperId).toBeNull();
    expect(state().context.isIntro).toBe(false);
  });

  it.each([
    [{ status: 409, body: { detail: { error_type: 'DUPLICATE_FILE' } } }, 'DUPLICATE_FILE'],
    [{ status: 400 }, 'VALIDATION_ERROR'],
    [{ status: 502 }, 'SERVER_ERROR'],
    [new TypeError('Failed to fetch'), 'NETWORK_ERROR'],
  ])('a failed request (%o) ends in failed with %s', async (error, errorType) => {
    const { actor, uploads, state } = start({ variant: 'service_center' });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('a.pdf')] });
    actor.send({ type: 'UPLOAD' });
    await flush();
    uploads.requests[0]?.reject(error);
    await waitFor(actor, (s) => s.matches({ open: 'failed' }));
    expect(state().context.errorType).toBe(errorType);
    expect(state().context.uploadedFileIds).toEqual([]);
  });

  it('CANCEL while sending aborts the request, drops the upload and says so; CLOSE resets', async () => {
    const { actor, uploads, state, cancelledUploads } = start({ variant: 'service_center' });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'SET_PAGE_LENGTH', pageLength: 2 });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('a.pdf')] });
    actor.send({ type: 'UPLOAD' });
    await flush();
    const first = uploads.requests[0];
    actor.send({ type: 'CANCEL' });
    expect(first?.signal.aborted).toBe(true);
    // Not closed at once: the dialog says nothing was stored, and the server is told to drop it.
    expect(state().value).toEqual({ open: 'cancelled' });
    await flush();
    expect(cancelledUploads).toEqual(['a.pdf']);
    first?.resolve({ id: 'late' });
    await flush();
    expect(state().value).toEqual({ open: 'cancelled' });
    expect(state().context.results).toEqual([]);
    actor.send({ type: 'CLOSE' });
    expect(state().value).toBe('closed');
    expect(state().context).toMatchObject({ files: [], answerSheetPageLength: 0, results: [], currentIndex: 0 });

    actor.send({ type: 'OPEN' });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('b.pdf')] });
    actor.send({ type: 'UPLOAD' });
    await flush();
    uploads.requests[1]?.resolve({ id: 'f-2' });
    await waitFor(actor, (s) => s.matches({ open: 'success' }));
    actor.send({ type: 'CLOSE' });
    expect(state().value).toBe('closed');
    expect(state().context.uploadedFileIds).toEqual([]);
  });

  it('a restored snapshot holding a too-large file records "File too large" without sending it', async () => {
    const big = pdf('big.pdf', MAX_UPLOAD_BYTES + 1);
    const uploads = controlledUploads();
    const machine = uploadDialogMachine.provide({ actors: { uploadFile: uploads.logic } });
    const base = createActor(machine, { input: { variant: 'service_center' } }).getSnapshot().context;
    const snapshot = machine.resolveState({ value: { open: 'choosing' }, context: { ...base, files: [big] } });
    const actor = createActor(machine, { snapshot, input: { variant: 'service_center' } }).start();
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(actor.getSnapshot().value).toEqual({ open: 'failed' });
    expect(actor.getSnapshot().context.results).toEqual([
      { status: 'error', fileName: 'big.pdf', errorType: null, message: 'File too large' },
    ]);
    expect(actor.getSnapshot().context.errorType).toBe('UNKNOWN_ERROR');
    expect(uploads.requests).toHaveLength(0);
  });

  it('NO_FILES_UPLOADED when the upload loop had nothing to send', async () => {
    const machine = uploadDialogMachine.provide({ guards: { canUpload: () => true } });
    const actor = createActor(machine, { input: { variant: 'service_center' } }).start();
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(actor.getSnapshot().value).toEqual({ open: 'failed' });
    expect(actor.getSnapshot().context.errorType).toBe('NO_FILES_UPLOADED');
  });
});

describe('uploadDialogMachine, study-helper variant', () => {
  it('asks "intro file?" first; an intro upload needs a study helper', async () => {
    const { actor, uploads, state } = start({ variant: 'study_helper' });
    actor.send({ type: 'OPEN' });
    expect(state().value).toEqual({ open: 'askingIntro' });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('a.pdf')] });
    expect(state().context.files).toEqual([]);
    actor.send({ type: 'ANSWER_INTRO', isIntro: true });
    expect(state().value).toEqual({ open: 'choosing' });
    actor.send({ type: 'SET_PAGE_LENGTH', pageLength: 2 });
    expect(state().context.answerSheetPageLength).toBe(0);
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('intro.pdf')] });
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(state().value).toEqual({ open: 'choosing' });
    actor.send({ type: 'SELECT_STUDY_HELPER', studyHelperId: 'sh-7' });
    actor.send({ type: 'SELECT_STUDY_HELPER', studyHelperId: null });
    expect(canUpload(state().context)).toBe(false);
    actor.send({ type: 'SELECT_STUDY_HELPER', studyHelperId: 'sh-7' });
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(uploads.requests.map(({ input: { onProgress, onRetry, ...input } }) => (expect(onProgress).toBeTypeOf('function'), expect(onRetry).toBeTypeOf('function'), input))).toEqual([
      { variant: 'study_helper', file: pdf('intro.pdf'), answerSheetPageLength: 0, isIntro: true, studyHelperId: 'sh-7', startOver: false },
    ]);
    uploads.requests[0]?.resolve({});
    await waitFor(actor, (s) => s.matches({ open: 'success' }));
    expect(state().context.uploadedFileIds).toEqual([]);
  });

  it('a non-intro upload needs no study helper and never sends one', async () => {
    const { actor, uploads, state } = start({ variant: 'study_helper' });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'ANSWER_INTRO', isIntro: false });
    actor.send({ type: 'SELECT_STUDY_HELPER', studyHelperId: 'sh-7' });
    expect(state().context.studyHelperId).toBeNull();
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('graded.pdf')] });
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(uploads.requests[0]?.input.studyHelperId).toBeNull();
    expect(uploads.requests[0]?.input.isIntro).toBe(false);
  });

  it('uploads several files one at a time, in order, and reports the first failure', async () => {
    const { actor, uploads, state } = start({ variant: 'study_helper' });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'ANSWER_INTRO', isIntro: false });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('1.pdf'), pdf('2.pdf'), pdf('3.pdf')] });
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(uploads.requests.map((r) => r.input.file.name)).toEqual(['1.pdf']);
    uploads.requests[0]?.resolve({ id: 'f-1' });
    await flush();
    expect(uploads.requests.map((r) => r.input.file.name)).toEqual(['1.pdf', '2.pdf']);
    uploads.requests[1]?.reject({ status: 409 });
    await flush();
    expect(uploads.requests.map((r) => r.input.file.name)).toEqual(['1.pdf', '2.pdf', '3.pdf']);
    expect(state().context.currentIndex).toBe(2);
    uploads.requests[2]?.resolve({ id: 'f-3' });
    await waitFor(actor, (s) => s.matches({ open: 'failed' }));
    expect(state().context.errorType).toBe('DUPLICATE_FILE');
    expect(state().context.uploadedFileIds).toEqual(['f-1', 'f-3']);
    expect(state().context.results).toEqual([
      { status: 'success', fileName: '1.pdf', id: 'f-1' },
      { status: 'error', fileName: '2.pdf', errorType: 'DUPLICATE_FILE', message: null },
      { status: 'success', fileName: '3.pdf', id: 'f-3' },
    ]);
  });

  it('CANCEL from askingIntro closes and a new OPEN asks again', async () => {
    const { actor, state } = start({ variant: 'study_helper' });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'ANSWER_INTRO', isIntro: true });
    actor.send({ type: 'SELECT_STUDY_HELPER', studyHelperId: 'sh-1' });
    actor.send({ type: 'CANCEL' });
    actor.send({ type: 'OPEN' });
    expect(state().value).toEqual({ open: 'askingIntro' });
    expect(state().context).toMatchObject({ isIntro: false, studyHelperId: null, variant: 'study_helper' });
  });
});

describe('uploadDialogMachine, progress and the end summary', () => {
  it('counts bytes sent, percent and time left from the upload progress reports', async () => {
    const { actor, uploads, state } = start({ variant: 'study_helper' });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'ANSWER_INTRO', isIntro: false });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('graded.pdf', 10_000)] });
    actor.send({ type: 'UPLOAD' });
    await flush();
    expect(state().context.transfer).toEqual({ loaded: 0, total: 10_000, startedAt: null, startLoaded: 0, at: null });
    expect(uploadSecondsLeft(state().context)).toBeNull();
    // The actor reports through its input; the machine keeps the first report's time as the start.
    uploads.requests[0]!.input.onProgress!({ loaded: 1_000, total: 10_000, at: 50_000 });
    uploads.requests[0]!.input.onProgress!({ loaded: 3_000, total: 10_000, at: 52_000 });
    expect(uploadPercent(state().context)).toBe(30);
    // 2 000 bytes in 2 s: 7 000 bytes left take 7 s.
    expect(uploadSecondsLeft(state().context)).toBe(7);
    uploads.requests[0]!.resolve({ id: 'u-1' });
    await waitFor(actor, (s) => s.matches({ open: 'success' }));
  });

  it('waits for processing, then warns with the report when pages were not matched', async () => {
    const report: ProcessingReport = { problems: 2, counts: [{ label: 'not matched', count: 2 }], nextStep: 'Open the upload to see why.', href: '/files/uploads/u-1' };
    const { actor, uploads, followed, state } = start({ variant: 'study_helper' }, controlledUploads(), report);
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'ANSWER_INTRO', isIntro: false });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('graded.pdf')] });
    actor.send({ type: 'UPLOAD' });
    await flush();
    uploads.requests[0]!.resolve({ id: 'u-1' });
    await waitFor(actor, (s) => s.matches({ open: 'warning' }));
    expect(followed).toEqual([{ variant: 'study_helper', ids: ['u-1'] }]);
    expect(state().context.report).toEqual(report);
    actor.send({ type: 'CLOSE' });
    expect(state().context.report).toBeNull();
  });

  it('ends in success without a report when processing cannot be followed: the upload worked', async () => {
    const uploads = controlledUploads();
    const failing = fromPromise<ProcessingReport, FollowProcessingInput>(async () => {
      throw new Error('offline');
    });
    const actor = createActor(uploadDialogMachine.provide({ actors: { uploadFile: uploads.logic, followProcessing: failing } }), {
      input: { variant: 'service_center' },
    }).start();
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('a.pdf')] });
    actor.send({ type: 'UPLOAD' });
    await flush();
    uploads.requests[0]!.resolve({ id: 'f-1' });
    await waitFor(actor, (s) => s.matches({ open: 'success' }));
    expect(actor.getSnapshot().context).toMatchObject({ report: null, uploadedFileIds: ['f-1'] });
  });
});

describe('uploadDialogMachine, resumable uploads', () => {
  /** Opened with a.pdf chosen and Upload pressed; the earlier-upload lookup answers `earlier`. */
  function uploadingWith(earlier: EarlierUpload | null) {
    const uploads = controlledUploads();
    const followProcessing = fromPromise<ProcessingReport, FollowProcessingInput>(async () => ALL_MATCHED);
    const findEarlierUpload = fromPromise<EarlierUpload | null, UploadTargetInput>(async () => earlier);
    const cancelUpload = fromPromise<void, UploadTargetInput>(async () => undefined);
    const actor = createActor(uploadDialogMachine.provide({ actors: { uploadFile: uploads.logic, followProcessing, findEarlierUpload, cancelUpload } }), {
      input: { variant: 'service_center' },
    }).start();
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'CHOOSE_FILES', files: [pdf('a.pdf', 2_000)] });
    actor.send({ type: 'UPLOAD' });
    return { actor, uploads, state: () => actor.getSnapshot() };
  }

  it('offers to continue an unfinished upload of the same file, from where it stopped', async () => {
    const { actor, uploads, state } = uploadingWith({ offset: 500, size: 2_000 });
    expect(state().value).toEqual({ open: { uploading: 'lookingForEarlier' } });
    await flush();
    expect(state().value).toEqual({ open: { uploading: 'offeringToContinue' } });
    expect(state().context.earlier).toEqual({ offset: 500, size: 2_000 });
    expect(uploads.requests).toHaveLength(0);
    actor.send({ type: 'CONTINUE_EARLIER' });
    expect(uploads.requests[0]?.input.startOver).toBe(false);
    expect(uploadPercent(state().context)).toBe(25);
  });

  it('starts over when asked: the upload is told to drop the earlier one', async () => {
    const { actor, uploads } = uploadingWith({ offset: 500, size: 2_000 });
    await flush();
    actor.send({ type: 'START_OVER' });
    expect(uploads.requests[0]?.input.startOver).toBe(true);
    // Paused and resumed after that, it continues the new upload rather than starting over again.
    actor.send({ type: 'PAUSE' });
    actor.send({ type: 'RESUME' });
    expect(uploads.requests[1]?.input.startOver).toBe(false);
  });

  it('sends at once when there is nothing to continue (none, or nothing kept of it)', async () => {
    for (const earlier of [null, { offset: 0, size: 2_000 }]) {
      const { uploads, state } = uploadingWith(earlier);
      await flush();
      expect(state().value).toEqual({ open: { uploading: { sending: 'transferring' } } });
      expect(uploads.requests).toHaveLength(1);
    }
  });

  it('pauses (the request stops, the bytes counted stay) and resumes with a new request', async () => {
    const { actor, uploads, state } = uploadingWith(null);
    await flush();
    actor.send({ type: 'UPLOAD_PROGRESS', loaded: 800, total: 2_000, at: 1_000 });
    actor.send({ type: 'PAUSE' });
    expect(state().value).toEqual({ open: { uploading: 'paused' } });
    expect(uploads.requests[0]?.signal.aborted).toBe(true);
    expect(uploadPercent(state().context)).toBe(40);
    actor.send({ type: 'UPLOAD_PROGRESS', loaded: 900, total: 2_000, at: 2_000 });
    expect(uploadPercent(state().context)).toBe(40);
    actor.send({ type: 'RESUME' });
    expect(state().value).toEqual({ open: { uploading: { sending: 'transferring' } } });
    expect(uploads.requests).toHaveLength(2);
    uploads.requests[1]!.resolve({ id: 'f-9' });
    await waitFor(actor, (s) => s.matches({ open: 'success' }));
    expect(state().context.uploadedFileIds).toEqual(['f-9']);
  });

  it('waits to retry when the connection drops, and transfers again with the next bytes', async () => {
    const { actor, state } = uploadingWith(null);
    await flush();
    actor.send({ type: 'UPLOAD_RETRYING', delayMs: 8_000, at: 10_000 });
    expect(state().value).toEqual({ open: { uploading: { sending: 'waitingToRetry' } } });
    expect(retrySecondsLeft(state().context.retry!, 10_000)).toBe(8);
    expect(retrySecondsLeft(state().context.retry!, 12_500)).toBe(6);
    expect(retrySecondsLeft(state().context.retry!, 30_000)).toBe(0);
    actor.send({ type: 'UPLOAD_PROGRESS', loaded: 100, total: 2_000, at: 19_000 });
    expect(state().value).toEqual({ open: { uploading: { sending: 'transferring' } } });
    expect(state().context.retry).toBeNull();
  });
});

describe('uploadDialogMachine graph', () => {
  it('reaches every state through the event fixtures, over both variants', async () => {
    const snapshots = uploadDialogModelInputs.flatMap((input) =>
      getShortestPaths(uploadDialogMachine, {
        input,
        events: modelEvents(Object.values(uploadDialogEventFixtures), uploadDialogActorResults),
      }).map((path) => path.state),
    );
    expect(unreachedStateIds(uploadDialogMachine, snapshots)).toEqual([]);
    const serviceCenterOnly = getShortestPaths(uploadDialogMachine, {
      input: { variant: 'service_center' },
      events: modelEvents(Object.values(uploadDialogEventFixtures), uploadDialogActorResults),
    }).map((path) => path.state);
    expect(unreachedStateIds(uploadDialogMachine, serviceCenterOnly)).toEqual(['uploadDialog.open.askingIntro']);
  });
});
