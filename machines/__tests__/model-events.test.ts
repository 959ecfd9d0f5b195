import { describe, expect, it } from 'vitest';
import { fromPromise, setup } from 'xstate';
import { getShortestPaths } from '@xstate/graph';
import { modelEvents, restingStateIds, unreachedStateIds } from './model-events';

const machine = setup({
  types: { events: {} as { type: 'GO' } | { type: 'NEVER_SENT' } },
  actors: { job: fromPromise<number>(async () => 1) },
  delays: { lock: 5000 },
}).createMachine({
  id: 'm',
  initial: 'a',
  states: {
    a: { on: { GO: 'b', NEVER_SENT: 'lonely' } },
    b: { invoke: { id: 'job', src: 'job', onDone: 'c', onError: 'failed' } },
    c: { after: { lock: 'd' } },
    d: { initial: 'passing', states: { passing: { always: 'settled' }, settled: {} } },
    failed: { always: { guard: () => false, target: 'a' } },
    lonely: {},
  },
});

describe('modelEvents', () => {
  it('adds actor results the snapshot accepts and pending after events', () => {
    const paths = getShortestPaths(machine, {
      events: modelEvents([{ type: 'GO' }], [{ type: 'xstate.done.actor.job', output: 1 }, { type: 'xstate.error.actor.job', error: 'x' }]),
    });
    const byValue = Object.fromEntries(paths.map((p) => [JSON.stringify(p.state.value), p.steps.map((s) => s.event.type)]));
    expect(byValue['"c"']).toEqual(['xstate.init', 'GO', 'xstate.done.actor.job']);
    expect(byValue['"failed"']).toEqual(['xstate.init', 'GO', 'xstate.error.actor.job']);
    expect(byValue['{"d":"settled"}']).toEqual(['xstate.init', 'GO', 'xstate.done.actor.job', 'xstate.after.lock.m.c']);
  });
});

describe('restingStateIds / unreachedStateIds', () => {
  it('lists every state a snapshot can rest in, without transient ones (guarded always still rests)', () => {
    expect(restingStateIds(machine)).toEqual(['m.a', 'm.b', 'm.c', 'm.d', 'm.d.settled', 'm.failed', 'm.lonely']);
  });

  it('names the states no path reaches', () => {
    const paths = getShortestPaths(machine, { events: modelEvents([{ type: 'GO' }]) });
    expect(unreachedStateIds(machine, paths.map((p) => p.state))).toEqual(['m.c', 'm.d', 'm.d.settled', 'm.failed', 'm.lonely']);
  });
});
