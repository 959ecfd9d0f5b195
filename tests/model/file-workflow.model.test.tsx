// Model-based test of the file detail's six-step stepper (spec §2 "/file/{file_id}/", §4 "File
// workflow step", §9): every shortest path of the file-workflow machine's graph is walked through
// the real file detail screen on MSW. The machine's actors are the screen's HTTP calls, whose MSW
// answers are given when the path says (done or error); progress events are messages pushed into
// the screen's progress streams; the 5 s send lock passes on fake timers. After each step the
// screen must show what the machine's state says.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { getShortestPaths } from '@xstate/graph';
import type { SnapshotFrom } from 'xstate';
import {
  SEND_READY_MESSAGE,
  canDeleteFile,
  fileWorkflowActorResults,
  fileWorkflowEventFixtures,
  fileWorkflowMachine,
  fileWorkflowModelInput,
  gradingProgressText,
  stepState,
  type FileWorkflowEvent,
  type ProgressMessage,
} from '../../machines/file-workflow/file-workflow.machine';
import { SEND_LOCK_MS, WORKFLOW_STEPS, WORKFLOW_STEP_LABELS, type WorkflowStep } from '../../machines/constants';
import { modelEvents } from '../../machines/model-events';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { GatedApi } from '../web/support/gated-api';
import { emitProgress, installFakeEventSource } from '../web/support/fake-event-source';
import { fileRecord, statsRecord } from '../web/support/fixtures';

setupMockApi();
installFakeEventSource();

type Snapshot = SnapshotFrom<typeof fileWorkflowMachine>;
type PathEvent = FileWorkflowEvent | { type: `xstate.${string}`; output?: unknown; error?: unknown };

const FILE_ID = fileWorkflowModelInput.fileId;

let gates = new GatedApi();
afterEach(() => {
  gates.release();
  vi.useRealTimers();
});

function useApi() {
  gates = new GatedApi();
  server.use(
    http.get(`*/api/file/${FILE_ID}`, () => HttpResponse.json(fileRecord({ id: FILE_ID }))),
    http.get(`*/api/file/${FILE_ID}/stats`, () => HttpResponse.json(statsRecord())),
    gates.handler('get', `*/api/file/${FILE_ID}/steps`, 'fetchSteps'),
    gates.handler('post', `*/api/file/${FILE_ID}/send`, 'sendFile'),
    gates.handler('get', `*/api/file/${FILE_ID}/graded_pdf`, 'downloadReturnFile'),
    gates.handler('post', `*/api/file/${FILE_ID}/regenerate`, 'regenerateFile'),
    gates.handler('post', `*/api/file/${FILE_ID}/archive`, 'archiveFile'),
  );
}

/** The MSW answer that stands for an actor's result. */
function actorAnswer(event: { type: string; output?: unknown }): { gate: string; response: Response } {
  const [, outcome, , id] = event.type.split('.') as [string, 'done' | 'error', string, string];
  if (outcome === 'error') return { gate: id, response: HttpResponse.json({ detail: 'Server error' }, { status: 500 }) };
  switch (id) {
    case 'fetchSteps':
      return { gate: id, response: HttpResponse.json(event.output as object) };
    case 'sendFile':
    case 'regenerateFile':
      return {
        gate: id,
        response: HttpResponse.json({
          group_name: id === 'sendFile' ? 'send_to_study_helpers' : 'generate_return_file_requested',
          run_id: FILE_ID,
        }),
      };
    case 'downloadReturnFile':
      return {
        gate: id,
        response: new HttpResponse(new Uint8Array([37, 80, 68, 70]), {
          headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="return.pdf"' },
        }),
      };
    default:
      return { gate: id, response: HttpResponse.json(fileRecord({ id: FILE_ID, file_status: 'archived' })) };
  }
}

/** The progress stream the current step follows. */
function streamOf(step: WorkflowStep): string {
  if (step === 'robot') return `process_service_center_upload/${FILE_ID}`;
  if (step === 'send') return `send_to_study_helpers/${FILE_ID}`;
  return `generate_return_file_requested/${FILE_ID}`;
}

const workflow = () => within(screen.getByRole('region', { name: 'Workflow' }));
const button = (name: string) => workflow().getByRole('button', { name }) as HTMLButtonElement;
const stepButton = (step: WorkflowStep) => button(`${WORKFLOW_STEP_LABELS[step]} step`);

async function perform(event: PathEvent, before: Snapshot) {
  if (event.type === 'xstate.init') return;
  if (event.type.startsWith('xstate.done.actor.') || event.type.startsWith('xstate.error.actor.')) {
    const { gate, response } = actorAnswer(event);
    await gates.answer(gate, response);
    return;
  }
  if (event.type.startsWith('xstate.after.')) {
    await act(() => vi.advanceTimersByTimeAsync(SEND_LOCK_MS));
    return;
  }
  const user = event as FileWorkflowEvent;
  switch (user.type) {
    case 'VIEW_STEP':
      fireEvent.click(stepButton(user.step));
      return;
    case 'REFRESH':
      fireEvent.click(button('Refresh steps'));
      return;
    case 'RETRY':
      fireEvent.click(button('Try again'));
      return;
    case 'PROGRESS': {
      const { type: _type, ...message } = user;
      const fragment = streamOf(before.context.currentStep);
      await waitFor(() => expect(emitProgress(fragment, message as ProgressMessage)).toBeGreaterThan(0));
      return;
    }
    case 'SEND':
      fireEvent.click(button('Send'));
      await waitFor(() => expect(gates.pending('sendFile')).toBe(1));
      return;
    case 'DOWNLOAD':
      fireEvent.click(button('Download'));
      await waitFor(() => expect(gates.pending('downloadReturnFile')).toBe(1));
      return;
    case 'REGENERATE':
      fireEvent.click(button('Regenerate'));
      await waitFor(() => expect(gates.pending('regenerateFile')).toBe(1));
      return;
    case 'ARCHIVE':
      fireEvent.click(button('Archive'));
      await waitFor(() => expect(gates.pending('archiveFile')).toBe(1));
      return;
  }
}

function expectStepper(state: Snapshot) {
  const { currentStep, viewedStep } = state.context;
  const archived = state.matches('archived');
  for (const step of WORKFLOW_STEPS) {
    const item = stepButton(step).closest('li') as HTMLElement;
    expect(item.dataset.state).toBe(archived ? 'completed' : stepState(currentStep, step));
    expect(stepButton(step).getAttribute('aria-pressed')).toBe(String(step === viewedStep));
    expect(stepButton(step).getAttribute('aria-current')).toBe(step === currentStep ? 'step' : null);
  }
  const note = workflow().queryByRole('note');
  if (viewedStep === currentStep) expect(note).toBeNull();
  else expect(note?.textContent).toContain(`${WORKFLOW_STEP_LABELS[viewedStep]}:`);
}

async function expectScreen(state: Snapshot) {
  const { context } = state;
  await waitFor(() => {
    expectStepper(state);
    const panel = workflow();
    if (state.matches('loading')) {
      expect(panel.getByRole('status', { name: 'Loading steps' })).toBeTruthy();
      expect(button('Refresh steps').disabled).toBe(true);
    } else {
      expect(panel.queryByRole('status', { name: 'Loading steps' })).toBeNull();
      expect(button('Refresh steps').disabled).toBe(false);
    }
    if (state.matches('loadFailed')) {
      expect(panel.getByText("The file's steps could not be loaded.")).toBeTruthy();
      expect(button('Try again')).toBeTruthy();
    }
    if (state.matches('robot')) {
      expect(panel.getByText("Checking the file's pages…")).toBeTruthy();
      if (context.progress) {
        expect(panel.getByText(`Pages checked: ${context.progress.completed} of ${context.progress.count}`)).toBeTruthy();
      }
    }
    if (state.matches('review')) expect(panel.getByText('Nothing left to review.')).toBeTruthy();
    if (state.matches('assign')) {
      expect(panel.getByText('Assign every response of this file to a congregation.')).toBeTruthy();
      expect(button('Assign').disabled).toBe(true);
    }
    if (state.matches('send')) {
      expect(panel.getByText(SEND_READY_MESSAGE)).toBeTruthy();
      const locked = state.matches({ send: { button: 'sendLocked' } }) || state.matches({ send: { request: 'sending' } });
      expect(button('Send').disabled).toBe(locked);
      expect(panel.queryByText('Sent to study helpers.') !== null).toBe(state.matches({ send: { request: 'sent' } }));
      expect(panel.queryByText('Sending failed. Please try again.') !== null).toBe(state.matches({ send: { request: 'failed' } }));
    } else {
      expect(panel.queryByText(SEND_READY_MESSAGE)).toBeNull();
    }
    if (state.matches('grading')) expect(panel.getByText(gradingProgressText(context.complete, context.total))).toBeTruthy();
    if (state.matches('return')) {
      const idle = state.matches({ return: 'idle' });
      expect(button('Download').disabled).toBe(!(context.prepped && idle));
      expect(button('Regenerate').disabled).toBe(!(context.prepped && idle));
      expect(button('Archive').disabled).toBe(!(context.downloaded && idle));
    } else {
      expect(panel.queryByRole('button', { name: 'Download' })).toBeNull();
    }
    if (state.matches('archived')) expect(panel.getByText('Archived')).toBeTruthy();
    // "Delete File" only while the step allows it, once the step is known.
    const settled = !state.matches('loading') && !state.matches('loadFailed');
    expect(screen.queryByRole('button', { name: 'Delete File' }) !== null).toBe(settled && canDeleteFile(context.currentStep));
  });
}

function describePath(steps: readonly { event: PathEvent }[]): string {
  return steps
    .map(({ event }) => {
      const name = event.type.replace(/^xstate\./, '').replace(/\.fileWorkflow\..*$/, '');
      const output = 'output' in event ? (event.output as { step?: string; downloaded?: boolean; file_status?: string } | undefined) : undefined;
      if (!output || event.type !== 'xstate.done.actor.fetchSteps') return name;
      return `${name}(${[output.step ?? 'none', output.downloaded && 'downloaded', output.file_status].filter(Boolean).join(',')})`;
    })
    .join(' → ');
}

const paths = getShortestPaths(fileWorkflowMachine, {
  input: fileWorkflowModelInput,
  events: modelEvents(Object.values(fileWorkflowEventFixtures), fileWorkflowActorResults),
});

describe('file workflow stepper through the file detail screen', () => {
  it('has paths to walk', () => {
    expect(paths.length).toBeGreaterThan(20);
  });

  it.each(paths.map((path) => [describePath(path.steps as { event: PathEvent }[]), path] as const))('%s', async (_, path) => {
    const steps = path.steps as unknown as { event: PathEvent; state: Snapshot }[];
    // The send lock's 5 s pass on fake timers (time still flows for everything else).
    if (steps.some((step) => step.event.type.startsWith('xstate.after.'))) {
      vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    }
    useApi();
    renderApp(`/file/${FILE_ID}`, { as: 'admin' });
    await screen.findByRole('region', { name: 'Workflow' });
    let before = steps[0]?.state as Snapshot;
    for (const step of steps) {
      await perform(step.event, before);
      await expectScreen(step.state);
      before = step.state;
    }
  });
});
