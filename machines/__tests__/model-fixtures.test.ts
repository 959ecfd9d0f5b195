// The fixtures the graph walks send (here and in tests/model) carry the cases of the spec: a file
// over 1.5 GB and one of another type among the dropped files, an intro upload with a study
// helper, every workflow step with the data its screen needs, a user who may both enter and exit
// View As... A fixture that lost one of them would leave a rule unwalked without failing a walk.
import { describe, expect, it } from 'vitest';
import { fileWorkflowActorResults, fileWorkflowEventFixtures, fileWorkflowModelInput } from '../file-workflow/__tests__/file-workflow.fixtures';
import { notificationsEventFixtures } from '../notifications/__tests__/notifications.fixtures';
import { resultBannerEventFixtures } from '../result-banner/__tests__/result-banner.fixtures';
import { uploadDialogActorResults, uploadDialogEventFixtures, uploadDialogModelInputs } from '../upload-dialog/__tests__/upload-dialog.fixtures';
import { canEnterViewAs, canExitViewAs } from '../view-as/view-as.machine';
import { viewAsActorResults, viewAsEventFixtures, viewAsModelInput } from '../view-as/__tests__/view-as.fixtures';

describe('event fixtures', () => {
  it.each([
    ['file workflow', fileWorkflowEventFixtures],
    ['upload dialog', uploadDialogEventFixtures],
    ['view as', viewAsEventFixtures],
    ['notifications', notificationsEventFixtures],
    ['result banner', resultBannerEventFixtures],
  ] as const)('%s: each fixture is of the event type it stands for', (_, fixtures) => {
    for (const [type, event] of Object.entries(fixtures)) expect(event.type).toBe(type);
  });
});

describe('file workflow', () => {
  it('answers reach every step, grading part-way, and a return file prepped, downloaded and archived', () => {
    const outputs = fileWorkflowActorResults.flatMap((event) => (event.type === 'xstate.done.actor.fetchSteps' ? [event.output as Record<string, unknown>] : []));
    expect(outputs.map((output) => output.step ?? 'none')).toEqual(['robot', 'none', 'assign', 'send', 'grading', 'return', 'return', 'return']);
    expect(outputs[4]).toMatchObject({ complete: 3, total: 5 });
    expect(outputs.slice(5).map(({ prepped, downloaded, file_status }) => [prepped, downloaded, file_status ?? null])).toEqual([
      [true, false, null],
      [true, true, null],
      [true, true, 'archived'],
    ]);
    expect(outputs.slice(0, 5).every((output) => output.prepped === false && output.downloaded === false)).toBe(true);
    const others = fileWorkflowActorResults.filter((event) => event.type !== 'xstate.done.actor.fetchSteps').map((event) => [event.type, 'error' in event ? event.error : 'output']);
    expect(others).toEqual([
      ['xstate.error.actor.fetchSteps', { status: 500 }],
      ...['sendFile', 'downloadReturnFile', 'regenerateFile', 'archiveFile'].flatMap((id) => [
        [`xstate.done.actor.${id}`, 'output'],
        [`xstate.error.actor.${id}`, { status: 500 }],
      ]),
    ]);
    expect(fileWorkflowEventFixtures.VIEW_STEP.step).toBe('robot');
    expect(fileWorkflowEventFixtures.PROGRESS).toMatchObject({ completed: 10, count: 10, failed: 0, status: 'success' });
    expect(fileWorkflowModelInput).toEqual({ fileId: 'file-1' });
  });
});

describe('upload dialog', () => {
  it('drops a file over 1.5 GB and one of another type, chooses a small PDF, removes the big one', () => {
    const { DROP_FILES, CHOOSE_FILES, REMOVE_FILE } = uploadDialogEventFixtures;
    expect(DROP_FILES.files.map((file) => [file?.name, file?.type, (file?.size ?? 0) > 1_500_000_000])).toEqual([
      ['huge.pdf', 'application/pdf', true],
      ['notes.txt', 'text/plain', false],
    ]);
    expect(DROP_FILES.files[0]?.size).toBe(1_500_000_001);
    expect(CHOOSE_FILES.files).toEqual([{ name: 'scan.pdf', size: 2_048, type: 'application/pdf', lastModified: expect.any(Number) }]);
    expect(REMOVE_FILE.name).toBe('huge.pdf');
  });

  it('answers yes to the intro question, picks a study helper and a page length other than the default', () => {
    expect(uploadDialogEventFixtures.ANSWER_INTRO.isIntro).toBe(true);
    expect(uploadDialogEventFixtures.SELECT_STUDY_HELPER.studyHelperId).toBe('sh-1');
    expect(uploadDialogEventFixtures.SET_PAGE_LENGTH.pageLength).toBe(2);
  });

  it('sends part of the chosen file, then loses the connection with a retry 8 s later', () => {
    const { UPLOAD_PROGRESS, UPLOAD_RETRYING, CHOOSE_FILES } = uploadDialogEventFixtures;
    expect(UPLOAD_PROGRESS).toMatchObject({ loaded: 1_024, total: CHOOSE_FILES.files[0]?.size });
    expect(UPLOAD_PROGRESS.loaded).toBeLessThan(UPLOAD_PROGRESS.total);
    expect(UPLOAD_RETRYING.delayMs).toBe(8_000);
    expect(UPLOAD_RETRYING.at).toBeGreaterThan(UPLOAD_PROGRESS.at);
  });

  it('walks both variants on a picker of PDFs and photos, with no earlier upload and one half sent, an upload that succeeds and one refused as a duplicate, then processing that ends clean or with problems', () => {
    expect(uploadDialogModelInputs).toEqual([
      { variant: 'service_center', acceptedTypes: ['application/pdf', 'image/*', '.heic', '.heif'] },
      { variant: 'study_helper', acceptedTypes: ['application/pdf', 'image/*', '.heic', '.heif'] },
    ]);
    expect(uploadDialogActorResults).toEqual([
      { type: 'xstate.done.actor.findEarlierUpload', output: null },
      // Bytes kept on the server (offset > 0): the dialog offers to continue.
      { type: 'xstate.done.actor.findEarlierUpload', output: { offset: 1_024, size: 2_048 } },
      { type: 'xstate.done.actor.uploadFile', output: { id: 'file-1' } },
      // Photos go in one request of their own: sent, or refused with the server's reason.
      { type: 'xstate.done.actor.uploadPhotos', output: { id: 'file-1' } },
      { type: 'xstate.error.actor.uploadPhotos', error: { status: 400, body: { detail: { error_type: 'VALIDATION_ERROR', message: 'Photo 2 is too small to read.' } } } },
      { type: 'xstate.error.actor.uploadFile', error: { status: 409, body: { detail: { error_type: 'DUPLICATE_FILE' } } } },
      {
        type: 'xstate.done.actor.followProcessing',
        output: { problems: 0, counts: [{ label: 'pages read', count: 4 }, { label: 'matched', count: 4 }], nextStep: null, href: null },
      },
      {
        type: 'xstate.done.actor.followProcessing',
        output: {
          problems: 2,
          counts: [{ label: 'pages read', count: 4 }, { label: 'matched', count: 2 }, { label: 'not matched', count: 2 }],
          nextStep: 'Open the upload to see why.',
          href: null,
        },
      },
    ]);
  });
});

describe('the others', () => {
  it('View As: a user who may enter and exit, a call that succeeds and one that fails', () => {
    expect(canEnterViewAs(viewAsModelInput.user) && canExitViewAs(viewAsModelInput.user)).toBe(true);
    expect(viewAsModelInput.user).toEqual({ role: 'study_helper_coordinator', is_admin: true, congregation: 'c-1' });
    expect(viewAsEventFixtures.USER_CHANGED.user).toEqual(viewAsModelInput.user);
    expect(viewAsEventFixtures.ENTER.congregation).toBe('c-2');
    expect(viewAsActorResults).toEqual([
      { type: 'xstate.done.actor.setViewAs', output: {} },
      { type: 'xstate.error.actor.setViewAs', error: { status: 500 } },
    ]);
  });

  it('notifications: one shown before its deadline, dismissed by its id, gone at a later tick', () => {
    const { NOTIFY, DISMISS, TICK } = notificationsEventFixtures;
    expect(NOTIFY.notification).toEqual({ id: 'n-1', message: 'File uploaded.', severity: 'success', deadline: 2_000 });
    expect(NOTIFY.now).toBeLessThan(NOTIFY.notification.deadline);
    expect(DISMISS.id).toBe(NOTIFY.notification.id);
    expect(TICK.now).toBeGreaterThan(NOTIFY.notification.deadline);
  });

  it('result banner: an upload refused as a duplicate', () => {
    expect(resultBannerEventFixtures.RESULT).toEqual({ type: 'RESULT', result: { type: 'error', errorType: 'DUPLICATE_FILE' } });
  });
});
