// The files tag, what is read (spec §7 "Files"): the list, a file, its counts, steps, cover,
// congregations, and its original and return PDFs.
import type { HttpHandler } from 'msw';
import type { components } from '../../../../../generated/api-types';
import {
  getDownloadFileMockHandler,
  getDownloadGradedFileMockHandler,
  getGetFileCoverMockHandler,
  getGetFileMockHandler,
  getGetFileQuizFeedbackAvailableMockHandler,
  getGetFileStatsMockHandler,
  getGetFileStepsMockHandler,
  getGetFileSummaryMockHandler,
  getListFileCongregationsMockHandler,
  getListFilesMockHandler,
} from '../../../../../generated/hooks/files/files.msw';
import { answer, contains, notFound, paged, pdf, refusal, scanImage, sorted, type WorldAccess } from '../http';
import { congregationFileState, fileCongregations, fileHasSheetsOf, fileInState, fileStats, fileSteps, fileView, fileVisible, keptSheets } from '../views';
import { tick, type FileRow, type World } from '../world';
import type { WorldLookups } from './lookups';

type S = components['schemas'];

/** The files the list shows for its query, as the server filters them. */
function listedFiles(world: World, url: URL, viewer: string | null): { rows: FileRow[]; who: string | null } {
  const q = (name: string) => url.searchParams.get(name);
  const who = viewer ?? q('group_id');
  const rows = world.files.filter((file) => {
    const center = world.serviceCenters.find((row) => row.id === file.serviceCenterId);
    return (
      fileVisible(world, file, viewer) &&
      (who === null || fileHasSheetsOf(world, file, who)) &&
      (q('file_state') === null || fileInState(world, file, q('file_state') as S['FileStateFilter'])) &&
      contains(file.name, q('query_name')) &&
      (q('country') === null || center?.country.iso_code === q('country')) &&
      (q('graded') === null || fileView(world, file, who).grading_complete === (q('graded') === 'true')) &&
      (q('congregation_file_state') === null || congregationFileState(world, file, who).includes(q('congregation_file_state') as S['CongregationFileStatus'])) &&
      (q('study_helper') === null ||
        world.sheets.some((sheet) => sheet.fileId === file.id && world.students.find((student) => student.id === sheet.studentId)?.studyHelperId === q('study_helper')))
    );
  });
  return { rows, who };
}

export function fileResponders({ world, viewer }: WorldAccess, { visibleFile }: WorldLookups): HttpHandler[] {
  const withFile = <T>(id: unknown, reply: (file: FileRow) => T | Response) => {
    const file = visibleFile(id);
    return file ? reply(file) : notFound('File not found');
  };
  return [
    answer(getListFilesMockHandler, ({ request }) => {
      const url = new URL(request.url);
      const { rows, who } = listedFiles(world(), url, viewer());
      const order = sorted(url, rows, { created_at: (file) => file.uploaded_at, uploaded_at: (file) => file.uploaded_at, name: (file) => file.name.toLowerCase() }, 'created_at', 'desc');
      const page = paged(url, order);
      return { ...page, items: page.items.map((file) => fileView(world(), file, who)) };
    }),
    answer(getGetFileSummaryMockHandler, ({ params }) => withFile(params.id, (file) => fileView(world(), file, viewer()))),
    answer(getGetFileStatsMockHandler, ({ params }) => withFile(params.fileId, (file) => fileStats(world(), file, viewer()))),
    answer(getGetFileStepsMockHandler, ({ params }) => withFile(params.fileId, (file) => fileSteps(world(), file, viewer()))),
    answer(getGetFileCoverMockHandler, ({ params }) => withFile(params.fileId, (file) => scanImage(file.name, 'Cover sheet'))),
    answer(getGetFileQuizFeedbackAvailableMockHandler, ({ params }) =>
      withFile(params.fileId, (file) => ({ available: keptSheets(world(), file.id).some((sheet) => sheet.gradedAt !== null) })),
    ),
    answer(getListFileCongregationsMockHandler, ({ params }) =>
      withFile(params.fileId, (file) => fileCongregations(world(), file).filter((row) => viewer() === null || row.id === viewer())),
    ),
    answer(getDownloadGradedFileMockHandler, ({ params }) =>
      withFile(params.fileId, (file) => {
        if (!file.prepped) return refusal(409, 'NOT_READY', 'The return file is not generated yet.');
        if (file.file_status !== 'archived') file.file_status = 'downloaded';
        tick(world());
        return pdf(`${file.name.replace(/\.pdf$/i, '')} graded.pdf`, `Return file of ${file.name}`);
      }),
    ),
    // Before getFile: its path (/file/{fileId}) would take "{fileId}.pdf" too.
    answer(getDownloadFileMockHandler, ({ params }) => withFile(params.fileId, (file) => pdf(file.name, `Original scan ${file.name}`))),
    answer(getGetFileMockHandler, ({ params }) => withFile(params.fileId, (file) => fileView(world(), file, viewer()))),
  ];
}
