// The MSW handlers of the whole contract (generated from openapi/, with faker data) and fixed
// signed-in users, shared by `npm run dev:mock` (browser worker) and the web tests (msw/node).
import { http, HttpResponse, type RequestHandler } from 'msw';
import type { AboutMe } from '../../../generated/hooks/model';
import { getAnswerSheetsMock } from '../../../generated/hooks/answer-sheets/answer-sheets.msw';
import { getAuthMock } from '../../../generated/hooks/auth/auth.msw';
import { getBaptismMock } from '../../../generated/hooks/baptism/baptism.msw';
import { getCongregationsMock } from '../../../generated/hooks/congregations/congregations.msw';
import { getDatabaseMock } from '../../../generated/hooks/database/database.msw';
import { getFilesMock } from '../../../generated/hooks/files/files.msw';
import { getHealthMock } from '../../../generated/hooks/health/health.msw';
import { getPagesMock } from '../../../generated/hooks/pages/pages.msw';
import { getProgressMock } from '../../../generated/hooks/progress/progress.msw';
import { getQrMock } from '../../../generated/hooks/qr/qr.msw';
import { getReferenceMock } from '../../../generated/hooks/reference/reference.msw';
import { getServiceCentersMock } from '../../../generated/hooks/service-centers/service-centers.msw';
import { getStudentsMock } from '../../../generated/hooks/students/students.msw';
import { getStudyHelpersMock } from '../../../generated/hooks/study-helpers/study-helpers.msw';
import { getUploadsMock } from '../../../generated/hooks/uploads/uploads.msw';

/** Every generated handler (random but contract-shaped answers). */
export function generatedHandlers(): RequestHandler[] {
  return [
    ...getAnswerSheetsMock(),
    ...getAuthMock(),
    ...getBaptismMock(),
    ...getCongregationsMock(),
    ...getDatabaseMock(),
    ...getFilesMock(),
    ...getHealthMock(),
    ...getPagesMock(),
    ...getProgressMock(),
    ...getQrMock(),
    ...getReferenceMock(),
    ...getServiceCentersMock(),
    ...getStudentsMock(),
    ...getStudyHelpersMock(),
    ...getUploadsMock(),
  ];
}

export const DEMO_CONGREGATION_ID = '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b';

/** The signed-in users a mock can play, by the name `?as=` takes. null: nobody signed in (401). */
export const MOCK_USERS = {
  admin: { email: 'admin@demo.local', role: 'scanning_admin', congregation: '', is_admin: true, wbs_code: '', display_name: '' },
  coordinator: {
    email: 'coordinator@demo.local',
    role: 'study_helper_coordinator',
    congregation: DEMO_CONGREGATION_ID,
    is_admin: false,
    wbs_code: 'US 1234',
    display_name: 'Springfield North',
  },
  /** An admin acting as a congregation (View As): sees "Exit View As". */
  'view-as': {
    email: 'admin@demo.local',
    role: 'study_helper_coordinator',
    congregation: DEMO_CONGREGATION_ID,
    is_admin: true,
    wbs_code: 'US 1234',
    display_name: 'Springfield North',
  },
  user: {
    email: 'member@demo.local',
    role: 'standard_user',
    congregation: DEMO_CONGREGATION_ID,
    is_admin: false,
    wbs_code: 'US 1234',
    display_name: 'Springfield North',
  },
  'no-group': { email: 'Newcomer@Demo.Local', role: 'standard_user', congregation: '', is_admin: false, wbs_code: '', display_name: '' },
  'no-email': { email: '', role: 'standard_user', congregation: '', is_admin: false },
  'signed-out': null,
} as const satisfies Record<string, AboutMe | null>;

export type MockRole = keyof typeof MOCK_USERS;

export function isMockRole(value: string | null | undefined): value is MockRole {
  return value !== null && value !== undefined && Object.hasOwn(MOCK_USERS, value);
}

/** GET /api/auth/me answering as the user of `role()` at the time of each request. */
export function meHandler(role: () => MockRole): RequestHandler {
  return http.get('*/api/auth/me', () => {
    const user = MOCK_USERS[role()];
    if (user === null) return HttpResponse.json({ detail: 'Not signed in' }, { status: 401 });
    return HttpResponse.json<AboutMe>({ ...user });
  });
}
