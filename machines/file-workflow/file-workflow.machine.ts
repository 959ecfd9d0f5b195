// File workflow: the six-step stepper of the file detail page (System Checks, Review, Assign,
// Send, Grading, Return), driven by the server's GET /api/file/{id}/steps answer.
//
// State hierarchy (id "fileWorkflow"); the top-level state is the server's step:
//   loading        invokes actor `fetchSteps` ({fileId}) → (routing); error → loadFailed.
//                  Also the refresh: REFRESH from any other state, and a finished progress stream
//                  (completed/count > PROGRESS_DONE_THRESHOLD) in robot, send and return, come here
//   loadFailed     RETRY → loading
//   (routing)      transient: file_status archived → archived; else the step (missing → review)
//   robot          System Checks: PROGRESS events update context.progress; done → loading
//   review         warnings link to the responses (screen only)
//   assign         responses are assigned by the screen, which then sends REFRESH
//   send           parallel:
//     request        idle → sending (invokes actor `sendFile`) → sent | failed
//     button         sendEnabled | sendLocked (after SEND_LOCK_MS → sendEnabled)
//                    SEND, allowed in sendEnabled while no request is in flight, enters
//                    request.sending and button.sendLocked together. PROGRESS; done → loading
//   grading        context.complete / context.total: "n of m responses graded"
//   return         DOWNLOAD and REGENERATE need context.prepped; ARCHIVE needs context.downloaded
//     idle
//     downloading    invokes `downloadReturnFile` → loading (the server marks it downloaded); error → idle
//     regenerating   invokes `regenerateFile` → loading; error → idle (only logged)
//     archiving      invokes `archiveFile` → archived; error → idle (only logged)
//                  PROGRESS (the return-file job); done → loading
//   archived       the file shows Archived
// VIEW_STEP {step}, anywhere, shows an earlier (or the current) step in the stepper without
// changing the server step: context.viewedStep. It follows the server step when that changes.
//
// The screen supplies with .provide(): actors `fetchSteps`, `sendFile`, `downloadReturnFile`,
// `regenerateFile`, `archiveFile` (HTTP calls, input {fileId}) and may replace action `logError`.
import { and, assign, fromPromise, not, setup, stateIn, type ErrorActorEvent } from 'xstate';
import { DEFAULT_WORKFLOW_STEP, SEND_LOCK_MS, type WorkflowStep } from '../constants';
import { isProgressDone, resolveWorkflowStep, stepState } from './file-workflow.rules';
import type { FileActorInput, FileStep, FileWorkflowContext, FileWorkflowEvent, FileWorkflowInput } from './file-workflow.types';

const notProvided = <TOutput>(name: string) =>
  fromPromise<TOutput, FileActorInput>(async () => {
    throw new Error(`file-workflow machine: "${name}" must be supplied by the screen with .provide()`);
  });

const fileInput = ({ context }: { context: FileWorkflowContext }): FileActorInput => ({ fileId: context.fileId });

// A failed call is remembered and logged (spec §8: failed regenerations are only logged).
const errorOf = ({ event }: { event: ErrorActorEvent }) => ({ error: event.error });
const failedCall = [
  { type: 'rememberError', params: errorOf },
  { type: 'logError', params: errorOf },
] as const;

const progressTransition = {
  PROGRESS: [
    { guard: 'progressDone', target: '#fileWorkflow.loading', actions: 'recordProgress' },
    { actions: 'recordProgress' },
  ],
} as const;

export const fileWorkflowMachine = setup({
  types: {
    input: {} as FileWorkflowInput,
    context: {} as FileWorkflowContext,
    events: {} as FileWorkflowEvent,
  },
  actors: {
    fetchSteps: notProvided<FileStep>('fetchSteps'),
    sendFile: notProvided<unknown>('sendFile'),
    downloadReturnFile: notProvided<unknown>('downloadReturnFile'),
    regenerateFile: notProvided<unknown>('regenerateFile'),
    archiveFile: notProvided<unknown>('archiveFile'),
  },
  actions: {
    applySteps: assign(({ context }, params: { steps: FileStep | undefined }) => {
      const steps = params.steps;
      const currentStep = resolveWorkflowStep(steps?.step);
      const stepChanged = currentStep !== context.currentStep;
      return {
        currentStep,
        viewedStep: stepChanged ? currentStep : context.viewedStep,
        complete: steps?.complete ?? 0,
        total: steps?.total ?? 0,
        prepped: steps?.prepped ?? false,
        downloaded: steps?.downloaded ?? false,
        fileStatus: steps?.file_status ?? null,
        progress: stepChanged ? null : context.progress,
        error: null,
      };
    }),
    recordProgress: assign({
      progress: ({ context, event }) =>
        event.type === 'PROGRESS'
          ? { status: event.status, completed: event.completed, count: event.count, failed: event.failed }
          : context.progress,
    }),
    viewStep: assign({
      viewedStep: ({ context, event }) => (event.type === 'VIEW_STEP' ? event.step : context.viewedStep),
    }),
    logError: (_, params: { error: unknown }) => {
      console.error('file workflow:', params.error);
    },
    rememberError: assign((_, params: { error: unknown }) => ({ error: params.error })),
    markArchived: assign({ fileStatus: 'archived' }),
  },
  guards: {
    serverStepIs: ({ context }, params: { step: WorkflowStep }) => context.currentStep === params.step,
    isArchived: ({ context }) => context.fileStatus === 'archived',
    progressDone: ({ event }) => event.type === 'PROGRESS' && isProgressDone(event),
    canViewStep: ({ context, event }) =>
      event.type === 'VIEW_STEP' && stepState(context.currentStep, event.step) !== 'upcoming',
    sendAllowed: and([
      stateIn('#fileWorkflow.send.button.sendEnabled'),
      not(stateIn('#fileWorkflow.send.request.sending')),
    ]),
    isPrepped: ({ context }) => context.prepped,
    isDownloaded: ({ context }) => context.downloaded,
  },
  delays: {
    sendLock: SEND_LOCK_MS,
  },
}).createMachine({
  id: 'fileWorkflow',
  context: ({ input }) => ({
    fileId: input.fileId,
    currentStep: DEFAULT_WORKFLOW_STEP,
    viewedStep: DEFAULT_WORKFLOW_STEP,
    complete: 0,
    total: 0,
    prepped: false,
    downloaded: false,
    fileStatus: null,
    progress: null,
    error: null,
  }),
  initial: 'loading',
  on: {
    REFRESH: { target: '.loading' },
    VIEW_STEP: { guard: 'canViewStep', actions: 'viewStep' },
  },
  states: {
    loading: {
      // A REFRESH while loading must not restart the request.
      on: { REFRESH: {} },
      invoke: {
        id: 'fetchSteps',
        src: 'fetchSteps',
        input: fileInput,
        onDone: {
          target: 'routing',
          actions: { type: 'applySteps', params: ({ event }) => ({ steps: event.output }) },
        },
        onError: {
          target: 'loadFailed',
          actions: failedCall,
        },
      },
    },
    loadFailed: {
      on: { RETRY: 'loading' },
    },
    routing: {
      always: [
        { guard: 'isArchived', target: 'archived' },
        { guard: { type: 'serverStepIs', params: { step: 'robot' } }, target: 'robot' },
        { guard: { type: 'serverStepIs', params: { step: 'assign' } }, target: 'assign' },
        { guard: { type: 'serverStepIs', params: { step: 'send' } }, target: 'send' },
        { guard: { type: 'serverStepIs', params: { step: 'grading' } }, target: 'grading' },
        { guard: { type: 'serverStepIs', params: { step: 'return' } }, target: 'return' },
        { target: 'review' },
      ],
    },
    robot: {
      on: progressTransition,
    },
    review: {},
    assign: {},
    send: {
      type: 'parallel',
      on: {
        ...progressTransition,
        SEND: { guard: 'sendAllowed', target: ['.request.sending', '.button.sendLocked'] },
      },
      states: {
        request: {
          initial: 'idle',
          states: {
            idle: {},
            sending: {
              invoke: {
                id: 'sendFile',
                src: 'sendFile',
                input: fileInput,
                onDone: { target: 'sent' },
                onError: {
                  target: 'failed',
                  actions: failedCall,
                },
              },
            },
            sent: {},
            failed: {},
          },
        },
        button: {
          initial: 'sendEnabled',
          states: {
            sendEnabled: {},
            sendLocked: {
              after: { sendLock: 'sendEnabled' },
            },
          },
        },
      },
    },
    grading: {},
    return: {
      initial: 'idle',
      on: progressTransition,
      states: {
        idle: {
          on: {
            DOWNLOAD: { guard: 'isPrepped', target: 'downloading' },
            REGENERATE: { guard: 'isPrepped', target: 'regenerating' },
            ARCHIVE: { guard: 'isDownloaded', target: 'archiving' },
          },
        },
        downloading: {
          invoke: {
            id: 'downloadReturnFile',
            src: 'downloadReturnFile',
            input: ({ context, event }) => ({ fileId: context.fileId, sides: event.type === 'DOWNLOAD' ? (event.sides ?? 'two') : 'two' }),
            onDone: { target: '#fileWorkflow.loading' },
            onError: {
              target: 'idle',
              actions: failedCall,
            },
          },
        },
        regenerating: {
          invoke: {
            id: 'regenerateFile',
            src: 'regenerateFile',
            input: fileInput,
            onDone: { target: '#fileWorkflow.loading' },
            onError: {
              target: 'idle',
              actions: failedCall,
            },
          },
        },
        archiving: {
          invoke: {
            id: 'archiveFile',
            src: 'archiveFile',
            input: fileInput,
            onDone: { target: '#fileWorkflow.archived', actions: 'markArchived' },
            onError: {
              target: 'idle',
              actions: failedCall,
            },
          },
        },
      },
    },
    archived: {},
  },
});
