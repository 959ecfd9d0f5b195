// The one route registry of the web app: every route of the spec's route table (spec §2), with
// its pattern (parameter names as the spec spells them), the title its screen shows, and link
// builders. Screens, tabs and tiles build their links here and nowhere else.
import { generatePath } from 'react-router-dom';

export interface RouteEntry {
  /** The react-router pattern, as the spec's route table writes it (`{file_id}` becomes `:file_id`). */
  readonly pattern: string;
  /** The screen's title (placeholders render exactly this). */
  readonly title: string;
  /**
   * Only a scanning_admin may use it (its calls are admin-only); others see "Not Allowed". The
   * congregation pages and page information stay open: a coordinator reads its own there.
   */
  readonly adminOnly?: true;
}

export const routes = {
  home: { pattern: '/', title: 'Dashboard' },
  adminHome: { pattern: '/admin/', title: 'Admin', adminOnly: true },
  graded: { pattern: '/graded', title: 'Graded' },
  resources: { pattern: '/resources', title: 'Resources' },
  baptismRequests: { pattern: '/baptism-requests/', title: 'Baptism Requests' },
  files: { pattern: '/files/', title: 'Files' },
  students: { pattern: '/students/', title: 'Students' },
  studyHelpers: { pattern: '/study-helpers/', title: 'Study Helpers' },
  congregations: { pattern: '/admin/congregations/', title: 'Congregations', adminOnly: true },
  congregation: { pattern: '/admin/congregations/:group_id/', title: 'Congregation' },
  congregationFiles: { pattern: '/admin/congregations/:group_id/files', title: 'Congregation Files' },
  congregationStudyHelpers: {
    pattern: '/admin/congregations/:group_id/study-helpers',
    title: 'Congregation Study Helpers',
  },
  congregationEmails: { pattern: '/admin/congregations/:group_id/emails', title: 'Congregation Emails' },
  mail: { pattern: '/admin/mail', title: 'Mail', adminOnly: true },
  profile: { pattern: '/profile', title: 'Profile' },
  serviceCenters: { pattern: '/admin/service-centers/', title: 'Service Centers', adminOnly: true },
  serviceCenter: { pattern: '/admin/service-centers/:service_center_id', title: 'Service Center', adminOnly: true },
  page: { pattern: '/admin/pages/:page_id', title: 'Page Information' },
  file: { pattern: '/file/:file_id/', title: 'File' },
  fileResponses: { pattern: '/file/:file_id/responses', title: 'Responses' },
  uploads: { pattern: '/files/uploads/', title: 'Uploads' },
  upload: { pattern: '/files/uploads/:id', title: 'Feedback Upload' },
  response: { pattern: '/responses/:response_id/', title: 'Response' },
  responseStudentInfo: { pattern: '/responses/:response_id/student-info', title: 'Student Info' },
  student: { pattern: '/students/:student_id/', title: 'Student' },
  studentUpload: { pattern: '/students/:student_id/uploads/:upload_id', title: 'Answer Sheet Scans' },
  studentGraded: { pattern: '/students/:student_id/graded/:upload_id', title: 'Graded Scans' },
  studyHelper: { pattern: '/study-helpers/:helper_id/', title: 'Study Helper' },
  studyHelperStudent: { pattern: '/study-helpers/:helper_id/students/:student_id', title: 'Study Helper Student' },
} as const satisfies Record<string, RouteEntry>;

export type RouteId = keyof typeof routes;

/** Which files the files list shows (search param `mode`, default all). */
export type FilesMode = 'all' | 'print';
export const DEFAULT_FILES_MODE: FilesMode = 'all';

/** Search params a link may carry, by name. Undefined and empty values are left out. */
type Search = Record<string, string | number | undefined | null>;

function withSearch(pathname: string, search: Search = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** A pattern filled with its parameters; links carry no trailing slash (the router matches both). */
function fill(pattern: string, params: Record<string, string> = {}): string {
  const path = generatePath(pattern, params);
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** Link builders, one per route; parameters in the order the route nests them. */
export const paths = {
  home: () => fill(routes.home.pattern),
  adminHome: () => fill(routes.adminHome.pattern),
  graded: () => fill(routes.graded.pattern),
  resources: () => fill(routes.resources.pattern),
  baptismRequests: () => fill(routes.baptismRequests.pattern),
  /** /files, or /files?mode=print for the Ready to Print list. */
  files: (mode?: FilesMode) => withSearch(fill(routes.files.pattern), { mode }),
  students: (search: { country?: string; studyHelper?: string } = {}) =>
    withSearch(fill(routes.students.pattern), search),
  studyHelpers: () => fill(routes.studyHelpers.pattern),
  congregations: () => fill(routes.congregations.pattern),
  congregation: (groupId: string) => fill(routes.congregation.pattern, { group_id: groupId }),
  congregationFiles: (groupId: string) => fill(routes.congregationFiles.pattern, { group_id: groupId }),
  congregationStudyHelpers: (groupId: string) => fill(routes.congregationStudyHelpers.pattern, { group_id: groupId }),
  congregationEmails: (groupId: string) => fill(routes.congregationEmails.pattern, { group_id: groupId }),
  mail: () => fill(routes.mail.pattern),
  profile: () => fill(routes.profile.pattern),
  serviceCenters: () => fill(routes.serviceCenters.pattern),
  serviceCenter: (serviceCenterId: string) =>
    fill(routes.serviceCenter.pattern, { service_center_id: serviceCenterId }),
  page: (pageId: string) => fill(routes.page.pattern, { page_id: pageId }),
  file: (fileId: string) => fill(routes.file.pattern, { file_id: fileId }),
  fileResponses: (fileId: string) => fill(routes.fileResponses.pattern, { file_id: fileId }),
  uploads: (search: { groupId?: string } = {}) => withSearch(fill(routes.uploads.pattern), search),
  upload: (id: string) => fill(routes.upload.pattern, { id }),
  response: (responseId: string) => fill(routes.response.pattern, { response_id: responseId }),
  responseStudentInfo: (responseId: string) =>
    fill(routes.responseStudentInfo.pattern, { response_id: responseId }),
  student: (studentId: string) => fill(routes.student.pattern, { student_id: studentId }),
  studentUpload: (studentId: string, uploadId: string) =>
    fill(routes.studentUpload.pattern, { student_id: studentId, upload_id: uploadId }),
  studentGraded: (studentId: string, uploadId: string) =>
    fill(routes.studentGraded.pattern, { student_id: studentId, upload_id: uploadId }),
  studyHelper: (helperId: string) => fill(routes.studyHelper.pattern, { helper_id: helperId }),
  studyHelperStudent: (helperId: string, studentId: string) =>
    fill(routes.studyHelperStudent.pattern, { helper_id: helperId, student_id: studentId }),
} as const satisfies Record<RouteId, (...args: never[]) => string>;

/** Where the server's sign-in and sign-out start (full page loads, not app routes). */
export const authPaths = {
  login: '/api/auth/login',
  logout: '/api/auth/logout',
} as const;
