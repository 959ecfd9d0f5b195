// The Student ID rules and the error texts of the "Add Baptism Request" dialog (spec §5, §8).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  BAPTISM_REQUEST_EXISTS,
  BAPTISM_REQUEST_SERVER_ERROR,
  NO_ANSWER_SHEET,
  STUDENT_ID_INVALID,
  STUDENT_ID_NOT_FOUND,
  STUDENT_ID_REQUIRED,
  baptismRequestErrorMessage,
  baptismStatusLabel,
  checkStudentId,
} from '../baptism-request-messages';

const apiError = (status: number, body: unknown) => new ApiError(status, 'x', body);

describe('checkStudentId', () => {
  it.each(['', '   '])('requires a Student ID (%j)', (text) => {
    expect(checkStudentId(text)).toEqual({ ok: false, message: STUDENT_ID_REQUIRED });
  });

  it.each(['0', '00', '-5', '1.5', '12a', 'abc', '1e3', '+7', '99999999999999999999'])('refuses %j', (text) => {
    expect(checkStudentId(text)).toEqual({ ok: false, message: STUDENT_ID_INVALID });
  });

  it.each([
    ['1', 1],
    [' 100245 ', 100245],
    ['007', 7],
  ])('accepts %j as %d', (text, id) => {
    expect(checkStudentId(text)).toEqual({ ok: true, studentId: id });
  });
});

describe('baptismRequestErrorMessage', () => {
  it.each([
    ['404', apiError(404, { detail: 'Student not found' }), STUDENT_ID_NOT_FOUND],
    ['404 with any detail', apiError(404, { detail: 'gone' }), STUDENT_ID_NOT_FOUND],
    ['404 without a body', apiError(404, {}), STUDENT_ID_NOT_FOUND],
    ['detail Student not found on another status', apiError(422, { detail: 'Student not found' }), STUDENT_ID_NOT_FOUND],
    ['no answer sheet (400)', apiError(400, { detail: NO_ANSWER_SHEET }), NO_ANSWER_SHEET],
    ['no answer sheet (404)', apiError(404, { detail: NO_ANSWER_SHEET }), NO_ANSWER_SHEET],
    ['409', apiError(409, { detail: 'A baptism request already exists for this student.' }), BAPTISM_REQUEST_EXISTS],
    ['409 typed', apiError(409, { detail: { error_type: 'CONFLICT', message: 'exists' } }), BAPTISM_REQUEST_EXISTS],
    ['400', apiError(400, { detail: { error_type: 'VALIDATION_ERROR', message: 'bad' } }), STUDENT_ID_INVALID],
    ['500', apiError(500, { detail: 'boom' }), BAPTISM_REQUEST_SERVER_ERROR],
    ['403', apiError(403, { detail: 'Forbidden' }), BAPTISM_REQUEST_SERVER_ERROR],
    ['a network failure', new TypeError('Failed to fetch'), BAPTISM_REQUEST_SERVER_ERROR],
  ])('%s', (_, error, text) => {
    expect(baptismRequestErrorMessage(error)).toBe(text);
  });
});

describe('baptismStatusLabel', () => {
  it('labels every status, Pending by default', () => {
    expect(
      (['pending', 'waiting_on_recruiter', 'waiting_on_service_center', 'missing_info', 'completed'] as const).map(
        baptismStatusLabel,
      ),
    ).toEqual(['Pending', 'Waiting on Recruiter', 'Waiting on Service Center', 'Missing Info', 'Completed']);
    expect(baptismStatusLabel(undefined)).toBe('Pending');
  });
});
