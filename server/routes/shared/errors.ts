// Not-found answers the route modules share (the error shapes themselves are in ../../http-error).
import { notFound } from '../../http-error';

export const STUDENT_NOT_FOUND = 'Student not found';

export const studentNotFound = () => notFound(STUDENT_NOT_FOUND);

export const STUDY_HELPER_NOT_FOUND = 'Study helper not found';
