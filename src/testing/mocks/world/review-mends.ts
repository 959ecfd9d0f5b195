// Review's mends in the mock world, as the server makes them (server/workflow/review-mends.ts):
// move a page to another sheet of its file, start a sheet at a page, join a sheet to the one
// before, take a typed code. Each clears the page's flag; an empty sheet goes; all are refused
// once the file is sent. The world keeps no printed codes, so a typed code is only checked for
// its form.
import type { components } from '../../../../generated/api-types';
import { newId, type PageRow, type SheetRow, type World } from './world';

type S = components['schemas'];

/** A mend the server would refuse: its status, error type and message. */
export interface MendRefusal {
  status: 400 | 409;
  errorType: 'VALIDATION_ERROR' | 'SHEET_ALREADY_SENT';
  message: string;
}

const refuse = (status: MendRefusal['status'], errorType: MendRefusal['errorType'], message: string): MendRefusal => ({ status, errorType, message });
const SENT = refuse(409, 'SHEET_ALREADY_SENT', 'This file was sent to study helpers: its pages can no longer be changed or moved.');
const TYPED_CODE = /^[st][\s_-]?[2-9a-hj-km-np-z]{8}$/i;

function sent(world: World, fileId: string): boolean {
  return world.files.some((file) => file.id === fileId && file.sent_at !== null);
}

function dropIfEmpty(world: World, sheetId: string | null): void {
  if (sheetId !== null && !world.pages.some((page) => page.sheetId === sheetId)) world.sheets = world.sheets.filter((sheet) => sheet.id !== sheetId);
}

/** A sheet right after another; it carries only what is certain: the lesson of its first page's template. */
function newSheetAfter(world: World, after: SheetRow, first: PageRow): SheetRow {
  for (const sheet of world.sheets) if (sheet.fileId === after.fileId && sheet.sequence > after.sequence) sheet.sequence += 1;
  const lessonId = world.courses.flatMap((course) => course.templates).find((template) => template.id === first.templateId)?.lesson.id ?? null;
  const sheet: SheetRow = {
    id: newId(world, 'sheet'),
    fileId: after.fileId,
    sequence: after.sequence + 1,
    studentId: null,
    lessonId,
    assignedGroup: null,
    gradedAt: null,
    is_baptism_request: false,
  };
  world.sheets.push(sheet);
  return sheet;
}

/** The mend of a page PATCH (answer_sheet, new_sheet or code); null when it was made. */
export function mendPage(world: World, page: PageRow, patch: S['PagePatch']): MendRefusal | null {
  if (patch.answer_sheet === undefined && patch.new_sheet === undefined && patch.code === undefined) return null;
  if (Object.keys(patch).length > 1) return refuse(400, 'VALIDATION_ERROR', 'Send one mend at a time.');
  if (sent(world, page.fileId)) return SENT;
  const from = page.sheetId;
  if (patch.answer_sheet !== undefined) {
    const target = world.sheets.find((sheet) => sheet.id === patch.answer_sheet && sheet.fileId === page.fileId);
    if (!target) return refuse(400, 'VALIDATION_ERROR', "answer_sheet: not an answer sheet of this page's file");
    page.sheetId = target.id;
  } else if (patch.new_sheet !== undefined) {
    const sheet = world.sheets.find((row) => row.id === from);
    if (!sheet) return refuse(400, 'VALIDATION_ERROR', 'new_sheet: this page is on no response (a cover or a page set aside), so no response can start at it');
    const first = Math.min(...world.pages.filter((row) => row.sheetId === sheet.id).map((row) => row.page_number));
    if (first === page.page_number) return refuse(400, 'VALIDATION_ERROR', 'new_sheet: this page already starts its response (no kept page comes before it)');
    const created = newSheetAfter(world, sheet, page);
    for (const row of world.pages) if (row.sheetId === sheet.id && row.page_number >= page.page_number) row.sheetId = created.id;
  } else if (!TYPED_CODE.test((patch.code ?? '').trim())) {
    return refuse(400, 'VALIDATION_ERROR', "code: type the code printed beside the page's QR code, e.g. S-ABCD2345");
  }
  page.unrecognized_reason = null;
  if (from !== page.sheetId) dropIfEmpty(world, from);
  return null;
}

/** Joins a sheet to the one before it in its file; the sheet joined, or why not. */
export function joinPrevious(world: World, sheet: SheetRow): SheetRow | MendRefusal {
  if (sent(world, sheet.fileId)) return SENT;
  const before = world.sheets
    .filter((row) => row.fileId === sheet.fileId && row.sequence < sheet.sequence)
    .sort((a, b) => b.sequence - a.sequence)[0];
  if (!before) return refuse(400, 'VALIDATION_ERROR', 'join_previous: this is the first response of its file, so there is none before it to join');
  for (const page of world.pages) {
    if (page.sheetId !== sheet.id) continue;
    page.sheetId = before.id;
    page.unrecognized_reason = null;
  }
  dropIfEmpty(world, sheet.id);
  return before;
}
