// Errors a route handler, or the workflow step it calls, throws to answer with a status and the
// spec's {"detail": ...} body (section 8). The central error handler in app.ts turns them into
// responses; anything else becomes a 500 with no internals in the body.

export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    /** Goes out as {"detail": detail}: a message, or an object such as {error_type: "DUPLICATE_FILE"}. */
    public readonly detail: unknown = defaultDetail(statusCode),
  ) {
    super(typeof detail === 'string' ? detail : `HTTP ${statusCode}`);
    this.name = 'HttpError';
  }
}

export function defaultDetail(statusCode: number): string {
  switch (statusCode) {
    case 400:
      return 'Bad request';
    case 401:
      return 'Not authenticated';
    case 403:
      return 'Forbidden';
    case 404:
      return 'Not found';
    case 409:
      return 'Conflict';
    case 413:
      return 'Payload too large';
    case 503:
      return 'Service unavailable';
    default:
      return statusCode >= 500 ? 'Internal server error' : 'Request failed';
  }
}

export const badRequest = (detail: unknown = 'Bad request') => new HttpError(400, detail);
export const notAuthenticated = () => new HttpError(401, 'Not authenticated');
export const forbidden = () => new HttpError(403, 'Forbidden');
export const notFound = (detail: unknown = 'Not found') => new HttpError(404, detail);
/** The one answer for a file that is missing or out of the caller's scope. */
export const FILE_NOT_FOUND = 'File not found';
export const conflict = (detail: unknown = 'Conflict') => new HttpError(409, detail);

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
