// What a failed save says: the server's own words for a refusal it explains (409, e.g. a name
// the service center already has), the screen's general text otherwise.
import { ApiError } from '../../lib/api-client';

export function saveErrorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 409) {
    const detail = (error.body as { detail?: { message?: unknown } } | null)?.detail;
    if (typeof detail?.message === 'string' && detail.message !== '') return detail.message;
  }
  return fallback;
}
