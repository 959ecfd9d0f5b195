// The events, actor results and inputs the model tests walk the file-workflow machine's graph with
// (machines/file-workflow/__tests__ and tests/model): test material, kept out of the bundle.
import type { FileStep } from '../../../generated/hooks/model';
import type { WorkflowStep } from '../../constants';
import type { FileWorkflowEvent, FileWorkflowInput } from '../file-workflow.types';
import type { ActorResultEvent, EventFixtures } from '../../__tests__/model-events';

/** One example of every event, for model-based tests. */
export const fileWorkflowEventFixtures = {
  REFRESH: { type: 'REFRESH' },
  RETRY: { type: 'RETRY' },
  VIEW_STEP: { type: 'VIEW_STEP', step: 'robot' },
  PROGRESS: { type: 'PROGRESS', status: 'success', completed: 10, count: 10, failed: 0 },
  SEND: { type: 'SEND' },
  DOWNLOAD: { type: 'DOWNLOAD' },
  REGENERATE: { type: 'REGENERATE' },
  ARCHIVE: { type: 'ARCHIVE' },
} satisfies EventFixtures<FileWorkflowEvent>;

// An answer without a step falls outside the contract; the machine reads it as review.
const steps = (step: WorkflowStep | undefined, extra: Partial<FileStep> = {}): FileStep =>
  ({
    ...(step === undefined ? {} : { step }),
    complete: 0,
    total: 0,
    prepped: false,
    downloaded: false,
    ...extra,
  }) as FileStep;

/** Answers of `fetchSteps` that, together, reach every step (and results of the other actors). */
export const fileWorkflowActorResults: readonly ActorResultEvent[] = [
  ...(
    [
      steps('robot'),
      steps(undefined),
      steps('assign'),
      steps('send'),
      steps('grading', { complete: 3, total: 5 }),
      steps('return', { complete: 5, total: 5, prepped: true }),
      steps('return', { complete: 5, total: 5, prepped: true, downloaded: true }),
      steps('return', { complete: 5, total: 5, prepped: true, downloaded: true, file_status: 'archived' }),
    ] satisfies FileStep[]
  ).map((output) => ({ type: 'xstate.done.actor.fetchSteps' as const, output })),
  { type: 'xstate.error.actor.fetchSteps', error: { status: 500 } },
  ...(['sendFile', 'downloadReturnFile', 'regenerateFile', 'archiveFile'] as const).flatMap((id) => [
    { type: `xstate.done.actor.${id}` as const, output: {} },
    { type: `xstate.error.actor.${id}` as const, error: { status: 500 } },
  ]),
];

export const fileWorkflowModelInput: FileWorkflowInput = { fileId: 'file-1' };
