// Study helpers across congregations: the list (by name and congregation) and one helper with
// how many students it has; a congregation's packets of a sent file (the spec's "distributed
// files"), downloadable until the file is archived; and graded scans coming back, uploaded by a
// congregation (or by an admin for a helper's intro sheets) and read as a job. A coordinator
// sees only its own congregation's helpers and packets.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { propertyLimits } from '../../generated/limits.js';
import { congregationScope, isSameOriginGet, requireUser, type SessionUser } from '../auth/session';
import type { BlobInfo } from '../blob-store';
import type { ReplyOf, Route } from '../contract/types';
import { discardIfUnreferenced } from '../db/blob-references';
import type { Database } from '../db/database';
import { conflictError, forbidden, HttpError, notFound, validationError } from '../http-error';
import { MAX_UPLOAD_BYTES } from '../jobs/job-types';
import { localCopy } from '../workflow/local-copy';
import { JOB } from '../workflow/job-progress';
import { startProgress } from '../repositories/job-progress';
import { refreshCongregationStatesOfFile } from '../repositories/file-congregations';
import { gradedUploadBytesSeen, insertGradedUpload } from '../repositories/graded-uploads';
import { markPacketPrinted, packetForDownload } from '../repositories/packets';
import { congregationOfStudyHelper, deleteStudyHelper, lockStudyHelper, STUDY_HELPER_USES, studyHelperInScope } from '../repositories/study-helpers';
import { pdfName, sendBlob } from './shared/blob-response';
import { STUDY_HELPER_NOT_FOUND } from './shared/errors';
import { refuseWhileUsed } from './shared/in-use';
import { checkPdfBounded } from './shared/bounded-pdf-check';
import { PdfCheckError } from './shared/pdf-check';
import { queueJob } from './shared/queue-job';
import { MAX_PHOTOS } from './shared/photo-check';
import { receiveUploadOrRefuse } from './shared/receive-upload';
import { checkPhotos, discardBlobs, MAX_FILE_PARTS, recordPhotos, uploadedPages, type UploadedPhoto } from './shared/uploaded-pages';
import { listCongregation } from './shared/scope';
import { studyHelperOf, studyHelperPage } from './shared/study-helper';

export interface StudyHelperRoutesOptions {
  /** Upload limit in bytes; spec §9: 1.5 GB (tests use less). */
  maxUploadBytes?: number;
}

const PACKET_NOT_FOUND = 'Packet not found';
const UPLOAD_NEEDS_CONGREGATION = 'Act as a congregation (View As) to upload its graded scans.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createStudyHelperRoutes(options: StudyHelperRoutesOptions = {}) {
  const maxUploadBytes = options.maxUploadBytes ?? MAX_UPLOAD_BYTES;

  return async function studyHelperRoutes(app: FastifyInstance) {
    const db = app.db;
    await app.register(multipart, {
      limits: { fileSize: maxUploadBytes, files: MAX_FILE_PARTS, fields: 20, parts: MAX_FILE_PARTS + 30, fieldSize: 64 * 1024 },
    });

    // Study helpers --------------------------------------------------------------------------

    app.get<Route<'listStudyHelpers'>>('/api/study-helpers', async (request): Promise<ReplyOf<'listStudyHelpers'>> => {
      return studyHelperPage(db, listCongregation(request, request.query.congregation), request.query);
    });

    app.get<Route<'getStudyHelper'>>('/api/study-helpers/:id', async (request): Promise<ReplyOf<'getStudyHelper'>> => {
      const row = await studyHelperInScope(db, request.params.id, congregationScope(request));
      // Another congregation's helper is as invisible to a coordinator as a missing one.
      if (row === null) throw notFound(STUDY_HELPER_NOT_FOUND);
      return studyHelperOf(row);
    });

    app.delete<Route<'deleteStudyHelper'>>('/api/study-helpers/:id', async (request, reply) => {
      const id = request.params.id;
      await db.transaction(async (tx) => {
        if (!(await lockStudyHelper(tx, id))) throw notFound(STUDY_HELPER_NOT_FOUND);
        await refuseWhileUsed(tx, 'study helper', id, STUDY_HELPER_USES);
        await deleteStudyHelper(tx, id);
      });
      return reply.code(204).send();
    });

    // Packets --------------------------------------------------------------------------

    const packetFor = async (request: FastifyRequest, id: string) => {
      const scope = congregationScope(request);
      const packet = await packetForDownload(db, id);
      if (packet === null) throw notFound(PACKET_NOT_FOUND);
      if (scope !== null && packet.congregation_id !== scope) throw forbidden();
      return packet;
    };

    app.get<Route<'getPacketExists'>>('/api/study-helpers/distributed-files/:id/exists', async (request): Promise<ReplyOf<'getPacketExists'>> => {
      const packet = await packetFor(request, request.params.id);
      return { exists: packet.blob_key !== null };
    });

    app.get<Route<'downloadPacket'>>('/api/study-helpers/distributed-files/:id.pdf', async (request, reply) => {
      const packet = await packetFor(request, request.params.id);
      if (packet.blob_key === null) throw notFound('The packet is not ready yet');
      // Downloadable again and again (a jam, a lost download) until the file is archived.
      if (packet.archived) throw conflictError('This file is archived: its packet is no longer offered.');
      // Marked printed only when the portal asks (see isSameOriginGet): a cross-site link just downloads.
      if (isSameOriginGet(request, app.config.publicUrl)) await db.transaction(async (tx) => {
        await markPacketPrinted(tx, packet);
        await refreshCongregationStatesOfFile(tx, packet.file_id);
      });
      return sendBlob(request, reply, app.blobStore, packet.blob_key, {
        contentType: 'application/pdf',
        downloadName: pdfName(`${packet.file_name} - ${packet.wbs_code}`, packet.id),
        cacheControl: 'private, no-cache',
      });
    });

    // Graded scans coming back ---------------------------------------------------------------

    app.post<Route<'uploadStudyHelperFile'>>('/api/study-helpers/file', async (request, reply): Promise<ReplyOf<'uploadStudyHelperFile', 201>> => {
      const user = requireUser(request);
      // Decided before the body is read: only a congregation, or an admin choosing a helper, uploads.
      refuseGradedUploader(user);
      const received = await receiveUploadOrRefuse(request, reply, app.blobStore, maxUploadBytes, MAX_PHOTOS);
      const pages = await uploadedPages(request, received);
      const uploadId = await acceptGradedUpload(request, user, received.fields, pages.blob, pages.photos);
      return reply.code(201).send({ status: 'success', id: uploadId });
    });
  };
}

export const studyHelperRoutes = createStudyHelperRoutes();

/** Only a congregation (a coordinator, or an admin viewing as one), or an admin choosing a helper, uploads graded scans. */
export function refuseGradedUploader(user: SessionUser): void {
  const acting = user.role === 'study_helper_coordinator' ? user.congregation_id : null;
  if (user.role === 'standard_user' || (user.role === 'study_helper_coordinator' && acting === null)) throw forbidden();
}

/** The multipart fields of a graded upload, checked as the contract's StudyHelperFileUpload describes them. */
function gradedFieldsProblem(fields: Record<string, string>): string | null {
  const name = (fields.name ?? '').trim();
  const helperField = (fields.study_helper ?? '').trim();
  if (name === '') return 'name is required';
  if (name.length > propertyLimits.StudyHelperFileUpload.name.maxLength) return `name must be at most ${propertyLimits.StudyHelperFileUpload.name.maxLength} characters`;
  if (helperField !== '' && !UUID.test(helperField)) return 'study_helper must be a study helper id';
  return null;
}

/**
 * Where a graded upload goes: its name, the intro file's study helper and the congregation. Throws
 * the refusal (400 fields, 404 unknown helper, 403 another congregation's). Checked again when a
 * resumable upload's last byte arrives.
 */
export async function gradedUploadTarget(
  db: Database,
  user: SessionUser,
  fields: Record<string, string>,
): Promise<{ name: string; helperId: string | null; congregationId: string }> {
  refuseGradedUploader(user);
  const acting = user.role === 'study_helper_coordinator' ? user.congregation_id : null;
  const problem = gradedFieldsProblem(fields);
  if (problem !== null) throw validationError(problem);
  const name = (fields.name ?? '').trim();
  const helperField = (fields.study_helper ?? '').trim();
  let congregationId = acting;
  const helperId = helperField === '' ? null : helperField;
  if (helperId !== null) {
    const helperCongregation = await congregationOfStudyHelper(db, helperId);
    if (helperCongregation === null) throw notFound(STUDY_HELPER_NOT_FOUND);
    if (acting !== null && helperCongregation !== acting) throw forbidden();
    congregationId ??= helperCongregation;
  }
  if (congregationId === null) throw new HttpError(403, UPLOAD_NEEDS_CONGREGATION);
  return { name, helperId, congregationId };
}

/**
 * A received graded scan becomes a graded upload: the target's checks, the duplicate rule, the
 * PDF check, the row and its matching job. Returns the upload's id; throws the refusal (the blob
 * is dropped unless another record holds it). Shared by POST /api/study-helpers/file and
 * resumable uploads.
 */
export async function acceptGradedUpload(
  request: FastifyRequest,
  user: SessionUser,
  fields: Record<string, string>,
  blob: BlobInfo | null,
  photos: UploadedPhoto[] | null = null,
): Promise<string> {
  const app = request.server;
  const db = app.db;
  const refuse = async (error: unknown): Promise<never> => {
    if (photos !== null) await discardBlobs(db, app.blobStore, photos.map((photo) => photo.blob));
    else if (blob !== null) await discardIfUnreferenced(db, app.blobStore, blob.key);
    throw error;
  };
  const problem = gradedFieldsProblem(fields);
  if (problem !== null) return refuse(validationError(problem));
  if (blob === null) return refuse(validationError('file is required'));
  if (blob.size === 0) return refuse(validationError('The file is empty.'));
  const { name, helperId, congregationId } = await gradedUploadTarget(db, user, fields).catch(refuse);

  // Same bytes as an earlier upload (or, for an intro file, as any file): the blob is theirs.
  if (await gradedUploadBytesSeen(db, blob.sha256, helperId !== null)) throw new HttpError(409, { error_type: 'DUPLICATE_FILE', message: 'This file has already been uploaded.' });

  let pageCount: number;
  if (photos !== null) {
    await checkPhotos(app.blobStore, photos).catch(refuse);
    pageCount = photos.length;
  } else {
    const local = await localCopy(app.blobStore, blob.key);
    try {
      pageCount = (await checkPdfBounded(local.path)).pageCount;
    } catch (error) {
      if (error instanceof PdfCheckError) return refuse(validationError(`Invalid file format or corrupted file: ${error.message}`));
      return refuse(error);
    } finally {
      await local.dispose();
    }
  }

  const uploadId = await db.transaction(async (tx) => {
    const id = await insertGradedUpload(tx, { name, congregationId, helperId, blob, uploadedBy: user.id, pageCount });
    if (photos !== null) await recordPhotos(tx, { uploadId: id }, photos);
    await startProgress(tx, JOB.processGradedUpload, id, pageCount);
    return id;
  });
  await queueJob(request, JOB.processGradedUpload, { upload_id: uploadId }, uploadId);
  return uploadId;
}
