import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { getShortestPaths } from '@xstate/graph';
import { modelEvents, restingStateIds, unreachedStateIds } from '../../__tests__/model-events';
import { canEnterViewAs, canExitViewAs, viewAsMachine, type SetViewAsInput, type ViewAsUser } from '../view-as.machine';
import { viewAsActorResults, viewAsEventFixtures, viewAsModelInput } from './view-as.fixtures';

const adminCoordinator: ViewAsUser = { role: 'study_helper_coordinator', is_admin: true, congregation: 'c-1' };
const scanningAdmin: ViewAsUser = { role: 'scanning_admin', is_admin: true, congregation: 'c-1' };
const coordinator: ViewAsUser = { role: 'study_helper_coordinator', is_admin: false, congregation: 'c-1' };

function start(user: ViewAsUser, setViewAs: (input: SetViewAsInput) => Promise<unknown> = async () => ({})) {
  const calls: SetViewAsInput[] = [];
  const effects: string[] = [];
  const machine = viewAsMachine.provide({
    actors: {
      setViewAs: fromPromise<unknown, SetViewAsInput>(async ({ input }) => {
        calls.push(input);
        return setViewAs(input);
      }),
    },
    actions: {
      reloadHome: () => void effects.push('reloadHome'),
      navigateHome: () => void effects.push('navigateHome'),
      reload: () => void effects.push('reload'),
    },
  });
  const actor = createActor(machine, { input: { user } }).start();
  return { actor, calls, effects };
}

describe('canEnterViewAs / canExitViewAs', () => {
  it.each([
    [{ role: 'scanning_admin', is_admin: true, congregation: '' }, true, false],
    [{ role: 'scanning_admin', is_admin: true, congregation: 'c-1' }, true, false],
    [{ role: 'study_helper_coordinator', is_admin: true, congregation: 'c-1' }, true, true],
    [{ role: 'standard_user', is_admin: true, congregation: 'c-1' }, true, true],
    [{ role: 'study_helper_coordinator', is_admin: true, congregation: '' }, true, false],
    [{ role: 'study_helper_coordinator', is_admin: true, congregation: null }, true, false],
    [{ role: 'study_helper_coordinator', is_admin: false, congregation: 'c-1' }, false, false],
    [{ role: 'scanning_admin', is_admin: false, congregation: 'c-1' }, false, false],
  ] as [ViewAsUser, boolean, boolean][])('%o → enter %s, exit %s', (user, enter, exit) => {
    expect(canEnterViewAs(user)).toBe(enter);
    expect(canExitViewAs(user)).toBe(exit);
  });
});

describe('viewAsMachine', () => {
  it('enters a congregation, then reloads home', async () => {
    const { actor, calls, effects } = start(scanningAdmin);
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'ENTER', congregation: 'c-9' });
    expect(actor.getSnapshot().value).toBe('entering');
    await waitFor(actor, (s) => s.matches('done'));
    expect(calls).toEqual([{ congregation: 'c-9' }]);
    expect(effects).toEqual(['reloadHome']);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('ignores ENTER from a user who is not an admin, and ENTER without a congregation', () => {
    const { actor, calls } = start(coordinator);
    actor.send({ type: 'ENTER', congregation: 'c-9' });
    expect(actor.getSnapshot().value).toBe('idle');
    const admin = start(adminCoordinator);
    admin.actor.send({ type: 'ENTER', congregation: '' });
    expect(admin.actor.getSnapshot().value).toBe('idle');
    expect([...calls, ...admin.calls]).toEqual([]);
  });

  it('exits with congregation null, then navigates to / and reloads, in that order', async () => {
    const { actor, calls, effects } = start(adminCoordinator);
    actor.send({ type: 'EXIT' });
    expect(actor.getSnapshot().value).toBe('exiting');
    await waitFor(actor, (s) => s.matches('exited'));
    expect(calls).toEqual([{ congregation: null }]);
    expect(effects).toEqual(['navigateHome', 'reload']);
  });

  it('refuses EXIT for a scanning admin, a non-admin and a user without a congregation', () => {
    for (const user of [scanningAdmin, coordinator, { ...adminCoordinator, congregation: '' }]) {
      const { actor } = start(user);
      actor.send({ type: 'EXIT' });
      expect(actor.getSnapshot().value).toBe('idle');
    }
  });

  it('USER_CHANGED changes what the guards allow', () => {
    const { actor } = start(coordinator);
    actor.send({ type: 'USER_CHANGED', user: adminCoordinator });
    actor.send({ type: 'EXIT' });
    expect(actor.getSnapshot().value).toBe('exiting');
  });

  it('a failed enter goes to error; RETRY calls again with the same congregation', async () => {
    const failure = { status: 500 };
    let attempts = 0;
    const { actor, calls, effects } = start(adminCoordinator, async () => {
      attempts += 1;
      if (attempts === 1) throw failure;
      return {};
    });
    actor.send({ type: 'ENTER', congregation: 'c-2' });
    await waitFor(actor, (s) => s.matches('error'));
    expect(actor.getSnapshot().context.error).toBe(failure);
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toBe('entering');
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches('done'));
    expect(calls).toEqual([{ congregation: 'c-2' }, { congregation: 'c-2' }]);
    expect(effects).toEqual(['reloadHome']);
  });

  it('a failed exit retries as an exit; CANCEL returns to idle without side effects', async () => {
    const { actor, calls, effects } = start(adminCoordinator, async () => {
      throw new TypeError('Failed to fetch');
    });
    actor.send({ type: 'EXIT' });
    await waitFor(actor, (s) => s.matches('error'));
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toBe('exiting');
    await waitFor(actor, (s) => s.matches('error'));
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toEqual([{ congregation: null }, { congregation: null }]);
    expect(effects).toEqual([]);
  });

  it('without a provided setViewAs the call fails loudly into error', async () => {
    const actor = createActor(viewAsMachine, { input: { user: adminCoordinator } }).start();
    actor.send({ type: 'ENTER', congregation: 'c-2' });
    await waitFor(actor, (s) => s.matches('error'));
    expect(String(actor.getSnapshot().context.error)).toMatch(/setViewAs.*provide/);
  });

  it('reaches every state through the event fixtures (graph)', () => {
    const paths = getShortestPaths(viewAsMachine, {
      input: viewAsModelInput,
      events: modelEvents(Object.values(viewAsEventFixtures), viewAsActorResults),
    });
    expect(restingStateIds(viewAsMachine).sort()).toEqual(
      ['viewAs.done', 'viewAs.entering', 'viewAs.error', 'viewAs.exited', 'viewAs.exiting', 'viewAs.idle'].sort(),
    );
    expect(unreachedStateIds(viewAsMachine, paths.map((p) => p.state))).toEqual([]);
  });
});
