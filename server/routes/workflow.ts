// The file workflow after review (spec §4): sending a file to its congregations' study helpers,
// their print packets, graded scans coming back, and the return file until the file is archived.
// Each call refuses (409) a step taken out of turn: send twice, download or regenerate before
// grading completes, archive before the return file was downloaded.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { congregationScope, isSameOriginGet, requireAdmin, requireUser } from '../auth/session';
import type { ReplyOf, Route } from '../contract/types';
import { HttpError, forbidden, notFound } from '../http-error';
import { contentDisposition, pdfName, sendBlob } from '../jobs/blob-response';
import { keptSheetSql } from '../jobs/file-steps';
import { FILE_NOT_FOUND, fileScope, loadFile } from '../jobs/file-view';
import { IMAGE_CACHE_CONTROL, MAX_UPLOAD_BYTES } from '../jobs/job-types';
import { requirePageAccess, requireSheetAccess } from '../jobs/page-view';
import { checkPdf, PdfCheckError } from '../jobs/pdf-check';
import { discardIfUnreferenced, fileTooLarge, receiveUpload, UploadTooLargeError } from '../jobs/store-upload';
import { pdfDrawing } from '../pdf/lazy-drawing';
import { refreshCongregationStates } from '../workflow/grading-state';
import { JOB, startProgress } from '../workflow/job-progress';
import { localCopy } from '../workflow/local-copy';
import { pageCodes } from '../workflow/printed-codes';
import { requestReturnFile } from '../workflow/return-file';
import { addPacketPages, packetPagesSql, requestSend, type PacketPageRow } from '../workflow/send-packets';
import { conflictError, STUDY_HELPER_NOT_FOUND, validationError } from './shared/errors';

export interface WorkflowRoutesOptions {
  /** Upload limit in bytes; spec §9: 1.5 GB (tests use less). */
  maxUploadBytes?: number;
}

const PACKET_NOT_FOUND = 'Print packet not found';
const UPLOAD_NEEDS_CONGREGATION = 'Act as a congregation (View As) to upload its graded scans.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createWorkflowRoutes(options: WorkflowRoutesOptions = {}) {
  const maxUploadBytes = options.maxUploadBytes ?? MAX_UPLOAD_BYTES;

  return async function workflowRoutes(app: FastifyInstance) {
    const db = app.db;
    await app.register(multipart, {
      limits: { fileSize: maxUploadBytes, files: 1, fields: 20, parts: 30, fieldSize: 64 * 1024 },
    });

    const queue = async (request: FastifyRequest, name: (typeof JOB)[keyof typeof JOB], data: object, key: string) => {
      // A failed enqueue leaves the work requested: the workers' recovery sweep picks it up.
      await app.jobs.send(name, data, { singletonKey: key }).catch((error: unknown) => {
        request.log.warn({ err: error, job: name, key }, 'could not queue the job');
      });
    };

    // Send ---------------------------------------------------------------------------------

    app.post<Route<'sendFile'>>('/api/file/:file_id/send', async (request, reply): Promise<ReplyOf<'sendFile', 202>> => {
      requireAdmin(request);
      const fileId = request.params.file_id;
      await requestSend(db, fileId);
      await queue(request, JOB.sendToStudyHelpers, { file_id: fileId }, fileId);
      return reply.code(202).send({ group_name: JOB.sendToStudyHelpers, run_id: fileId });
    });

    app.get<Route<'listFileCongregations'>>('/api/file/:file_id/congregations', async (request): Promise<ReplyOf<'listFileCongregations'>> => {
      const scope = await fileScope(db, request, request.params.file_id);
      const rows = await db.query<{ id: string; wbs_code: string; display_name: string; status: ReplyOf<'listFileCongregations'>[number]['status']; sheets: number; distributed_file_id: string | null }>(
        `SELECT g.id, g.wbs_code, g.display_name, COALESCE(fc.status, 'unprinted') AS status, count(a.id)::int AS sheets,
                d.id AS distributed_file_id
         FROM answer_sheets a JOIN congregations g ON g.id = a.assigned_group
         LEFT JOIN file_congregations fc ON fc.file_id = a.file_id AND fc.congregation_id = g.id
         LEFT JOIN distributed_files d ON d.file_id = a.file_id AND d.congregation_id = g.id
         WHERE a.file_id = $1 AND ${keptSheetSql('a')} AND ($2::uuid IS NULL OR g.id = $2::uuid)
         GROUP BY g.id, g.wbs_code, g.display_name, fc.status, d.id
         ORDER BY g.wbs_code`,
        [request.params.file_id, scope],
      );
      return rows;
    });

    // Print packets --------------------------------------------------------------------------

    const packetFor = async (request: FastifyRequest, id: string) => {
      const scope = congregationScope(request);
      const packet = await db.maybeOne<{ id: string; file_id: string; congregation_id: string; blob_key: string | null; file_name: string; wbs_code: string; archived: boolean }>(
        `SELECT d.id, d.file_id, d.congregation_id, d.blob_key, f.name AS file_name, g.wbs_code,
                f.file_status IS NOT DISTINCT FROM 'archived' AS archived
         FROM distributed_files d JOIN files f ON f.id = d.file_id JOIN congregations g ON g.id = d.congregation_id
         WHERE d.id = $1`,
        [id],
      );
      if (packet === null) throw notFound(PACKET_NOT_FOUND);
      if (scope !== null && packet.congregation_id !== scope) throw forbidden();
      return packet;
    };

    app.get<Route<'getDistributedFileExists'>>('/api/study-helpers/distributed-files/:id/exists', async (request): Promise<ReplyOf<'getDistributedFileExists'>> => {
      const packet = await packetFor(request, request.params.id);
      return { exists: packet.blob_key !== null };
    });

    app.get<Route<'downloadDistributedFile'>>('/api/study-helpers/distributed-files/:id.pdf', async (request, reply) => {
      const packet = await packetFor(request, request.params.id);
      if (packet.blob_key === null) throw notFound('The print packet is not ready yet');
      // Downloadable again and again (a jam, a lost download) until the file is archived.
      if (packet.archived) throw conflictError('This file is archived: its print packet is no longer offered.');
      // Marked printed only when the portal asks (see isSameOriginGet): a cross-site link just downloads.
      if (isSameOriginGet(request, app.config.publicUrl)) await db.transaction(async (tx) => {
        await tx.query('UPDATE distributed_files SET downloaded_at = COALESCE(downloaded_at, now()) WHERE id = $1', [packet.id]);
        await tx.query(
          'UPDATE file_congregations SET printed_at = COALESCE(printed_at, now()) WHERE file_id = $1 AND congregation_id = $2',
          [packet.file_id, packet.congregation_id],
        );
        await tx.query('UPDATE files SET printed = true WHERE id = $1 AND NOT printed', [packet.file_id]);
        await refreshCongregationStates(tx, packet.file_id);
      });
      return sendBlob(request, reply, app.blobStore, packet.blob_key, {
        contentType: 'application/pdf',
        downloadName: pdfName(`${packet.file_name} - ${packet.wbs_code}`, packet.id),
        cacheControl: 'private, no-cache',
      });
    });

    app.get<Route<'printAnswerSheet'>>('/api/answer-sheets/:response_id/print.pdf', async (request, reply) => {
      const sheetId = request.params.response_id;
      await requireSheetAccess(db, request, sheetId);
      const rows = await db.query<PacketPageRow>(packetPagesSql('a.id = $1'), [sheetId]);
      if (rows.length === 0) throw notFound('This answer sheet has no pages to print');
      const codes = await pageCodes(db, rows.map((row) => row.page_id));
      const { createPdfWriter } = await pdfDrawing();
      const writer = await createPdfWriter({ title: 'Answer sheet' });
      await addPacketPages(writer, app.blobStore, rows, codes, app.config.publicUrl);
      const pdf = await writer.finish();
      const student = rows[0]!.student_human_id;
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(`answer-sheet-${student ?? sheetId.slice(0, 8)}.pdf`))
        .header('cache-control', 'private, no-cache')
        .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
    });

    // Graded scans coming back -------------------------------------------------------------

    app.post<Route<'uploadStudyHelperFile'>>('/api/study-helpers/file', async (request, reply): Promise<ReplyOf<'uploadStudyHelperFile', 201>> => {
      const user = requireUser(request);
      const acting = user.role === 'study_helper_coordinator' ? user.congregation_id : null;
      // Decided before the body is read: only a congregation, or an admin choosing a helper, uploads.
      if (user.role === 'standard_user' || (user.role === 'study_helper_coordinator' && acting === null)) throw forbidden();
      let received;
      try {
        received = await receiveUpload(request, app.blobStore, { maxBytes: maxUploadBytes });
      } catch (error) {
        if (error instanceof UploadTooLargeError) {
          reply.header('connection', 'close');
          throw fileTooLarge();
        }
        if ((error as { code?: string }).code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw validationError('The request must be multipart/form-data');
        throw error;
      }
      const blob = received.blob;
      const refuse = async (error: HttpError): Promise<never> => {
        if (blob !== null) await discardIfUnreferenced(db, app.blobStore, blob.key);
        throw error;
      };
      const name = (received.fields.name ?? '').trim();
      const helperField = (received.fields.study_helper ?? '').trim();
      if (name === '') return refuse(validationError('name is required'));
      if (name.length > 300) return refuse(validationError('name must be at most 300 characters'));
      if (helperField !== '' && !UUID.test(helperField)) return refuse(validationError('study_helper must be a study helper id'));
      if (blob === null) return refuse(validationError('file is required'));
      if (blob.size === 0) return refuse(validationError('The file is empty.'));

      let congregationId = acting;
      const helperId = helperField === '' ? null : helperField;
      if (helperId !== null) {
        const helper = await db.maybeOne<{ congregation_id: string }>('SELECT congregation_id FROM study_helpers WHERE id = $1', [helperId]);
        if (helper === null) return refuse(notFound(STUDY_HELPER_NOT_FOUND));
        if (acting !== null && helper.congregation_id !== acting) return refuse(forbidden());
        congregationId ??= helper.congregation_id;
      }
      if (congregationId === null) return refuse(new HttpError(403, UPLOAD_NEEDS_CONGREGATION));

      // Same bytes as an earlier upload (or, for an intro file, as any file): the blob is theirs.
      const duplicate = await db.maybeOne(
        `SELECT 1 FROM feedback_uploads WHERE sha256 = $1 UNION ALL SELECT 1 FROM files WHERE sha256 = $1 AND $2::boolean LIMIT 1`,
        [blob.sha256, helperId !== null],
      );
      if (duplicate !== null) throw new HttpError(409, { error_type: 'DUPLICATE_FILE', message: 'This file has already been uploaded.' });

      let pageCount: number;
      const local = await localCopy(app.blobStore, blob.key);
      try {
        pageCount = checkPdf(local.path).pageCount;
      } catch (error) {
        if (error instanceof PdfCheckError) return refuse(validationError(`Invalid file format or corrupted file: ${error.message}`));
        await discardIfUnreferenced(db, app.blobStore, blob.key);
        throw error;
      } finally {
        await local.dispose();
      }

      const uploadId = await db.transaction(async (tx) => {
        const row = await tx.one<{ id: string }>(
          `INSERT INTO feedback_uploads (name, congregation_id, study_helper_id, is_intro, blob_key, sha256, uploaded_by, size_bytes, page_count)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
          [name, congregationId, helperId, helperId !== null, blob.key, blob.sha256, user.id, blob.size, pageCount],
        );
        await startProgress(tx, JOB.processStudyHelperUpload, row.id, pageCount);
        return row.id;
      });
      await queue(request, JOB.processStudyHelperUpload, { upload_id: uploadId }, uploadId);
      return reply.code(201).send({ status: 'success', id: uploadId });
    });

    app.get<Route<'getPageGradedPreview'>>('/api/pages/:page_id/graded-preview', async (request, reply) => {
      await requirePageAccess(db, request, request.params.page_id);
      const row = await db.maybeOne<{ front_blob_key: string; back_blob_key: string | null }>(
        'SELECT front_blob_key, back_blob_key FROM feedback WHERE page_id = $1 ORDER BY created_at DESC, id LIMIT 1',
        [request.params.page_id],
      );
      const key = request.query.is_back === true ? row?.back_blob_key : row?.front_blob_key;
      if (key == null) throw notFound(request.query.is_back === true ? 'This page has no graded back' : 'This page has no graded scan');
      return sendBlob(request, reply, app.blobStore, key, { contentType: 'image/jpeg', cacheControl: IMAGE_CACHE_CONTROL, conditional: true });
    });

    app.get<Route<'getFileQuizFeedbackAvailable'>>('/api/file/:file_id/quiz_feedback_available', async (request): Promise<ReplyOf<'getFileQuizFeedbackAvailable'>> => {
      const scope = await fileScope(db, request, request.params.file_id);
      const row = await db.one<{ available: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM feedback fb JOIN pages p ON p.id = fb.page_id JOIN answer_sheets a ON a.id = p.answer_sheet_id
                        WHERE p.file_id = $1 AND ($2::uuid IS NULL OR a.assigned_group = $2::uuid)) AS available`,
        [request.params.file_id, scope],
      );
      return { available: row.available };
    });

    // Return ---------------------------------------------------------------------------------

    app.post<Route<'regenerateReturnFile'>>('/api/file/:file_id/regenerate', async (request, reply): Promise<ReplyOf<'regenerateReturnFile', 202>> => {
      requireAdmin(request);
      const fileId = request.params.file_id;
      await requestReturnFile(db, fileId);
      await queue(request, JOB.generateReturnFile, { file_id: fileId }, fileId);
      return reply.code(202).send({ group_name: JOB.generateReturnFile, run_id: fileId });
    });

    app.get<Route<'downloadGradedFile'>>('/api/file/:file_id/graded_pdf', async (request, reply) => {
      requireAdmin(request);
      const fileId = request.params.file_id;
      const oneSided = request.query.sides === 'one';
      const file = await db.maybeOne<{ name: string; return_prepped: boolean; blob_key: string | null }>(
        `SELECT name, return_prepped, ${oneSided ? 'return_one_sided_blob_key' : 'return_blob_key'} AS blob_key FROM files WHERE id = $1`,
        [fileId],
      );
      if (file === null) throw notFound(FILE_NOT_FOUND);
      if (!file.return_prepped) throw conflictError('The return file is not ready yet.');
      // Return files made before the one-sided variant existed have none until regenerated.
      if (file.blob_key === null) throw conflictError(oneSided ? 'Regenerate the return file to get its one-sided variant.' : 'The return file is not ready yet.');
      // Marked downloaded (Archive allowed) only when the portal asks: a cross-site link just downloads.
      if (isSameOriginGet(request, app.config.publicUrl)) {
        await db.query(`UPDATE files SET file_status = 'downloaded' WHERE id = $1 AND file_status IS DISTINCT FROM 'archived'`, [fileId]);
      }
      return sendBlob(request, reply, app.blobStore, file.blob_key, {
        contentType: 'application/pdf',
        downloadName: pdfName(`${file.name} - graded${oneSided ? ' - one-sided' : ''}`, fileId),
        cacheControl: 'private, no-cache',
      });
    });

    app.post<Route<'archiveFile'>>('/api/file/:file_id/archive', async (request): Promise<ReplyOf<'archiveFile'>> => {
      requireAdmin(request);
      const fileId = request.params.file_id;
      await db.transaction(async (tx) => {
        const file = await tx.maybeOne<{ file_status: string | null }>('SELECT file_status FROM files WHERE id = $1 FOR UPDATE', [fileId]);
        if (file === null) throw notFound(FILE_NOT_FOUND);
        if (file.file_status === 'archived') throw conflictError('This file is archived already.');
        if (file.file_status !== 'downloaded') throw conflictError('Download the return file before archiving the file.');
        await tx.query(`UPDATE files SET file_status = 'archived' WHERE id = $1`, [fileId]);
        await tx.query(`UPDATE file_congregations SET status = 'returned' WHERE file_id = $1`, [fileId]);
      });
      return loadFile(db, fileId, null);
    });
  };
}

export const workflowRoutes = createWorkflowRoutes();
