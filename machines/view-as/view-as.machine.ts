// View As: an admin acts as a congregation (POST /api/auth/view-as with {congregation}),
// or stops acting as one (the same call with congregation null), then the app starts over at /.
//
// State hierarchy (flat, id "viewAs"):
//   idle      nothing in flight. ENTER {congregation} → entering (guard canEnter: user is_admin);
//             EXIT → exiting (guard canExit: is_admin, not scanning_admin, has a congregation)
//   entering  invokes actor `setViewAs` with {congregation: id} → done | error
//   exiting   invokes actor `setViewAs` with {congregation: null} → exited | error
//   error     the call failed. RETRY → entering or exiting (the one that failed), CANCEL → idle
//   done      final. Entry action `reloadHome` (the screen goes to / and reloads)
//   exited    final. Entry actions `navigateHome` then `reload`
// USER_CHANGED {user} updates the user the guards look at (e.g. when about-me reloads).
//
// The screen supplies with .provide(): actor `setViewAs` (the HTTP call) and the actions
// `reloadHome`, `navigateHome`, `reload`.
import { assign, fromPromise, setup } from 'xstate';
import type { AboutMe } from '../../generated/hooks/model';

/** The about-me fields the View As rules need. `congregation` is '' (or null) when the user has none. */
export type ViewAsUser = Pick<AboutMe, 'role' | 'is_admin'> & { congregation: AboutMe['congregation'] | null | undefined };

/** "View As" is shown only to users with is_admin. */
export function canEnterViewAs(user: ViewAsUser): boolean {
  return user.is_admin;
}

/** "Exit View As" is shown only when the user is_admin, is not a scanning_admin and has a congregation. */
export function canExitViewAs(user: ViewAsUser): boolean {
  return user.is_admin && user.role !== 'scanning_admin' && Boolean(user.congregation);
}

export interface ViewAsInput {
  user: ViewAsUser;
}

export interface ViewAsContext {
  user: ViewAsUser;
  /** The congregation asked for in the last call; null when it was an exit. */
  requestedCongregation: string | null;
  /** The error of the last failed call, for logging; null otherwise. */
  error: unknown;
}

export type ViewAsEvent =
  | { type: 'ENTER'; congregation: string }
  | { type: 'EXIT' }
  | { type: 'RETRY' }
  | { type: 'CANCEL' }
  | { type: 'USER_CHANGED'; user: ViewAsUser };

/** Input of the `setViewAs` actor: the body of POST /api/auth/view-as. */
export interface SetViewAsInput {
  congregation: string | null;
}

const notProvided = (name: string) => () => {
  throw new Error(`view-as machine: "${name}" must be supplied by the screen with .provide()`);
};

export const viewAsMachine = setup({
  types: {
    input: {} as ViewAsInput,
    context: {} as ViewAsContext,
    events: {} as ViewAsEvent,
  },
  actors: {
    setViewAs: fromPromise<unknown, SetViewAsInput>(async () => notProvided('setViewAs')()),
  },
  actions: {
    reloadHome: notProvided('reloadHome'),
    navigateHome: notProvided('navigateHome'),
    reload: notProvided('reload'),
    rememberEnter: assign({
      requestedCongregation: ({ event }) => (event.type === 'ENTER' ? event.congregation : null),
      error: null,
    }),
    rememberExit: assign({ requestedCongregation: null, error: null }),
    rememberError: assign((_, params: { error: unknown }) => ({ error: params.error })),
    clearError: assign({ error: null }),
    updateUser: assign({ user: ({ context, event }) => (event.type === 'USER_CHANGED' ? event.user : context.user) }),
  },
  guards: {
    canEnter: ({ context, event }) =>
      event.type === 'ENTER' && event.congregation !== '' && canEnterViewAs(context.user),
    canExit: ({ context }) => canExitViewAs(context.user),
    failedOnExit: ({ context }) => context.requestedCongregation === null,
  },
}).createMachine({
  id: 'viewAs',
  context: ({ input }) => ({ user: input.user, requestedCongregation: null, error: null }),
  initial: 'idle',
  on: {
    USER_CHANGED: { actions: 'updateUser' },
  },
  states: {
    idle: {
      on: {
        ENTER: { guard: 'canEnter', target: 'entering', actions: 'rememberEnter' },
        EXIT: { guard: 'canExit', target: 'exiting', actions: 'rememberExit' },
      },
    },
    entering: {
      invoke: {
        id: 'setViewAs',
        src: 'setViewAs',
        input: ({ context }) => ({ congregation: context.requestedCongregation }),
        onDone: { target: 'done' },
        onError: { target: 'error', actions: { type: 'rememberError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    exiting: {
      invoke: {
        id: 'setViewAs',
        src: 'setViewAs',
        input: { congregation: null },
        onDone: { target: 'exited' },
        onError: { target: 'error', actions: { type: 'rememberError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    error: {
      on: {
        RETRY: [
          { guard: 'failedOnExit', target: 'exiting', actions: 'clearError' },
          { target: 'entering', actions: 'clearError' },
        ],
        CANCEL: { target: 'idle', actions: 'clearError' },
      },
    },
    done: {
      type: 'final',
      entry: 'reloadHome',
    },
    exited: {
      type: 'final',
      entry: ['navigateHome', 'reload'],
    },
  },
});
