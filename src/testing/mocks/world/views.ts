// The contract's records as views over the mock world's rows: counts are counted, steps are
// derived from the sheets and pages as the server derives them (server/repositories/sql/file-steps.ts), so an
// ignored page or an assigned sheet moves a file on by itself.
import type { components } from '../../../../generated/api-types';
import { duplicateOf, isFlagged, isUndecidedDuplicate, isUnrecognized, lastMend, reasonCounts, reviewDetail, reviewReason, turnsOf } from './review-flags';
import type { FileRow, PageRow, SheetRow, StudentRow, World } from './world';

type S = components['schemas'];

/** Whose view this is: null for a scanning admin (everything), else a congregation id. */
export type Viewer = string | null;

const byId = <T extends { id: string }>(rows: readonly T[], id: string | null | undefined): T | undefined =>
  id === null || id === undefined ? undefined : rows.find((row) => row.id === id);

export function congregationRef(world: World, id: string | null): S['CongregationRef'] | null {
  const congregation = byId(world.congregations, id);
  return congregation ? { id: congregation.id, wbs_code: congregation.wbs_code, display_name: congregation.display_name } : null;
}

export function lessonOf(world: World, id: string | null): S['Lesson'] | null {
  for (const { course } of world.courses) {
    const lesson = course.lessons.find((candidate) => candidate.id === id);
    if (lesson) return lesson;
  }
  return null;
}

export function templateOf(world: World, id: string | null): S['PageTemplate'] | null {
  for (const { templates } of world.courses) {
    const template = templates.find((candidate) => candidate.id === id);
    if (template) return template;
  }
  return null;
}

const pagesOfSheet = (world: World, sheet: SheetRow) => world.pages.filter((page) => page.sheetId === sheet.id);

/** A sheet counts while one of its pages is not ignored. */
export function keptSheets(world: World, fileId: string): SheetRow[] {
  return world.sheets.filter((sheet) => sheet.fileId === fileId && pagesOfSheet(world, sheet).some((page) => !page.ignored));
}

function isMismatched(world: World, page: PageRow): boolean {
  const sheet = byId(world.sheets, page.sheetId);
  const template = templateOf(world, page.templateId);
  return !page.ignored && template !== null && sheet?.lessonId !== null && sheet?.lessonId !== undefined && template.lesson.id !== sheet.lessonId;
}

export function fileStep(world: World, file: FileRow): S['WorkflowStep'] {
  if (file.process_status !== 'success') return 'robot';
  const pages = world.pages.filter((page) => page.fileId === file.id);
  const kept = keptSheets(world, file.id);
  if (file.sent_at === null) {
    // As the server: a flag, a mismatch, a sheet without a lesson, or a duplicate nobody decided on.
    const review =
      pages.some((page) => isFlagged(page) || isMismatched(world, page)) ||
      kept.some((sheet) => sheet.lessonId === null || isUndecidedDuplicate(world, sheet));
    if (review) return 'review';
    if (kept.some((sheet) => sheet.assignedGroup === null)) return 'assign';
    return 'send';
  }
  const returns = gradingComplete(world, file) || file.prepped || file.file_status === 'downloaded' || file.file_status === 'archived';
  return returns ? 'return' : 'grading';
}

function gradingComplete(world: World, file: FileRow): boolean {
  const kept = keptSheets(world, file.id);
  return file.sent_at !== null && kept.length > 0 && kept.every((sheet) => sheet.gradedAt !== null);
}

/** How the congregation's part of a sent file stands (spec §4 "Congregation file states"). */
function congregationStatus(world: World, file: FileRow, congregationId: string): S['CongregationFileStatus'] {
  const sheets = keptSheets(world, file.id).filter((sheet) => sheet.assignedGroup === congregationId);
  const graded = sheets.filter((sheet) => sheet.gradedAt !== null).length;
  if (file.file_status === 'downloaded' || file.file_status === 'archived') return 'returned';
  if (sheets.length > 0 && graded === sheets.length) return 'graded';
  if (graded > 0) return 'partially_graded';
  return file.printed ? 'grading' : 'unprinted';
}

/** The congregations a file's kept sheets are assigned to. */
function fileCongregationIds(world: World, fileId: string): string[] {
  return [...new Set(keptSheets(world, fileId).flatMap((sheet) => (sheet.assignedGroup === null ? [] : [sheet.assignedGroup])))];
}

/** One of the file's kept sheets is assigned to the congregation. */
export function fileHasSheetsOf(world: World, file: FileRow, congregationId: string): boolean {
  return fileCongregationIds(world, file.id).includes(congregationId);
}

/** A coordinator sees a file once it was sent with sheets of its congregation (as the server). */
export function fileVisible(world: World, file: FileRow, viewer: Viewer): boolean {
  return viewer === null || (file.sent_at !== null && fileHasSheetsOf(world, file, viewer));
}

export function fileView(world: World, file: FileRow, viewer: Viewer): S['File'] {
  const center = byId(world.serviceCenters, file.serviceCenterId);
  const kept = keptSheets(world, file.id);
  const courseIds = new Set(kept.flatMap((sheet) => lessonOf(world, sheet.lessonId)?.course_id ?? []));
  const named = (row: { id: string; name: string } | undefined) => (row ? { id: row.id, name: row.name } : null);
  return {
    id: file.id,
    name: file.name,
    process_status: file.process_status,
    failure_reason: file.failure_reason,
    file_status: file.file_status,
    grading_complete: gradingComplete(world, file),
    printed: file.printed,
    // A coordinator's view counts and names its own congregation's sheets alone (as the server).
    responses_count: countedIn(world, file.id, viewer).sheets.length,
    page_count: world.pages.filter((page) => page.fileId === file.id).length,
    answer_sheet_page_length: file.answer_sheet_page_length,
    service_center: center ? { id: center.id, name: center.name, country: center.country } : null,
    recruiting_point: named(center?.recruitingPoints.find((point) => point.id === file.recruitingPointId)),
    recruiter: named(center?.recruiters.find((recruiter) => recruiter.id === file.recruiterId)),
    service_center_contact_person: named(center?.contactPersons.find((person) => person.id === file.contactPersonId)),
    congregations: fileCongregationIds(world, file.id)
      .filter((id) => viewer === null || id === viewer)
      .flatMap((id) => congregationRef(world, id) ?? []),
    courses: world.courses.filter(({ course }) => courseIds.has(course.id)).map(({ course }) => ({ id: course.id, name: course.name })),
    scanned_at: file.scanned_at,
    uploaded_at: file.uploaded_at,
    created_at: file.uploaded_at,
    sent_at: file.sent_at,
    congregation_file_status: viewer === null || file.sent_at === null ? null : congregationStatus(world, file, viewer),
  };
}

/** The sheets and pages of a file a viewer counts: a coordinator's congregation's alone (as the server). */
function countedIn(world: World, fileId: string, viewer: string | null): { sheets: SheetRow[]; pages: PageRow[] } {
  const sheets = keptSheets(world, fileId).filter((sheet) => viewer === null || sheet.assignedGroup === viewer);
  const pages = world.pages.filter(
    (page) => page.fileId === fileId && (viewer === null || world.sheets.some((sheet) => sheet.id === page.sheetId && sheet.assignedGroup === viewer)),
  );
  return { sheets, pages };
}

export function fileSteps(world: World, file: FileRow, viewer: string | null): S['FileStep'] {
  const kept = countedIn(world, file.id, viewer).sheets;
  return {
    step: fileStep(world, file),
    complete: kept.filter((sheet) => sheet.gradedAt !== null).length,
    total: kept.length,
    prepped: file.prepped,
    downloaded: file.file_status === 'downloaded' || file.file_status === 'archived',
    file_status: file.file_status,
  };
}

export function fileStats(world: World, file: FileRow, viewer: string | null): S['FileStats'] {
  const { sheets: kept, pages } = countedIn(world, file.id, viewer);
  return {
    pages: pages.length,
    sheets: kept.length,
    unrecognized: pages.filter(isUnrecognized).length,
    mismatched: pages.filter((page) => isMismatched(world, page)).length,
    ignored: pages.filter((page) => page.ignored).length,
    unassigned: kept.filter((sheet) => sheet.assignedGroup === null).length,
    duplicates: kept.filter((sheet) => isUndecidedDuplicate(world, sheet)).length,
    missing_student: kept.filter((sheet) => sheet.studentId === null).length,
    missing_lesson: kept.filter((sheet) => sheet.lessonId === null).length,
    flagged: pages.filter(isFlagged).length,
    reasons: reasonCounts(world, pages),
    repeat_of: null,
  };
}

export function fileCongregations(world: World, file: FileRow): S['FileCongregation'][] {
  return fileCongregationIds(world, file.id).flatMap((id) => {
    const congregation = byId(world.congregations, id);
    if (!congregation) return [];
    return [
      {
        id,
        wbs_code: congregation.wbs_code,
        display_name: congregation.display_name,
        status: file.sent_at === null ? 'unprinted' : congregationStatus(world, file, id),
        sheets: keptSheets(world, file.id).filter((sheet) => sheet.assignedGroup === id).length,
        packet_id: file.sent_at === null ? null : packetId(file.id, id),
      },
    ];
  });
}

/** The packet of a sent file for one congregation has an id made of both. */
export function packetId(fileId: string, congregationId: string): string {
  return `${fileId.slice(0, 24)}${congregationId.slice(24)}`;
}

export function studentView(world: World, student: StudentRow): S['Student'] {
  const center = byId(world.serviceCenters, student.serviceCenterId);
  const helper = byId(world.studyHelpers, student.studyHelperId);
  const latest = world.sheets
    .filter((sheet) => sheet.studentId === student.id)
    .map((sheet) => ({ sheet, file: byId(world.files, sheet.fileId) as FileRow }))
    // As on the server: a lesson still in Review (or not yet sent) is not the student's latest.
    .filter(({ file }) => file.sent_at !== null)
    .sort((a, b) => b.file.uploaded_at.localeCompare(a.file.uploaded_at))[0];
  const named = (row: { id: string; name: string } | undefined) => (row ? { id: row.id, name: row.name } : null);
  const latestCenter = latest ? byId(world.serviceCenters, latest.file.serviceCenterId) : undefined;
  const gradedAt = world.sheets.filter((sheet) => sheet.studentId === student.id && sheet.gradedAt !== null).map((sheet) => sheet.gradedAt as string);
  return {
    id: student.id,
    human_id: student.human_id,
    name: student.attributes.name ?? '',
    country: student.country,
    congregation_id: student.congregationId,
    congregation: congregationRef(world, student.congregationId),
    study_helper: named(helper),
    latest_answer_sheet: latest
      ? {
          file: {
            service_center: named(latestCenter),
            recruiting_point: named(latestCenter?.recruitingPoints.find((point) => point.id === latest.file.recruitingPointId)),
            recruiter: named(latestCenter?.recruiters.find((recruiter) => recruiter.id === latest.file.recruiterId)),
            uploaded_at: latest.file.uploaded_at,
          },
          lesson: lessonOf(world, latest.sheet.lessonId),
        }
      : null,
    recruiter: named(center?.recruiters.find((recruiter) => recruiter.id === student.recruiterId)),
    recruiting_point: named(center?.recruitingPoints.find((point) => point.id === student.recruitingPointId)),
    service_center: named(center),
    created_at: student.created_at,
    last_active_at: gradedAt.sort().at(-1) ?? latest?.file.uploaded_at ?? null,
    attributes: { ...student.attributes, study_helper: helper?.name ?? null },
  };
}

export function sheetView(world: World, sheet: SheetRow): S['AnswerSheet'] {
  const file = byId(world.files, sheet.fileId) as FileRow;
  const student = byId(world.students, sheet.studentId);
  const helper = byId(world.studyHelpers, student?.studyHelperId);
  const lesson = lessonOf(world, sheet.lessonId);
  const course = world.courses.find(({ course: candidate }) => candidate.id === lesson?.course_id)?.course;
  const pages = pagesOfSheet(world, sheet);
  return {
    id: sheet.id,
    file_id: file.id,
    file: { name: file.name, uploaded_at: file.uploaded_at },
    student: student
      ? { id: student.id, human_id: student.human_id, name: student.attributes.name ?? '', study_helper: helper ? { id: helper.id, name: helper.name } : null }
      : null,
    lesson,
    course: course ? { id: course.id, name: course.name } : null,
    congregation: congregationRef(world, sheet.assignedGroup),
    graded: sheet.gradedAt !== null,
    assigned_group: sheet.assignedGroup,
    is_baptism_request: sheet.is_baptism_request,
    page_count: pages.length,
    unrecognized_count: pages.filter(isUnrecognized).length,
    mismatched_count: pages.filter((page) => isMismatched(world, page)).length,
    flagged_count: pages.filter(isFlagged).length,
    duplicate: duplicateOf(world, sheet) !== null,
    duplicate_kept: sheet.duplicateKept,
    sent: file.sent_at !== null,
    first_feedback_at: sheet.gradedAt,
  };
}

export function pageView(world: World, page: PageRow): S['Page'] {
  const sheet = byId(world.sheets, page.sheetId);
  const student = byId(world.students, sheet?.studentId);
  return {
    id: page.id,
    file_id: page.fileId,
    page_number: page.page_number,
    ignored: page.ignored,
    blank: page.blank,
    mismatched: isMismatched(world, page),
    unrecognized_reason: page.templateId === null ? page.unrecognized_reason : null,
    review_reason: reviewReason(world, page),
    flagged: isFlagged(page),
    review_detail: reviewDetail(world, page),
    mended: lastMend(world, page),
    turns: turnsOf(world, page),
    template: templateOf(world, page.templateId),
    answer_sheet: sheet
      ? {
          id: sheet.id,
          student: student ? { id: student.id, human_id: student.human_id, name: student.attributes.name ?? '' } : null,
          lesson: lessonOf(world, sheet.lessonId),
          congregation: congregationRef(world, sheet.assignedGroup),
          assigned_group: sheet.assignedGroup,
        }
      : null,
    feedback_pages:
      sheet?.gradedAt === null || sheet === undefined
        ? []
        : [{ id: `${page.id.slice(0, 24)}${'f'.repeat(12)}`, has_back: page.page_number % 2 === 1, feedback: { created_at: sheet.gradedAt } }],
  };
}

export function studyHelperView(world: World, helper: World['studyHelpers'][number]): S['StudyHelper'] {
  return {
    id: helper.id,
    name: helper.name,
    email: helper.email,
    student_count: world.students.filter((student) => student.studyHelperId === helper.id).length,
    created_at: helper.created_at,
    last_active_at: helper.last_active_at,
    congregation: congregationRef(world, helper.congregationId) ?? undefined,
  };
}

export function baptismView(world: World, request: World['baptismRequests'][number]): S['BaptismRequest'] {
  const student = byId(world.students, request.studentId) as StudentRow;
  const center = byId(world.serviceCenters, student.serviceCenterId);
  const recruiter = center?.recruiters.find((candidate) => candidate.id === student.recruiterId);
  return {
    id: request.id,
    student: { id: student.id, human_id: student.human_id, name: student.attributes.name ?? '' },
    service_center: center ? { name: center.name } : null,
    recruiter: recruiter ? { name: recruiter.name } : null,
    latest_status: { status: request.status },
    requested_at: request.requested_at,
  };
}

export function congregationStats(world: World, congregationId: string): S['CongregationStats'] {
  const files = world.files.filter((file) => fileVisible(world, file, congregationId));
  return {
    all_files_count: files.length,
    ready_to_print_count: files.filter((file) => file.sent_at !== null && congregationStatus(world, file, congregationId) === 'unprinted').length,
  };
}

/** The admin status filter (spec §4) on a file. */
export function fileInState(world: World, file: FileRow, state: S['FileStateFilter']): boolean {
  const step = fileStep(world, file);
  switch (state) {
    case 'processing':
      return file.process_status === 'pending';
    case 'failed':
      return file.process_status === 'failed';
    case 'review':
      return file.process_status === 'success' && step === 'review';
    case 'ready_to_send':
      return file.process_status === 'success' && (step === 'assign' || step === 'send');
    case 'grading':
      return file.process_status === 'success' && step === 'grading';
    case 'return':
      return step === 'return' && file.file_status !== 'downloaded' && file.file_status !== 'archived';
    case 'downloaded':
    case 'archived':
      return file.file_status === state;
  }
}

/** A congregation's view of a file's state, for congregation_file_state. */
export function congregationFileState(world: World, file: FileRow, viewer: Viewer): S['CongregationFileStatus'][] {
  if (file.sent_at === null) return [];
  if (viewer !== null) return [congregationStatus(world, file, viewer)];
  return fileCongregationIds(world, file.id).map((id) => congregationStatus(world, file, id));
}
