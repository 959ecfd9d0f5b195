// The files tag, what changes a file (spec §7 "Files"): rename and re-home, delete, send and
// take back, archive, regenerate the return file. Changes go into the world's rows.
import type { HttpHandler } from 'msw';
import { deletableStepValues, type components } from '../../../../../generated/api-types';
import {
  getArchiveFileMockHandler,
  getDeleteFileMockHandler,
  getRecallFileMockHandler,
  getRegenerateReturnFileMockHandler,
  getSendFileMockHandler,
  getUpdateFileMockHandler,
} from '../../../../../generated/hooks/files/files.msw';
import { answer, forbidden, notFound, refusal, type WorldAccess } from '../http';
import { fileStep, fileView } from '../views';
import { tick, type FileRow } from '../world';
import type { WorldLookups } from './lookups';

type S = components['schemas'];

const DELETABLE_STEPS: readonly S['WorkflowStep'][] = deletableStepValues;

/** The file's fields a PATCH names; a blank name is refused. */
function patchFile(file: FileRow, patch: S['FilePatch']): Response | null {
  if (patch.name !== undefined) {
    if (patch.name.trim() === '') return refusal(400, 'VALIDATION_ERROR', 'A file needs a name.');
    file.name = patch.name.trim();
  }
  if (patch.service_center !== undefined) {
    file.serviceCenterId = patch.service_center;
    file.recruitingPointId = file.recruiterId = file.contactPersonId = null;
  }
  if (patch.recruiting_point !== undefined) file.recruitingPointId = patch.recruiting_point;
  if (patch.recruiter !== undefined) file.recruiterId = patch.recruiter;
  if (patch.contact_person !== undefined) file.contactPersonId = patch.contact_person;
  return null;
}

export function fileChangeResponders({ world, viewer }: WorldAccess, { visibleFile }: WorldLookups): HttpHandler[] {
  const withFile = <T>(id: unknown, reply: (file: FileRow) => T | Response | Promise<T | Response>) => {
    const file = visibleFile(id);
    return file ? reply(file) : notFound('File not found');
  };
  return [
    answer(getUpdateFileMockHandler, ({ params, request }) =>
      withFile(params.fileId, async (file) => {
        const refused = patchFile(file, (await request.json()) as S['FilePatch']);
        if (refused) return refused;
        tick(world());
        return fileView(world(), file, viewer());
      }),
    ),
    answer(getDeleteFileMockHandler, ({ params }) =>
      withFile(params.fileId, (file) => {
        if (!DELETABLE_STEPS.includes(fileStep(world(), file))) return refusal(409, 'FILE_SENT', 'A file sent to study helpers cannot be deleted.');
        const current = world();
        current.files = current.files.filter((row) => row.id !== file.id);
        current.sheets = current.sheets.filter((row) => row.fileId !== file.id);
        current.pages = current.pages.filter((row) => row.fileId !== file.id);
        tick(current);
      }),
    ),
    answer(getSendFileMockHandler, ({ params }) =>
      withFile(params.fileId, (file) => {
        if (fileStep(world(), file) !== 'send') return refusal(409, 'NOT_READY', 'Every response must be reviewed and assigned first.');
        file.sent_at = tick(world());
        file.file_status = 'grading';
        world().runningJobs.push(`send_to_study_helpers/${file.id}`);
        return { group_name: 'send_to_study_helpers', run_id: file.id };
      }),
    ),
    answer(getRecallFileMockHandler, ({ params }) => {
      if (viewer() !== null) return forbidden();
      return withFile(params.fileId, (file) => {
        if (file.sent_at === null) return refusal(409, 'CONFLICT', 'This file was not sent.');
        if (file.printed) return refusal(409, 'CONFLICT', 'A packet of this file was printed already, so the file cannot be taken back.');
        if (world().sheets.some((sheet) => sheet.fileId === file.id && sheet.gradedAt !== null)) {
          return refusal(409, 'CONFLICT', 'Graded scans of this file came back already, so the file cannot be taken back.');
        }
        file.sent_at = null;
        file.file_status = null;
        tick(world());
        return fileView(world(), file, viewer());
      });
    }),
    answer(getArchiveFileMockHandler, ({ params }) =>
      withFile(params.fileId, (file) => {
        if (file.file_status !== 'downloaded') return refusal(409, 'NOT_READY', 'Download the return file first.');
        file.file_status = 'archived';
        tick(world());
        return fileView(world(), file, viewer());
      }),
    ),
    answer(getRegenerateReturnFileMockHandler, ({ params }) =>
      withFile(params.fileId, (file) => {
        if (file.sent_at === null) return refusal(409, 'NOT_READY', 'The file is not sent yet.');
        file.prepped = true;
        tick(world());
        world().runningJobs.push(`generate_return_file_requested/${file.id}`);
        return { group_name: 'generate_return_file_requested', run_id: file.id };
      }),
    ),
  ];
}
