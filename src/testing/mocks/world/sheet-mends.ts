// Review's sheet mends in the mock world, as the server makes them (server/workflow/sheet-mends.ts):
// keep a duplicate sheet, name a sheet's student. Recorded on each of the sheet's pages (mends are
// shown per page) and refused once the file is sent, like the page mends.
import { duplicateOf } from './review-flags';
import { invalidMend, recordMend, refusedOnceSent, type MendRefusal } from './review-mends';
import type { SheetRow, World } from './world';

const pageIdsOn = (world: World, sheet: SheetRow) => world.pages.filter((page) => page.sheetId === sheet.id).map((page) => page.id);

/** Keeps a duplicate: it is sent like any other sheet and no longer holds its file in Review. */
export function keepDuplicate(world: World, sheet: SheetRow, by: string): MendRefusal | null {
  const sent = refusedOnceSent(world, sheet.fileId);
  if (sent) return sent;
  if (duplicateOf(world, sheet) === null) return invalidMend('keep_duplicate: this response is not a duplicate');
  sheet.duplicateKept = true;
  recordMend(world, pageIdsOn(world, sheet), 'duplicate_kept', by);
  return null;
}

/** As the server says it (server/workflow/sheet-mends.ts). */
export const SHEET_HAS_STUDENT =
  'This response already has a student. To give a page to another student, move it to their response or type the code printed beside its QR code.';

/**
 * Names a sheet's student (a sheet started by hand has none; one with another student is refused): the sheet takes the student's
 * congregation when it has none, the student the sheet's when they have none, and the sheet is
 * a duplicate again only if it repeats a lesson of theirs (nobody has kept it yet).
 */
export function setSheetStudent(world: World, sheet: SheetRow, studentId: string, by: string): MendRefusal | null {
  const sent = refusedOnceSent(world, sheet.fileId);
  if (sent) return sent;
  const student = world.students.find((row) => row.id === studentId);
  if (!student) return invalidMend('student: no such student');
  // Never another student's: the sheet's pages would change hands with nothing on paper saying so.
  if (sheet.studentId !== null && sheet.studentId !== student.id) return { status: 409, errorType: 'CONFLICT', message: SHEET_HAS_STUDENT };
  sheet.studentId = student.id;
  sheet.assignedGroup ??= student.congregationId;
  sheet.duplicateKept = false;
  student.congregationId ??= sheet.assignedGroup;
  recordMend(world, pageIdsOn(world, sheet), 'student_set', by);
  return null;
}
