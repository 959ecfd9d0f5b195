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
import { fileWorkflowMachine } from '../../machines/file-workflow/file-workflow.machine';
import type { FileStep, FileWorkflowEvent, ProgressMessage } from '../../machines/file-workflow/file-workflow.types';
import { fileWorkflowActorResults, fileWorkflowEventFixtures, fileWorkflowModelInput } from '../../machines/file-workflow/__tests__/file-workflow.fixtures';
import { modelEvents, unreachedStateIds } from '../../machines/__tests__/model-events';
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

// ---- The spec, as written (§2 "/file/{file_id}/", §4 "File workflow step", §9) ----
/** The six steps, in order, with the stepper's labels. */
const STEPS = ['robot', 'review', 'assign', 'send', 'grading', 'return'] as const;
type Step = (typeof STEPS)[number];
const STEP_LABELS: Record<Step, string> = {
  robot: 'System Checks',
  review: 'Review',
  assign: 'Assign',
  send: 'Send',
  grading: 'Grading',
  return: 'Return',
};
/** "A step shows as completed when earlier than the current one": by current step (rows), each step's state. */
const STEP_STATES: Record<Step, string> = {
  robot: /*   */ 'current   upcoming  upcoming  upcoming  upcoming  upcoming',
  review: /*  */ 'completed current   upcoming  upcoming  upcoming  upcoming',
  assign: /*  */ 'completed completed current   upcoming  upcoming  upcoming',
  send: /*    */ 'completed completed completed current   upcoming  upcoming',
  grading: /* */ 'completed completed completed completed current   upcoming',
  return: /*  */ 'completed completed completed completed completed current',
};
const stepStateOf = (current: Step, step: Step) => STEP_STATES[current].split(/\s+/)[STEPS.indexOf(step)];
/** "Delete File" is offered only while the step is robot, review, assign or send (steps 0 to 3). */
const DELETE_FILE_OFFERED: Record<Step, boolean> = { robot: true, review: true, assign: true, send: true, grading: false, return: false };
/** "The step defaults to review." */
const DEFAULT_STEP: Step = 'review';
const SEND_READY = 'Ready to send to study helpers!';
/** Send is "disabled for 5 s after a click". */
const SEND_LOCK_MS = 5_000;
const gradedText = (n: number, m: number) => `${n} of ${m} responses graded`;

/** What the walker knows from the answers it gave: the server's side of the file. */
interface Served {
  step: Step;
  steps: FileStep | null;
  archived: boolean;
  /** The step the stepper shows (an earlier one may be chosen). */
  viewed: Step;
  /** The last progress message pushed while the file was at System Checks. */
  robotProgress: ProgressMessage | null;
}

const firstServed = (): Served => ({ step: DEFAULT_STEP, steps: null, archived: false, viewed: DEFAULT_STEP, robotProgress: null });

/** The record after an event of the path. */
function served(before: Served, event: PathEvent): Served {
  if (event.type === 'xstate.done.actor.fetchSteps') {
    const steps = (event as { output: FileStep }).output;
    const step = (STEPS as readonly unknown[]).includes(steps.step) ? (steps.step as Step) : DEFAULT_STEP;
    const changed = step !== before.step;
    return {
      step,
      steps,
      archived: steps.file_status === 'archived',
      viewed: changed ? step : before.viewed,
      robotProgress: changed ? null : before.robotProgress,
    };
  }
  if (event.type === 'xstate.done.actor.archiveFile') return { ...before, archived: true };
  if (event.type === 'VIEW_STEP') {
    const step = (event as { step: Step }).step;
    return stepStateOf(before.step, step) === 'upcoming' ? before : { ...before, viewed: step };
  }
  if (event.type === 'PROGRESS' && before.step === 'robot') {
    const { type: _type, ...message } = event as { type: 'PROGRESS' } & ProgressMessage;
    return { ...before, robotProgress: message };
  }
  return before;
}

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
function streamOf(step: Step): string {
  if (step === 'robot') return `process_service_center_upload/${FILE_ID}`;
  if (step === 'send') return `send_to_study_helpers/${FILE_ID}`;
  return `generate_return_file_requested/${FILE_ID}`;
}

const workflow = () => within(screen.getByRole('region', { name: 'Workflow' }));
const button = (name: string) => workflow().getByRole('button', { name }) as HTMLButtonElement;
const stepButton = (step: Step) => button(`${STEP_LABELS[step]} step`);

async function perform(event: PathEvent, before: Served) {
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
      const fragment = streamOf(before.step);
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
    case 'ARCHIVE': {
      // Archive asks first (issue 31): the person confirms in the dialog.
      fireEvent.click(button('Archive'));
      await waitFor(() => expect(screen.getAllByRole('button', { name: 'Archive' }).length).toBe(2));
      fireEvent.click(screen.getAllByRole('button', { name: 'Archive' }).at(-1)!);
      await waitFor(() => expect(gates.pending('archiveFile')).toBe(1));
      return;
    }
  }
}

function expectStepper(state: Snapshot, record: Served) {
  const archived = !state.matches('loading') && !state.matches('loadFailed') && record.archived;
  for (const step of STEPS) {
    const item = stepButton(step).closest('li') as HTMLElement;
    expect(item.dataset.state).toBe(archived ? 'completed' : stepStateOf(record.step, step));
    expect(stepButton(step).getAttribute('aria-pressed')).toBe(String(step === record.viewed));
    expect(stepButton(step).getAttribute('aria-current')).toBe(step === record.step ? 'step' : null);
  }
  const note = workflow().queryByRole('note');
  if (record.viewed === record.step) expect(note).toBeNull();
  else expect(note?.textContent).toContain(`${STEP_LABELS[record.viewed]}:`);
}

/** The screen for the machine's state (loading, a request in flight...) and the walker's record of the file. */
async function expectScreen(state: Snapshot, record: Served) {
  const loading = state.matches('loading');
  const failed = state.matches('loadFailed');
  const settled = !loading && !failed;
  // Once settled, the screen is at the server's step (or Archived), whatever the machine thinks.
  const at = (step: Step) => settled && !record.archived && record.step === step;
  await waitFor(() => {
    expectStepper(state, record);
    const panel = workflow();
    expect(panel.queryByRole('status', { name: 'Loading steps' }) !== null).toBe(loading);
    expect(button('Refresh steps').disabled).toBe(loading);
    expect(panel.queryByText("The file's steps could not be loaded.") !== null).toBe(failed);
    if (failed) expect(button('Try again')).toBeTruthy();
    expect(panel.queryByText("Checking the file's pages…") !== null).toBe(at('robot'));
    if (at('robot') && record.robotProgress) {
      expect(panel.getByText(`Pages checked: ${record.robotProgress.completed} of ${record.robotProgress.count}`)).toBeTruthy();
    }
    expect(panel.queryByText('Nothing left to review.') !== null).toBe(at('review'));
    expect(panel.queryByText('Assign every response of this file to a congregation.') !== null).toBe(at('assign'));
    if (at('assign')) expect(button('Assign').disabled).toBe(true);
    expect(panel.queryByText(SEND_READY) !== null).toBe(at('send'));
    if (at('send')) {
      const locked = state.matches({ send: { button: 'sendLocked' } }) || state.matches({ send: { request: 'sending' } });
      expect(button('Send').disabled).toBe(locked);
      expect(panel.queryByText('Sent to study helpers.') !== null).toBe(state.matches({ send: { request: 'sent' } }));
      expect(panel.queryByText('Sending failed. Please try again.') !== null).toBe(state.matches({ send: { request: 'failed' } }));
    }
    const steps = record.steps;
    expect(panel.queryByText(gradedText(steps?.complete ?? 0, steps?.total ?? 0)) !== null).toBe(at('grading'));
    if (at('return')) {
      // Download and regenerate only once prepped; archive only after downloaded (and never during a request).
      const idle = state.matches({ return: 'idle' });
      expect(button('Download').disabled).toBe(!(steps?.prepped === true && idle));
      expect(button('Regenerate').disabled).toBe(!(steps?.prepped === true && idle));
      expect(button('Archive').disabled).toBe(!(steps?.downloaded === true && idle));
    } else if (settled && record.archived) {
      // An archived file's return file can still be downloaded (issue 31); nothing else is offered.
      expect(panel.queryByRole('button', { name: 'Download' })).not.toBeNull();
      expect(panel.queryByRole('button', { name: 'Archive' })).toBeNull();
    } else {
      expect(panel.queryByRole('button', { name: 'Download' })).toBeNull();
    }
    expect(panel.queryByText('Archived') !== null).toBe(settled && record.archived);
    // "Delete File" only while the step allows it, once the step is known.
    expect(screen.queryByRole('button', { name: 'Delete File' }) !== null).toBe(settled && !record.archived && DELETE_FILE_OFFERED[record.step]);
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
  it('has paths to walk, and they reach every state of the machine', () => {
    expect(paths.length).toBeGreaterThan(20);
    expect(unreachedStateIds(fileWorkflowMachine, paths.map((path) => path.state))).toEqual([]);
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
    let record = firstServed();
    for (const step of steps) {
      await perform(step.event, record);
      record = served(record, step.event);
      await expectScreen(step.state, record);
    }
  });
});
