// After Send a response's congregation is fixed (DESIGN §4): the server answers a change with 409
// SHEET_ALREADY_SENT, and the screens say why they no longer offer one.
import type { ErrorWithType } from '../../generated/hooks/model';
import { ApiError } from './api-client';

export const SHEET_ALREADY_SENT = 'SHEET_ALREADY_SENT';
export const RESPONSE_CONGREGATION_FIXED = 'This response was sent to its congregation; its congregation can no longer change.';
export const FILE_CONGREGATIONS_FIXED = 'This file was sent to the study helpers; its responses keep their congregations.';

/** The server refused a change of congregation because the sheet (or its file) was sent. */
export function isSheetAlreadySent(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 409) return false;
  const detail = (error.body as Partial<ErrorWithType> | null)?.detail;
  return typeof detail === 'object' && detail !== null && detail.error_type === SHEET_ALREADY_SENT;
}
