// The baptism request texts of spec §3, §5 and §8: status labels, the Student ID rules of the
// "Add Baptism Request" dialog, and how a failed POST /api/baptism-request reads to the user.
import type { BaptismStatus } from '../../../generated/hooks/model';
import { ApiError } from '../../lib/api-client';

export const BAPTISM_REQUESTS_EMPTY_MESSAGE = 'There are no baptism requests yet';
export const ADD_BAPTISM_REQUEST_TITLE = 'Add Baptism Request';
export const BAPTISM_REQUEST_CREATED = 'Baptism request successfully created.';

export const STUDENT_ID_REQUIRED = 'Please enter a Student ID to continue.';
export const STUDENT_ID_INVALID = 'Invalid Student ID format.';
export const STUDENT_ID_NOT_FOUND = 'Student ID not found.';
export const NO_ANSWER_SHEET = 'No answer sheet found for this student.';
export const BAPTISM_REQUEST_EXISTS = 'A baptism request already exists for this student.';
export const BAPTISM_REQUEST_SERVER_ERROR =
  'Unable to create baptism request due to a server error. Please try again later.';

/** The server's detail for an unknown student (spec §8 "detail Student not found"). */
const STUDENT_NOT_FOUND_DETAIL = 'Student not found';

export const BAPTISM_STATUS_LABELS: Readonly<Record<BaptismStatus, string>> = {
  pending: 'Pending',
  waiting_on_recruiter: 'Waiting on Recruiter',
  waiting_on_service_center: 'Waiting on Service Center',
  missing_info: 'Missing Info',
  completed: 'Completed',
};

/** A request without a status is Pending (the default of spec §4). */
export function baptismStatusLabel(status: BaptismStatus | null | undefined): string {
  return BAPTISM_STATUS_LABELS[status ?? 'pending'];
}

export type StudentIdCheck = { ok: true; studentId: number } | { ok: false; message: string };

/** The typed Student ID: required, and a positive whole number (spec §5). */
export function checkStudentId(text: string): StudentIdCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: STUDENT_ID_REQUIRED };
  if (!/^\d+$/.test(trimmed)) return { ok: false, message: STUDENT_ID_INVALID };
  const studentId = Number(trimmed);
  if (studentId < 1 || !Number.isSafeInteger(studentId)) return { ok: false, message: STUDENT_ID_INVALID };
  return { ok: true, studentId };
}

function detailText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('detail' in body)) return undefined;
  const detail = (body as { detail: unknown }).detail;
  if (typeof detail === 'string') return detail;
  if (typeof detail === 'object' && detail !== null && 'message' in detail) {
    const message = (detail as { message: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  }
  return undefined;
}

/**
 * What the dialog says when the request failed (spec §8). The server sends "No answer sheet found
 * for this student." with a 400, so the detail is read before the status.
 */
export function baptismRequestErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return BAPTISM_REQUEST_SERVER_ERROR;
  const detail = detailText(error.body);
  if (detail === NO_ANSWER_SHEET) return NO_ANSWER_SHEET;
  if (error.status === 404 || detail === STUDENT_NOT_FOUND_DETAIL) return STUDENT_ID_NOT_FOUND;
  if (error.status === 409) return BAPTISM_REQUEST_EXISTS;
  if (error.status === 400) return STUDENT_ID_INVALID;
  return BAPTISM_REQUEST_SERVER_ERROR;
}
