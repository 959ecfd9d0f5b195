// The upload dialog's rules at their edges (spec §5, §8), beside upload-dialog.machine.test.ts:
// where an error type is read from, which types a picker's accept list lets through, and what a
// removed or failed file leaves behind.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { uploadDialogMachine } from '../upload-dialog.machine';
import {
  classifyUploadError,
  isAcceptedType,
  parseAcceptedTypes,
  summarizeUploadResults,
} from '../upload-dialog.rules';
import type { FileLike, UploadFileInput, UploadFileOutput } from '../upload-dialog.types';

const file = (name: string, type: string, size = 1_000): FileLike => ({ name, size, type, lastModified: 1 });

describe('classifyUploadError at the edges', () => {
  it.each([
    [{ status: 409, body: { detail: { error_type: '' } } }, 'DUPLICATE_FILE'],
    [{ status: 409, body: { detail: { message: 'no type' } } }, 'DUPLICATE_FILE'],
    [{ status: 409, body: { detail: null } }, 'DUPLICATE_FILE'],
    [{ status: 400, body: 'Bad Request' }, 'VALIDATION_ERROR'],
    [{ status: '409', body: { detail: { error_type: 'X' } } }, 'NETWORK_ERROR'],
    [{ status: 499 }, 'NETWORK_ERROR'],
    [{ status: 500 }, 'SERVER_ERROR'],
    [null, 'NETWORK_ERROR'],
  ])('%o → %s', (error, type) => {
    expect(classifyUploadError(error)).toBe(type);
  });
});

describe('accept lists', () => {
  it('match MIME types, wildcards and extensions, ignoring case and spaces', () => {
    expect(isAcceptedType(file('scan.PDF', 'application/pdf'), [' .pdf '])).toBe(true);
    expect(isAcceptedType(file('scan.pdf', 'APPLICATION/PDF'), [' Application/Pdf '])).toBe(true);
    expect(isAcceptedType(file('photo.jpg', 'image/jpeg'), ['image/*'])).toBe(true);
    expect(isAcceptedType(file('photo.jpg', 'imagex/jpeg'), ['image/*'])).toBe(false);
    expect(isAcceptedType(file('notes.txt', 'text/plain'), ['image/*', 'application/pdf'])).toBe(false);
    expect(isAcceptedType(file('notes.txt', 'text/plain'), ['image/*', 'text/plain'])).toBe(true);
    expect(isAcceptedType(file('blank', ''), [''])).toBe(false);
    expect(isAcceptedType(file('blank', ''), [])).toBe(true);
  });

  it('are read from a comma list or an array, blanks dropped', () => {
    expect(parseAcceptedTypes(' application/pdf , .pdf ,')).toEqual(['application/pdf', '.pdf']);
    expect(parseAcceptedTypes([' .pdf', '', ' '])).toEqual(['.pdf']);
    expect(parseAcceptedTypes(undefined)).toEqual([]);
  });
});

describe('results', () => {
  it('keep the ids of uploaded files only, and name a failure without a type UNKNOWN_ERROR', () => {
    expect(
      summarizeUploadResults([
        { status: 'success', fileName: 'a.pdf', id: 'f-1' },
        { status: 'success', fileName: 'b.pdf', id: null },
      ]),
    ).toEqual({ status: 'success', fileIds: ['f-1'] });
    expect(summarizeUploadResults([{ status: 'error', fileName: 'a.pdf', errorType: null, message: 'x' }])).toEqual({
      status: 'error',
      errorType: 'UNKNOWN_ERROR',
    });
  });
});

describe('the dialog', () => {
  const start = (output: UploadFileOutput | Error) => {
    const uploadFile = fromPromise<UploadFileOutput, UploadFileInput>(async () => {
      if (output instanceof Error) throw output;
      return output;
    });
    return createActor(uploadDialogMachine.provide({ actors: { uploadFile } }), { input: { variant: 'service_center', acceptedTypes: '.pdf' } }).start();
  };

  it('removes a too-large file from the list by its name, keeping the others', () => {
    const actor = start({ id: 'f-1' });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'CHOOSE_FILES', files: [file('big.pdf', 'application/pdf', 1_500_000_001), file('small.pdf', 'application/pdf')] });
    expect(actor.getSnapshot().context.tooLargeFiles.map((f) => f.name)).toEqual(['big.pdf']);
    actor.send({ type: 'REMOVE_FILE', name: 'big.pdf' });
    expect(actor.getSnapshot().context.tooLargeFiles).toEqual([]);
    expect(actor.getSnapshot().context.files.map((f) => f.name)).toEqual(['small.pdf']);
    actor.send({ type: 'REMOVE_FILE', name: 'small.pdf' });
    expect(actor.getSnapshot().context.files).toEqual([]);
  });

  it('records the uploaded file under its name and id', async () => {
    const actor = start({ id: 'f-9' });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'CHOOSE_FILES', files: [file('scan.pdf', 'application/pdf')] });
    actor.send({ type: 'UPLOAD' });
    const done = await waitFor(actor, (snapshot) => snapshot.matches({ open: 'success' }));
    expect(done.context.results).toEqual([{ status: 'success', fileName: 'scan.pdf', id: 'f-9' }]);
    expect(done.context.uploadedFileIds).toEqual(['f-9']);
    expect(done.context.errorType).toBeNull();
  });

  it('records a failed file under its name, with no uploaded ids', async () => {
    const actor = start(Object.assign(new Error('conflict'), { status: 409, body: { detail: { error_type: 'DUPLICATE_FILE' } } }));
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'CHOOSE_FILES', files: [file('scan.pdf', 'application/pdf')] });
    actor.send({ type: 'UPLOAD' });
    const failed = await waitFor(actor, (snapshot) => snapshot.matches({ open: 'failed' }));
    expect(failed.context.results[0]).toMatchObject({ status: 'error', fileName: 'scan.pdf', errorType: 'DUPLICATE_FILE' });
    expect(failed.context.uploadedFileIds).toEqual([]);
    expect(failed.context.errorType).toBe('DUPLICATE_FILE');
  });
});
