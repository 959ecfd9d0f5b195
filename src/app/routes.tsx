// The app's route objects, built from the one registry in config/paths.ts. Each screen is a lazily
// loaded module under features/ whose default export is the screen component.
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { routes, type RouteEntry } from '../config/paths';
import { isScanningAdmin, useCurrentUser } from '../lib/auth';
import { NotAllowed } from '../features/auth/not-allowed';
import { Loading } from '../components/ui/loading';
import { RootRoute } from './routes/root';
import { RouteError } from './routes/route-error';

type ScreenModule = { default: ComponentType };

type LazyScreen = () => Promise<{ Component: ComponentType }>;

/** A route's `lazy`: loads the screen module when the route is first visited. */
function screen(load: () => Promise<ScreenModule>): LazyScreen {
  return async () => ({ Component: (await load()).default });
}

/** An admin-only route: other roles get "Not Allowed" (no admin buttons, no failing lists). */
function adminOnly(lazy: LazyScreen): LazyScreen {
  return async () => {
    const { Component: Screen } = await lazy();
    return {
      Component: function AdminOnlyScreen() {
        return isScanningAdmin(useCurrentUser()) ? <Screen /> : <NotAllowed />;
      },
    };
  };
}

const home = screen(() => import('../features/dashboard/home-dashboard'));

/** The screen module of every route of the registry (one line per route of the spec's table). */
const screens: Record<keyof typeof routes, LazyScreen> = {
  home,
  adminHome: screen(() => import('../features/dashboard/admin-dashboard')),
  graded: screen(() => import('../features/graded/graded-list')),
  resources: screen(() => import('../features/resources/resources-page')),
  baptismRequests: screen(() => import('../features/baptism-requests/baptism-requests-list')),
  files: screen(() => import('../features/files/files-list')),
  students: screen(() => import('../features/students/students-list')),
  studyHelpers: screen(() => import('../features/study-helpers/study-helpers-list')),
  congregations: screen(() => import('../features/congregations/congregations-list')),
  congregation: screen(() => import('../features/congregations/congregation-home')),
  congregationFiles: screen(() => import('../features/congregations/congregation-files')),
  congregationStudyHelpers: screen(() => import('../features/congregations/congregation-study-helpers')),
  congregationEmails: screen(() => import('../features/congregations/congregation-emails')),
  mail: screen(() => import('../features/mail/mail-list')),
  profile: screen(() => import('../features/mail/profile-settings')),
  serviceCenters: screen(() => import('../features/service-centers/service-centers-list')),
  serviceCenter: screen(() => import('../features/service-centers/service-center-detail')),
  page: screen(() => import('../features/pages/page-info')),
  file: screen(() => import('../features/files/file-detail')),
  fileResponses: screen(() => import('../features/files/file-responses')),
  uploads: screen(() => import('../features/uploads/uploads-list')),
  upload: screen(() => import('../features/uploads/feedback-upload')),
  response: screen(() => import('../features/responses/response-detail')),
  responseStudentInfo: screen(() => import('../features/responses/response-student-info')),
  student: screen(() => import('../features/students/student-detail')),
  studentUpload: screen(() => import('../features/students/student-upload-scans')),
  studentGraded: screen(() => import('../features/students/student-graded-scans')),
  // "Same dashboard as the home page" (spec route table).
  studyHelper: home,
  studyHelperStudent: screen(() => import('../features/study-helpers/study-helper-student')),
};

function isAdminOnly(id: string): boolean {
  const entry: RouteEntry = routes[id as keyof typeof routes];
  return entry.adminOnly === true;
}

export const appRoutes: RouteObject[] = [
  {
    path: '/',
    element: <RootRoute />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <Loading />,
    children: [
      ...Object.entries(screens).map(([id, lazy]): RouteObject =>
        id === 'home'
          ? { index: true, lazy }
          : { path: routes[id as keyof typeof routes].pattern, lazy: isAdminOnly(id) ? adminOnly(lazy) : lazy },
      ),
      { path: '*', lazy: screen(() => import('../features/misc/not-found')) },
    ],
  },
];
