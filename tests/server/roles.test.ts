// Every operation of the contract, called by five kinds of caller: anonymous, a standard user
// without a congregation, the coordinator of congregation A on B's data, the coordinator of A on
// its own data, and a scanning admin. Each answer must be the one that caller is allowed.
import { randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { contract, type Operation } from '../../server/contract/contract';
import type { Database } from '../../server/db/database';
import { signIn, type SignedIn } from '../helpers/sign-in';
import {
  admin as signInAdmin,
  coordinator as signInCoordinator,
  insertAnswerSheet,
  insertCongregation,
  insertCourse,
  insertFile,
  insertPage,
  insertRecruiter,
  insertRecruitingPoint,
  insertServiceCenter,
  insertStudent,
  insertStudyHelper,
  useRouteTests,
} from './support';

interface Side {
  congregation: string;
  helper: string;
  student: string;
  studentWithoutRequest: number;
  file: string;
  sheet: string;
  page: string;
  distributed: string;
  upload: string;
  baptismRequest: string;
  /** A resumable upload of the side's coordinator (side A) or of another user (side B). */
  resumable: string;
}

interface World {
  A: Side;
  B: Side;
  serviceCenter: string;
  recruitingPoint: string;
  course: string;
  lesson: string;
}

async function makeSide(db: Database, code: string, world: { serviceCenter: string; lesson: string }): Promise<Side> {
  const congregation = await insertCongregation(db, code);
  const helper = await insertStudyHelper(db, congregation, `Helper ${code}`);
  const student = await insertStudent(db, { congregationId: congregation, studyHelperId: helper, country: 'GH', serviceCenterId: world.serviceCenter });
  const other = await insertStudent(db, { congregationId: congregation, country: 'GH' });
  const file = await insertFile(db, `File ${code}`, { serviceCenterId: world.serviceCenter });
  const sheet = await insertAnswerSheet(db, file, { studentId: student.id, lessonId: world.lesson, assignedGroup: congregation });
  await insertAnswerSheet(db, file, { studentId: other.id, lessonId: world.lesson, assignedGroup: congregation });
  await insertPage(db, file, 1, sheet);
  const page = await db.one<{ id: string }>('SELECT id FROM pages WHERE file_id = $1 AND page_number = 1', [file]);
  await db.query(`INSERT INTO file_congregations (file_id, congregation_id, status) VALUES ($1, $2, 'unprinted')`, [file, congregation]);
  const distributed = await db.one<{ id: string }>(
    'INSERT INTO packets (file_id, congregation_id, page_count) VALUES ($1, $2, 1) RETURNING id',
    [file, congregation],
  );
  const upload = await db.one<{ id: string }>(
    `INSERT INTO graded_uploads (name, congregation_id, blob_key, sha256, process_status) VALUES ($1, $2, 'x', $3, 'success') RETURNING id`,
    [`Upload ${code}`, congregation, randomUUID().replace(/-/g, '').padEnd(64, '0')],
  );
  const request = await db.one<{ id: string }>(`INSERT INTO baptism_requests (student_id, status) VALUES ($1, 'pending') RETURNING id`, [student.id]);
  return {
    congregation,
    helper,
    student: student.id,
    studentWithoutRequest: other.human_id,
    file,
    sheet,
    page: page.id,
    distributed: distributed.id,
    upload: upload.id,
    baptismRequest: request.id,
    resumable: `${code.slice(0, 2).toLowerCase() === 'aa' ? 'a' : 'b'}`.repeat(32),
  };
}

async function tinyPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText(`roles ${randomUUID()}`, { x: 40, y: 800 });
  return Buffer.from(await doc.save());
}

function multipart(fields: Record<string, string>, file: Buffer): { payload: Buffer; contentType: string } {
  const boundary = `----roles${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`));
  parts.push(file, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface Request {
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
  multipart?: Record<string, string>;
}

/** How to call each operation on one side's data. */
const requests: Record<string, (w: World, s: Side) => Request> = {
  getHealth: () => ({ url: '/healthz' }),
  login: () => ({ url: '/api/auth/login' }),
  authCallback: () => ({ url: '/api/auth/callback?state=unknown' }),
  getMe: () => ({ url: '/api/auth/me' }),
  setViewAs: () => ({ url: '/api/auth/view-as', payload: { congregation: null } }),
  listPages: (_w, s) => ({ url: `/api/pages?response_id=${s.sheet}` }),
  getPage: (_w, s) => ({ url: `/api/pages/${s.page}` }),
  updatePage: (_w, s) => ({ url: `/api/pages/${s.page}`, payload: { ignored: false } }),
  getPagePreview: (_w, s) => ({ url: `/api/pages/${s.page}/preview` }),
  getPageThumbnail: (_w, s) => ({ url: `/api/pages/${s.page}/thumbnail?size=500` }),
  getPageGradedPreview: (_w, s) => ({ url: `/api/pages/${s.page}/graded-preview` }),
  getPagePhoto: (_w, s) => ({ url: `/api/pages/${s.page}/photo` }),
  streamJobProgress: (_w, s) => ({ url: `/api/progress/process_service_center_upload/${s.file}` }),
  streamProgress: (_w, s) => ({ url: `/api/progress/${s.file}` }),
  resolveQrCode: () => ({ url: '/api/qr-api/p/ZZZZZZZZ' }),
  listStudents: (_w, s) => ({ url: `/api/students?congregation=${s.congregation}` }),
  getStudent: (_w, s) => ({ url: `/api/students/${s.student}` }),
  updateStudent: (_w, s) => ({ url: `/api/students/${s.student}`, payload: { attributes: { employment: 'Teacher' } } }),
  listStudentAnswerSheets: (_w, s) => ({ url: `/api/students/${s.student}/answer-sheets` }),
  listStudyHelperStudents: (_w, s) => ({ url: `/api/study-helper/${s.helper}/students` }),
  listAnswerSheets: (_w, s) => ({ url: `/api/answer-sheets?file=${s.file}` }),
  assignFileAnswerSheets: (_w, s) => ({ url: `/api/answer-sheets?file=${s.file}`, payload: { assigned_group: s.congregation } }),
  getAnswerSheet: (_w, s) => ({ url: `/api/answer-sheets/${s.sheet}` }),
  updateAnswerSheet: (_w, s) => ({ url: `/api/answer-sheets/${s.sheet}`, payload: { assigned_group: s.congregation } }),
  listAnswerSheetPages: (_w, s) => ({ url: `/api/answer-sheets/${s.sheet}/pages` }),
  printAnswerSheet: (_w, s) => ({ url: `/api/answer-sheets/${s.sheet}/print.pdf` }),
  listBaptismRequests: () => ({ url: '/api/baptism-requests' }),
  createBaptismRequest: (_w, s) => ({ url: '/api/baptism-request', payload: { student_id: s.studentWithoutRequest } }),
  flagAnswerSheetBaptismRequest: (_w, s) => ({ url: `/api/responses/${s.sheet}/baptism-request` }),
  uploadFile: () => ({ url: '/api/file', multipart: { name: 'Roles check', answer_sheet_page_length: '0' } }),
  listFiles: (_w, s) => ({ url: `/api/files?group_id=${s.congregation}` }),
  getFileSummary: (_w, s) => ({ url: `/api/files/${s.file}` }),
  getFile: (_w, s) => ({ url: `/api/file/${s.file}` }),
  updateFile: (_w, s) => ({ url: `/api/file/${s.file}`, payload: { name: 'Renamed by the roles check' } }),
  deleteFile: (_w, s) => ({ url: `/api/file/${s.file}` }),
  getFileStats: (_w, s) => ({ url: `/api/file/${s.file}/stats` }),
  getFileSteps: (_w, s) => ({ url: `/api/file/${s.file}/steps` }),
  getFileCover: (_w, s) => ({ url: `/api/file/${s.file}/cover` }),
  getFileQuizFeedbackAvailable: (_w, s) => ({ url: `/api/file/${s.file}/quiz_feedback_available` }),
  listFileCongregations: (_w, s) => ({ url: `/api/file/${s.file}/congregations` }),
  downloadGradedFile: (_w, s) => ({ url: `/api/file/${s.file}/graded_pdf` }),
  downloadFile: (_w, s) => ({ url: `/api/file/${s.file}.pdf` }),
  sendFile: (_w, s) => ({ url: `/api/file/${s.file}/send` }),
  archiveFile: (_w, s) => ({ url: `/api/file/${s.file}/archive` }),
  regenerateReturnFile: (_w, s) => ({ url: `/api/file/${s.file}/regenerate` }),
  listServiceCenters: () => ({ url: '/api/service_centers' }),
  createServiceCenter: () => ({ url: '/api/service_centers', payload: { name: 'Roles SC', country: 'GH', location: 'Accra' } }),
  getServiceCenter: (w) => ({ url: `/api/service_centers/${w.serviceCenter}` }),
  printServiceCenterCoverSheet: (w) => ({ url: `/api/service_centers/${w.serviceCenter}/cover-sheet.pdf` }),
  listRecruitingPoints: (w) => ({ url: `/api/service_centers/${w.serviceCenter}/recruiting-points` }),
  createRecruitingPoint: (w) => ({ url: `/api/service_centers/${w.serviceCenter}/recruiting-points`, payload: { name: 'Stand', location: 'Market' } }),
  updateRecruitingPoint: (w) => ({ url: `/api/service_centers/${w.serviceCenter}/recruiting-points/${w.recruitingPoint}`, payload: { name: 'Stand 2' } }),
  deleteRecruitingPoint: (w) => ({ url: `/api/service_centers/${w.serviceCenter}/recruiting-points/${w.recruitingPoint}` }),
  listRecruiters: (w) => ({ url: `/api/service-centers/${w.serviceCenter}/recruiters` }),
  createRecruiter: (w) => ({ url: `/api/service-centers/${w.serviceCenter}/recruiters`, payload: { name: 'Ama', contact_info: '+233' } }),
  listContactPersons: (w) => ({ url: `/api/service-centers/${w.serviceCenter}/contact-persons` }),
  createContactPerson: (w) => ({ url: `/api/service-centers/${w.serviceCenter}/contact-person`, payload: { name: 'Yaw' } }),
  listCongregations: () => ({ url: '/api/congregations' }),
  createCongregation: () => ({ url: '/api/congregations', payload: { wbs_code: `RC ${Math.floor(Math.random() * 1e6)}`, display_name: 'Roles' } }),
  getCongregation: (_w, s) => ({ url: `/api/congregations/${s.congregation}` }),
  getCongregationStats: (_w, s) => ({ url: `/api/congregations/${s.congregation}/stats` }),
  listCongregationStudyHelpers: (_w, s) => ({ url: `/api/congregations/${s.congregation}/study-helpers` }),
  createCongregationStudyHelper: (_w, s) => ({ url: `/api/congregations/${s.congregation}/study-helpers`, payload: { name: 'New helper', email: 'x@example.org' } }),
  listCongregationEmails: (_w, s) => ({ url: `/api/congregations/${s.congregation}/emails` }),
  createCongregationEmail: (_w, s) => ({ url: `/api/congregations/${s.congregation}/emails`, payload: { email: `roles-${Math.random().toString(36).slice(2)}@example.org` } }),
  // No such address: an allowed caller meets a 404, a refused one its refusal.
  deleteCongregationEmail: (_w, s) => ({ url: `/api/congregations/${s.congregation}/emails/00000000-0000-4000-8000-000000000000` }),
  listMailMessages: () => ({ url: '/api/mail/messages' }),
  getMailSettings: () => ({ url: '/api/mail/settings' }),
  updateMailSettings: () => ({ url: '/api/mail/settings', payload: { upload_reports: true } }),
  listStudyHelpers: (_w, s) => ({ url: `/api/study-helpers?congregation=${s.congregation}` }),
  getStudyHelper: (_w, s) => ({ url: `/api/study-helpers/${s.helper}` }),
  getPacketExists: (_w, s) => ({ url: `/api/study-helpers/distributed-files/${s.distributed}/exists` }),
  downloadPacket: (_w, s) => ({ url: `/api/study-helpers/distributed-files/${s.distributed}.pdf` }),
  uploadStudyHelperFile: () => ({ url: '/api/study-helpers/file', multipart: { name: 'Graded packet' } }),
  listCountries: () => ({ url: '/api/countries?q=gh' }),
  getCountry: () => ({ url: '/api/countries/GH' }),
  listCourses: () => ({ url: '/api/courses' }),
  listCoursePages: (w) => ({ url: `/api/courses/${w.course}/pages` }),
  printLessonMaster: (w) => ({ url: `/api/courses/${w.course}/lessons/${w.lesson}/master.pdf` }),
  listUploads: (_w, s) => ({ url: `/api/uploads/?group_id=${s.congregation}` }),
  getUpload: (_w, s) => ({ url: `/api/uploads/${s.upload}` }),
  getUploadPageImage: (_w, s) => ({ url: `/api/uploads/${s.upload}/pages/1/image` }),
  initDatabase: () => ({ url: '/api/database/init' }),
  deleteDatabase: () => ({ url: '/api/database/delete' }),
  showLogoutPage: () => ({ url: '/api/auth/logout' }),
  logout: () => ({ url: '/api/auth/logout' }),
  // Undoing what was made by mistake (admin only): on records in use the admin is refused (409).
  deleteServiceCenter: (w) => ({ url: `/api/service_centers/${w.serviceCenter}` }),
  deleteRecruiter: (w) => ({ url: `/api/service-centers/${w.serviceCenter}/recruiters/${UNKNOWN}` }),
  deleteContactPerson: (w) => ({ url: `/api/service-centers/${w.serviceCenter}/contact-persons/${UNKNOWN}` }),
  deleteCongregation: (_w, s) => ({ url: `/api/congregations/${s.congregation}` }),
  deleteStudyHelper: (_w, s) => ({ url: `/api/study-helpers/${s.helper}` }),
  deleteBaptismRequest: (_w, s) => ({ url: `/api/baptism-requests/${s.baptismRequest}` }),
  withdrawUpload: (_w, s) => ({ url: `/api/uploads/${s.upload}` }),
  createResumableUpload: () => ({
    url: '/api/uploads/resumable',
    headers: { 'tus-resumable': '1.0.0', 'upload-length': '1000', 'upload-metadata': `kind ${btoa('graded')},name ${btoa('Graded packet')}` },
  }),
  getResumableUploadOffset: (_w, s) => ({ url: `/api/uploads/resumable/${s.resumable}`, headers: { 'tus-resumable': '1.0.0' } }),
  appendResumableUpload: (_w, s) => ({
    url: `/api/uploads/resumable/${s.resumable}`,
    headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: Buffer.alloc(10),
  }),
  getResumableUpload: (_w, s) => ({ url: `/api/uploads/resumable/${s.resumable}` }),
  cancelResumableUpload: (_w, s) => ({ url: `/api/uploads/resumable/${s.resumable}`, headers: { 'tus-resumable': '1.0.0' } }),
  recallFile: (_w, s) => ({ url: `/api/file/${s.file}/send` }),
};

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Calls that change or end what later calls need: run after everything else. */
const runLast = ['deleteFile', 'deleteRecruitingPoint', 'deleteBaptismRequest', 'withdrawUpload', 'cancelResumableUpload', 'logout'];

type Caller = 'anonymous' | 'standard' | 'coordinatorOnOther' | 'coordinatorOnOwn' | 'admin';

/** Allowed or refused, from the contract's x-access, with the few rules it cannot say. */
function allowed(op: Operation, caller: Caller): boolean {
  if (op.access === 'public') return true;
  if (caller === 'anonymous') return false;
  if (op.operationId === 'setViewAs') return caller === 'admin';
  if (op.operationId === 'deleteDatabase') return false; // disabled unless ALLOW_DATABASE_DELETE=true
  // Graded scans belong to a congregation: an admin uploads them only while viewing as one.
  if (op.operationId === 'uploadStudyHelperFile' || op.operationId === 'createResumableUpload') return caller === 'coordinatorOnOwn' || caller === 'coordinatorOnOther';
  if (op.access === 'user') return true;
  if (caller === 'standard') return false;
  if (op.access === 'admin') return caller === 'admin';
  // congregation: the coordinator only on its own congregation's data
  if (caller === 'coordinatorOnOther') {
    // Calls that name no congregation's data (a baptism request for B's student is refused: 404).
    const global = ['listBaptismRequests', 'listCountries', 'getCountry', 'listCourses', 'listCoursePages', 'uploadStudyHelperFile'];
    return global.includes(op.operationId);
  }
  return true;
}

describe('roles on every call', () => {
  const t = useRouteTests();
  let app: FastifyInstance;
  let world: World;
  let callers: Record<Exclude<Caller, 'anonymous'>, SignedIn>;
  let pdf: Buffer;

  beforeAll(async () => {
    app = t.app;
  });

  async function setUp() {
    const db = t.db;
    const serviceCenter = await insertServiceCenter(db, 'Roles service center');
    const recruitingPoint = await insertRecruitingPoint(db, serviceCenter, 'Market');
    await insertRecruiter(db, serviceCenter, 'Ama');
    const { courseId, lessonIds } = await insertCourse(db, 'Roles course', ['Lesson 1', 'Lesson 2']);
    const base = { serviceCenter, lesson: lessonIds[0]! };
    const A = await makeSide(db, 'AA 1000', base);
    const B = await makeSide(db, 'BB 2000', base);
    world = { A, B, serviceCenter, recruitingPoint, course: courseId, lesson: lessonIds[0]! };
    callers = {
      standard: await signIn(app, 'standard@test.local', { role: 'standard_user', congregationId: null, isAdmin: false }),
      coordinatorOnOther: await signInCoordinator(app, A.congregation, 'coord-a@test.local'),
      coordinatorOnOwn: await signInCoordinator(app, A.congregation, 'coord-a@test.local'),
      admin: await signInAdmin(app),
    };
    // Each side's resumable upload: side A's is its coordinator's, side B's another user's.
    const other = await signIn(app, 'other-uploader@test.local', { role: 'scanning_admin', congregationId: null, isAdmin: false });
    for (const [side, owner] of [[A, callers.coordinatorOnOwn], [B, other]] as const) {
      await db.query(`INSERT INTO resumable_uploads (id, user_id, kind, fields, filename, length) VALUES ($1, $2, 'graded', '{"name": "Packet"}', 'packet.pdf', 1000)`, [side.resumable, owner.user.id]);
    }
    pdf = await tinyPdf();
  }

  async function send(op: Operation, caller: Caller) {
    const side = caller === 'coordinatorOnOther' ? world.B : world.A;
    const request = requests[op.operationId]!(world, side);
    const who = caller === 'anonymous' ? null : callers[caller];
    const options: InjectOptions = {
      method: op.method as InjectOptions['method'],
      url: request.url,
      headers: { ...(who ? who.headers : { origin: 'http://localhost:3000' }), ...request.headers },
    };
    if (request.multipart) {
      const body = multipart(request.multipart, await tinyPdf());
      options.payload = body.payload;
      options.headers = { ...options.headers, 'content-type': body.contentType };
    } else if (request.payload !== undefined) {
      options.payload = request.payload as InjectOptions['payload'];
    }
    return app.inject(options);
  }

  it('answers each caller as its role allows', async () => {
    await setUp();
    expect(pdf.length).toBeGreaterThan(0);
    const ops = contract().operations;
    expect(Object.keys(requests).sort()).toEqual(ops.map((op) => op.operationId).sort());
    const last = runLast.map((id) => ops.find((op) => op.operationId === id)!);
    const ordered = [...ops.filter((op) => !runLast.includes(op.operationId)), ...last];
    const failures: string[] = [];
    for (const caller of ['anonymous', 'standard', 'coordinatorOnOther', 'coordinatorOnOwn', 'admin'] as Caller[]) {
      for (const op of ordered) {
        const response = await send(op, caller);
        const status = response.statusCode;
        const ok = allowed(op, caller);
        const refusedAs = caller === 'anonymous' ? [401] : caller === 'coordinatorOnOther' ? [403, 404] : [403];
        // An allowed call may still meet a rule of the domain (409 wrong step, 404 no image yet),
        // but never a refusal; public calls answer whoever asks.
        const good = ok
          ? status < 500 && status !== 401 && status !== 403 && (op.access === 'public' || caller !== 'coordinatorOnOther' || status !== 404)
          : refusedAs.includes(status);
        if (!good) failures.push(`${caller.padEnd(18)} ${op.operationId.padEnd(32)} ${status} (${ok ? 'should be allowed' : `should be ${refusedAs.join('/')}`}) ${response.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers HEAD as it answers GET, for every GET operation and caller', async () => {
    await setUp();
    // A path whose HEAD is an operation of its own (tus) is answered by that one.
    const ownHead = new Set(contract().operations.filter((op) => op.method === 'HEAD').map((op) => op.path));
    const gets = contract().operations.filter((op) => op.method === 'GET' && !ownHead.has(op.path));
    const differences: string[] = [];
    for (const caller of ['anonymous', 'standard', 'coordinatorOnOther', 'coordinatorOnOwn', 'admin'] as Caller[]) {
      for (const op of gets) {
        const side = caller === 'coordinatorOnOther' ? world.B : world.A;
        const { url } = requests[op.operationId]!(world, side);
        const headers = caller === 'anonymous' ? {} : { ...callers[caller].headers };
        const get = await app.inject({ method: 'GET', url, headers });
        const head = await app.inject({ method: 'HEAD', url, headers });
        if (head.statusCode !== get.statusCode) differences.push(`${caller} ${op.operationId}: GET ${get.statusCode}, HEAD ${head.statusCode}`);
        expect(head.body, `${caller} HEAD ${url}`).toBe('');
      }
    }
    expect(differences).toEqual([]);
    // Filters and paging are validated as for GET: bad input is a 400, never a 500.
    expect((await app.inject({ method: 'HEAD', url: '/api/congregations?skip=-1', headers: callers.admin.headers })).statusCode).toBe(400);
    expect((await app.inject({ method: 'HEAD', url: '/api/congregations?wbs_code=TX' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'HEAD', url: '/api/service_centers' })).statusCode).toBe(401);
  });

  it('never shows another congregation in a coordinator list', async () => {
    await setUp();
    const coordinator = callers.coordinatorOnOwn;
    const lists = ['/api/students', '/api/files', '/api/study-helpers', '/api/baptism-requests', '/api/uploads/', '/api/answer-sheets?graded=false'];
    for (const url of lists) {
      const response = await app.inject({ method: 'GET', url, headers: coordinator.headers });
      expect(response.statusCode, url).toBe(200);
      const text = response.body;
      for (const id of [world.B.student, world.B.file, world.B.helper, world.B.sheet]) expect(text, `${url} shows B's ${id}`).not.toContain(id);
    }
  });

  it('never names another congregation in an answer about its own data, even where B shares it', async () => {
    await setUp();
    const db = t.db;
    const { A, B } = world;
    // B has a sheet in A's file, and A's student has a sheet B was sent (before the student moved to A).
    const shared = await insertAnswerSheet(db, A.file, { lessonId: world.lesson, assignedGroup: B.congregation });
    await insertPage(db, A.file, 2, shared);
    const earlier = await insertFile(db, 'Sent to B', { serviceCenterId: world.serviceCenter, sentAt: new Date() });
    const sentToB = await insertAnswerSheet(db, earlier, { studentId: A.student, lessonId: world.lesson, assignedGroup: B.congregation });
    await insertPage(db, earlier, 1, sentToB);
    // B's sheet of another course in A's file: neither its course nor its page is A's to see.
    const other = await insertCourse(db, 'Course of B alone', ['Lesson B']);
    const sheetOfB = await insertAnswerSheet(db, A.file, { lessonId: other.lessonIds[0]!, assignedGroup: B.congregation });
    await insertPage(db, A.file, 3, sheetOfB);
    const coordinator = callers.coordinatorOnOwn;
    const detail = (await app.inject({ method: 'GET', url: `/api/file/${A.file}`, headers: coordinator.headers })).json() as { courses: { name: string }[]; page_count?: number };
    expect(detail.courses.map((course) => course.name)).toEqual(['Roles course']);
    expect(detail.page_count).toBe(1);
    const urls = [
      `/api/file/${A.file}`,
      `/api/files/${A.file}`,
      '/api/files',
      `/api/files?group_id=${A.congregation}`,
      `/api/file/${A.file}/congregations`,
      `/api/file/${A.file}/steps`,
      `/api/answer-sheets?file=${A.file}`,
      '/api/answer-sheets?graded=false',
      `/api/answer-sheets/${A.sheet}`,
      `/api/answer-sheets/${A.sheet}/pages`,
      `/api/pages?response_id=${A.sheet}`,
      `/api/pages/${A.page}`,
      '/api/students',
      `/api/students/${A.student}`,
      `/api/students/${A.student}/answer-sheets`,
      `/api/study-helper/${A.helper}/students`,
      '/api/study-helpers',
      `/api/study-helpers/${A.helper}`,
      '/api/baptism-requests',
      '/api/uploads/',
      `/api/congregations/${A.congregation}`,
      '/api/auth/me',
    ];
    for (const url of urls) {
      const response = await app.inject({ method: 'GET', url, headers: coordinator.headers });
      expect(response.statusCode, url).toBe(200);
      for (const named of [B.congregation, 'BB 2000', shared, sentToB]) expect(response.body, `${url} names ${named}`).not.toContain(named);
    }
    // The admin's answers name both.
    const whole = await app.inject({ method: 'GET', url: `/api/file/${A.file}`, headers: callers.admin.headers });
    expect(whole.body).toContain('BB 2000');
    expect(whole.body).toContain('AA 1000');
    expect(whole.body).toContain('Course of B alone');
  });
});
