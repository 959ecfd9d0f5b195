import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { getShortestPaths } from '@xstate/graph';
import { modelEvents, restingStateIds, unreachedStateIds } from '../../__tests__/model-events';
import { SEND_LOCK_MS, WORKFLOW_STEPS, WORKFLOW_STEP_LABELS } from '../../constants';
import { fileWorkflowMachine } from '../file-workflow.machine';
import {
  SEND_READY_MESSAGE,
  canDeleteFile,
  gradingProgressText,
  isProgressDone,
  resolveWorkflowStep,
  stepState,
} from '../file-workflow.rules';
import type { FileActorInput, FileStep } from '../file-workflow.types';
import { fileWorkflowActorResults, fileWorkflowEventFixtures, fileWorkflowModelInput } from './file-workflow.fixtures';

// Some answers fall outside the contract (no step, an unknown one): the machine copes with them.
const steps = (step: string | undefined, extra: Partial<FileStep> = {}): FileStep =>
  ({
    ...(step === undefined ? {} : { step }),
    complete: 0,
    total: 0,
    prepped: false,
    downloaded: false,
    ...extra,
  }) as FileStep;

type Call = { input: FileActorInput; resolve: (value: unknown) => void; reject: (error: unknown) => void };

/** Actors whose calls the test answers; fetchSteps answers from a queue unless told to wait. */
function harness(answers: (FileStep | Error)[]) {
  const calls = {
    fetchSteps: [] as Call[],
    sendFile: [] as Call[],
    downloadReturnFile: [] as Call[],
    regenerateFile: [] as Call[],
    archiveFile: [] as Call[],
  };
  const logged: unknown[] = [];
  const manual = (id: keyof typeof calls) =>
    fromPromise<unknown, FileActorInput>(
      ({ input }) => new Promise((resolve, reject) => calls[id].push({ input, resolve, reject })),
    );
  const machine = fileWorkflowMachine.provide({
    actors: {
      fetchSteps: fromPromise<FileStep, FileActorInput>(async ({ input }) => {
        calls.fetchSteps.push({ input, resolve: () => {}, reject: () => {} });
        const answer = answers.shift();
        if (answer === undefined) return new Promise<FileStep>(() => {});
        if (answer instanceof Error) throw answer;
        return answer;
      }),
      sendFile: manual('sendFile'),
      downloadReturnFile: manual('downloadReturnFile'),
      regenerateFile: manual('regenerateFile'),
      archiveFile: manual('archiveFile'),
    },
    actions: { logError: (_, params) => void logged.push(params.error) },
  });
  const actor = createActor(machine, { input: { fileId: 'file-7' } }).start();
  return { actor, calls, logged, answers, state: () => actor.getSnapshot() };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

describe('pure helpers', () => {
  it('the steps, in order, with their labels', () => {
    expect(WORKFLOW_STEPS).toEqual(['robot', 'review', 'assign', 'send', 'grading', 'return']);
    expect(WORKFLOW_STEPS.map((s) => WORKFLOW_STEP_LABELS[s])).toEqual([
      'System Checks', 'Review', 'Assign', 'Send', 'Grading', 'Return',
    ]);
  });

  it('stepState: earlier steps are completed', () => {
    expect(WORKFLOW_STEPS.map((s) => stepState('assign', s))).toEqual([
      'completed', 'completed', 'current', 'upcoming', 'upcoming', 'upcoming',
    ]);
    expect(WORKFLOW_STEPS.map((s) => stepState('robot', s))[0]).toBe('current');
    expect(WORKFLOW_STEPS.map((s) => stepState('return', s)).filter((x) => x === 'completed')).toHaveLength(5);
  });

  it('canDeleteFile only for robot through send', () => {
    expect(WORKFLOW_STEPS.filter(canDeleteFile)).toEqual(['robot', 'review', 'assign', 'send']);
  });

  it('resolveWorkflowStep defaults to review', () => {
    expect(resolveWorkflowStep(undefined)).toBe('review');
    expect(resolveWorkflowStep(null)).toBe('review');
    expect(resolveWorkflowStep('printing')).toBe('review');
    expect(resolveWorkflowStep('grading')).toBe('grading');
  });

  it('isProgressDone above 0.999 only', () => {
    expect(isProgressDone({ completed: 999, count: 1000 })).toBe(false);
    expect(isProgressDone({ completed: 9_991, count: 10_000 })).toBe(true);
    expect(isProgressDone({ completed: 1, count: 1 })).toBe(true);
    expect(isProgressDone({ completed: 0, count: 0 })).toBe(false);
  });

  it('texts', () => {
    expect(SEND_READY_MESSAGE).toBe('Ready to send to study helpers!');
    expect(gradingProgressText(3, 12)).toBe('3 of 12 responses graded');
  });
});

describe('fileWorkflowMachine', () => {
  afterEach(() => void vi.useRealTimers());

  it.each([
    ['robot', 'robot'],
    ['review', 'review'],
    ['assign', 'assign'],
    ['send', { send: { request: 'idle', button: 'sendEnabled' } }],
    ['grading', 'grading'],
    ['return', { return: 'idle' }],
    [undefined, 'review'],
    ['no-such-step', 'review'],
  ])('loads the steps and goes to the server step %s', async (step, value) => {
    const { actor, calls, state } = harness([steps(step)]);
    expect(state().value).toBe('loading');
    await waitFor(actor, (s) => !s.matches('loading'));
    expect(state().value).toEqual(value);
    expect(calls.fetchSteps?.map((c) => c.input)).toEqual([{ fileId: 'file-7' }]);
    expect(state().context.viewedStep).toBe(resolveWorkflowStep(step));
  });

  it('an archived file shows as archived', async () => {
    const { actor } = harness([steps('return', { prepped: true, downloaded: true, file_status: 'archived' })]);
    await waitFor(actor, (s) => s.matches('archived'));
  });

  it('a failed load is logged and can be retried', async () => {
    const failure = new Error('503');
    const { actor, logged, state } = harness([failure, steps('assign')]);
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(logged).toEqual([failure]);
    expect(state().context.error).toBe(failure);
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('assign'));
    expect(state().context.error).toBeNull();
  });

  it('robot: progress is recorded; above 0.999 the steps are fetched again', async () => {
    const { actor, calls, state } = harness([steps('robot'), steps('review')]);
    await waitFor(actor, (s) => s.matches('robot'));
    actor.send({ type: 'PROGRESS', status: 'running', completed: 999, count: 1000, failed: 2 });
    expect(state().value).toBe('robot');
    expect(state().context.progress).toEqual({ status: 'running', completed: 999, count: 1000, failed: 2 });
    actor.send({ type: 'PROGRESS', status: 'success', completed: 1000, count: 1000, failed: 2 });
    expect(state().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('review'));
    expect(calls.fetchSteps).toHaveLength(2);
    expect(state().context.progress).toBeNull();
  });

  it('PROGRESS is ignored where no job runs', async () => {
    const { actor, state } = harness([steps('assign')]);
    await waitFor(actor, (s) => s.matches('assign'));
    actor.send({ type: 'PROGRESS', status: 'success', completed: 1, count: 1, failed: 0 });
    expect(state().value).toBe('assign');
    expect(state().context.progress).toBeNull();
  });

  it('send: a click sends and locks the button for 5 s; a second click meanwhile is ignored', async () => {
    vi.useFakeTimers();
    const { actor, calls, state } = harness([steps('send'), steps('grading', { complete: 2, total: 9 })]);
    await settle();
    expect(state().matches({ send: { button: 'sendEnabled' } })).toBe(true);
    expect(state().can({ type: 'SEND' })).toBe(true);
    actor.send({ type: 'SEND' });
    expect(state().value).toEqual({ send: { request: 'sending', button: 'sendLocked' } });
    expect(calls.sendFile?.map((c) => c.input)).toEqual([{ fileId: 'file-7' }]);
    actor.send({ type: 'SEND' });
    expect(state().can({ type: 'SEND' })).toBe(false);
    calls.sendFile?.[0]?.resolve({});
    await settle();
    expect(state().value).toEqual({ send: { request: 'sent', button: 'sendLocked' } });
    await vi.advanceTimersByTimeAsync(SEND_LOCK_MS - 1);
    expect(state().matches({ send: { button: 'sendLocked' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(state().matches({ send: { button: 'sendEnabled' } })).toBe(true);
    expect(calls.sendFile).toHaveLength(1);
    actor.send({ type: 'PROGRESS', status: 'running', completed: 1, count: 3, failed: 0 });
    expect(state().context.progress?.completed).toBe(1);
    actor.send({ type: 'PROGRESS', status: 'success', completed: 3, count: 3, failed: 0 });
    await settle();
    expect(state().value).toBe('grading');
    expect([state().context.complete, state().context.total]).toEqual([2, 9]);
  });

  it('send: the button unlocks after 5 s, but not while the request is still in flight', async () => {
    vi.useFakeTimers();
    const { actor, calls, logged, state } = harness([steps('send')]);
    await settle();
    actor.send({ type: 'SEND' });
    await vi.advanceTimersByTimeAsync(SEND_LOCK_MS);
    expect(state().value).toEqual({ send: { request: 'sending', button: 'sendEnabled' } });
    actor.send({ type: 'SEND' });
    expect(calls.sendFile).toHaveLength(1);
    const failure = { status: 500 };
    calls.sendFile?.[0]?.reject(failure);
    await settle();
    expect(state().value).toEqual({ send: { request: 'failed', button: 'sendEnabled' } });
    expect(logged).toEqual([failure]);
    actor.send({ type: 'SEND' });
    expect(calls.sendFile).toHaveLength(2);
  });

  it('return: nothing is enabled before the return file is prepped', async () => {
    const { actor, calls, state } = harness([steps('return')]);
    await waitFor(actor, (s) => s.matches('return'));
    for (const type of ['DOWNLOAD', 'REGENERATE', 'ARCHIVE'] as const) {
      expect(state().can({ type })).toBe(false);
      actor.send({ type });
    }
    expect(state().value).toEqual({ return: 'idle' });
    expect(calls.downloadReturnFile.length + calls.regenerateFile.length + calls.archiveFile.length).toBe(0);
  });

  it('return: download (when prepped), then archive (once downloaded) → archived', async () => {
    const { actor, calls, state } = harness([
      steps('return', { prepped: true }),
      steps('return', { prepped: true, downloaded: true }),
    ]);
    await waitFor(actor, (s) => s.matches('return'));
    expect(state().can({ type: 'ARCHIVE' })).toBe(false);
    actor.send({ type: 'DOWNLOAD' });
    expect(state().value).toEqual({ return: 'downloading' });
    calls.downloadReturnFile?.[0]?.resolve({});
    await waitFor(actor, (s) => s.matches({ return: 'idle' }) && s.context.downloaded);
    expect(calls.fetchSteps).toHaveLength(2);
    actor.send({ type: 'ARCHIVE' });
    expect(state().value).toEqual({ return: 'archiving' });
    expect(calls.archiveFile?.map((c) => c.input)).toEqual([{ fileId: 'file-7' }]);
    calls.archiveFile?.[0]?.resolve({});
    await waitFor(actor, (s) => s.matches('archived'));
    expect(state().context.fileStatus).toBe('archived');
  });

  it('return: failed download, regeneration and archive are only logged', async () => {
    const { actor, calls, logged, state } = harness([steps('return', { prepped: true, downloaded: true })]);
    await waitFor(actor, (s) => s.matches('return'));
    actor.send({ type: 'DOWNLOAD' });
    calls.downloadReturnFile?.[0]?.reject('Download failed: Not Found');
    await waitFor(actor, (s) => s.matches({ return: 'idle' }));
    actor.send({ type: 'REGENERATE' });
    calls.regenerateFile?.[0]?.reject('regen');
    await waitFor(actor, (s) => s.matches({ return: 'idle' }));
    actor.send({ type: 'ARCHIVE' });
    calls.archiveFile?.[0]?.reject('archive');
    await waitFor(actor, (s) => s.matches({ return: 'idle' }));
    expect(logged).toEqual(['Download failed: Not Found', 'regen', 'archive']);
    expect(state().context.error).toBe('archive');
  });

  it('return: regenerate refetches the steps, and the return-file progress refreshes when done', async () => {
    const { actor, calls, state } = harness([
      steps('return', { prepped: true }),
      steps('return', { prepped: false }),
      steps('return', { prepped: true }),
    ]);
    await waitFor(actor, (s) => s.matches('return'));
    actor.send({ type: 'REGENERATE' });
    expect(state().value).toEqual({ return: 'regenerating' });
    calls.regenerateFile?.[0]?.resolve({});
    await waitFor(actor, (s) => s.matches({ return: 'idle' }) && !s.context.prepped);
    expect(state().can({ type: 'DOWNLOAD' })).toBe(false);
    actor.send({ type: 'PROGRESS', status: 'success', completed: 4, count: 4, failed: 0 });
    await waitFor(actor, (s) => s.matches({ return: 'idle' }) && s.context.prepped);
    expect(calls.fetchSteps).toHaveLength(3);
  });

  it('VIEW_STEP shows an earlier step without changing the server step', async () => {
    const { actor, state } = harness([steps('grading'), steps('grading'), steps('return')]);
    await waitFor(actor, (s) => s.matches('grading'));
    actor.send({ type: 'VIEW_STEP', step: 'return' });
    expect(state().context.viewedStep).toBe('grading');
    actor.send({ type: 'VIEW_STEP', step: 'assign' });
    expect(state().value).toBe('grading');
    expect(state().context).toMatchObject({ currentStep: 'grading', viewedStep: 'assign' });
    actor.send({ type: 'REFRESH' });
    await waitFor(actor, (s) => s.matches('grading'));
    expect(state().context.viewedStep).toBe('assign');
    actor.send({ type: 'REFRESH' });
    await waitFor(actor, (s) => s.matches('return'));
    expect(state().context.viewedStep).toBe('return');
  });

  it('REFRESH refetches, but not a second time while loading', async () => {
    const { actor, calls } = harness([steps('review')]);
    await waitFor(actor, (s) => s.matches('review'));
    actor.send({ type: 'REFRESH' });
    actor.send({ type: 'REFRESH' });
    expect(calls.fetchSteps).toHaveLength(2);
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it('reaches every state through the event fixtures (graph)', () => {
    const paths = getShortestPaths(fileWorkflowMachine, {
      input: fileWorkflowModelInput,
      events: modelEvents(Object.values(fileWorkflowEventFixtures), fileWorkflowActorResults),
    });
    const topLevel = restingStateIds(fileWorkflowMachine).filter((id) => id.split('.').length === 2);
    expect(topLevel.sort()).toEqual(
      [...WORKFLOW_STEPS, 'loading', 'loadFailed', 'archived'].map((s) => `fileWorkflow.${s}`).sort(),
    );
    expect(unreachedStateIds(fileWorkflowMachine, paths.map((p) => p.state))).toEqual([]);
  });
});
