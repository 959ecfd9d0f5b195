// Edges of the machines' rules the walks do not reach: an empty steps answer, negative counts,
// late and expired notifications, a stopped clock, the View As error kept and cleared, unknown
// banner errors, and the page length labels of spec §5.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ANSWER_SHEET_PAGE_LENGTH_LABELS } from '../constants';
import { fileWorkflowMachine } from '../file-workflow/file-workflow.machine';
import { isProgressDone } from '../file-workflow/file-workflow.rules';
import type { FileActorInput, FileStep } from '../file-workflow/file-workflow.types';
import { notificationsMachine, type Notification } from '../notifications/notifications.machine';
import { bannerMessage } from '../result-banner/result-banner.machine';
import { viewAsMachine } from '../view-as/view-as.machine';

afterEach(() => void vi.useRealTimers());

describe('file workflow edges', () => {
  it('starts at review with nothing graded, prepped or downloaded', () => {
    const actor = createActor(fileWorkflowMachine.provide({ actors: { fetchSteps: fromPromise<FileStep, FileActorInput>(() => new Promise(() => {})) } }), {
      input: { fileId: 'f-1' },
    }).start();
    expect(actor.getSnapshot().context).toMatchObject({ currentStep: 'review', viewedStep: 'review', complete: 0, total: 0, prepped: false, downloaded: false, fileStatus: null, progress: null });
  });

  it('reads an empty answer as review with nothing done', async () => {
    const empty = fromPromise<FileStep, FileActorInput>(async () => undefined as unknown as FileStep);
    const actor = createActor(fileWorkflowMachine.provide({ actors: { fetchSteps: empty } }), { input: { fileId: 'f-1' } }).start();
    const review = await waitFor(actor, (snapshot) => snapshot.matches('review'));
    expect(review.context).toMatchObject({ complete: 0, total: 0, prepped: false, downloaded: false, fileStatus: null });
  });

  it('keeps every field of the answer', async () => {
    const answer: FileStep = { step: 'return', complete: 4, total: 6, prepped: true, downloaded: true, file_status: 'downloaded' };
    const actor = createActor(fileWorkflowMachine.provide({ actors: { fetchSteps: fromPromise(async () => answer) } }), { input: { fileId: 'f-1' } }).start();
    const at = await waitFor(actor, (snapshot) => snapshot.matches('return'));
    expect(at.context).toMatchObject({ currentStep: 'return', complete: 4, total: 6, prepped: true, downloaded: true, fileStatus: 'downloaded' });
  });

  it('is not done with counts below zero', () => {
    expect(isProgressDone({ completed: -5, count: -5 })).toBe(false);
  });
});

describe('notification edges', () => {
  const note = (id: string, deadline: number): Notification => ({ id, message: id, severity: 'info', deadline });
  const quietClock = () => notificationsMachine.provide({ actors: { clock: fromPromise(() => new Promise(() => {})) as never } });

  it('judges a notification by the latest time seen, not an older clock', () => {
    const actor = createActor(quietClock()).start();
    actor.send({ type: 'NOTIFY', notification: note('a', 10_000), now: 5_000 });
    // Sent with an older time, but 5 s have already been seen: its deadline (4 s) has passed.
    actor.send({ type: 'NOTIFY', notification: note('b', 4_000), now: 1_000 });
    expect(actor.getSnapshot().context.notifications.map((n) => n.id)).toEqual(['a']);
    expect(actor.getSnapshot().context.now).toBe(5_000);
  });

  it('drops the expired ones when a new notification comes, also when the new one is expired', () => {
    const actor = createActor(quietClock()).start();
    actor.send({ type: 'NOTIFY', notification: note('a', 2_000), now: 1_000 });
    actor.send({ type: 'NOTIFY', notification: note('b', 9_000), now: 1_500 });
    actor.send({ type: 'NOTIFY', notification: note('c', 2_500), now: 3_000 });
    expect(actor.getSnapshot().context.notifications.map((n) => n.id)).toEqual(['b']);
    expect(actor.getSnapshot().context.now).toBe(3_000);
    actor.send({ type: 'NOTIFY', notification: note('d', 9_500), now: 9_200 });
    expect(actor.getSnapshot().context.notifications.map((n) => n.id)).toEqual(['d']);
  });

  it('an expired first notification is not shown, but its time counts', () => {
    const actor = createActor(quietClock()).start();
    actor.send({ type: 'NOTIFY', notification: note('a', 1_000), now: 2_000 });
    expect(actor.getSnapshot().value).toBe('empty');
    expect(actor.getSnapshot().context).toEqual({ notifications: [], now: 2_000 });
  });

  it('the default clock stops ticking once nothing is shown', async () => {
    vi.useFakeTimers();
    const cleared = vi.spyOn(globalThis, 'clearInterval');
    const actor = createActor(notificationsMachine).start();
    actor.send({ type: 'NOTIFY', notification: note('a', Date.now() + 1_000), now: Date.now() });
    expect(actor.getSnapshot().value).toBe('showing');
    await vi.advanceTimersByTimeAsync(1_500);
    expect(actor.getSnapshot().value).toBe('empty');
    expect(cleared).toHaveBeenCalled();
    actor.stop();
  });
});

describe('View As edges', () => {
  const user = { role: 'study_helper_coordinator' as const, is_admin: true, congregation: 'c-1' };
  const failing = () => {
    const calls: (string | null)[] = [];
    const machine = viewAsMachine.provide({
      actors: {
        setViewAs: fromPromise<unknown, { congregation: string | null }>(async ({ input }) => {
          calls.push(input.congregation);
          throw new Error('offline');
        }),
      },
      actions: { reloadHome: () => {}, navigateHome: () => {}, reload: () => {} },
    });
    return { actor: createActor(machine, { input: { user } }).start(), calls };
  };

  it('keeps the error of a failed call, and clears it on cancel', async () => {
    const { actor } = failing();
    actor.send({ type: 'ENTER', congregation: 'c-2' });
    const error = await waitFor(actor, (snapshot) => snapshot.matches('error'));
    expect(String(error.context.error)).toContain('offline');
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('an exit after a failed enter asks for no congregation and forgets the old error', async () => {
    const { actor, calls } = failing();
    actor.send({ type: 'ENTER', congregation: 'c-2' });
    await waitFor(actor, (snapshot) => snapshot.matches('error'));
    actor.send({ type: 'CANCEL' });
    actor.send({ type: 'EXIT' });
    expect(actor.getSnapshot().context).toMatchObject({ requestedCongregation: null, error: null });
    await waitFor(actor, (snapshot) => snapshot.matches('error'));
    expect(calls).toEqual(['c-2', null]);
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toBe('exiting');
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});

describe('texts', () => {
  it('an unknown or missing error type reads "Operation failed. Please try again."', () => {
    expect(bannerMessage({ type: 'error', errorType: 'SOMETHING_ELSE' })).toBe('Operation failed. Please try again.');
    expect(bannerMessage({ type: 'error' })).toBe('Operation failed. Please try again.');
    expect(bannerMessage({ type: 'error', errorType: 'toString' })).toBe('Operation failed. Please try again.');
  });

  it('page lengths read as spec §5 names them', () => {
    expect(ANSWER_SHEET_PAGE_LENGTH_LABELS).toEqual({ 0: 'QR code', 1: 'Single-page intro', 2: 'Two-page intro' });
  });
});
