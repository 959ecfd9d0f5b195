// A file's workflow after review (spec §4): sending it to its congregations' study helpers, its
// congregations and their packets, whether graded feedback came back, and the return file until
// the file is archived. Each call refuses (409) a step taken out of turn: send twice, download
// or regenerate before grading completes, archive before the return file was downloaded.
import type { FastifyInstance } from 'fastify';
import { isSameOriginGet, requireAdmin } from '../../auth/session';
import type { ReplyOf, Route } from '../../contract/types';
import { conflictError, FILE_NOT_FOUND, notFound } from '../../http-error';
import { congregationsOfFileWithSheets } from '../../repositories/answer-sheets';
import { fileHasFeedbackInScope } from '../../repositories/feedback';
import { lockFileStatus, markFileArchived, markReturnFileDownloaded, returnFileOfFile } from '../../repositories/files';
import { JOB } from '../../workflow/job-progress';
import { requestReturnFile } from '../../workflow/return-file';
import { requestSend } from '../../workflow/send-packets';
import { pdfName, sendBlob } from '../shared/blob-response';
import { fileScope, loadFile } from '../shared/file-view';
import { queueJob } from '../shared/queue-job';

/** Registers the workflow calls on the files module's instance (see ./index.ts). */
export function fileWorkflowRoutes(app: FastifyInstance): void {
  const db = app.db;

  // Send ---------------------------------------------------------------------------------

  app.post<Route<'sendFile'>>('/api/file/:file_id/send', async (request, reply): Promise<ReplyOf<'sendFile', 202>> => {
    requireAdmin(request);
    const fileId = request.params.file_id;
    await requestSend(db, fileId);
    await queueJob(request, JOB.sendToStudyHelpers, { file_id: fileId }, fileId);
    return reply.code(202).send({ group_name: JOB.sendToStudyHelpers, run_id: fileId });
  });

  app.get<Route<'listFileCongregations'>>('/api/file/:file_id/congregations', async (request): Promise<ReplyOf<'listFileCongregations'>> => {
    const scope = await fileScope(db, request, request.params.file_id);
    return congregationsOfFileWithSheets(db, request.params.file_id, scope);
  });

  // Graded scans coming back ---------------------------------------------------------------

  app.get<Route<'getFileQuizFeedbackAvailable'>>('/api/file/:file_id/quiz_feedback_available', async (request): Promise<ReplyOf<'getFileQuizFeedbackAvailable'>> => {
    const scope = await fileScope(db, request, request.params.file_id);
    return { available: await fileHasFeedbackInScope(db, request.params.file_id, scope) };
  });

  // Return ---------------------------------------------------------------------------------

  app.post<Route<'regenerateReturnFile'>>('/api/file/:file_id/regenerate', async (request, reply): Promise<ReplyOf<'regenerateReturnFile', 202>> => {
    requireAdmin(request);
    const fileId = request.params.file_id;
    await requestReturnFile(db, fileId);
    await queueJob(request, JOB.generateReturnFile, { file_id: fileId }, fileId);
    return reply.code(202).send({ group_name: JOB.generateReturnFile, run_id: fileId });
  });

  app.get<Route<'downloadGradedFile'>>('/api/file/:file_id/graded_pdf', async (request, reply) => {
    requireAdmin(request);
    const fileId = request.params.file_id;
    const oneSided = request.query.sides === 'one';
    const file = await returnFileOfFile(db, fileId, oneSided);
    if (file === null) throw notFound(FILE_NOT_FOUND);
    if (!file.return_prepped) throw conflictError('The return file is not ready yet.');
    // Return files made before the one-sided variant existed have none until regenerated.
    if (file.blob_key === null) throw conflictError(oneSided ? 'Regenerate the return file to get its one-sided variant.' : 'The return file is not ready yet.');
    // Marked downloaded (Archive allowed) only when the portal asks: a cross-site link just downloads.
    if (isSameOriginGet(request, app.config.publicUrl)) {
      await markReturnFileDownloaded(db, fileId);
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
      const file = await lockFileStatus(tx, fileId);
      if (file === null) throw notFound(FILE_NOT_FOUND);
      if (file.file_status === 'archived') throw conflictError('This file is archived already.');
      if (file.file_status !== 'downloaded') throw conflictError('Download the return file before archiving the file.');
      await markFileArchived(tx, fileId);
    });
    return loadFile(db, fileId, null);
  });
}
