// What the mock world answers before any operation: nobody signed in (401), and in the errors
// scenario every change refused with the spec's errors (§8). Operations are told apart by their
// generated handlers (the contract's methods and paths), never by paths written here.
import { http, matchRequestUrl, type HttpHandler } from 'msw';
import { getAuthMock } from '../../../../generated/hooks/auth/auth.msw';
import { getCreateBaptismRequestMockHandler, getFlagAnswerSheetBaptismRequestMockHandler } from '../../../../generated/hooks/baptism/baptism.msw';
import {
  getArchiveFileMockHandler,
  getRegenerateReturnFileMockHandler,
  getSendFileMockHandler,
  getUploadFileMockHandler,
} from '../../../../generated/hooks/files/files.msw';
import { getHealthMock } from '../../../../generated/hooks/health/health.msw';
import { getUploadStudyHelperFileMockHandler } from '../../../../generated/hooks/study-helpers/study-helpers.msw';
import { json, refusal } from './http';

/** Whether `request` is a call of the operation `handler` answers. */
const callOf = (request: Request) => (handler: HttpHandler) => {
  const { method, path } = handler.info;
  return method === request.method && typeof path !== 'function' && matchRequestUrl(new URL(request.url), path).matches;
};

/** Operations anyone may call: signing in and out, who is signed in, the health check. */
const OPEN = [...getAuthMock(), ...getHealthMock()];
const UPLOADS = [getUploadFileMockHandler(), getUploadStudyHelperFileMockHandler()];
/** Posts that start a job or flag a sheet: in the errors scenario they fail on the server's side. */
const SERVER_FAILURES = [
  getSendFileMockHandler(),
  getArchiveFileMockHandler(),
  getRegenerateReturnFileMockHandler(),
  getCreateBaptismRequestMockHandler(),
  getFlagAnswerSheetBaptismRequestMockHandler(),
];

/** In the errors scenario: how each change is refused (spec §8's types). */
function refusedChange(request: Request): Response | undefined {
  const isCall = callOf(request);
  if (request.method === 'GET' || OPEN.some(isCall)) return undefined;
  if (UPLOADS.some(isCall)) return refusal(409, 'DUPLICATE_FILE', 'This file has already been uploaded.');
  if (request.method === 'POST' && !SERVER_FAILURES.some(isCall)) return refusal(400, 'VALIDATION_ERROR', 'The request was refused (errors scenario).');
  return refusal(500, 'SERVER_ERROR', 'Server error (errors scenario).');
}

export interface GateOptions {
  /** Every operation the world answers: a request that is none of them (a page, a script) goes by. */
  operations: readonly HttpHandler[];
  signedIn: () => boolean;
  refusesChanges: () => boolean;
}

export function worldGate({ operations, signedIn, refusesChanges }: GateOptions): HttpHandler {
  return http.all('*', ({ request }) => {
    const isCall = callOf(request);
    if (!operations.some(isCall)) return undefined;
    if (!signedIn() && !OPEN.some(isCall)) return json({ detail: 'Not signed in' }, 401);
    return refusesChanges() ? refusedChange(request) : undefined;
  });
}
