// SQL fragments of a file's workflow step that repository queries share (workflow/file-steps.ts
// builds the step itself from them).

/**
 * The file was sent to its study helpers or is being sent (its packets may be under way): its
 * sheets' congregations are fixed from then on.
 */
export function sentOrSendingSql(file: string): string {
  return `(${file}.sent_at IS NOT NULL OR ${file}.send_requested_at IS NOT NULL)`;
}

/** A sheet of file `f` that keeps at least one page (sheets whose pages are all ignored are dropped). */
export function keptSheetSql(sheet: string): string {
  return `EXISTS (SELECT 1 FROM pages kp WHERE kp.answer_sheet_id = ${sheet}.id AND NOT kp.ignored)`;
}
