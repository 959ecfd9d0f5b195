// The events, actor results and inputs the model tests walk the view-as machine's graph with
// (machines/view-as/__tests__ and tests/model): test material, kept out of the bundle.
import type { ViewAsEvent, ViewAsInput, ViewAsUser } from '../view-as.machine';
import type { ActorResultEvent, EventFixtures } from '../../__tests__/model-events';

/** A user for whom both View As and Exit View As are allowed (an admin coordinator with a congregation). */
const adminCoordinator: ViewAsUser = { role: 'study_helper_coordinator', is_admin: true, congregation: 'c-1' };

/** One example of every event, for model-based tests. */
export const viewAsEventFixtures = {
  ENTER: { type: 'ENTER', congregation: 'c-2' },
  EXIT: { type: 'EXIT' },
  RETRY: { type: 'RETRY' },
  CANCEL: { type: 'CANCEL' },
  USER_CHANGED: { type: 'USER_CHANGED', user: adminCoordinator },
} satisfies EventFixtures<ViewAsEvent>;

/** Results of the `setViewAs` actor, for graph walks. */
export const viewAsActorResults: readonly ActorResultEvent[] = [
  { type: 'xstate.done.actor.setViewAs', output: {} },
  { type: 'xstate.error.actor.setViewAs', error: { status: 500 } },
];

/** An input under which every state is reachable. */
export const viewAsModelInput: ViewAsInput = { user: adminCoordinator };
