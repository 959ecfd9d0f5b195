// View As (spec §4): an is_admin user acts as a congregation, or stops acting as one; the app then
// starts over at /. Runs the view-as machine with the real call and full-page navigations.
import { useEffect } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import {
  canEnterViewAs,
  canExitViewAs,
  viewAsMachine,
  type SetViewAsInput,
} from '../../machines/view-as/view-as.machine';
import { setViewAs } from '../../generated/hooks/auth/auth';
import type { CurrentUser } from './auth';
import { browserLocation } from './browser-location';

const HOME = '/';

const appViewAsMachine = viewAsMachine.provide({
  actors: {
    setViewAs: fromPromise<unknown, SetViewAsInput>(({ input }) =>
      setViewAs({ congregation: input.congregation }),
    ),
  },
  actions: {
    reloadHome: () => browserLocation.assign(HOME),
    navigateHome: () => browserLocation.pushPath(HOME),
    reload: () => browserLocation.reload(),
  },
});

export interface ViewAs {
  /** "View As" is offered (is_admin). */
  canEnter: boolean;
  /** "Exit View As" is offered (is_admin, not a scanning_admin, has a congregation). */
  canExit: boolean;
  /** A call is in flight. */
  busy: boolean;
  /** The last call failed (the error is logged). */
  failed: boolean;
  enter: (congregationId: string) => void;
  exit: () => void;
  retry: () => void;
  cancel: () => void;
}

export function useViewAs(user: CurrentUser): ViewAs {
  const [snapshot, send] = useMachine(appViewAsMachine, { input: { user } });
  useEffect(() => {
    send({ type: 'USER_CHANGED', user });
  }, [send, user]);
  useEffect(() => {
    if (snapshot.context.error) console.error('View As failed', snapshot.context.error);
  }, [snapshot.context.error]);
  return {
    canEnter: canEnterViewAs(user),
    canExit: canExitViewAs(user),
    busy: snapshot.matches('entering') || snapshot.matches('exiting'),
    failed: snapshot.matches('error'),
    enter: (congregationId) => send({ type: 'ENTER', congregation: congregationId }),
    exit: () => send({ type: 'EXIT' }),
    retry: () => send({ type: 'RETRY' }),
    cancel: () => send({ type: 'CANCEL' }),
  };
}
