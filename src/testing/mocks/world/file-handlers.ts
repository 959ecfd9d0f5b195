// The mock world's files, answer sheets, pages, uploads and progress streams (spec §7 "Files",
// "Answer sheets", "Pages", "Progress"). Changes go into the world's rows, so lists show them.
import { http, type RequestHandler } from 'msw';
import { deletableStepValues, type components } from '../../../../generated/api-types';
import { contains, forbidden, json, notFound, paged, pdf, progressMessages, progressStream, refusal, scanImage, sorted, type WorldAccess } from './http';
import { fileUpload } from './file-upload-report';
import { seededRandom } from './random';
import {
  congregationFileState,
  packetId,
  fileCongregations,
  fileInState,
  fileStats,
  fileStep,
  fileSteps,
  fileView,
  fileHasSheetsOf,
  fileVisible,
  keptSheets,
  pageView,
  sheetView,
  templateOf,
  lessonOf,
} from './views';
import { joinPrevious, mendPage, refusedOnceSent, type MendRefusal } from './review-mends';
import { sheetShowsReason } from './review-flags';
import { keepDuplicate, setSheetStudent } from './sheet-mends';
import { iso, newId, processedSheets, tick, type FileRow, type UploadRow, type World } from './world';
import { uploadedPages } from './uploaded-pages';

type S = components['schemas'];

const DELETABLE_STEPS: readonly S['WorkflowStep'][] = deletableStepValues;

/** What the pipeline finds in a pending file: the same sheets and pages for the same file id. */
function processing(world: World, file: FileRow) {
  const seed = [...file.id].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) >>> 0, 7);
  return processedSheets(world, seededRandom(seed), file, 2 + (seed % 7));
}

/** A pending file read by the pipeline: its sheets and pages join the world (in errors: it fails). */
function finishProcessing(world: World, file: FileRow): void {
  if (file.process_status !== 'pending') return;
  if (world.scenario === 'errors') {
    file.process_status = 'failed';
    file.failure_reason = 'No answer sheet could be read in this file.';
    return;
  }
  const { sheets, pages } = processing(world, file);
  world.sheets.push(...sheets);
  world.pages.push(...pages);
  file.process_status = 'success';
}

export function fileHandlers(access: WorldAccess): RequestHandler[] {
  const { world, viewer, userEmail } = access;
  const visibleFile = (id: string | undefined) => {
    const file = world().files.find((row) => row.id === id);
    return file && fileVisible(world(), file, viewer()) ? file : undefined;
  };
  const withFile = (id: string | undefined, answer: (file: FileRow) => Response) => {
    const file = visibleFile(id);
    return file ? answer(file) : notFound('File not found');
  };
  const sheetOf = (id: string | undefined) => world().sheets.find((sheet) => sheet.id === id && visibleFile(sheet.fileId));
  const pageOf = (id: string | undefined) => world().pages.find((page) => page.id === id && visibleFile(page.fileId));

  return [
    http.get('*/api/files', ({ request }) => {
      const url = new URL(request.url);
      const q = (name: string) => url.searchParams.get(name);
      const who = viewer() ?? q('group_id');
      const rows = world().files.filter((file) => {
        const center = world().serviceCenters.find((row) => row.id === file.serviceCenterId);
        return (
          fileVisible(world(), file, viewer()) &&
          (who === null || fileHasSheetsOf(world(), file, who)) &&
          (q('file_state') === null || fileInState(world(), file, q('file_state') as S['FileStateFilter'])) &&
          contains(file.name, q('query_name')) &&
          (q('country') === null || center?.country.iso_code === q('country')) &&
          (q('graded') === null || fileView(world(), file, who).grading_complete === (q('graded') === 'true')) &&
          (q('congregation_file_state') === null || congregationFileState(world(), file, who).includes(q('congregation_file_state') as S['CongregationFileStatus'])) &&
          (q('study_helper') === null ||
            world().sheets.some(
              (sheet) => sheet.fileId === file.id && world().students.find((student) => student.id === sheet.studentId)?.studyHelperId === q('study_helper'),
            ))
        );
      });
      const order = sorted(url, rows, { created_at: (file) => file.uploaded_at, uploaded_at: (file) => file.uploaded_at, name: (file) => file.name.toLowerCase() }, 'created_at', 'desc');
      const page = paged(url, order);
      return json<S['FileList']>({ ...page, items: page.items.map((file) => fileView(world(), file, who)) });
    }),
    http.get('*/api/files/:id', ({ params }) => withFile(params.id as string, (file) => json<S['File']>(fileView(world(), file, viewer())))),
    http.get('*/api/file/:fileId/stats', ({ params }) => withFile(params.fileId as string, (file) => json<S['FileStats']>(fileStats(world(), file, viewer())))),
    http.get('*/api/file/:fileId/steps', ({ params }) => withFile(params.fileId as string, (file) => json<S['FileStep']>(fileSteps(world(), file, viewer())))),
    http.get('*/api/file/:fileId/cover', ({ params }) => withFile(params.fileId as string, (file) => scanImage(file.name, 'Cover sheet'))),
    http.get('*/api/file/:fileId/quiz_feedback_available', ({ params }) =>
      withFile(params.fileId as string, (file) => json<S['QuizFeedbackAvailable']>({ available: keptSheets(world(), file.id).some((sheet) => sheet.gradedAt !== null) })),
    ),
    http.get('*/api/file/:fileId/congregations', ({ params }) =>
      withFile(params.fileId as string, (file) =>
        json<S['FileCongregation'][]>(fileCongregations(world(), file).filter((row) => viewer() === null || row.id === viewer())),
      ),
    ),
    http.get('*/api/file/:fileId/graded_pdf', ({ params }) =>
      withFile(params.fileId as string, (file) => {
        if (!file.prepped) return refusal(409, 'NOT_READY', 'The return file is not generated yet.');
        if (file.file_status !== 'archived') file.file_status = 'downloaded';
        tick(world());
        return pdf(`${file.name.replace(/\.pdf$/i, '')} graded.pdf`, `Return file of ${file.name}`);
      }),
    ),
    http.get('*/api/file/:fileName', ({ params }) => {
      const name = params.fileName as string;
      if (name.endsWith('.pdf')) return withFile(name.slice(0, -4), (file) => pdf(file.name, `Original scan ${file.name}`));
      return withFile(name, (file) => json<S['File']>(fileView(world(), file, viewer())));
    }),
    http.patch('*/api/file/:fileId', async ({ params, request }) => {
      const file = visibleFile(params.fileId as string);
      if (!file) return notFound('File not found');
      const patch = (await request.json()) as S['FilePatch'];
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
      tick(world());
      return json<S['File']>(fileView(world(), file, viewer()));
    }),
    http.delete('*/api/file/:fileId', ({ params }) => {
      const file = visibleFile(params.fileId as string);
      if (!file) return notFound('File not found');
      if (!DELETABLE_STEPS.includes(fileStep(world(), file))) return refusal(409, 'FILE_SENT', 'A file sent to study helpers cannot be deleted.');
      const current = world();
      current.files = current.files.filter((row) => row.id !== file.id);
      current.sheets = current.sheets.filter((row) => row.fileId !== file.id);
      current.pages = current.pages.filter((row) => row.fileId !== file.id);
      tick(current);
      return new Response(null, { status: 204 });
    }),
    http.post('*/api/file/:fileId/send', ({ params }) =>
      withFile(params.fileId as string, (file) => {
        if (fileStep(world(), file) !== 'send') return refusal(409, 'NOT_READY', 'Every response must be reviewed and assigned first.');
        file.sent_at = tick(world());
        file.file_status = 'grading';
        world().runningJobs.push(`send_to_study_helpers/${file.id}`);
        return json<S['JobStarted']>({ group_name: 'send_to_study_helpers', run_id: file.id }, 202);
      }),
    ),
    http.delete('*/api/file/:fileId/send', ({ params }) => {
      if (viewer() !== null) return forbidden();
      return withFile(params.fileId as string, (file) => {
        if (file.sent_at === null) return refusal(409, 'CONFLICT', 'This file was not sent.');
        if (file.printed) return refusal(409, 'CONFLICT', 'A packet of this file was printed already, so the file cannot be taken back.');
        if (world().sheets.some((sheet) => sheet.fileId === file.id && sheet.gradedAt !== null)) {
          return refusal(409, 'CONFLICT', 'Graded scans of this file came back already, so the file cannot be taken back.');
        }
        file.sent_at = null;
        file.file_status = null;
        tick(world());
        return json<S['File']>(fileView(world(), file, viewer()));
      });
    }),
    http.post('*/api/file/:fileId/archive', ({ params }) =>
      withFile(params.fileId as string, (file) => {
        if (file.file_status !== 'downloaded') return refusal(409, 'NOT_READY', 'Download the return file first.');
        file.file_status = 'archived';
        tick(world());
        return json<S['File']>(fileView(world(), file, viewer()));
      }),
    ),
    http.post('*/api/file/:fileId/regenerate', ({ params }) =>
      withFile(params.fileId as string, (file) => {
        if (file.sent_at === null) return refusal(409, 'NOT_READY', 'The file is not sent yet.');
        file.prepped = true;
        tick(world());
        world().runningJobs.push(`generate_return_file_requested/${file.id}`);
        return json<S['JobStarted']>({ group_name: 'generate_return_file_requested', run_id: file.id }, 202);
      }),
    ),
    http.post('*/api/file', async ({ request }) => {
      const form = await request.formData();
      const name = String(form.get('name') ?? '').trim();
      const pages = uploadedPages(form);
      if (name === '') return refusal(400, 'VALIDATION_ERROR', 'A file and its name are required.');
      if ('refused' in pages) return refusal(400, 'VALIDATION_ERROR', pages.refused);
      if (world().files.some((file) => file.name === name)) return refusal(409, 'DUPLICATE_FILE', 'This file has already been uploaded.');
      const length = Number(form.get('answer_sheet_page_length') ?? 0);
      const uploadedAt = tick(world());
      const scanned = String(form.get('scanned_at') ?? '');
      const file: FileRow = {
        id: newId(world(), 'file'),
        name,
        process_status: 'pending',
        failure_reason: null,
        file_status: null,
        printed: false,
        answer_sheet_page_length: length === 1 || length === 2 ? length : 0,
        serviceCenterId: null,
        recruitingPointId: null,
        recruiterId: null,
        contactPersonId: null,
        scanned_at: Number.isNaN(Date.parse(scanned)) ? null : iso(Date.parse(scanned)),
        uploaded_at: uploadedAt,
        sent_at: null,
        prepped: false,
      };
      world().files.unshift(file);
      world().runningJobs.push(`process_service_center_upload/${file.id}`);
      return json<S['Created']>({ id: file.id }, 201);
    }),

    http.get('*/api/answer-sheets', ({ request }) => {
      const url = new URL(request.url);
      const fileId = url.searchParams.get('file');
      const graded = url.searchParams.get('graded');
      const reason = url.searchParams.get('reason') as S['ReviewReason'] | null;
      const rows = world().sheets.filter(
        (sheet) =>
          visibleFile(sheet.fileId) !== undefined &&
          (reason === null || sheetShowsReason(world(), sheet, reason)) &&
          (fileId === null || sheet.fileId === fileId) &&
          (graded === null || (sheet.gradedAt !== null) === (graded === 'true')) &&
          (viewer() === null || sheet.assignedGroup === viewer()) &&
          keptSheets(world(), sheet.fileId).includes(sheet),
      );
      const views = rows.map((sheet) => ({ sheet, view: sheetView(world(), sheet) }));
      const order = sorted(
        url,
        views,
        {
          sequence: ({ sheet }) => `${sheet.fileId}:${String(sheet.sequence).padStart(5, '0')}`,
          course: ({ view }) => view.course?.name ?? null,
          student: ({ view }) => view.student?.human_id ?? null,
          graded_at: ({ sheet }) => sheet.gradedAt,
        },
        'sequence',
      );
      const page = paged(url, order);
      return json<S['AnswerSheetList']>({ ...page, items: page.items.map(({ view }) => view) });
    }),
    http.patch('*/api/answer-sheets', async ({ request }) => {
      const fileId = new URL(request.url).searchParams.get('file');
      const file = visibleFile(fileId ?? undefined);
      if (!file) return notFound('File not found');
      const body = (await request.json()) as S['BulkAssign'];
      if (!world().congregations.some((congregation) => congregation.id === body.assigned_group)) return refusal(400, 'VALIDATION_ERROR', 'Unknown congregation.');
      const sheets = keptSheets(world(), file.id);
      for (const sheet of sheets) sheet.assignedGroup = body.assigned_group;
      tick(world());
      return json<S['BulkAssignResult']>({ updated: sheets.length });
    }),
    http.get('*/api/answer-sheets/:sheetId/pages', ({ params }) => {
      const sheet = sheetOf(params.sheetId as string);
      if (!sheet) return notFound('Answer sheet not found');
      return json<S['Page'][]>(world().pages.filter((page) => page.sheetId === sheet.id).map((page) => pageView(world(), page)));
    }),
    http.get('*/api/answer-sheets/:sheetId/print.pdf', ({ params }) => {
      const sheet = sheetOf(params.sheetId as string);
      return sheet ? pdf(`answer-sheet-${sheet.id.slice(0, 6)}.pdf`, `Answer sheet ${sheet.sequence}`) : notFound('Answer sheet not found');
    }),
    http.get('*/api/answer-sheets/:sheetId', ({ params }) => {
      const sheet = sheetOf(params.sheetId as string);
      return sheet ? json<S['AnswerSheet']>(sheetView(world(), sheet)) : notFound('Answer sheet not found');
    }),
    http.patch('*/api/answer-sheets/:sheetId', async ({ params, request }) => {
      // Review's mends and the choice of a sheet's congregation are the admins' (x-access admin).
      if (viewer() !== null) return forbidden();
      const sheet = sheetOf(params.sheetId as string);
      if (!sheet) return notFound('Answer sheet not found');
      const patch = (await request.json()) as S['AnswerSheetPatch'];
      const answer = (refused: MendRefusal | null) => {
        if (refused) return refusal(refused.status, refused.errorType, refused.message);
        tick(world());
        return json<S['AnswerSheet']>(sheetView(world(), sheet));
      };
      if (patch.join_previous !== undefined) {
        if (Object.keys(patch).length > 1) return refusal(400, 'VALIDATION_ERROR', 'join_previous: send it alone');
        const joined = joinPrevious(world(), sheet, userEmail());
        if ('errorType' in joined) return refusal(joined.status, joined.errorType, joined.message);
        tick(world());
        return json<S['AnswerSheet']>(sheetView(world(), joined));
      }
      if (patch.keep_duplicate !== undefined) {
        if (Object.keys(patch).length > 1) return refusal(400, 'VALIDATION_ERROR', 'keep_duplicate: send it alone');
        return answer(keepDuplicate(world(), sheet, userEmail()));
      }
      if (patch.student !== undefined) {
        const refused = setSheetStudent(world(), sheet, patch.student, userEmail());
        if (refused) return answer(refused);
      }
      if (patch.assigned_group != null && !world().congregations.some((row) => row.id === patch.assigned_group)) {
        return refusal(400, 'VALIDATION_ERROR', 'assigned_group: no such congregation');
      }
      if (patch.lesson != null && lessonOf(world(), patch.lesson) === null) return refusal(400, 'VALIDATION_ERROR', 'lesson: no such lesson');
      const sent = refusedOnceSent(world(), sheet.fileId) !== null;
      if (patch.assigned_group !== undefined && patch.assigned_group !== sheet.assignedGroup) {
        if (sent) return refusal(409, 'SHEET_ALREADY_SENT', 'This response was sent to its congregation; its congregation can no longer change.');
        sheet.assignedGroup = patch.assigned_group;
      }
      if (patch.lesson !== undefined && patch.lesson !== sheet.lessonId) {
        // Its packet was printed with this lesson, and its return file will carry it.
        if (sent) return refusal(409, 'SHEET_ALREADY_SENT', 'This response was sent to its congregation; its lesson can no longer change.');
        // A new lesson may make the sheet a duplicate, or stop it being one: nobody has kept it as one yet.
        sheet.lessonId = patch.lesson;
        sheet.duplicateKept = false;
      }
      return answer(null);
    }),

    http.get('*/api/pages', ({ request }) => {
      const sheetId = new URL(request.url).searchParams.get('response_id');
      const pages = world().pages.filter((page) => visibleFile(page.fileId) && (sheetId === null || page.sheetId === sheetId));
      return json<S['Page'][]>(pages.map((page) => pageView(world(), page)));
    }),
    http.get('*/api/pages/:pageId/preview', ({ params }) => pageImage(pageOf(params.pageId as string), 'Page')),
    http.get('*/api/pages/:pageId/thumbnail', ({ params }) => pageImage(pageOf(params.pageId as string), 'Page')),
    http.get('*/api/pages/:pageId/graded-preview', ({ params, request }) =>
      pageImage(pageOf(params.pageId as string), new URL(request.url).searchParams.get('is_back') === 'true' ? 'Graded, back' : 'Graded, front'),
    ),
    http.get('*/api/pages/:pageId', ({ params }) => {
      const page = pageOf(params.pageId as string);
      return page ? json<S['Page']>(pageView(world(), page)) : notFound('Page not found');
    }),
    http.patch('*/api/pages/:pageId', async ({ params, request }) => {
      if (viewer() !== null) return forbidden();
      const page = pageOf(params.pageId as string);
      if (!page) return notFound('Page not found');
      const patch = (await request.json()) as S['PagePatch'];
      const refused = mendPage(world(), page, patch, userEmail());
      if (refused) return refusal(refused.status, refused.errorType, refused.message);
      tick(world());
      return json<S['Page']>(pageView(world(), page));
    }),

    http.get('*/api/uploads/', ({ request }) => {
      const url = new URL(request.url);
      const group = viewer() ?? url.searchParams.get('group_id');
      const graded = world()
        .uploads.filter((upload) => group === null || upload.congregationId === group)
        .map((upload) => ({ ...uploadHead(upload), summary: uploadSummary(upload) }));
      // An admin's whole list holds the service centers' files too (as the server).
      const files = group === null ? world().files.map((file) => fileUpload(world(), file).head) : [];
      const page = paged(url, sorted(url, [...graded, ...files], { name: (upload) => upload.name.toLowerCase(), created_at: (upload) => upload.created_at }, 'created_at', 'desc'));
      return json<S['UploadList']>({ ...page, items: page.items });
    }),
    http.get('*/api/uploads/:id', ({ params }) => {
      const file = viewer() === null ? world().files.find((row) => row.id === params.id) : undefined;
      if (file) return json<S['UploadReport']>(fileUpload(world(), file).report);
      const upload = world().uploads.find((row) => row.id === params.id && (viewer() === null || row.congregationId === viewer()));
      if (!upload) return notFound('Upload not found');
      // Every page of a mock upload went through: the world keeps no scans to match.
      const summary = uploadSummary(upload);
      return json<S['UploadReport']>({
        ...uploadHead(upload),
        failure_reason: null,
        summary,
        pages: Array.from({ length: summary.pages_read }, (_, index) => ({
          page_number: index + 1,
          result: 'matched' as const,
          reason: null,
          kept: true,
          detail: null,
          code: null,
          file: null,
          answer_sheet: null,
          has_image: false,
        })),
      });
    }),
    http.get('*/api/uploads/:id/pages/:page_number/image', () => notFound('This page has no image')),
    http.delete('*/api/uploads/:id', ({ params }) => {
      const upload = world().uploads.find((row) => row.id === params.id);
      if (!upload) return notFound('Upload not found');
      if (viewer() !== null && upload.congregationId !== viewer()) return forbidden();
      if (upload.process_status === 'pending') return refusal(409, 'CONFLICT', 'This upload is still being read; it can be withdrawn once it is done.');
      world().uploads = world().uploads.filter((row) => row.id !== upload.id);
      tick(world());
      return new Response(null, { status: 204 });
    }),
    http.post('*/api/study-helpers/file', async ({ request }) => {
      const form = await request.formData();
      const name = String(form.get('name') ?? '').trim();
      const helper = form.get('study_helper');
      const pages = uploadedPages(form);
      if (name === '') return refusal(400, 'VALIDATION_ERROR', 'A file and its name are required.');
      if ('refused' in pages) return refusal(400, 'VALIDATION_ERROR', pages.refused);
      if (world().uploads.some((upload) => upload.name === name)) return json<S['UploadResult']>({ status: 'error', errorType: 'DUPLICATE_FILE' }, 201);
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
      return json<S['UploadResult']>({ status: 'success', id }, 201);
    }),

    http.get('*/api/progress/:groupName/:runId', ({ params }) => jobStream(params.groupName as string, params.runId as string)),
    http.get('*/api/progress/:id', ({ params }) => jobStream('process_service_center_upload', params.id as string)),
  ];

  function pageImage(page: World['pages'][number] | undefined, side: string): Response {
    if (!page) return notFound('Page not found');
    const file = world().files.find((row) => row.id === page.fileId) as FileRow;
    const template = templateOf(world(), page.templateId);
    return scanImage(template?.lesson.name ?? 'Unrecognized page', `${file.name}, ${side.toLowerCase()} ${page.page_number}`);
  }

  /**
   * The progress of a job run, as the server streams it: a run started in this world (an upload, a
   * send, a regeneration, a seeded file still processing) step by step, its end changing the world
   * as the job would; a run that ended long ago, its last state at once; no run, 404.
   */
  function jobStream(group: string, runId: string): Response {
    const current = world();
    const key = `${group}/${runId}`;
    const file = current.files.find((row) => row.id === runId);
    const upload = current.uploads.find((row) => row.id === runId);
    const ran: Record<string, boolean> = {
      process_service_center_upload: file !== undefined,
      send_to_study_helpers: file?.sent_at !== null && file !== undefined,
      generate_return_file_requested: file?.prepped === true,
      process_graded_upload: upload !== undefined,
    };
    if (!ran[group]) return notFound('No such job run');
    const count = file
      ? group === 'process_service_center_upload'
        ? file.process_status === 'pending' ? processing(current, file).pages.length : current.pages.filter((page) => page.fileId === file.id).length
        : keptSheets(current, file.id).length
      : 1;
    const fails = current.scenario === 'errors' || file?.process_status === 'failed';
    const messages = progressMessages(count, fails ? 'failed' : 'success');
    if (!current.runningJobs.includes(key)) return progressStream(messages.slice(-1), access.progressIntervalMs, () => undefined);
    return progressStream(messages, access.progressIntervalMs, () => {
      current.runningJobs = current.runningJobs.filter((running) => running !== key);
      if (file && group === 'process_service_center_upload') finishProcessing(current, file);
    });
  }
}

/** Study helpers' packets of sent files (GET /api/study-helpers/distributed-files/...). */
export function packetHandlers(access: WorldAccess): RequestHandler[] {
  const find = (id: string) =>
    access
      .world()
      .files.flatMap((file) => (file.sent_at === null ? [] : fileCongregations(access.world(), file).map((row) => ({ file, row }))))
      .find(({ file, row }) => packetId(file.id, row.id) === id && (access.viewer() === null || row.id === access.viewer()));
  return [
    http.get('*/api/study-helpers/distributed-files/:name', ({ params }) => {
      const name = params.name as string;
      const found = find(name.replace(/\.pdf$/, ''));
      if (!found) return notFound('Packet not found');
      if (name.endsWith('.pdf')) return pdf(`${found.row.wbs_code} ${found.file.name}`, `Packet of ${found.file.name} for ${found.row.display_name}`);
      return notFound();
    }),
    http.get('*/api/study-helpers/distributed-files/:id/exists', ({ params }) => json<S['PacketExists']>({ exists: find(params.id as string) !== undefined })),
  ];
}

function uploadHead({ id, name, created_at, process_status, is_intro }: UploadRow) {
  return { id, name, created_at, kind: 'graded' as const, process_status, is_intro };
}

/** A mock upload's pages: a few, all matched, counted from its name so they never change. */
function uploadSummary(upload: UploadRow): S['UploadSummary'] {
  const pages = upload.pages ?? 2 + (upload.name.length % 5);
  return { pages_read: pages, matched: pages, not_matched: 0, blank_dropped: 0 };
}
