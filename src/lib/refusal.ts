// How a screen tells a refusal from a failure: the server answers 403 for a record of another
// congregation (or a call the role may not make), which retrying will not change.
import { ApiError } from './api-client';

/** Whether the server refused this account (403), rather than failing to answer. */
export function isRefused(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

/** What a screen says for another congregation's record, e.g. notAvailable('file'). */
export const notAvailable = (record: string) => `This ${record} is not available to this account.`;

/**
 * The server's own words for a refusal it explains (409, e.g. a record still in use, a name the
 * service center already has), the screen's general text otherwise.
 */
export function refusalMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status === 409) {
    const detail = (error.body as { detail?: { message?: unknown } } | null)?.detail;
    if (typeof detail?.message === 'string' && detail.message !== '') return detail.message;
  }
  return fallback;
}

/** What the server said about a failure, if it said anything (ErrorSimple or ErrorWithType). */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const detail = (error.body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string' && detail !== '') return detail;
  const message = (detail as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && message !== '' ? message : undefined;
}
