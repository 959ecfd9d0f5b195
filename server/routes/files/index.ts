// Files: the service centers' scanned PDFs. Upload (streamed, checked, then processed as a job),
// the files tables with their filters, one file, its counts, workflow step, cover image and the
// original PDF; rename or set its service center and people; delete it before grading starts;
// take a sent file back to the Send step while nothing came of the send.
// What follows review (send, return file, archive) is in ./workflow.ts, on the same instance.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BlobInfo } from '../../blob-store';
import { congregationScope, requireAdmin, type SessionUser } from '../../auth/session';
import type { ReplyOf, Route } from '../../contract/types';
import { discardIfUnreferenced } from '../../db/blob-references';
import { isUniqueViolation, type Database } from '../../db/database';
import { conflictError, FILE_NOT_FOUND, forbidden, HttpError, notFound, validationError } from '../../http-error';
import { IMAGE_CACHE_CONTROL, MAX_UPLOAD_BYTES } from '../../jobs/job-types';
import { processUploadJob } from '../../jobs/service-center-upload';
import { JOB } from '../../workflow/job-progress';
import { startProgress } from '../../repositories/job-progress';
import { localCopy } from '../../workflow/local-copy';
import { warmPageWorkers } from '../../pipeline/page-pool';
import { pageWorkerCount } from '../../pipeline/process-pages';
import { filesPageForList } from '../../repositories/file-lists';
import {
  lockFilePeople,
  saveFileNameAndPeople,
  serviceCenterExistsForFile,
  serviceCenterOfFilePerson,
  type FilePeople,
} from '../../repositories/file-people';
import {
  coverImageKeyOfFile,
  fileOriginalForDownload,
  fileStepForView,
  fileWithSameBytesExists,
  insertServiceCenterFile,
} from '../../repositories/files';
import { DELETABLE_STEPS, fileStepOf, type FileStepName } from '../../workflow/file-steps';
import { contentDisposition, pdfName, sendBlob } from '../shared/blob-response';
import { fileOf, fileScope, loadFile, loadFileStats } from '../shared/file-view';
import { pageOf, paged } from '../shared/paging';
import { checkPdfBounded } from '../shared/bounded-pdf-check';
import { PdfCheckError } from '../shared/pdf-check';
import { MAX_PHOTOS } from '../shared/photo-check';
import { receiveUploadOrRefuse } from '../shared/receive-upload';
import { checkPhotos, discardBlobs, MAX_FILE_PARTS, recordPhotos, uploadedPages, type UploadedPhoto } from '../shared/uploaded-pages';
import { recallSend } from '../../workflow/recall-send';
import { deleteFile } from './delete-file';
import { photosPdf } from './photos-pdf';
import { fileWorkflowRoutes } from './workflow';

export interface FilesRoutesOptions {
  /** Upload limit in bytes; spec §9: 1.5 GB (tests use less). */
  maxUploadBytes?: number;
}

const DUPLICATE_MESSAGE = 'This file has already been uploaded.';

function duplicateFile(): HttpError {
  return new HttpError(409, { error_type: 'DUPLICATE_FILE', message: DUPLICATE_MESSAGE });
}

export function createFilesRoutes(options: FilesRoutesOptions = {}) {
  const maxUploadBytes = options.maxUploadBytes ?? MAX_UPLOAD_BYTES;

  return async function filesRoutes(app: FastifyInstance) {
    const db = app.db;
    await app.register(multipart, {
      limits: { fileSize: maxUploadBytes, files: MAX_FILE_PARTS, fields: 20, parts: MAX_FILE_PARTS + 30, fieldSize: 64 * 1024 },
    });

    app.post<Route<'uploadFile'>>('/api/file', async (request, reply): Promise<ReplyOf<'uploadFile', 201>> => {
      const user = requireAdmin(request);
      // This process will read the file's pages: its page workers start while the file arrives.
      if (app.jobs.runsJobsHere) {
        warmPageWorkers(pageWorkerCount(app.config.pipelineThreads)).catch((error: unknown) => {
          request.log.warn({ err: error }, 'could not start page workers ahead of the upload');
        });
      }
      const received = await receiveUploadOrRefuse(request, reply, app.blobStore, maxUploadBytes, MAX_PHOTOS);
      const pages = await uploadedPages(request, received);
      const fileId = await acceptServiceCenterFile(request, user, received.fields, pages.blob, pages.photos);
      return reply.code(201).send({ id: fileId });
    });

    app.get<Route<'listFiles'>>('/api/files', async (request): Promise<ReplyOf<'listFiles'>> => {
      const scope = congregationScope(request);
      const query = request.query;
      if (scope !== null && query.group_id !== undefined && query.group_id !== scope) throw forbidden();
      // The congregation whose view of the files this is: the coordinator's, or the one an admin
      // looks at (null: an admin looking at whole files).
      const viewerId = scope ?? query.group_id ?? null;
      const page = pageOf(query);
      const { total, rows } = await filesPageForList(db, { scope, viewerId }, query, page);
      return paged(rows.map(fileOf), total, page);
    });

    app.get<Route<'getFileSummary'>>('/api/files/:id', async (request): Promise<ReplyOf<'getFileSummary'>> => {
      const scope = await fileScope(db, request, request.params.id);
      return loadFile(db, request.params.id, scope);
    });

    app.get<Route<'getFile'>>('/api/file/:file_id', async (request): Promise<ReplyOf<'getFile'>> => {
      const scope = await fileScope(db, request, request.params.file_id);
      return loadFile(db, request.params.file_id, scope);
    });

    app.patch<Route<'updateFile'>>('/api/file/:file_id', async (request): Promise<ReplyOf<'updateFile'>> => {
      requireAdmin(request);
      const fileId = request.params.file_id;
      await db.transaction(async (tx) => {
        const file = await lockFilePeople(tx, fileId);
        if (file === null) throw notFound(FILE_NOT_FOUND);
        await applyFilePatch(tx, fileId, file, request.body);
      });
      return loadFile(db, fileId, null);
    });

    app.delete<Route<'deleteFile'>>('/api/file/:file_id', async (request, reply) => {
      requireAdmin(request);
      const fileId = request.params.file_id;
      const step = await fileStepForView(db, fileId, null);
      if (step === null) throw notFound(FILE_NOT_FOUND);
      if (!DELETABLE_STEPS.includes(step.step as FileStepName)) {
        throw conflictError(`A file can only be deleted before grading starts (it is at step ${step.step}).`);
      }
      if (!(await deleteFile(db, app.blobStore, fileId))) throw notFound(FILE_NOT_FOUND);
      return reply.code(204).send();
    });

    app.delete<Route<'recallFile'>>('/api/file/:file_id/send', async (request): Promise<ReplyOf<'recallFile'>> => {
      requireAdmin(request);
      await recallSend(db, app.blobStore, request.params.file_id);
      return loadFile(db, request.params.file_id, null);
    });

    app.get<Route<'getFileStats'>>('/api/file/:file_id/stats', async (request): Promise<ReplyOf<'getFileStats'>> => {
      const scope = await fileScope(db, request, request.params.file_id);
      return loadFileStats(db, request.params.file_id, scope);
    });

    app.get<Route<'getFileSteps'>>('/api/file/:file_id/steps', async (request): Promise<ReplyOf<'getFileSteps'>> => {
      const scope = await fileScope(db, request, request.params.file_id);
      const fileId = request.params.file_id;
      const row = await fileStepForView(db, fileId, scope);
      if (row === null) throw notFound(FILE_NOT_FOUND);
      return fileStepOf(row);
    });

    app.get<Route<'getFileCover'>>('/api/file/:file_id/cover', async (request, reply) => {
      await fileScope(db, request, request.params.file_id);
      const coverKey = await coverImageKeyOfFile(db, request.params.file_id);
      if (coverKey === null) throw notFound('This file has no cover sheet');
      return sendBlob(request, reply, app.blobStore, coverKey, { contentType: 'image/jpeg', cacheControl: IMAGE_CACHE_CONTROL });
    });

    app.get<Route<'downloadFile'>>('/api/file/:file_id.pdf', async (request, reply) => {
      requireAdmin(request);
      const file = await fileOriginalForDownload(db, request.params.file_id);
      if (file === null) throw notFound(FILE_NOT_FOUND);
      const photos = await photosPdf(db, app.blobStore, request.params.file_id);
      if (photos !== null) {
        return reply
          .type('application/pdf')
          .header('content-disposition', contentDisposition(pdfName(file.name, request.params.file_id)))
          .header('cache-control', 'private, no-cache')
          .send(Buffer.from(photos));
      }
      return sendBlob(request, reply, app.blobStore, file.blob_key, {
        contentType: 'application/pdf',
        downloadName: pdfName(file.name, request.params.file_id),
        cacheControl: 'private, no-cache',
      });
    });

    fileWorkflowRoutes(app);
  };
}

export const filesRoutes = createFilesRoutes();

/**
 * A received service-center file becomes a file: the fields' checks, the duplicate rule, the PDF
 * check (or the photos' check), the row and its processing job. Returns the new file's id; throws
 * the refusal (the blobs are dropped unless another file holds them). Shared by POST /api/file
 * and resumable uploads (a PDF only). `photos`: the file's pages as photos (blob stands for them).
 */
export async function acceptServiceCenterFile(
  request: FastifyRequest,
  user: SessionUser,
  fields: Record<string, string>,
  blob: BlobInfo | null,
  photos: UploadedPhoto[] | null = null,
): Promise<string> {
  const app = request.server;
  const db = app.db;
  const discard = async () => {
    if (photos !== null) await discardBlobs(db, app.blobStore, photos.map((photo) => photo.blob));
    else if (blob !== null) await discardIfUnreferenced(db, app.blobStore, blob.key);
  };

  const problem = uploadFieldsProblem(fields, blob !== null);
  if (problem !== null) {
    await discard();
    throw validationError(problem);
  }
  if (blob === null) throw validationError('file is required');
  if (blob.size === 0) {
    await discard();
    throw validationError('The file is empty.');
  }

  // Same bytes as an earlier file: its blob is that file's, nothing new was kept.
  if (await fileWithSameBytesExists(db, blob.sha256)) throw duplicateFile();

  let pageCount: number;
  if (photos !== null) {
    await checkPhotos(app.blobStore, photos).catch(async (error: unknown) => {
      await discard();
      throw error;
    });
    pageCount = photos.length;
  } else {
    const local = await localCopy(app.blobStore, blob.key);
    try {
      pageCount = (await checkPdfBounded(local.path)).pageCount;
    } catch (error) {
      await discard();
      if (error instanceof PdfCheckError) throw validationError(`Invalid file format or corrupted file: ${error.message}`);
      throw error;
    } finally {
      await local.dispose();
    }
  }

  let fileId: string;
  try {
    fileId = await db.transaction(async (tx) => {
      const id = await insertServiceCenterFile(tx, {
        name: (fields.name ?? '').trim(),
        sha256: blob.sha256,
        blobKey: blob.key,
        sizeBytes: blob.size,
        pageCount,
        answerSheetPageLength: Number(fields.answer_sheet_page_length),
        scannedAt: fields.scanned_at ? new Date(fields.scanned_at) : null,
        uploadedBy: user.id,
      });
      if (photos !== null) await recordPhotos(tx, { fileId: id }, photos);
      await startProgress(tx, JOB.processServiceCenterUpload, id, pageCount);
      return id;
    });
  } catch (error) {
    // Two identical uploads at once: the other one won.
    if (isUniqueViolation(error)) throw duplicateFile();
    throw error;
  }

  // A failed enqueue leaves the file pending: the workers' recovery sweep picks it up.
  const job = processUploadJob(fileId);
  await app.jobs.send(job.name, job.data, job.options).catch((error: unknown) => {
    request.log.warn({ err: error, fileId }, 'could not queue the upload for processing');
  });
  return fileId;
}

/** The multipart fields of an upload, checked as the contract's FileUpload describes them. */
export function uploadFieldsProblem(fields: Record<string, string>, hasFile: boolean): string | null {
  const name = (fields.name ?? '').trim();
  if (name === '') return 'name is required';
  if (name.length > 300) return 'name must be at most 300 characters';
  const length = fields.answer_sheet_page_length;
  if (length === undefined) return 'answer_sheet_page_length is required';
  if (!['0', '1', '2'].includes(length.trim())) return 'answer_sheet_page_length must be 0, 1 or 2';
  if (fields.scanned_at !== undefined && fields.scanned_at !== '' && Number.isNaN(Date.parse(fields.scanned_at))) {
    return 'scanned_at must be an ISO timestamp';
  }
  if (!hasFile) return 'file is required';
  return null;
}

type FilePatch = Route<'updateFile'>['Body'];

/**
 * Applies a PATCH: the recruiter, contact person and recruiting point must belong to the file's
 * service center (after the change). Changing the service center drops the people of the old one
 * that the patch does not set again.
 */
async function applyFilePatch(tx: Database, fileId: string, current: FilePeople, patch: FilePatch): Promise<void> {
  const next: FilePeople = { ...current };
  if (patch.service_center !== undefined) {
    if (patch.service_center !== null && !(await serviceCenterExistsForFile(tx, patch.service_center))) {
      throw validationError('service_center: no such service center');
    }
    next.service_center_id = patch.service_center;
  }
  const people = [
    { field: 'recruiter', column: 'recruiter_id', label: 'recruiter' },
    { field: 'contact_person', column: 'contact_person_id', label: 'contact person' },
    { field: 'recruiting_point', column: 'recruiting_point_id', label: 'recruiting point' },
  ] as const;
  for (const person of people) {
    const given = patch[person.field];
    if (given !== undefined) next[person.column] = given;
    const id = next[person.column];
    if (id === null) continue;
    const owner = await serviceCenterOfFilePerson(tx, person.column, id);
    if (owner !== undefined && owner === next.service_center_id) continue;
    if (given === undefined) {
      // Left over from the previous service center.
      next[person.column] = null;
      continue;
    }
    if (owner === undefined) throw validationError(`${person.field}: no such ${person.label}`);
    throw validationError(
      next.service_center_id === null
        ? `${person.field}: choose the file's service center first`
        : `${person.field}: the ${person.label} does not belong to the file's service center`,
    );
  }
  await saveFileNameAndPeople(tx, fileId, patch.name?.trim() || null, next);
}
