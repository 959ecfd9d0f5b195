// @vitest-environment happy-dom
// The one route registry covers the spec's route table, every route renders its screen inside the
// chrome, and unknown addresses get the not-found screen.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { paths, routes } from '../../src/config/paths';
import { http, HttpResponse } from 'msw';
import { renderApp, setupMockApi } from '../../src/testing/test-utils';
import { server } from '../../src/testing/mocks/server';
import { DEMO_CONGREGATION_ID } from '../../src/testing/mocks/handlers';
import { seedWorld } from '../../src/testing/mocks/world/world';

setupMockApi();

/** The route table of spec §2, as written there. */
const SPEC_ROUTE_TABLE = [
  '/',
  '/admin/',
  '/graded',
  '/resources',
  '/baptism-requests/',
  '/files/',
  '/students/',
  '/study-helpers/',
  '/admin/congregations/',
  '/admin/congregations/{group_id}/',
  '/admin/congregations/{group_id}/files',
  '/admin/congregations/{group_id}/study-helpers',
  '/admin/service-centers/',
  '/admin/service-centers/{service_center_id}',
  '/admin/pages/{page_id}',
  '/file/{file_id}/',
  '/file/{file_id}/responses',
  '/files/uploads/',
  '/files/uploads/{id}',
  '/responses/{response_id}/',
  '/responses/{response_id}/student-info',
  '/students/{student_id}/',
  '/students/{student_id}/uploads/{upload_id}',
  '/students/{student_id}/graded/{upload_id}',
  '/study-helpers/{helper_id}/',
  '/study-helpers/{helper_id}/students/{student_id}',
];

/** Routes beyond the spec's table: a congregation's Emails tile, the Mail record and the Profile (issue 33). */
const ADDED_ROUTES = ['/admin/congregations/{group_id}/emails', '/admin/mail', '/profile'];

describe('the route registry', () => {
  it('has exactly the routes of the spec\'s route table and the added ones', () => {
    const fromSpec = [...SPEC_ROUTE_TABLE, ...ADDED_ROUTES].map((route) => route.replace(/\{(\w+)\}/g, ':$1')).sort();
    expect(Object.values(routes).map((route) => route.pattern).sort()).toEqual(fromSpec);
  });

  it('builds links for every route', () => {
    expect(paths.home()).toBe('/');
    expect(paths.files()).toBe('/files');
    expect(paths.files('print')).toBe('/files?mode=print');
    expect(paths.students({ country: 'GH', studyHelper: 'h-1' })).toBe('/students?country=GH&studyHelper=h-1');
    expect(paths.students()).toBe('/students');
    expect(paths.student('s 1')).toBe('/students/s%201');
    expect(paths.studentUpload('s1', 'u1')).toBe('/students/s1/uploads/u1');
    expect(paths.studentGraded('s1', 'u1')).toBe('/students/s1/graded/u1');
    expect(paths.congregationFiles('g1')).toBe('/admin/congregations/g1/files');
    expect(paths.congregationStudyHelpers('g1')).toBe('/admin/congregations/g1/study-helpers');
    expect(paths.congregationEmails('g1')).toBe('/admin/congregations/g1/emails');
    expect(paths.mail()).toBe('/admin/mail');
    expect(paths.profile()).toBe('/profile');
    expect(paths.uploads({ groupId: 'g1' })).toBe('/files/uploads?groupId=g1');
    expect(paths.upload('u1')).toBe('/files/uploads/u1');
    expect(paths.file('f1')).toBe('/file/f1');
    expect(paths.fileResponses('f1')).toBe('/file/f1/responses');
    expect(paths.response('r1')).toBe('/responses/r1');
    expect(paths.responseStudentInfo('r1')).toBe('/responses/r1/student-info');
    expect(paths.serviceCenter('sc1')).toBe('/admin/service-centers/sc1');
    expect(paths.page('p1')).toBe('/admin/pages/p1');
    expect(paths.studyHelper('h1')).toBe('/study-helpers/h1');
    expect(paths.studyHelperStudent('h1', 's1')).toBe('/study-helpers/h1/students/s1');
  });
});

const ID = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';
// Records of the mock world the screens load (the default world, as every test starts on it).
const world = seedWorld('default');
const SENT_FILE = world.files.find((file) => file.sent_at !== null)!;
const SHEET = world.sheets.find((sheet) => sheet.fileId === SENT_FILE.id && sheet.studentId !== null)!;
const FILE = SENT_FILE.id;
const RESPONSE = SHEET.id;
const STUDENT = SHEET.studentId!;
const PAGE = world.pages.find((page) => page.sheetId === SHEET.id)!.id;
const HELPER = world.studyHelpers[0]!.id;

describe('every route renders its screen in the chrome', () => {
  it.each([
    ['/', 'Admin'],
    ['/admin/', 'Admin'],
    ['/graded', routes.graded.title],
    ['/resources', 'Resources Page'],
    ['/baptism-requests/', routes.baptismRequests.title],
    ['/files/', routes.files.title],
    ['/files?mode=print', 'Ready to Print'],
    ['/students/', 'Students'],
    ['/study-helpers/', 'Study Helpers'],
    ['/admin/congregations/', 'Congregations'],
    [`/admin/congregations/${DEMO_CONGREGATION_ID}/`, routes.congregation.title],
    [`/admin/congregations/${DEMO_CONGREGATION_ID}/files`, routes.congregationFiles.title],
    [`/admin/congregations/${DEMO_CONGREGATION_ID}/study-helpers`, routes.congregationStudyHelpers.title],
    [`/admin/congregations/${DEMO_CONGREGATION_ID}/emails`, routes.congregationEmails.title],
    ['/admin/mail', routes.mail.title],
    ['/profile', routes.profile.title],
    ['/admin/service-centers/', routes.serviceCenters.title],
    [`/admin/pages/${PAGE}`, routes.page.title],
    [`/file/${FILE}/`, routes.file.title],
    [`/file/${FILE}/responses`, routes.fileResponses.title],
    ['/files/uploads/', routes.uploads.title],
    ['/files/uploads/?groupId=x', routes.uploads.title],
    [`/files/uploads/${ID}`, 'Feedback Upload Page'],
    [`/responses/${RESPONSE}/`, routes.response.title],
    [`/responses/${RESPONSE}/student-info`, routes.responseStudentInfo.title],
    [`/students/${STUDENT}/`, routes.student.title],
    [`/students/${STUDENT}/uploads/${RESPONSE}`, routes.studentUpload.title],
    [`/students/${STUDENT}/graded/${RESPONSE}`, routes.studentGraded.title],
    [`/study-helpers/${HELPER}/`, 'Admin'],
    [`/study-helpers/${HELPER}/students/${STUDENT}`, routes.studyHelperStudent.title],
    ['/no/such/page', 'Page Not Found'],
  ])('%s shows "%s"', async (address, heading) => {
    renderApp(address, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  // The service center page is headed by the center's own name (with its flag).
  it('/admin/service-centers/{service_center_id} shows the service center\'s name', async () => {
    server.use(
      http.get('*/api/service_centers/:id', () =>
        HttpResponse.json({
          id: ID,
          name: 'Accra Service Center',
          location: 'Accra',
          country: { iso_code: 'GH', display_name: 'Ghana' },
          created_at: '2024-01-01T00:00:00Z',
        }),
      ),
    );
    renderApp(`/admin/service-centers/${ID}`, { as: 'admin' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ghana Accra Service Center' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  it('shows the congregation dashboard at /study-helpers/{helper_id}/ for a coordinator', async () => {
    renderApp(`/study-helpers/${ID}/`, { as: 'coordinator' });
    expect(await screen.findByRole('heading', { level: 1, name: 'US 1234' })).toBeTruthy();
  });
});
