// A file's workflow after review (spec §4): sending it to its congregations' study helpers, its
// congregations and their packets, whether graded feedback came back, and the return file until
// the file is archived. Each call refuses (409) a step taken out of turn: send twice, download
// or regenerate before grading completes, archive before the return file was downloaded.
import type { FastifyInstance } from 'fastify';
import { isSameOriginGet, requireAdmin } from '../../auth/session';
import type { ReplyOf, Route } from '../../contract/types';
import { conflictError, FILE_NOT_FOUND, notFound } from '../../http-error';
import { JOB } from '../../workflow/job-progress';
import { keptSheetSql } from '../../repositories/sql/file-steps';
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
    const rows = await db.query<{ id: string; wbs_code: string; display_name: string; status: ReplyOf<'listFileCongregations'>[number]['status']; sheets: number; packet_id: string | null }>(
      `SELECT g.id, g.wbs_code, g.display_name, COALESCE(fc.status, 'unprinted') AS status, count(a.id)::int AS sheets,
              d.id AS packet_id
       FROM answer_sheets a JOIN congregations g ON g.id = a.assigned_group
       LEFT JOIN file_congregations fc ON fc.file_id = a.file_id AND fc.congregation_id = g.id
       LEFT JOIN packets d ON d.file_id = a.file_id AND d.congregation_id = g.id
       WHERE a.file_id = $1 AND ${keptSheetSql('a')} AND ($2::uuid IS NULL OR g.id = $2::uuid)
       GROUP BY g.id, g.wbs_code, g.display_name, fc.status, d.id
       ORDER BY g.wbs_code`,
      [request.params.file_id, scope],
    );
    return rows;
  });

  // Graded scans coming back ---------------------------------------------------------------

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
    await queueJob(request, JOB.generateReturnFile, { file_id: fileId }, fileId);
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
}
