// Error answers the route modules share, in the shapes of the contract and spec section 8.
import { HttpError, badRequest, conflict, notFound } from '../../http-error';

/** 400 {"detail": {"error_type": "VALIDATION_ERROR", "message": ...}}: a rule the contract cannot express. */
export function validationError(message: string): HttpError {
  return badRequest({ error_type: 'VALIDATION_ERROR', message });
}

/** 409 {"detail": {"error_type": "CONFLICT", "message": ...}}. */
export function conflictError(message: string): HttpError {
  return conflict({ error_type: 'CONFLICT', message });
}

/**
 * 409 {"detail": {"error_type": "SHEET_ALREADY_SENT", "message": ...}}: a sent sheet's congregation
 * cannot change (its packet was printed for that congregation).
 */
export function sheetAlreadySent(message: string): HttpError {
  return conflict({ error_type: 'SHEET_ALREADY_SENT', message });
}

export const STUDENT_NOT_FOUND = 'Student not found';

export const studentNotFound = () => notFound(STUDENT_NOT_FOUND);

export const STUDY_HELPER_NOT_FOUND = 'Study helper not found';
