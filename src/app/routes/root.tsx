// The root of every route: reads the signed-in user and shows the access screen that applies
// (login landing, unauthorised, No Group Assigned) or the app chrome around the route's screen.
import { Outlet } from 'react-router-dom';
import { useGetMe } from '../../../generated/hooks/auth/auth';
import { accessFor, CurrentUserContext } from '../../lib/auth';
import { AppLayout } from '../../components/layout/app-layout';
import { Loading } from '../../components/ui/loading';
import { LoginLanding } from '../../features/auth/login-landing';
import { Unauthorised } from '../../features/auth/unauthorised';
import { NoGroup } from '../../components/ui/no-group';
import { LoadError } from '../../features/auth/load-error';

export function RootRoute() {
  const me = useGetMe();
  if (me.isPending) return <Loading label="Signing in" />;
  const user = me.data;
  switch (accessFor(user, me.error)) {
    case 'sign-in':
      return <LoginLanding />;
    case 'unauthorised':
      return <Unauthorised />;
    case 'error':
      return <LoadError onRetry={() => void me.refetch()} />;
    case 'no-group':
      return (
        <CurrentUserContext.Provider value={user ?? null}>
          <AppLayout user={user!} showTabs={false}>
            <NoGroup email={user!.email} />
          </AppLayout>
        </CurrentUserContext.Provider>
      );
    case 'app':
      return (
        <CurrentUserContext.Provider value={user ?? null}>
          <AppLayout user={user!}>
            <Outlet />
          </AppLayout>
        </CurrentUserContext.Provider>
      );
  }
}
