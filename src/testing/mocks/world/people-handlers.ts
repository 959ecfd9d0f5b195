// The mock world's people and places (spec §7 "Students", "Baptism", "Service centers",
// "Congregations", "Study helpers", "Reference", "Database"): lists over the world's rows, and
// the calls that add to them or change them.
import { http, type RequestHandler } from 'msw';
import type { components } from '../../../../generated/api-types';
import { contains, forbidden, json, notFound, paged, pdf, refusal, sorted, uses, type WorldAccess } from './http';
import { baptismView, congregationStats, sheetView, studentView, studyHelperView } from './views';
import { newId, seedWorld, tick, type StudentRow, type World } from './world';

type S = components['schemas'];

/** A congregation WBS code as spec §5 wants it: longer than 5, one space, not in the first two places. */
const validWbsCode = (code: string) => code.length > 5 && code.split(' ').length === 2 && code.indexOf(' ') >= 2;

export function peopleHandlers(access: WorldAccess, replaceWorld: (world: World) => void): RequestHandler[] {
  const { world, viewer } = access;
  const mayAct = (congregationId: string | null) => viewer() === null || congregationId === viewer();
  const studentOf = (id: string | undefined) => world().students.find((student) => student.id === id && mayAct(student.congregationId));
  const helperOf = (id: string | undefined) => world().studyHelpers.find((helper) => helper.id === id && mayAct(helper.congregationId));
  const centerOf = (id: string | undefined) => world().serviceCenters.find((center) => center.id === id);
  const studentList = (url: URL, rows: StudentRow[]) => {
    const page = paged(url, sorted(url, rows, { human_id: (student) => student.human_id, created_at: (student) => student.created_at }, 'human_id'));
    return json<S['StudentList']>({ ...page, items: page.items.map((student) => studentView(world(), student)) });
  };
  const helperList = (url: URL, congregation: string | null) => {
    const name = url.searchParams.get('name');
    const rows = world().studyHelpers.filter((helper) => (congregation === null || helper.congregationId === congregation) && contains(helper.name, name));
    const page = paged(url, [...rows].sort((a, b) => a.name.localeCompare(b.name)));
    return json<S['StudyHelperList']>({ ...page, items: page.items.map((helper) => studyHelperView(world(), helper)) });
  };

  const deleted = () => {
    tick(world());
    return new Response(null, { status: 204 });
  };
  /** 409 "This <what> cannot be deleted: it has …", as the server refuses a record in use. */
  const inUse = (what: string, found: string | null, verb = 'has') => (found === null ? null : refusal(409, 'CONFLICT', `This ${what} cannot be deleted: it ${verb} ${found}.`));

  return [
    http.get('*/healthz', () => json<S['Health']>({ status: 'ok', database: 'ok' })),

    http.get('*/api/students', ({ request }) => {
      const url = new URL(request.url);
      const q = (name: string) => url.searchParams.get(name);
      const congregation = viewer() ?? q('congregation');
      const rows = world().students.filter(
        (student) =>
          (congregation === null || student.congregationId === congregation) &&
          (q('human_id_prefix') === null || String(student.human_id).startsWith(q('human_id_prefix') as string)) &&
          (q('country') === null || student.country?.iso_code === q('country')) &&
          (q('study_helper') === null || student.studyHelperId === q('study_helper')),
      );
      return studentList(url, rows);
    }),
    http.get('*/api/students/:id/answer-sheets', ({ params }) => {
      const student = studentOf(params.id as string);
      if (!student) return notFound('Student not found');
      return json<S['AnswerSheet'][]>(world().sheets.filter((sheet) => sheet.studentId === student.id).map((sheet) => sheetView(world(), sheet)));
    }),
    http.get('*/api/students/:id', ({ params }) => {
      const student = studentOf(params.id as string);
      return student ? json<S['Student']>(studentView(world(), student)) : notFound('Student not found');
    }),
    http.patch('*/api/students/:id', async ({ params, request }) => {
      const student = studentOf(params.id as string);
      if (!student) return notFound('Student not found');
      const patch = (await request.json()) as S['StudentPatch'];
      if ('attributes' in patch) student.attributes = { ...student.attributes, ...patch.attributes };
      if ('congregation' in patch) {
        if (viewer() !== null) return refusal(403, 'FORBIDDEN', 'Only a scanning admin moves a student to another congregation.');
        student.congregationId = patch.congregation;
        student.studyHelperId = null;
      }
      if ('study_helper' in patch) {
        const helper = patch.study_helper === null ? null : world().studyHelpers.find((candidate) => candidate.id === patch.study_helper);
        if (helper === undefined) return refusal(400, 'VALIDATION_ERROR', 'Unknown study helper.');
        student.studyHelperId = helper?.id ?? null;
      }
      tick(world());
      return json<S['Student']>(studentView(world(), student));
    }),
    http.get('*/api/study-helper/:id/students', ({ params, request }) => {
      const helper = helperOf(params.id as string);
      if (!helper) return notFound('Study helper not found');
      return studentList(new URL(request.url), world().students.filter((student) => student.studyHelperId === helper.id));
    }),

    http.get('*/api/baptism-requests', ({ request }) => {
      const rows = world()
        .baptismRequests.filter((row) => mayAct(world().students.find((student) => student.id === row.studentId)?.congregationId ?? null))
        .sort((a, b) => b.requested_at.localeCompare(a.requested_at));
      const page = paged(new URL(request.url), rows);
      return json<S['BaptismRequestList']>({ ...page, items: page.items.map((row) => baptismView(world(), row)) });
    }),
    http.post('*/api/baptism-request', async ({ request }) => {
      const body = (await request.json()) as S['BaptismRequestCreate'];
      if (!Number.isInteger(body.student_id) || body.student_id < 1) return refusal(400, 'VALIDATION_ERROR', 'Invalid Student ID format.');
      const student = world().students.find((row) => row.human_id === body.student_id && mayAct(row.congregationId));
      if (!student) return json<S['ErrorSimple']>({ detail: 'Student not found' }, 404);
      if (!world().sheets.some((sheet) => sheet.studentId === student.id)) return json<S['ErrorSimple']>({ detail: 'No answer sheet found for this student.' }, 400);
      if (world().baptismRequests.some((row) => row.studentId === student.id)) return refusal(409, 'DUPLICATE', 'A baptism request already exists for this student.');
      const row = { id: newId(world(), 'baptism'), studentId: student.id, status: 'pending' as const, requested_at: tick(world()) };
      world().baptismRequests.push(row);
      return json<S['BaptismRequest']>(baptismView(world(), row), 201);
    }),
    http.delete('*/api/baptism-requests/:id', ({ params }) => {
      if (viewer() !== null) return forbidden();
      const row = world().baptismRequests.find((request) => request.id === params.id);
      if (!row) return notFound('Baptism request not found');
      if (row.status !== 'pending') return refusal(409, 'CONFLICT', 'This baptism request is already being handled, so it cannot be deleted.');
      world().baptismRequests = world().baptismRequests.filter((request) => request.id !== row.id);
      for (const sheet of world().sheets) if (sheet.studentId === row.studentId) sheet.is_baptism_request = false;
      return deleted();
    }),
    http.post('*/api/responses/:responseId/baptism-request', ({ params }) => {
      const sheet = world().sheets.find((row) => row.id === params.responseId && mayAct(row.assignedGroup));
      if (!sheet) return notFound('Answer sheet not found');
      sheet.is_baptism_request = true;
      if (sheet.studentId !== null && !world().baptismRequests.some((row) => row.studentId === sheet.studentId)) {
        world().baptismRequests.push({ id: newId(world(), 'baptism'), studentId: sheet.studentId, status: 'pending', requested_at: tick(world()) });
      }
      return json<S['AnswerSheet']>(sheetView(world(), sheet));
    }),

    http.get('*/api/service_centers', ({ request }) => {
      const url = new URL(request.url);
      const rows = world().serviceCenters.filter((center) => contains(center.name, url.searchParams.get('name')));
      const page = paged(url, sorted(url, rows, { name: (center) => center.name.toLowerCase(), created_at: (center) => center.created_at }, 'name'));
      return json<S['ServiceCenterList']>({ ...page, items: page.items.map(({ id, name, location, country, created_at }) => ({ id, name, location, country, created_at })) });
    }),
    http.post('*/api/service_centers', async ({ request }) => {
      const body = (await request.json()) as S['ServiceCenterCreate'];
      const country = world().countries.find((row) => row.iso_code === body.country);
      if (!country || body.name.trim() === '') return refusal(400, 'VALIDATION_ERROR', 'A service center needs a name and a known country.');
      const id = newId(world(), 'service-center');
      const code = body.name.replace(/[^A-Za-z]/g, '').slice(0, 3).toUpperCase();
      world().serviceCenters.push({ id, name: body.name.trim(), location: body.location, country, code, created_at: tick(world()), recruitingPoints: [], recruiters: [], contactPersons: [] });
      return json<S['Created']>({ id }, 201);
    }),
    http.get('*/api/service_centers/:id/cover-sheet.pdf', ({ params }) => {
      const center = centerOf(params.id as string);
      return center ? pdf(`${center.name} cover sheet.pdf`, `Cover sheet: ${center.name}`) : notFound('Service center not found');
    }),
    http.get('*/api/service_centers/:id/recruiting-points', ({ params }) => {
      const center = centerOf(params.id as string);
      return center ? json<S['RecruitingPoint'][]>(center.recruitingPoints) : notFound('Service center not found');
    }),
    http.post('*/api/service_centers/:id/recruiting-points', async ({ params, request }) => {
      const center = centerOf(params.id as string);
      if (!center) return notFound('Service center not found');
      const body = (await request.json()) as S['RecruitingPointCreate'];
      const point = { id: newId(world(), 'recruiting-point'), name: body.name, location: body.location ?? '' };
      center.recruitingPoints.push(point);
      tick(world());
      return json<S['RecruitingPoint']>(point, 201);
    }),
    http.patch('*/api/service_centers/:id/recruiting-points/:pointId', async ({ params, request }) => {
      const point = centerOf(params.id as string)?.recruitingPoints.find((row) => row.id === params.pointId);
      if (!point) return notFound('Recruiting point not found');
      point.name = ((await request.json()) as S['RecruitingPointPatch']).name;
      tick(world());
      return json<S['RecruitingPoint']>(point);
    }),
    http.delete('*/api/service_centers/:id/recruiting-points/:pointId', ({ params }) => {
      if (viewer() !== null) return forbidden();
      const center = centerOf(params.id as string);
      if (!center?.recruitingPoints.some((row) => row.id === params.pointId)) return notFound('Recruiting point not found');
      // As for recruiters (and on the server): files and students that name it would silently lose it.
      const refused = inUse(
        'recruiting point',
        uses([
          [world().files.filter((file) => file.recruitingPointId === params.pointId).length, 'file', 'files'],
          [world().students.filter((student) => student.recruitingPointId === params.pointId).length, 'student', 'students'],
        ]),
        'is named by',
      );
      if (refused) return refused;
      center.recruitingPoints = center.recruitingPoints.filter((row) => row.id !== params.pointId);
      tick(world());
      return new Response(null, { status: 204 });
    }),
    http.delete('*/api/service_centers/:id', ({ params }) => {
      if (viewer() !== null) return forbidden();
      const center = centerOf(params.id as string);
      if (!center) return notFound('Service center not found');
      const refused = inUse(
        'service center',
        uses([
          [world().files.filter((file) => file.serviceCenterId === center.id).length, 'file', 'files'],
          [world().students.filter((student) => student.serviceCenterId === center.id).length, 'student', 'students'],
          [center.recruitingPoints.length, 'recruiting point', 'recruiting points'],
          [center.recruiters.length, 'recruiter', 'recruiters'],
          [center.contactPersons.length, 'contact person', 'contact persons'],
        ]),
      );
      if (refused) return refused;
      world().serviceCenters = world().serviceCenters.filter((row) => row.id !== center.id);
      return deleted();
    }),
    http.get('*/api/service_centers/:id', ({ params }) => {
      const center = centerOf(params.id as string);
      if (!center) return notFound('Service center not found');
      const { id, name, location, country, created_at } = center;
      return json<S['ServiceCenter']>({ id, name, location, country, created_at });
    }),
    http.get('*/api/service-centers/:id/recruiters', ({ params }) => {
      const center = centerOf(params.id as string);
      return center ? json<S['Recruiter'][]>(center.recruiters) : notFound('Service center not found');
    }),
    http.post('*/api/service-centers/:id/recruiters', async ({ params, request }) => {
      const center = centerOf(params.id as string);
      if (!center) return notFound('Service center not found');
      const body = (await request.json()) as S['RecruiterCreate'];
      const recruiter = { id: newId(world(), 'recruiter'), name: body.name, contact_info: body.contact_info ?? '' };
      center.recruiters.push(recruiter);
      tick(world());
      return json<S['Recruiter']>(recruiter, 201);
    }),
    http.delete('*/api/service-centers/:id/recruiters/:recruiterId', ({ params }) => {
      if (viewer() !== null) return forbidden();
      const center = centerOf(params.id as string);
      const recruiter = center?.recruiters.find((row) => row.id === params.recruiterId);
      if (!center || !recruiter) return notFound('Recruiter not found');
      const refused = inUse(
        'recruiter',
        uses([
          [world().files.filter((file) => file.recruiterId === recruiter.id).length, 'file', 'files'],
          [world().students.filter((student) => student.recruiterId === recruiter.id).length, 'student', 'students'],
        ]),
        'is named by',
      );
      if (refused) return refused;
      center.recruiters = center.recruiters.filter((row) => row.id !== recruiter.id);
      return deleted();
    }),
    http.delete('*/api/service-centers/:id/contact-persons/:personId', ({ params }) => {
      if (viewer() !== null) return forbidden();
      const center = centerOf(params.id as string);
      const person = center?.contactPersons.find((row) => row.id === params.personId);
      if (!center || !person) return notFound('Contact person not found');
      const refused = inUse('contact person', uses([[world().files.filter((file) => file.contactPersonId === person.id).length, 'file', 'files']]), 'is named by');
      if (refused) return refused;
      center.contactPersons = center.contactPersons.filter((row) => row.id !== person.id);
      return deleted();
    }),
    http.get('*/api/service-centers/:id/contact-persons', ({ params }) => {
      const center = centerOf(params.id as string);
      return center ? json<S['ContactPerson'][]>(center.contactPersons) : notFound('Service center not found');
    }),
    http.post('*/api/service-centers/:id/contact-person', async ({ params, request }) => {
      const center = centerOf(params.id as string);
      if (!center) return notFound('Service center not found');
      const person = { id: newId(world(), 'contact-person'), name: ((await request.json()) as S['ContactPersonCreate']).name };
      center.contactPersons.push(person);
      tick(world());
      return json<S['ContactPerson']>(person, 201);
    }),

    http.get('*/api/congregations', ({ request }) => {
      const url = new URL(request.url);
      const rows = world().congregations.filter((row) => contains(row.wbs_code, url.searchParams.get('wbs_code')));
      const order = sorted(url, rows, { wbs_code: (row) => row.wbs_code, display_name: (row) => row.display_name.toLowerCase(), created_at: (row) => row.created_at }, 'wbs_code');
      return json<S['CongregationList']>(paged(url, order));
    }),
    http.post('*/api/congregations', async ({ request }) => {
      const body = (await request.json()) as S['CongregationCreate'];
      if (!validWbsCode(body.wbs_code)) return refusal(400, 'VALIDATION_ERROR', 'Invalid WBS code.');
      if (world().congregations.some((row) => row.wbs_code === body.wbs_code)) return refusal(409, 'DUPLICATE', 'A congregation with this WBS code exists.');
      const congregation = { id: newId(world(), 'congregation'), wbs_code: body.wbs_code, display_name: body.display_name, created_at: tick(world()) };
      world().congregations.push(congregation);
      return json<S['Congregation']>(congregation, 201);
    }),
    http.get('*/api/congregations/:id/stats', ({ params }) => {
      const congregation = world().congregations.find((row) => row.id === params.id && mayAct(row.id));
      return congregation ? json<S['CongregationStats']>(congregationStats(world(), congregation.id)) : notFound('Congregation not found');
    }),
    http.get('*/api/congregations/:id/study-helpers', ({ params, request }) => {
      const congregation = world().congregations.find((row) => row.id === params.id && mayAct(row.id));
      return congregation ? helperList(new URL(request.url), congregation.id) : notFound('Congregation not found');
    }),
    http.post('*/api/congregations/:id/study-helpers', async ({ params, request }) => {
      const congregation = world().congregations.find((row) => row.id === params.id && mayAct(row.id));
      if (!congregation) return notFound('Congregation not found');
      const body = (await request.json()) as S['StudyHelperCreate'];
      if (body.name.trim() === '') return refusal(400, 'VALIDATION_ERROR', 'A study helper needs a name.');
      const helper = { id: newId(world(), 'study-helper'), name: body.name.trim(), email: body.email, congregationId: congregation.id, created_at: tick(world()), last_active_at: null };
      world().studyHelpers.push(helper);
      return json<S['StudyHelper']>(studyHelperView(world(), helper), 201);
    }),
    http.delete('*/api/congregations/:id', ({ params }) => {
      if (viewer() !== null) return forbidden();
      const congregation = world().congregations.find((row) => row.id === params.id);
      if (!congregation) return notFound('Congregation not found');
      const refused = inUse(
        'congregation',
        uses([
          [world().students.filter((student) => student.congregationId === congregation.id).length, 'student', 'students'],
          [world().studyHelpers.filter((helper) => helper.congregationId === congregation.id).length, 'study helper', 'study helpers'],
          [world().sheets.filter((sheet) => sheet.assignedGroup === congregation.id).length, 'answer sheet assigned to it', 'answer sheets assigned to it'],
          [world().uploads.filter((upload) => upload.congregationId === congregation.id).length, 'graded upload', 'graded uploads'],
        ]),
      );
      if (refused) return refused;
      world().congregations = world().congregations.filter((row) => row.id !== congregation.id);
      return deleted();
    }),
    http.get('*/api/congregations/:id', ({ params }) => {
      const congregation = world().congregations.find((row) => row.id === params.id && mayAct(row.id));
      return congregation ? json<S['Congregation']>(congregation) : notFound('Congregation not found');
    }),

    http.get('*/api/study-helpers', ({ request }) => {
      const url = new URL(request.url);
      return helperList(url, viewer() ?? url.searchParams.get('congregation'));
    }),
    http.delete('*/api/study-helpers/:id', ({ params }) => {
      if (viewer() !== null) return forbidden();
      const helper = helperOf(params.id as string);
      if (!helper) return notFound('Study helper not found');
      const refused = inUse('study helper', uses([[world().students.filter((student) => student.studyHelperId === helper.id).length, 'student', 'students']]));
      if (refused) return refused;
      world().studyHelpers = world().studyHelpers.filter((row) => row.id !== helper.id);
      return deleted();
    }),
    http.get('*/api/study-helpers/:id', ({ params }) => {
      const helper = helperOf(params.id as string);
      return helper ? json<S['StudyHelper']>(studyHelperView(world(), helper)) : notFound('Study helper not found');
    }),

    http.get('*/api/countries', ({ request }) => {
      const url = new URL(request.url);
      const q = url.searchParams.get('q');
      const rows = world().countries.filter((country) => contains(country.display_name, q) || country.iso_code.toLowerCase() === q?.trim().toLowerCase());
      return json<S['CountryList']>(paged(url, rows));
    }),
    http.get('*/api/countries/:isoCode', ({ params }) => {
      const country = world().countries.find((row) => row.iso_code === String(params.isoCode).toUpperCase());
      return country ? json<S['Country']>(country) : notFound('Country not found');
    }),
    http.get('*/api/courses', ({ request }) => {
      const url = new URL(request.url);
      const rows = world().courses.map(({ course }) => course).filter((course) => contains(course.name, url.searchParams.get('name')));
      return json<S['CourseList']>(paged(url, rows));
    }),
    http.get('*/api/courses/:id/lessons/:lessonId/master.pdf', ({ params }) => {
      const lesson = world().courses.find(({ course }) => course.id === params.id)?.course.lessons.find((row) => row.id === params.lessonId);
      return lesson ? pdf(`${lesson.name} master.pdf`, `Master: ${lesson.name}`) : notFound('Lesson not found');
    }),
    http.get('*/api/courses/:id/pages', ({ params }) => {
      const course = world().courses.find(({ course: row }) => row.id === params.id);
      return course ? json<S['PageTemplate'][]>(course.templates) : notFound('Course not found');
    }),

    http.post('*/api/database/init', () => json<S['DatabaseResult']>({ status: 'ok', migrations_applied: 0 })),
    http.post('*/api/database/delete', () => {
      replaceWorld(seedWorld('empty'));
      return json<S['DatabaseResult']>({ status: 'ok' });
    }),
  ];
}
