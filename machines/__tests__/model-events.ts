// Helpers for walking a machine's graph with @xstate/graph (getShortestPaths/getSimplePaths).
//
// Why: getShortestPaths only sends the events it is given, so states entered through an
// invoked actor's result (xstate.done.actor.* / xstate.error.actor.*) or an `after` delay
// would never be reached. `modelEvents` adds, for each snapshot, the given actor results
// and every pending `after` event (sent immediately: the graph has no clock).
import {
  __unsafe_getAllOwnEventDescriptors,
  matchesState,
  type AnyMachineSnapshot,
  type EventObject,
  type StateValue,
} from 'xstate';

/** One fixture per event type: a missing or unknown type fails compilation. */
export type EventFixtures<TEvent extends EventObject> = {
  [K in TEvent['type']]: Extract<TEvent, { type: K }>;
};

/** An event an invoked actor produces, written as a fixture for graph walks. */
export type ActorResultEvent =
  | { type: `xstate.done.actor.${string}`; output?: unknown }
  | { type: `xstate.error.actor.${string}`; error: unknown };

/**
 * The events option for getShortestPaths/getSimplePaths: the user events, the given actor
 * results whose type the snapshot accepts, and the snapshot's pending `after` events.
 */
export function modelEvents<TEvent extends EventObject>(
  userEvents: readonly TEvent[],
  actorResults: readonly ActorResultEvent[] = [],
): (snapshot: AnyMachineSnapshot) => TEvent[] {
  return (snapshot) => {
    const accepted = __unsafe_getAllOwnEventDescriptors(snapshot);
    const delayed = accepted.filter((type) => type.startsWith('xstate.after.')).map((type) => ({ type }));
    const results = actorResults.filter((event) => accepted.includes(event.type));
    // The graph sends these through machine.transition, which accepts any event object.
    return [...userEvents, ...results, ...delayed] as unknown as TEvent[];
  };
}

type StateNodeLike = {
  id: string;
  path: string[];
  always?: readonly { guard?: unknown }[] | undefined;
  states: Record<string, StateNodeLike>;
};

/**
 * Ids of every state node of a machine that a snapshot can rest in. Transient states
 * (left at once through an unguarded `always`) are never observable, so they are left out.
 */
export function restingStateIds(machine: { root: unknown }): string[] {
  const ids: string[] = [];
  const visit = (node: StateNodeLike): void => {
    for (const child of Object.values(node.states)) {
      const transient = child.always?.some((transition) => !transition.guard) ?? false;
      if (!transient) ids.push(child.id);
      visit(child);
    }
  };
  visit(machine.root as StateNodeLike);
  return ids;
}

/** The resting state ids (see restingStateIds) that none of the given snapshots is in. */
export function unreachedStateIds(
  machine: { root: unknown },
  snapshots: readonly { value: StateValue }[],
): string[] {
  const root = machine.root as StateNodeLike;
  const pathOf = new Map<string, string>();
  const index = (node: StateNodeLike): void => {
    for (const child of Object.values(node.states)) {
      pathOf.set(child.id, child.path.join('.'));
      index(child);
    }
  };
  index(root);
  return restingStateIds(machine).filter((id) => {
    const path = pathOf.get(id) as string;
    return !snapshots.some((snapshot) => matchesState(path, snapshot.value));
  });
}
