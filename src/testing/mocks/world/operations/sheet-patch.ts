// PATCH /answer-sheets/{sheetId} over the world: Review's mends (join to the previous sheet, keep
// a duplicate, name the student) and the sheet's congregation and lesson, refused once it was sent.
import type { components } from '../../../../../generated/api-types';
import { refusal, type WorldAccess } from '../http';
import { joinPrevious, refusedOnceSent, type MendRefusal } from '../review-mends';
import { keepDuplicate, setSheetStudent } from '../sheet-mends';
import { lessonOf, sheetView } from '../views';
import { tick, type SheetRow } from '../world';

type S = components['schemas'];

export function mendSheet({ world, userEmail }: WorldAccess, sheet: SheetRow, patch: S['AnswerSheetPatch']): S['AnswerSheet'] | Response {
  const answer = (refused: MendRefusal | null) => {
    if (refused) return refusal(refused.status, refused.errorType, refused.message);
    tick(world());
    return sheetView(world(), sheet);
  };
  if (patch.join_previous !== undefined) {
    if (Object.keys(patch).length > 1) return refusal(400, 'VALIDATION_ERROR', 'join_previous: send it alone');
    const joined = joinPrevious(world(), sheet, userEmail());
    if ('errorType' in joined) return refusal(joined.status, joined.errorType, joined.message);
    tick(world());
    return sheetView(world(), joined);
  }
  if (patch.keep_duplicate !== undefined) {
    if (Object.keys(patch).length > 1) return refusal(400, 'VALIDATION_ERROR', 'keep_duplicate: send it alone');
    return answer(keepDuplicate(world(), sheet, userEmail()));
  }
  if (patch.student !== undefined) {
    const refused = setSheetStudent(world(), sheet, patch.student, userEmail());
    if (refused) return answer(refused);
  }
  if (patch.assigned_group != null && !world().congregations.some((row) => row.id === patch.assigned_group)) {
    return refusal(400, 'VALIDATION_ERROR', 'assigned_group: no such congregation');
  }
  if (patch.lesson != null && lessonOf(world(), patch.lesson) === null) return refusal(400, 'VALIDATION_ERROR', 'lesson: no such lesson');
  const sent = refusedOnceSent(world(), sheet.fileId) !== null;
  if (patch.assigned_group !== undefined && patch.assigned_group !== sheet.assignedGroup) {
    if (sent) return refusal(409, 'SHEET_ALREADY_SENT', 'This response was sent to its congregation; its congregation can no longer change.');
    sheet.assignedGroup = patch.assigned_group;
  }
  if (patch.lesson !== undefined && patch.lesson !== sheet.lessonId) {
    // Its packet was printed with this lesson, and its return file will carry it.
    if (sent) return refusal(409, 'SHEET_ALREADY_SENT', 'This response was sent to its congregation; its lesson can no longer change.');
    // A new lesson may make the sheet a duplicate, or stop it being one: nobody has kept it as one yet.
    sheet.lessonId = patch.lesson;
    sheet.duplicateKept = false;
  }
  return answer(null);
}
