// How a screen tells a refusal from a failure: the server answers 403 for a record of another
// congregation (or a call the role may not make), which retrying will not change.
import { ApiError } from './api-client';

/** Whether the server refused this account (403), rather than failing to answer. */
export function isRefused(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

/** What a screen says for another congregation's record, e.g. notAvailable('file'). */
export const notAvailable = (record: string) => `This ${record} is not available to this account.`;
