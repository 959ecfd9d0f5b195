// The study-helpers tag (spec §7 "Study helpers"): the helpers, their packets of sent files, and
// the graded scans they send back.
import type { HttpHandler } from 'msw';
import {
  getDeleteStudyHelperMockHandler,
  getDownloadPacketMockHandler,
  getGetPacketExistsMockHandler,
  getGetStudyHelperMockHandler,
  getListStudyHelpersMockHandler,
  getUploadStudyHelperFileMockHandler,
} from '../../../../../generated/hooks/study-helpers/study-helpers.msw';
import { answer, forbidden, notFound, pdf, refusal, uses, type WorldAccess } from '../http';
import { uploadedPages } from '../uploaded-pages';
import { fileCongregations, packetId, studyHelperView } from '../views';
import { newId, tick } from '../world';
import { inUse, type WorldLookups } from './lookups';

export function studyHelperResponders({ world, viewer }: WorldAccess, { helperOf, helperList, deleted }: WorldLookups): HttpHandler[] {
  const packet = (id: unknown) =>
    world()
      .files.flatMap((file) => (file.sent_at === null ? [] : fileCongregations(world(), file).map((row) => ({ file, row }))))
      .find(({ file, row }) => packetId(file.id, row.id) === id && (viewer() === null || row.id === viewer()));
  return [
    answer(getListStudyHelpersMockHandler, ({ request }) => {
      const url = new URL(request.url);
      return helperList(url, viewer() ?? url.searchParams.get('congregation'));
    }),
    answer(getDeleteStudyHelperMockHandler, ({ params }) => {
      if (viewer() !== null) return forbidden();
      const helper = helperOf(params.id);
      if (!helper) return notFound('Study helper not found');
      const refused = inUse('study helper', uses([[world().students.filter((student) => student.studyHelperId === helper.id).length, 'student', 'students']]));
      if (refused) return refused;
      world().studyHelpers = world().studyHelpers.filter((row) => row.id !== helper.id);
      deleted();
    }),
    answer(getGetStudyHelperMockHandler, ({ params }) => {
      const helper = helperOf(params.id);
      return helper ? studyHelperView(world(), helper) : notFound('Study helper not found');
    }),
    answer(getDownloadPacketMockHandler, ({ params }) => {
      const found = packet(params.id);
      return found ? pdf(`${found.row.wbs_code} ${found.file.name}`, `Packet of ${found.file.name} for ${found.row.display_name}`) : notFound('Packet not found');
    }),
    answer(getGetPacketExistsMockHandler, ({ params }) => ({ exists: packet(params.id) !== undefined })),
    answer(getUploadStudyHelperFileMockHandler, async ({ request }) => {
      const form = await request.formData();
      const name = String(form.get('name') ?? '').trim();
      const helper = form.get('study_helper');
      const pages = uploadedPages(form);
      if (name === '') return refusal(400, 'VALIDATION_ERROR', 'A file and its name are required.');
      if ('refused' in pages) return refusal(400, 'VALIDATION_ERROR', pages.refused);
      if (world().uploads.some((upload) => upload.name === name)) return { status: 'error' as const, errorType: 'DUPLICATE_FILE' };
      const id = newId(world(), 'upload');
      const created_at = tick(world());
      const congregationId = viewer() || (world().congregations[0]?.id ?? '');
      world().uploads.unshift({
        id,
        name,
        congregationId,
        created_at,
        is_intro: typeof helper === 'string' && helper !== '',
        process_status: 'success',
        // A photo is one page.
        ...(pages.kind === 'photos' ? { pages: pages.photos.length } : {}),
      });
      world().runningJobs.push(`process_graded_upload/${id}`);
      return { status: 'success' as const, id };
    }),
  ];
}
