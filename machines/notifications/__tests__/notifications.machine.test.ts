import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { getShortestPaths } from '@xstate/graph';
import { modelEvents, unreachedStateIds } from '../../__tests__/model-events';
import {
  NOTIFICATION_CLOCK_MS,
  isLive,
  notificationsMachine,
  type Notification,
  type NotificationsEvent,
} from '../notifications.machine';
import { notificationsEventFixtures } from './notifications.fixtures';

const note = (id: string, deadline: number, message = `message ${id}`): Notification => ({
  id,
  message,
  severity: 'info',
  deadline,
});

/** A clock the test drives by hand; it records when the machine starts and stops it. */
function manualClock() {
  const log: string[] = [];
  let sendBack: ((event: NotificationsEvent) => void) | null = null;
  const logic = fromCallback<NotificationsEvent>(({ sendBack: send }) => {
    log.push('start');
    sendBack = send;
    return () => {
      log.push('stop');
      sendBack = null;
    };
  });
  return { logic, log, tick: (now: number) => sendBack?.({ type: 'TICK', now }) };
}

function start() {
  const clock = manualClock();
  const actor = createActor(notificationsMachine.provide({ actors: { clock: clock.logic } })).start();
  return { actor, clock, ids: () => actor.getSnapshot().context.notifications.map((n) => n.id) };
}

describe('isLive', () => {
  it('is true only before the deadline', () => {
    expect(isLive(note('a', 1000), 999)).toBe(true);
    expect(isLive(note('a', 1000), 1000)).toBe(false);
    expect(isLive(note('a', 1000), 1001)).toBe(false);
  });
});

describe('notificationsMachine', () => {
  afterEach(() => void vi.useRealTimers());

  it('NOTIFY adds in order, a same id replaces in place, DISMISS removes', () => {
    const { actor, ids } = start();
    expect(actor.getSnapshot().value).toBe('empty');
    actor.send({ type: 'NOTIFY', notification: note('a', 5000), now: 1000 });
    expect(actor.getSnapshot().value).toBe('showing');
    actor.send({ type: 'NOTIFY', notification: note('b', 5000), now: 1100 });
    actor.send({ type: 'NOTIFY', notification: note('a', 6000, 'again'), now: 1200 });
    expect(ids()).toEqual(['a', 'b']);
    expect(actor.getSnapshot().context.notifications[0]).toEqual(note('a', 6000, 'again'));
    actor.send({ type: 'DISMISS', id: 'a' });
    expect(ids()).toEqual(['b']);
    actor.send({ type: 'DISMISS', id: 'unknown' });
    expect(ids()).toEqual(['b']);
    actor.send({ type: 'DISMISS', id: 'b' });
    expect(actor.getSnapshot().value).toBe('empty');
    expect(ids()).toEqual([]);
  });

  it('TICK removes each notification when its deadline passes', () => {
    const { actor, clock, ids } = start();
    actor.send({ type: 'NOTIFY', notification: note('soon', 2000), now: 1000 });
    actor.send({ type: 'NOTIFY', notification: note('later', 4000), now: 1000 });
    clock.tick(1999);
    expect(ids()).toEqual(['soon', 'later']);
    clock.tick(2000);
    expect(ids()).toEqual(['later']);
    expect(actor.getSnapshot().value).toBe('showing');
    clock.tick(4000);
    expect(actor.getSnapshot().value).toBe('empty');
    expect(actor.getSnapshot().context.now).toBe(4000);
  });

  it('a notification whose deadline already passed is never shown', () => {
    const { actor, clock, ids } = start();
    actor.send({ type: 'NOTIFY', notification: note('stale', 1000), now: 1000 });
    expect(actor.getSnapshot().value).toBe('empty');
    expect(clock.log).toEqual([]);
    actor.send({ type: 'NOTIFY', notification: note('live', 9000), now: 1000 });
    clock.tick(5000);
    // NOTIFY carries an older "now" than the clock already reported: the deadline still counts as passed.
    actor.send({ type: 'NOTIFY', notification: note('late', 4000), now: 3000 });
    expect(ids()).toEqual(['live']);
  });

  it('runs the clock only while something is shown', () => {
    const { actor, clock } = start();
    expect(clock.log).toEqual([]);
    actor.send({ type: 'NOTIFY', notification: note('a', 2000), now: 1000 });
    expect(clock.log).toEqual(['start']);
    clock.tick(2500);
    expect(clock.log).toEqual(['start', 'stop']);
    actor.send({ type: 'TICK', now: 9000 });
    expect(actor.getSnapshot().context.now).toBe(2500);
  });

  it('the default clock removes a notification once its deadline passes', () => {
    vi.useFakeTimers();
    vi.setSystemTime(10_000);
    const actor = createActor(notificationsMachine).start();
    actor.send({ type: 'NOTIFY', notification: note('a', 11_000), now: Date.now() });
    vi.advanceTimersByTime(1_000 - NOTIFICATION_CLOCK_MS);
    expect(actor.getSnapshot().value).toBe('showing');
    vi.advanceTimersByTime(NOTIFICATION_CLOCK_MS);
    expect(actor.getSnapshot().value).toBe('empty');
    actor.stop();
  });

  it('reaches every state through the event fixtures (graph)', () => {
    const paths = getShortestPaths(notificationsMachine, {
      events: modelEvents(Object.values(notificationsEventFixtures)),
    });
    expect(unreachedStateIds(notificationsMachine, paths.map((p) => p.state))).toEqual([]);
    const values = new Set(paths.map((p) => p.state.value));
    expect(values).toEqual(new Set(['empty', 'showing']));
  });
});
