// Review's page mends in the mock world, as the server makes them (server/workflow/review-mends.ts,
// server/routes/pages.ts): ignore, choose a template, move a page to another sheet of its file,
// start a sheet at a page, take a typed code, turn a page, give a rescanned intro sheet a new
// student; and join a sheet to the one before. Each is recorded (who, when) and refused in the
// server's words once the file is sent. The world keeps no printed codes, so a typed code is only
// checked for its form.
import type { components } from '../../../../generated/api-types';
import { clearNoCodeFlag } from './review-flags';
import { newId, tick, type FileRow, type PageRow, type SheetRow, type StudentRow, type World } from './world';

type S = components['schemas'];

/** A mend the server would refuse: its status, error type and message. */
export interface MendRefusal {
  status: 400 | 409;
  errorType: 'VALIDATION_ERROR' | 'SHEET_ALREADY_SENT' | 'CONFLICT';
  message: string;
}

export const invalidMend = (message: string): MendRefusal => ({ status: 400, errorType: 'VALIDATION_ERROR', message });
const FILE_SENT: MendRefusal = {
  status: 409,
  errorType: 'SHEET_ALREADY_SENT',
  message: 'This file was sent to study helpers: its pages can no longer be changed or moved.',
};
const TYPED_CODE = /^[st][\s_-]?[2-9a-hj-km-np-z]{8}$/i;
/** The page mends that come alone in a PagePatch (ignored and template may come together). */
const SENT_ALONE = ['answer_sheet', 'new_sheet', 'code', 'turn', 'new_student'] as const;
const TURNS: readonly number[] = [90, 180, 270];

const fileOf = (world: World, fileId: string) => world.files.find((file) => file.id === fileId) as FileRow;
const isIntro = (file: FileRow) => file.answer_sheet_page_length !== 0;

/** Packets are made from the sheets as they are when Send is asked for: from then on nothing moves. */
export function refusedOnceSent(world: World, fileId: string): MendRefusal | null {
  return fileOf(world, fileId).sent_at !== null ? FILE_SENT : null;
}

/** Records a mend on each page it touched, by the signed-in user, at the world's next minute. */
export function recordMend(world: World, pageIds: readonly string[], action: S['ReviewMendAction'], by: string): void {
  const at = tick(world);
  for (const pageId of pageIds) world.mends.push({ pageId, action, by, at });
}

const pagesOn = (world: World, sheetId: string) => world.pages.filter((page) => page.sheetId === sheetId);
const templates = (world: World) => world.courses.flatMap((course) => course.templates);

/**
 * After pages left a sheet: a sheet with no page left goes, and so does a student this file made
 * whom nothing keeps (no kept page, no baptism request), so a stray page taken for a new student
 * leaves nobody behind. Students of earlier files always stay.
 */
function tidySheet(world: World, sheetId: string | null): void {
  const sheet = world.sheets.find((row) => row.id === sheetId);
  if (!sheet) return;
  if (pagesOn(world, sheet.id).length === 0) world.sheets = world.sheets.filter((row) => row.id !== sheet.id);
  const student = world.students.find((row) => row.id === sheet.studentId);
  if (!student || student.created_at < fileOf(world, sheet.fileId).uploaded_at) return;
  const theirs = world.sheets.filter((row) => row.studentId === student.id);
  const kept = theirs.some((row) => pagesOn(world, row.id).some((page) => !page.ignored));
  if (kept || world.baptismRequests.some((request) => request.studentId === student.id)) return;
  for (const row of theirs) row.studentId = null;
  world.students = world.students.filter((row) => row.id !== student.id);
}

/** A sheet's lesson and congregation (its student's) when it has none; a sheet now full is no longer short. */
function settleSheet(world: World, sheet: SheetRow): void {
  const kept = pagesOn(world, sheet.id)
    .filter((page) => !page.ignored)
    .sort((a, b) => a.page_number - b.page_number);
  sheet.lessonId ??= templates(world).find((template) => kept.some((page) => page.templateId === template.id))?.lesson.id ?? null;
  sheet.assignedGroup ??= world.students.find((student) => student.id === sheet.studentId)?.congregationId ?? null;
  const length = templates(world).filter((template) => template.lesson.id === sheet.lessonId).length;
  if (kept.length < length) return;
  for (const page of kept) {
    if (page.flag !== 'page_missing') continue;
    page.flag = null;
    page.flagDetail = null;
  }
}

/** A student an intro file makes: from the file's service center, with nothing else known yet. */
function newIntroStudent(world: World, file: FileRow): StudentRow {
  const center = world.serviceCenters.find((row) => row.id === file.serviceCenterId);
  const student: StudentRow = {
    id: newId(world, 'student'),
    human_id: Math.max(100_000, ...world.students.map((row) => row.human_id)) + 1,
    country: center?.country ?? null,
    congregationId: null,
    studyHelperId: null,
    serviceCenterId: center?.id ?? null,
    recruiterId: null,
    recruitingPointId: null,
    created_at: tick(world),
    attributes: {},
  };
  world.students.push(student);
  return student;
}

/** In an intro file every sheet with a kept page is a student's: one that takes pages again gets a new one. */
function giveIntroSheetsStudents(world: World, file: FileRow): void {
  if (!isIntro(file)) return;
  for (const sheet of world.sheets.filter((row) => row.fileId === file.id && row.studentId === null)) {
    if (!pagesOn(world, sheet.id).some((page) => !page.ignored)) continue;
    sheet.studentId = newIntroStudent(world, file).id;
    settleSheet(world, sheet);
  }
}

/** The duplex back that travels with a page: the ignored blank page right after it on its sheet. */
function blankBackOf(world: World, page: PageRow): PageRow | undefined {
  if (page.blank || page.sheetId === null) return undefined;
  return world.pages.find(
    (back) => back.fileId === page.fileId && back.page_number === page.page_number + 1 && back.sheetId === page.sheetId && back.blank && back.ignored,
  );
}

function movePage(world: World, page: PageRow, targetId: string, by: string): MendRefusal | null {
  const target = world.sheets.find((sheet) => sheet.id === targetId && sheet.fileId === page.fileId);
  if (!target) return invalidMend("answer_sheet: not an answer sheet of this page's file");
  const from = page.sheetId;
  // Its own sheet: "Keep It Here", the flag answered where the page is.
  const back = from === target.id ? undefined : blankBackOf(world, page);
  const moving = back ? [page, back] : [page];
  for (const row of moving) row.sheetId = target.id;
  page.flag = null;
  recordMend(world, moving.map((row) => row.id), 'moved', by);
  if (from === target.id) return null;
  tidySheet(world, from);
  settleSheet(world, target);
  giveIntroSheetsStudents(world, fileOf(world, page.fileId));
  return null;
}

/** A sheet right after another, carrying only what is certain: its first page's lesson. */
function insertSheetAfter(world: World, after: SheetRow, first: PageRow, studentId: string | null): SheetRow {
  for (const sheet of world.sheets) if (sheet.fileId === after.fileId && sheet.sequence > after.sequence) sheet.sequence += 1;
  const sheet: SheetRow = {
    id: newId(world, 'sheet'),
    fileId: after.fileId,
    sequence: after.sequence + 1,
    studentId,
    lessonId: templates(world).find((template) => template.id === first.templateId)?.lesson.id ?? null,
    assignedGroup: null,
    gradedAt: null,
    is_baptism_request: false,
    duplicateKept: false,
  };
  world.sheets.push(sheet);
  return sheet;
}

function startSheetAt(world: World, page: PageRow, by: string): MendRefusal | null {
  const sheet = world.sheets.find((row) => row.id === page.sheetId);
  if (!sheet) return invalidMend('new_sheet: this page is on no response (a cover or a page set aside), so no response can start at it');
  const onSheet = pagesOn(world, sheet.id);
  if (!onSheet.some((row) => row.page_number < page.page_number && !row.ignored)) {
    return invalidMend('new_sheet: this page already starts its response (no kept page comes before it)');
  }
  const moving = onSheet.filter((row) => row.page_number >= page.page_number);
  if (moving.every((row) => row.ignored)) return invalidMend('new_sheet: this page and the pages after it on its response are all ignored; unignore the page first');
  const file = fileOf(world, page.fileId);
  // In an intro file a sheet is a student's first, so it brings a new student.
  const created = insertSheetAfter(world, sheet, page, isIntro(file) ? newIntroStudent(world, file).id : null);
  for (const row of moving) row.sheetId = created.id;
  page.flag = null;
  recordMend(world, [page.id], 'new_sheet', by);
  settleSheet(world, created);
  tidySheet(world, sheet.id);
  return null;
}

function typeCode(world: World, page: PageRow, code: string, by: string): MendRefusal | null {
  if (!TYPED_CODE.test(code.trim())) return invalidMend("code: type the code printed beside the page's QR code, e.g. S-ABCD2345 or T-ABCD2345");
  page.unrecognized_reason = null;
  page.flag = null;
  recordMend(world, [page.id], 'code_typed', by);
  return null;
}

function setIgnored(world: World, page: PageRow, ignored: boolean, by: string): void {
  if (page.ignored === ignored) return;
  page.ignored = ignored;
  recordMend(world, [page.id], ignored ? 'ignored' : 'unignored', by);
  const sheet = world.sheets.find((row) => row.id === page.sheetId);
  if (!sheet) return;
  if (ignored) return tidySheet(world, sheet.id);
  settleSheet(world, sheet);
  giveIntroSheetsStudents(world, fileOf(world, page.fileId));
}

function setTemplate(world: World, page: PageRow, templateId: string | null, by: string): void {
  page.templateId = templateId;
  if (templateId !== null) clearNoCodeFlag(page);
  recordMend(world, [page.id], 'template_set', by);
}

/**
 * Not the same paper after all: a rescanned intro sheet that took an earlier student gets its own
 * (and loses the congregation that student brought); once it has one, a page only loses its flag.
 */
function giveNewStudent(world: World, page: PageRow, by: string): MendRefusal | null {
  const file = fileOf(world, page.fileId);
  const sheet = world.sheets.find((row) => row.id === page.sheetId);
  if (!isIntro(file) || page.flag !== 'already_uploaded' || !sheet) {
    return invalidMend('new_student: only a page flagged as already uploaded, in an intro file, can take a new student');
  }
  const student = world.students.find((row) => row.id === sheet.studentId);
  const madeHere = student !== undefined && student.created_at >= file.uploaded_at;
  if (!madeHere) {
    sheet.studentId = newIntroStudent(world, file).id;
    sheet.assignedGroup = null;
    sheet.duplicateKept = false;
    settleSheet(world, sheet);
  }
  page.flag = null;
  page.flagDetail = null;
  recordMend(world, [page.id], 'new_student', by);
  return null;
}

/** The mends of a page PATCH, by `by` (an e-mail); null when made. */
export function mendPage(world: World, page: PageRow, patch: S['PagePatch'], by: string): MendRefusal | null {
  if (patch.template !== undefined && patch.template !== null && !templates(world).some((template) => template.id === patch.template)) {
    return invalidMend('template: no such page template');
  }
  const alone = SENT_ALONE.filter((key) => key in patch);
  if (alone.length > 0 && Object.keys(patch).length > 1) return invalidMend(`${alone[0]}: send it alone`);
  if (patch.turn !== undefined && !TURNS.includes(patch.turn)) return invalidMend('turn: must be 90, 180 or 270');
  const sent = refusedOnceSent(world, page.fileId);
  if (sent) return sent;
  if (patch.ignored !== undefined) setIgnored(world, page, patch.ignored, by);
  if (patch.template !== undefined) setTemplate(world, page, patch.template, by);
  if (patch.answer_sheet !== undefined) return movePage(world, page, patch.answer_sheet, by);
  if (patch.new_sheet !== undefined) return startSheetAt(world, page, by);
  if (patch.code !== undefined) return typeCode(world, page, patch.code, by);
  // A turn shows the page upright; what it says is still for a person to decide, so its flag stays.
  if (patch.turn !== undefined) recordMend(world, [page.id], 'turned', by);
  if (patch.new_student !== undefined) return giveNewStudent(world, page, by);
  return null;
}

/** Joins a sheet to the one before it in its file; the sheet joined, or why not. */
export function joinPrevious(world: World, sheet: SheetRow, by: string): SheetRow | MendRefusal {
  const sent = refusedOnceSent(world, sheet.fileId);
  if (sent) return sent;
  const before = world.sheets
    .filter((row) => row.fileId === sheet.fileId && row.sequence < sheet.sequence)
    .sort((a, b) => b.sequence - a.sequence)[0];
  if (!before) return invalidMend('join_previous: this is the first response of its file, so there is none before it to join');
  const moving = pagesOn(world, sheet.id);
  for (const page of moving) {
    page.sheetId = before.id;
    page.flag = null;
  }
  recordMend(world, moving.map((page) => page.id), 'joined', by);
  // A sheet before whose pages were all ignored takes the student of the pages it receives.
  before.studentId ??= sheet.studentId;
  tidySheet(world, sheet.id);
  settleSheet(world, before);
  giveIntroSheetsStudents(world, fileOf(world, sheet.fileId));
  return before;
}
